//! Typed lines of the app's answers, each with its writer and its parser: a node line (snapshots,
//! `find`, `get`: docs/protocol.md, section 6.2), a `journal` answer and its entries (section
//! 6.5), a `screenshot` answer (section 5).
//!
//! `Display` writes exactly the bytes the app writes, and `parse` reads them back:
//! `parse(write(x)) == x` for every value (tests/protocol_props.rs). Fields and lines this version
//! does not know (a newer app's) are skipped, so a reader keeps working against a newer app.
//!
//! The snapshot formatter (`tree/format.rs`) writes node lines itself, without a [`NodeLine`] per
//! node (a snapshot of 10,000 nodes has a budget); a test there pins that its lines parse here and
//! re-write byte for byte.
//!
//! Pure: no I/O.
//!
//! ```
//! use winit_automation::protocol::{NodeLine, NodeValue};
//!
//! let line = NodeLine::parse(r#"@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value"#).unwrap();
//! assert_eq!(line.value, Some(NodeValue::Text("Ada".into())));
//! assert!(line.focused && line.has("focused"));
//! assert_eq!(line.to_string(), r#"@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value"#);
//! ```

use std::fmt::{self, Write as _};

use super::lexer::{Token, quote, quote_into, tokenize};
use super::target::parse_number;
use super::{ErrorCode, Label, NodeRef, ParseError, Selector};

/// Writes a number in logical pixels as node and window lines carry it: whole when it is, else
/// rounded to one decimal (`120`, `60.5`, `-3`). Integer formatting only: the snapshot formatter
/// calls it four times per node.
pub(crate) fn write_logical(out: &mut String, v: f64) {
    let tenths = (v * 10.0).round() as i64;
    if tenths < 0 {
        out.push('-');
    }
    let abs = tenths.unsigned_abs();
    let _ = write!(out, "{}", abs / 10);
    if !abs.is_multiple_of(10) {
        out.push('.');
        out.push(char::from(b'0' + (abs % 10) as u8));
    }
}

fn malformed(what: &str, line: &str, hint: &str) -> ParseError {
    ParseError::new(
        ErrorCode::BadSyntax,
        format!("malformed {what}: {}", quote(line)),
        hint,
    )
}

/// A node's `value=`: text (quoted on the line) or a number (bare).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeValue {
    /// A text value, `value="Ada"` (may be empty).
    Text(String),
    /// A numeric value as the app printed it, `value=40` (Rust's shortest form of an `f64`). The
    /// parser only takes text that reads as an `f64`.
    Number(String),
}

impl NodeValue {
    /// The value as printed, unquoted: the text, or the number's digits.
    pub fn as_str(&self) -> &str {
        match self {
            NodeValue::Text(s) | NodeValue::Number(s) => s,
        }
    }

    /// The text, when it is one (a number is no text: `text=` selectors do not match it).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            NodeValue::Text(s) => Some(s),
            NodeValue::Number(_) => None,
        }
    }

    /// The number, when it is one.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            NodeValue::Number(s) => s.parse().ok(),
            NodeValue::Text(_) => None,
        }
    }
}

impl fmt::Display for NodeValue {
    /// As the line carries it: text quoted, a number bare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeValue::Text(s) => f.write_str(&quote(s)),
            NodeValue::Number(s) => f.write_str(s),
        }
    }
}

/// A node's checked state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Toggled {
    /// `checked`.
    Checked,
    /// `unchecked` (left out of the interactive projection's lines, where it is the default).
    Unchecked,
    /// `mixed`.
    Mixed,
}

impl Toggled {
    /// The state word.
    pub fn word(self) -> &'static str {
        match self {
            Toggled::Checked => "checked",
            Toggled::Unchecked => "unchecked",
            Toggled::Mixed => "mixed",
        }
    }
}

