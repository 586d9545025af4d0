//! Node lines (snapshots, `find`, `get`: docs/protocol.md, section 6.2): [`NodeLine`], its
//! [`NodeValue`] and [`Toggled`] state, written and parsed back.

use std::fmt::{self, Write as _};

use super::logical::write_logical;
use crate::NodeRef;
use crate::lexer::{Token, quote, quote_into, tokenize};
use crate::target::parse_number;

/// A node's `value=`: text (quoted on the line) or a number (bare); or the start of a long text,
/// `value~=`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeValue {
    /// A text value, `value="Ada"` (may be empty).
    Text(String),
    /// A numeric value as the app printed it, `value=40` (the shortest form that reads back as the
    /// app's number, or at the widget's precision). The parser only takes text that reads as an
    /// `f64`.
    Number(String),
    /// The start of a static text too long for one short line, `value~="pub struct Example {"`,
    /// as the interactive projection prints it ([`text_start`]); `get` and the other projections
    /// print the whole text. A `text~=` selector with it finds the node.
    Start(String),
}

/// The most characters of a static text the interactive projection prints.
pub const TEXT_START: usize = 24;

/// What the interactive projection prints of a static text (`value~=`) that is longer than
/// [`TEXT_START`] characters or holds several lines: its first line that is not blank, cut to at
/// most that many characters (at the last space, when one lies in their second half) and without
/// trailing spaces. `None` when the whole text fits, or when every line is blank.
pub fn text_start(text: &str) -> Option<&str> {
    let line = text.split('\n').find(|l| !l.trim().is_empty())?;
    let whole = line.len() == text.len();
    let start = match line.char_indices().nth(TEXT_START) {
        None if whole => return None,
        None => line,
        Some((at, _)) => {
            let cut = &line[..at];
            match cut.rfind(' ') {
                Some(space) if cut[..space].chars().count() >= TEXT_START / 2 => &cut[..space],
                _ => cut,
            }
        }
    };
    let start = start.trim_end();
    (!start.trim_start().is_empty()).then_some(start)
}

impl NodeValue {
    /// The value as printed, unquoted: the text, or the number's digits.
    pub fn as_str(&self) -> &str {
        match self {
            NodeValue::Text(s) | NodeValue::Number(s) | NodeValue::Start(s) => s,
        }
    }

    /// The text, when it is one, whole (a number is no text: `text=` selectors do not match it;
    /// a text's start is not the text).
    pub fn as_text(&self) -> Option<&str> {
        match self {
            NodeValue::Text(s) => Some(s),
            NodeValue::Number(_) | NodeValue::Start(_) => None,
        }
    }

    /// The number, when it is one.
    pub fn as_number(&self) -> Option<f64> {
        match self {
            NodeValue::Number(s) => s.parse().ok(),
            NodeValue::Text(_) | NodeValue::Start(_) => None,
        }
    }
}

impl fmt::Display for NodeValue {
    /// As the line carries it after `value=` (or `value~=`): text quoted, a number bare.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NodeValue::Text(s) | NodeValue::Start(s) => f.write_str(&quote(s)),
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
/// `@eN role ["name"] [label="..."] [value=...] [password] [focused] [disabled] [checked|unchecked|mixed] [selected]
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
    /// `label=`: the text placed before an unnamed control in its row (docs/protocol.md section
    /// 6.2, "Labels"), never its own name; `None` when the line has none.
    pub label: Option<String>,
    /// `value=`; `None` when the line has none.
    pub value: Option<NodeValue>,
    /// `password`: a text field whose text is a secret (AccessKit's `PasswordInput`); its role
    /// stays `textbox`.
    pub password: bool,
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
            label: None,
            value: None,
            password: false,
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
                (Some(("label", "")), Some(text)) => node.label = Some(text.clone()),
                (Some(("value", "")), Some(text)) => {
                    node.value = Some(NodeValue::Text(text.clone()));
                }
                (Some(("value~", "")), Some(text)) => {
                    node.value = Some(NodeValue::Start(text.clone()));
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
                (Some(("value" | "value~" | "bounds" | "actions", _)), _) => return None,
                (None, None) => match t.bare.as_str() {
                    "password" => node.password = true,
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
        out.extend(flag(self.password, "password"));
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
        if let Some(l) = &self.label {
            out.push_str(" label=");
            quote_into(&mut out, l);
        }
        match &self.value {
            Some(v @ NodeValue::Start(_)) => {
                let _ = write!(out, " value~={v}");
            }
            Some(v) => {
                let _ = write!(out, " value={v}");
            }
            None => {}
        }
        for word in [
            self.password.then_some("password"),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_or_several_line_text_starts_with_its_first_line_cut_at_a_word() {
        assert_eq!(text_start("Demos"), None);
        assert_eq!(text_start(&"a".repeat(TEXT_START)), None);
        // A line that fits is whole, its trailing space too.
        assert_eq!(text_start("Read more about egui "), None);
        let long = "egui is an immediate mode GUI library written in Rust.";
        assert_eq!(text_start(long), Some("egui is an immediate"));
        assert_eq!(
            text_start("pub struct A {\n    b: u32,\n}"),
            Some("pub struct A {")
        );
        // No space to cut at: at the limit, between characters.
        assert_eq!(
            text_start("é".repeat(50).as_str()),
            Some("é".repeat(TEXT_START).as_str())
        );
        assert_eq!(
            text_start("\n\nafter blank lines"),
            Some("after blank lines")
        );
        assert_eq!(text_start(" \n \n"), None);
        let line = r#"@e9 text value~="pub struct A {""#;
        let n = NodeLine::parse(line).unwrap();
        assert_eq!(n.value, Some(NodeValue::Start("pub struct A {".into())));
        assert_eq!(n.value.as_ref().and_then(NodeValue::as_text), None);
        assert_eq!(n.to_string(), line);
    }

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
            label: Some("Open:".into()),
            value: Some(NodeValue::Text(String::new())),
            password: true,
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
            r#"@e12 list "Files" label="Open:" value="" password focused disabled mixed selected collapsed bounds=-0.5,20,300.3x1000 actions=click,scroll_down hidden offscreen"#
        );
        assert_eq!(
            line.states(),
            [
                "password",
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
            "    [37 items below in @e6 list \"Items\"]",
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
        let n =
            NodeLine::parse(r#"@e4 button "OK" pressed tooltip="Okay" bounds=1,2,3x4"#).unwrap();
        assert_eq!(n.to_string(), r#"@e4 button "OK" bounds=1,2,3x4"#);
    }

    #[test]
    fn the_node_lines_of_a_find_answer_are_read_in_order() {
        let found = NodeLine::all("matches 2\n@e1 button \"A\"\n@e2 button \"B\"\n");
        let names: Vec<&str> = found.iter().map(|n| n.name.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
    }
}
