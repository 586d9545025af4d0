//! The `journal` answer (docs/protocol.md, section 6.5): [`JournalAnswer`], its
//! [`JournalEntry`]s and their [`JournalTarget`] lines, written and parsed back.

use std::fmt;

use super::malformed::malformed;
use crate::lexer::{quote, tokenize};
use crate::{NodeRef, ParseError, Point, Selector};

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

    /// The command line with each ref target replaced by the selector the app resolved it to, as
    /// `record` writes it and a trace shows it. Points
    /// stay (a point names a place, which a fresh app of the same size has too); the journal has a
    /// `target` line for them as well, in the same order, so lines and targets stay paired. A target
    /// that resolved to nothing has no line: a drag's are paired by their `from` and `to`.
    pub fn with_selectors(&self) -> String {
        let Ok(tokens) = tokenize(&self.line) else {
            return self.line.clone();
        };
        let mut targets = self.targets.iter();
        let labelled = self.targets.iter().any(|t| t.end.is_some());
        let mut nth_target = 0;
        tokens
            .iter()
            .map(|t| {
                let bare = t.quoted.is_none();
                let is_ref = bare && NodeRef::parse(&t.bare).is_some();
                let is_point = bare && Point::parse(&t.bare).is_some();
                let selector = match (is_ref || is_point, labelled) {
                    (false, _) => None,
                    (true, false) => targets.next().map(|t| &t.selector),
                    (true, true) => {
                        let end = [DragEnd::From, DragEnd::To].get(nth_target).copied();
                        nth_target += 1;
                        self.targets
                            .iter()
                            .find(|t| t.end == end)
                            .map(|t| &t.selector)
                    }
                };
                match (is_ref, selector) {
                    (true, Some(selector)) => selector.to_string(),
                    _ => t.written(),
                }
            })
            .collect::<Vec<_>>()
            .join(" ")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorCode;

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
    fn a_drag_whose_start_resolved_to_nothing_keeps_its_end_paired() {
        // A drag from a point over no node to a ref: the journal has a `target to` line only.
        let entries = JournalAnswer::parse(
            "next 1\nentry 1 seq=3 ok frame=9 \"drag 900,10 to @e5\"\ntarget to role=list name=\"Files\"\n",
        )
        .unwrap()
        .entries;
        assert_eq!(
            entries[0].with_selectors(),
            "drag 900,10 to role=list name=\"Files\""
        );
        let entries = JournalAnswer::parse(
            "next 1\nentry 1 seq=3 ok \"drag @e7 to 120,48\"\ntarget from role=slider name=\"Volume\"\ntarget to role=list name=\"Files\"\n",
        )
        .unwrap()
        .entries;
        assert_eq!(
            entries[0].with_selectors(),
            "drag role=slider name=\"Volume\" to 120,48"
        );
        let entries = JournalAnswer::parse(
            "next 1\nentry 1 seq=3 ok \"click @e5 --settle\"\ntarget role=button name=\"OK\" nth=1\n",
        )
        .unwrap()
        .entries;
        assert_eq!(
            entries[0].with_selectors(),
            "click role=button name=\"OK\" nth=1 --settle"
        );
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
}