/// One node line of a snapshot, `find` or `get` answer:
/// `@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value`.
///
/// `Display` writes the fields in the line's order, each only when it is not the default:
/// `@eN role ["name"] [value=...] [focused] [disabled] [checked|unchecked|mixed] [selected]
/// [expanded|collapsed] [bounds=x,y,wxh] [actions=a,b] [hidden] [offscreen]`, without indentation
/// or newline.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeLine {
    /// The ref, `@e3`.
    pub r#ref: NodeRef,
    /// The short role, `textbox`: a bare word.
    pub role: String,
    /// The accessible name; empty when the line has none.
    pub name: String,
    /// `value=`; `None` when the line has none.
    pub value: Option<NodeValue>,
    /// `focused`.
    pub focused: bool,
    /// `disabled`.
    pub disabled: bool,
    /// `checked`, `unchecked` or `mixed`.
    pub toggled: Option<Toggled>,
    /// `selected`.
    pub selected: bool,
    /// `expanded` (`Some(true)`) or `collapsed` (`Some(false)`).
    pub expanded: Option<bool>,
    /// `bounds=x,y,wxh`: x, y, width and height in logical pixels, as the line rounds them (to
    /// 0.1).
    pub bounds: Option<[f64; 4]>,
    /// `actions=`: AccessKit action names in snake_case, in the line's order.
    pub actions: Vec<String>,
    /// `hidden` (`--raw` only).
    pub hidden: bool,
    /// `offscreen` (`--raw` only).
    pub offscreen: bool,
}

impl NodeLine {
    /// A line with this ref and role and nothing else.
    pub fn new(r#ref: NodeRef, role: impl Into<String>) -> NodeLine {
        NodeLine {
            r#ref,
            role: role.into(),
            name: String::new(),
            value: None,
            focused: false,
            disabled: false,
            toggled: None,
            selected: false,
            expanded: None,
            bounds: None,
            actions: Vec::new(),
            hidden: false,
            offscreen: false,
        }
    }

    /// Parses a node line (leading indentation allowed). `None` when it is not one (a header, a
    /// window line, a hint, a diff line) or a field it knows is malformed; fields it does not
    /// know are skipped.
    pub fn parse(line: &str) -> Option<NodeLine> {
        let tokens = tokenize(line).ok()?;
        let mut it = tokens.iter().peekable();
        let first = it.next()?;
        if first.quoted.is_some() {
            return None;
        }
        let r#ref = NodeRef::parse(&first.bare)?;
        let role = it.next().filter(|t| t.quoted.is_none())?;
        let mut node = NodeLine::new(r#ref, role.bare.as_str());
        if let Some(Token {
            bare,
            quoted: Some(name),
            ..
        }) = it.peek()
            && bare.is_empty()
        {
            node.name = name.clone();
            it.next();
        }
        for t in it {
            match (t.bare.split_once('='), &t.quoted) {
                (Some(("value", "")), Some(text)) => {
                    node.value = Some(NodeValue::Text(text.clone()));
                }
                (Some(("value", n)), None) => {
                    n.parse::<f64>().ok()?;
                    node.value = Some(NodeValue::Number(n.to_owned()));
                }
                (Some(("bounds", b)), None) => node.bounds = Some(parse_bounds(b)?),
                (Some(("actions", a)), None) => {
                    node.actions = a.split(',').map(str::to_owned).collect();
                    if node.actions.iter().any(String::is_empty) {
                        return None;
                    }
                }
                (Some(("value" | "bounds" | "actions", _)), _) => return None,
                (None, None) => match t.bare.as_str() {
                    "focused" => node.focused = true,
                    "disabled" => node.disabled = true,
                    "checked" => node.toggled = Some(Toggled::Checked),
                    "unchecked" => node.toggled = Some(Toggled::Unchecked),
                    "mixed" => node.toggled = Some(Toggled::Mixed),
                    "selected" => node.selected = true,
                    "expanded" => node.expanded = Some(true),
                    "collapsed" => node.expanded = Some(false),
                    "hidden" => node.hidden = true,
                    "offscreen" => node.offscreen = true,
                    // A newer app's state word.
                    _ => {}
                },
                // A newer app's field.
                _ => {}
            }
        }
        Some(node)
    }

    /// The node lines of a text (a snapshot, a `find` answer), in order; other lines are
    /// skipped.
    pub fn all(text: &str) -> Vec<NodeLine> {
        text.lines().filter_map(NodeLine::parse).collect()
    }

    /// The state words the line carries, in the line's order (`focused`, `checked`, ...).
    pub fn states(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        let flag = |on: bool, word: &'static str| on.then_some(word);
        out.extend(flag(self.focused, "focused"));
        out.extend(flag(self.disabled, "disabled"));
        out.extend(self.toggled.map(Toggled::word));
        out.extend(flag(self.selected, "selected"));
        out.extend(
            self.expanded
                .map(|e| if e { "expanded" } else { "collapsed" }),
        );
        out.extend(flag(self.hidden, "hidden"));
        out.extend(flag(self.offscreen, "offscreen"));
        out
    }

    /// Whether the line carries this state word (`checked`, `focused`, ...).
    pub fn has(&self, state: &str) -> bool {
        self.states().contains(&state)
    }

    /// The ref, role and name, for messages: `@e3 textbox "Name"`.
    pub fn describe(&self) -> String {
        let mut out = format!("{} {}", self.r#ref, self.role);
        if !self.name.is_empty() {
            out.push(' ');
            quote_into(&mut out, &self.name);
        }
        out
    }
}

impl fmt::Display for NodeLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = self.describe();
        if let Some(v) = &self.value {
            let _ = write!(out, " value={v}");
        }
        for word in [
            self.focused.then_some("focused"),
            self.disabled.then_some("disabled"),
            self.toggled.map(Toggled::word),
            self.selected.then_some("selected"),
            self.expanded
                .map(|e| if e { "expanded" } else { "collapsed" }),
        ]
        .into_iter()
        .flatten()
        {
            out.push(' ');
            out.push_str(word);
        }
        if let Some([x, y, w, h]) = self.bounds {
            out.push_str(" bounds=");
            write_logical(&mut out, x);
            out.push(',');
            write_logical(&mut out, y);
            out.push(',');
            write_logical(&mut out, w);
            out.push('x');
            write_logical(&mut out, h);
        }
        if !self.actions.is_empty() {
            out.push_str(" actions=");
            out.push_str(&self.actions.join(","));
        }
        if self.hidden {
            out.push_str(" hidden");
        }
        if self.offscreen {
            out.push_str(" offscreen");
        }
        f.write_str(&out)
    }
}

/// `x,y,wxh` to `[x, y, w, h]`.
fn parse_bounds(v: &str) -> Option<[f64; 4]> {
    let (x, rest) = v.split_once(',')?;
    let (y, size) = rest.split_once(',')?;
    let (w, h) = size.split_once('x')?;
    Some([
        parse_number(x)?,
        parse_number(y)?,
        parse_number(w)?,
        parse_number(h)?,
    ])
}

/// Which of a drag's two targets a journal `target` line names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DragEnd {
    /// `target from ...`: where the drag starts.
    From,
    /// `target to ...`: where it ends.
    To,
}

impl DragEnd {
    /// `from` or `to`.
    pub fn word(self) -> &'static str {
        match self {
            DragEnd::From => "from",
            DragEnd::To => "to",
        }
    }
}

/// A journal `target` line: `target [from|to] <selector>`, the selector a ref or point target
/// resolved to when the command's turn came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalTarget {
    /// A drag's `from` or `to`; `None` for a command's only target (or `--scope`, `--ref`).
    pub end: Option<DragEnd>,
    /// A selector naming that node alone at that moment.
    pub selector: Selector,
}

impl JournalTarget {
    /// Parses a `target` line.
    pub fn parse(line: &str) -> Result<JournalTarget, ParseError> {
        let bad = || {
            malformed(
                "journal target line",
                line,
                "target lines are `target [from|to] <selector>`",
            )
        };
        let tokens = tokenize(line)?;
        match tokens.first() {
            Some(t) if t.quoted.is_none() && t.bare == "target" => {}
            _ => return Err(bad()),
        }
        let end = match tokens.get(1) {
            Some(t) if t.quoted.is_none() && t.bare == "from" => Some(DragEnd::From),
            Some(t) if t.quoted.is_none() && t.bare == "to" => Some(DragEnd::To),
            _ => None,
        };
        let rest = tokens.get(1 + usize::from(end.is_some())).ok_or_else(bad)?;
        Ok(JournalTarget {
            end,
            selector: Selector::parse(&line[rest.offset..])?,
        })
    }
}

impl fmt::Display for JournalTarget {
    /// The line without its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("target ")?;
        if let Some(end) = self.end {
            write!(f, "{} ", end.word())?;
        }
        self.selector.fmt(f)
    }
}

/// One entry of a `journal` answer: its `entry` line,
/// `entry <index> seq=<seq> ok|error code=<code> [frame=<F>] "<command line>"`, and its
/// `target` lines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalEntry {
    /// Its journal index: 1, 2, 3, ... over the app's run.
    pub index: u64,
    /// The seq of its command.
    pub seq: u64,
    /// `None` when the command was answered `ok`, else its error code as the app wrote it (a
    /// code from a newer app is kept as text). A bare word.
    pub code: Option<String>,
    /// The frame an app-side command was carried out in.
    pub frame: Option<u64>,
    /// The command line in canonical form, unquoted.
    pub line: String,
    /// The selectors its ref and point targets resolved to, in order.
    pub targets: Vec<JournalTarget>,
}

impl JournalEntry {
    /// Whether the command was answered `ok`.
    pub fn is_ok(&self) -> bool {
        self.code.is_none()
    }

    /// Parses an entry: its `entry` line, then its `target` lines (each on a line of its own).
    pub fn parse(text: &str) -> Result<JournalEntry, ParseError> {
        let mut lines = text.lines();
        let mut entry = JournalEntry::parse_line(lines.next().unwrap_or_default())?;
        for line in lines {
            entry.targets.push(JournalTarget::parse(line)?);
        }
        Ok(entry)
    }

    /// Parses the `entry` line alone.
    fn parse_line(line: &str) -> Result<JournalEntry, ParseError> {
        let bad = || {
            malformed(
                "journal entry line",
                line,
                "entry lines are `entry <index> seq=<seq> ok|error code=<code> [frame=<F>] \"<command line>\"`",
            )
        };
        let tokens = tokenize(line)?;
        let bare = |i: usize| {
            tokens
                .get(i)
                .filter(|t| t.quoted.is_none())
                .map(|t| t.bare.as_str())
        };
        let number = |v: &str| v.parse::<u64>().map_err(|_| bad());
        if bare(0) != Some("entry") {
            return Err(bad());
        }
        let index = number(bare(1).ok_or_else(bad)?)?;
        let (mut seq, mut ok, mut error, mut code, mut frame, mut command) =
            (None, false, false, None, None, None);
        for t in &tokens[2..] {
            match (t.bare.split_once('='), &t.quoted) {
                (None, Some(q)) if t.bare.is_empty() => command = Some(q.clone()),
                (None, None) if t.bare == "ok" => ok = true,
                (None, None) if t.bare == "error" => error = true,
                (Some(("seq", v)), None) => seq = Some(number(v)?),
                (Some(("code", v)), None) if !v.is_empty() => code = Some(v.to_owned()),
                (Some(("frame", v)), None) => frame = Some(number(v)?),
                (Some(("seq" | "code" | "frame", _)), _) => return Err(bad()),
                // A newer app's field.
                _ => {}
            }
        }
        let code = match (ok, error, code) {
            (true, false, None) => None,
            (false, true, Some(code)) => Some(code),
            _ => return Err(bad()),
        };
        Ok(JournalEntry {
            index,
            seq: seq.ok_or_else(bad)?,
            code,
            frame,
            line: command.ok_or_else(bad)?,
            targets: Vec::new(),
        })
    }
}

impl fmt::Display for JournalEntry {
    /// The `entry` line and its `target` lines, each ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {} seq={} ", self.index, self.seq)?;
        match &self.code {
            None => f.write_str("ok")?,
            Some(code) => write!(f, "error code={code}")?,
        }
        if let Some(frame) = self.frame {
            write!(f, " frame={frame}")?;
        }
        writeln!(f, " {}", quote(&self.line))?;
        for target in &self.targets {
            writeln!(f, "{target}")?;
        }
        Ok(())
    }
}

/// The body of a `journal` answer: `next N`, `lost K` when entries were dropped, then the
/// entries, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalAnswer {
    /// The index of the last entry in this answer (or the `--after` asked, when there is none):
    /// what a reader passes as `--after` next time.
    pub next: u64,
    /// How many entries after `--after` were already dropped from the ring; `None` when none
    /// were (the line is then left out).
    pub lost: Option<u64>,
    /// The entries.
    pub entries: Vec<JournalEntry>,
}

impl JournalAnswer {
    /// Parses the body of a `journal` answer.
    pub fn parse(body: &str) -> Result<JournalAnswer, ParseError> {
        let hint = "a journal answer is `next N`, then `lost K`, then `entry` lines, each followed by its `target` lines";
        let mut lines = body.lines();
        let first = lines.next().unwrap_or_default();
        let next = first
            .strip_prefix("next ")
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| malformed("journal answer: no `next N` first", first, hint))?;
        let mut answer = JournalAnswer {
            next,
            lost: None,
            entries: Vec::new(),
        };
        for line in lines {
            if let Some(n) = line.strip_prefix("lost ") {
                if !answer.entries.is_empty() || answer.lost.is_some() {
                    return Err(malformed("journal answer: `lost` out of place", line, hint));
                }
                let n = n
                    .parse()
                    .map_err(|_| malformed("journal lost line", line, hint))?;
                answer.lost = Some(n);
            } else if line.starts_with("entry ") {
                answer.entries.push(JournalEntry::parse_line(line)?);
            } else if line.starts_with("target ") {
                let Some(entry) = answer.entries.last_mut() else {
                    return Err(malformed(
                        "journal answer: a target before any entry",
                        line,
                        hint,
                    ));
                };
                entry.targets.push(JournalTarget::parse(line)?);
            }
            // Any other line is a newer app's: skipped.
        }
        Ok(answer)
    }
}

impl fmt::Display for JournalAnswer {
    /// The body, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "next {}", self.next)?;
        if let Some(lost) = self.lost {
            writeln!(f, "lost {lost}")?;
        }
        for entry in &self.entries {
            entry.fmt(f)?;
        }
        Ok(())
    }
}

/// The body of a `screenshot` answer:
///
/// ```text
/// frame 31
/// file screenshot-form.png
/// size 800x600
/// scale 1
/// bytes 45629
/// ```
///
/// An app that answers screenshots itself (`Builder::app_screenshots`) writes the `file` line
/// alone (after the `frame` line every app-side answer starts with).
#[derive(Debug, Clone, PartialEq)]
pub struct ScreenshotAnswer {
    /// The frame the pixels come from.
    pub frame: u64,
    /// The file, `screenshot-<label>.png` in the directory: only a name of that shape is taken.
    pub file: Label,
    /// `size WxH`: the PNG's width and height in physical pixels.
    pub size: Option<(u32, u32)>,
    /// `scale`: the window's scale factor (finite).
    pub scale: Option<f64>,
    /// `bytes`: the file's size.
    pub bytes: Option<u64>,
}

impl ScreenshotAnswer {
    /// Parses the body of a `screenshot` answer.
    pub fn parse(body: &str) -> Result<ScreenshotAnswer, ParseError> {
        let hint = "a screenshot answer is `frame N`, `file screenshot-<label>.png`, then `size WxH`, `scale S` and `bytes B`";
        let (mut frame, mut file, mut size, mut scale, mut bytes) = (None, None, None, None, None);
        for line in body.lines() {
            let Some((key, value)) = line.split_once(' ') else {
                continue;
            };
            let bad = || malformed("screenshot answer line", line, hint);
            match key {
                "frame" => frame = Some(value.parse().map_err(|_| bad())?),
                "file" => {
                    let name = match tokenize(value)?.as_slice() {
                        [t] => t.text(),
                        _ => return Err(bad()),
                    };
                    file = Some(Label::from_file_name(&name).ok_or_else(|| {
                        malformed(
                            "screenshot answer: a file that is not a screenshot",
                            &name,
                            "the app only names files screenshot-<label>.png in its directory",
                        )
                    })?);
                }
                "size" => {
                    let (w, h) = value.split_once('x').ok_or_else(bad)?;
                    size = Some((w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?));
                }
                "scale" => scale = Some(parse_number(value).ok_or_else(bad)?),
                "bytes" => bytes = Some(value.parse().map_err(|_| bad())?),
                // A newer app's line.
                _ => {}
            }
        }
        Ok(ScreenshotAnswer {
            frame: frame.ok_or_else(|| malformed("screenshot answer: no frame", body, hint))?,
            file: file.ok_or_else(|| malformed("screenshot answer: no file", body, hint))?,
            size,
            scale,
            bytes,
        })
    }
}

impl fmt::Display for ScreenshotAnswer {
    /// The body, each line ending in `\n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "frame {}", self.frame)?;
        writeln!(f, "file {}", self.file.file_name())?;
        if let Some((w, h)) = self.size {
            writeln!(f, "size {w}x{h}")?;
        }
        if let Some(scale) = self.scale {
            writeln!(f, "scale {scale}")?;
        }
        if let Some(bytes) = self.bytes {
            writeln!(f, "bytes {bytes}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_line_is_parsed_field_by_field_and_written_back() {
        let text = r#"@e3 textbox "Name \"x\"" value="Ada Lovelace" focused disabled bounds=120,60.5,300x32 actions=focus,set_value"#;
        let n = NodeLine::parse(&format!("  {text}")).unwrap();
        assert_eq!(n.r#ref, NodeRef(3));
        assert_eq!(n.role, "textbox");
        assert_eq!(n.name, "Name \"x\"");
        assert_eq!(n.value, Some(NodeValue::Text("Ada Lovelace".into())));
        assert!(n.has("focused") && n.has("disabled") && !n.has("checked"));
        assert_eq!(n.bounds, Some([120.0, 60.5, 300.0, 32.0]));
        assert_eq!(n.actions, ["focus", "set_value"]);
        assert_eq!(n.to_string(), text);
        let slider = NodeLine::parse("@e5 slider \"Volume\" value=50").unwrap();
        assert_eq!(slider.value, Some(NodeValue::Number("50".into())));
        assert_eq!(
            slider.value.as_ref().and_then(NodeValue::as_number),
            Some(50.0)
        );
        let unnamed = NodeLine::parse("@e9 list checked").unwrap();
        assert_eq!(unnamed.name, "");
        assert_eq!(unnamed.toggled, Some(Toggled::Checked));
    }

    #[test]
    fn the_golden_node_line_has_every_field_in_order() {
        let line = NodeLine {
            name: "Files".into(),
            value: Some(NodeValue::Text(String::new())),
            focused: true,
            disabled: true,
            toggled: Some(Toggled::Mixed),
            selected: true,
            expanded: Some(false),
            bounds: Some([-0.5, 20.0, 300.25, 1e3]),
            actions: vec!["click".into(), "scroll_down".into()],
            hidden: true,
            offscreen: true,
            ..NodeLine::new(NodeRef(12), "list")
        };
        assert_eq!(
            line.to_string(),
            r#"@e12 list "Files" value="" focused disabled mixed selected collapsed bounds=-0.5,20,300.3x1000 actions=click,scroll_down hidden offscreen"#
        );
        assert_eq!(
            line.states(),
            [
                "focused",
                "disabled",
                "mixed",
                "selected",
                "collapsed",
                "hidden",
                "offscreen"
            ]
        );
    }

    #[test]
    fn headers_windows_hints_and_diff_lines_are_not_node_lines() {
        for line in [
            "snapshot frame=7 protocol=1 quality=healthy",
            r#"window 1 "Demo" size=800x600 scale=1 focused"#,
            "    [37 items below]",
            "matches 2",
            "~ @e3 button \"OK\"",
            "@e0 button",
            "@e3",
            "@e3 \"button\"",
            "@e3 slider value=loud",
            "@e3 slider bounds=1,2,3",
            "@e3 slider actions=click,",
            "@e3 slider \"unclosed",
        ] {
            assert_eq!(NodeLine::parse(line), None, "{line}");
        }
    }

    #[test]
    fn a_newer_apps_fields_and_states_are_skipped() {
        let n = NodeLine::parse(r#"@e4 button "OK" pressed label="Okay" bounds=1,2,3x4"#).unwrap();
        assert_eq!(n.to_string(), r#"@e4 button "OK" bounds=1,2,3x4"#);
    }

    #[test]
    fn the_node_lines_of_a_find_answer_are_read_in_order() {
        let found = NodeLine::all("matches 2\n@e1 button \"A\"\n@e2 button \"B\"\n");
        let names: Vec<&str> = found.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
    }

    #[test]
    fn logical_numbers_are_whole_or_rounded_to_a_tenth() {
        let written = |v: f64| {
            let mut out = String::new();
            write_logical(&mut out, v);
            out
        };
        assert_eq!(written(120.0), "120");
        assert_eq!(written(60.46), "60.5");
        assert_eq!(written(-0.04), "0");
        assert_eq!(written(-3.25), "-3.3");
    }

    fn golden_journal() -> &'static str {
        "next 4\n\
         lost 2\n\
         entry 3 seq=17 ok frame=212 \"click @e5\"\n\
         target role=button name=\"OK\" nth=1\n\
         entry 4 seq=18 error code=not_found \"drag @e7 to 120,48\"\n\
         target from role=slider name=\"Volume\"\n\
         target to role=list name=\"Files\"\n"
    }

    #[test]
    fn the_golden_journal_answer_parses_and_writes_back() {
        let answer = JournalAnswer::parse(golden_journal()).unwrap();
        assert_eq!(answer.next, 4);
        assert_eq!(answer.lost, Some(2));
        let [click, drag] = &answer.entries[..] else {
            panic!("{answer:?}")
        };
        assert_eq!(
            *click,
            JournalEntry {
                index: 3,
                seq: 17,
                code: None,
                frame: Some(212),
                line: "click @e5".into(),
                targets: vec![JournalTarget {
                    end: None,
                    selector: Selector::parse("role=button name=\"OK\" nth=1").unwrap(),
                }],
            }
        );
        assert!(click.is_ok() && !drag.is_ok());
        assert_eq!(drag.code.as_deref(), Some("not_found"));
        let ends: Vec<_> = drag.targets.iter().map(|t| t.end).collect();
        assert_eq!(ends, [Some(DragEnd::From), Some(DragEnd::To)]);
        assert_eq!(answer.to_string(), golden_journal());
        let entry = golden_journal().split_once("lost 2\n").unwrap().1;
        let entry = entry.split_once("entry 4").unwrap().0;
        assert_eq!(JournalEntry::parse(entry).unwrap(), *click);
        assert_eq!(click.to_string(), entry);
    }

    #[test]
    fn broken_journal_answers_are_bad_syntax() {
        for body in [
            "",
            "entry 1 seq=1 ok \"windows\"\n",
            "next x\n",
            "next 1\ntarget role=button\n",
            "next 1\nentry 1 seq=1 \"windows\"\n",
            "next 1\nentry 1 seq=1 ok error code=x \"windows\"\n",
            "next 1\nentry 1 seq=1 error \"windows\"\n",
            "next 1\nentry 1 ok \"windows\"\n",
            "next 1\nentry 1 seq=1 ok\n",
            "next 1\nentry 1 seq=1 ok \"windows\"\nlost 3\n",
            "next 1\nentry 1 seq=1 ok \"click @e1\"\ntarget from\n",
        ] {
            let e = JournalAnswer::parse(body).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSyntax, "{body:?}: {e:?}");
            assert!(!e.message.chars().any(char::is_control), "{e:?}");
        }
    }

    #[test]
    fn a_journal_answer_with_nothing_new_is_its_next_line() {
        let answer = JournalAnswer::parse("next 10\n").unwrap();
        assert_eq!(
            (answer.next, answer.lost, answer.entries.len()),
            (10, None, 0)
        );
        assert_eq!(answer.to_string(), "next 10\n");
    }

    const GOLDEN_SCREENSHOT: &str =
        "frame 31\nfile screenshot-form.png\nsize 800x600\nscale 1.5\nbytes 45629\n";

    #[test]
    fn the_golden_screenshot_answer_parses_and_writes_back() {
        let answer = ScreenshotAnswer::parse(GOLDEN_SCREENSHOT).unwrap();
        assert_eq!(
            answer,
            ScreenshotAnswer {
                frame: 31,
                file: Label::new("form").unwrap(),
                size: Some((800, 600)),
                scale: Some(1.5),
                bytes: Some(45629),
            }
        );
        assert_eq!(answer.to_string(), GOLDEN_SCREENSHOT);
        // An app that answers screenshots itself names the file alone.
        let own = ScreenshotAnswer::parse("frame 4\nfile screenshot-x.png").unwrap();
        assert_eq!((own.size, own.scale, own.bytes), (None, None, None));
        assert_eq!(own.to_string(), "frame 4\nfile screenshot-x.png\n");
    }

    #[test]
    fn a_screenshot_answer_names_only_a_screenshot_in_the_directory() {
        for body in [
            "frame 1\nfile ../../etc/passwd\n",
            "frame 1\nfile screenshot-../x.png\n",
            "frame 1\nfile notes.txt\n",
            "frame 1\n",
            "file screenshot-x.png\n",
            "frame 1\nfile screenshot-x.png\nsize 10\n",
            "frame 1\nfile screenshot-x.png\nscale inf\n",
        ] {
            let e = ScreenshotAnswer::parse(body).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadSyntax, "{body:?}");
        }
        // The name may come quoted.
        let quoted = ScreenshotAnswer::parse("frame 1\nfile \"screenshot-x.png\"\n").unwrap();
        assert_eq!(quoted.file.as_str(), "x");
    }
}
