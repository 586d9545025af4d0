//! A script's text as steps: protocol lines and `expect` lines, checked whole before anything
//! is sent.

mod expect_audit;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::compare::Tolerance;
use winit_automation_protocol::{
    ClientCode, Code, Coded, Command, ErrorCode, Selector, Target, Token, tokenize,
};

/// How long an `expect` waits for what it expects, unless it says `--timeout MS`.
pub const DEFAULT_EXPECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The state words an `expect` may require of a node (as node lines print them).
pub const STATES: &[&str] = &[
    "focused",
    "disabled",
    "checked",
    "unchecked",
    "mixed",
    "selected",
    "expanded",
    "collapsed",
    "password",
];

/// The selector keys; anything else with `=` in an `expect` is a field check (`value=`).
pub(super) const SELECTOR_KEYS: &[&str] = &["role", "name", "name~", "text", "text~", "id", "nth"];

/// A parsed script.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    /// Its steps, in order (comments and blank lines are not steps).
    pub steps: Vec<Step>,
}

/// One line that does something.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Its 1-based line number in the file.
    pub line: usize,
    /// The line as written (trimmed).
    pub text: String,
    /// What it does.
    pub kind: StepKind,
}

impl Step {
    /// The line as a message shows it: a secret's text masked.
    pub fn shown(&self) -> String {
        crate::secret::shown(&self.text)
    }
}

/// What a step does.
#[derive(Debug, Clone, PartialEq)]
pub enum StepKind {
    /// A protocol line, sent as written; an `error` answer fails the run.
    Command(String),
    /// An expectation, waited for.
    Expect(Expect),
}

/// What an `expect` line checks.
#[derive(Debug, Clone, PartialEq)]
pub enum Expect {
    /// `expect SELECTOR [value=V] [STATE...] [--timeout MS]`: a node matches, with these fields.
    Node {
        /// Which nodes.
        selector: Selector,
        /// `value=` must equal this.
        value: Option<String>,
        /// These state words must be on its line.
        states: Vec<String>,
        /// How long to wait for it.
        timeout: Duration,
    },
    /// `expect gone SELECTOR [--timeout MS]`: no node matches.
    Gone {
        /// Which nodes.
        selector: Selector,
        /// How long to wait for it.
        timeout: Duration,
    },
    /// `expect screenshot FILE [--threshold T] [--max-failed N] [--ref TARGET]`: the next frame
    /// (or the node's part of it) matches the reference PNG (relative to the script's folder).
    Screenshot {
        /// The reference, as written.
        reference: PathBuf,
        /// The comparison's tolerance.
        tolerance: Tolerance,
        /// `--ref`: crop to this target.
        crop: Option<Target>,
    },
    /// `expect audit clean [TARGET] [--keyboard] [--allow RULE|SELECTOR|RULE SELECTOR]...`: an
    /// audit of the window (or the subtree of TARGET) finds nothing the allows do not cover, and
    /// every rule asked for ran ([`Audit::assert_clean`](crate::Audit::assert_clean)). Checked
    /// once, not waited for.
    Audit {
        /// The subtree audited; `None`: the default window.
        scope: Option<Target>,
        /// `--keyboard`: the keyboard's rules too.
        keyboard: bool,
        /// `--allow`: what may be found, or not run.
        allow: Vec<crate::Allow>,
    },
}

/// A line of a script that does not parse.
#[derive(Debug, Clone, PartialEq)]
pub struct ScriptError {
    /// What kind of error: the protocol parser's code for a line that does not parse (the same a
    /// command file, the CLI and the MCP server get), `read_failed` for a file that cannot be read.
    pub code: Code,
    /// Its 1-based line number (0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub message: String,
    /// How to write it.
    pub hint: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScriptError {}

impl Coded for ScriptError {
    fn code(&self) -> Code {
        self.code
    }
    fn hint(&self) -> Option<String> {
        Some(self.hint.clone())
    }
}

impl ScriptError {
    /// A line's parse error, as the protocol's parser gave it.
    pub(super) fn parse(line: usize, e: &winit_automation_protocol::ParseError) -> ScriptError {
        ScriptError {
            code: Code::Protocol(e.code),
            line,
            message: e.message().to_owned(),
            hint: e.hint().to_owned(),
        }
    }
}

pub(super) const EXPECT_HINT: &str = "expect SELECTOR [value=TEXT] [checked|focused|...] [--timeout MS] | expect gone SELECTOR [--timeout MS] | expect screenshot FILE [--threshold T] [--max-failed N] [--ref TARGET] | expect audit clean [TARGET] [--keyboard] [--allow RULE|SELECTOR|RULE SELECTOR]...";

impl Script {
    /// Parses a script: `#` comments, blank lines, protocol lines and `expect` lines.
    pub fn parse(text: &str) -> Result<Script, ScriptError> {
        let mut steps = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let text = raw.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let kind = if text == "expect" || text.starts_with("expect ") {
                StepKind::Expect(parse_expect(text, line)?)
            } else {
                Command::parse(text).map_err(|e| ScriptError::parse(line, &e))?;
                StepKind::Command(text.to_owned())
            };
            steps.push(Step {
                line,
                text: text.to_owned(),
                kind,
            });
        }
        Ok(Script { steps })
    }

    /// Reads and parses a script file.
    pub fn read(path: &Path) -> Result<Script, ScriptError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScriptError {
            code: Code::Client(ClientCode::ReadFailed),
            line: 0,
            message: format!("cannot read {}: {e}", path.display()),
            hint: "give the path of a script file".to_owned(),
        })?;
        Script::parse(&text)
    }
}

pub(super) fn bad(line: usize, message: impl Into<String>) -> ScriptError {
    ScriptError {
        code: Code::Protocol(ErrorCode::BadArgument),
        line,
        message: message.into(),
        hint: EXPECT_HINT.to_owned(),
    }
}

pub(super) fn parse_expect(text: &str, line: usize) -> Result<Expect, ScriptError> {
    let tokens = tokenize(text).map_err(|e| bad(line, e.message()))?;
    let rest = &tokens[1..];
    let mut timeout = DEFAULT_EXPECT_TIMEOUT;
    match rest.first().map(|t| (t.bare.as_str(), t.quoted.is_some())) {
        None => Err(bad(line, "`expect` needs what it expects")),
        Some(("screenshot", false)) => parse_screenshot(&rest[1..], line),
        Some(("audit", false)) => expect_audit::expect_audit(&rest[1..], line),
        Some(("gone", false)) => {
            let mut terms = Vec::new();
            let mut it = rest[1..].iter();
            while let Some(t) = it.next() {
                match t.flag_name() {
                    Some("timeout") => timeout = millis(it.next(), line)?,
                    Some(other) => return Err(bad(line, format!("unknown flag --{other}"))),
                    None => terms.push(t.written()),
                }
            }
            Ok(Expect::Gone {
                selector: selector(&terms, line)?,
                timeout,
            })
        }
        Some(_) => {
            let mut terms = Vec::new();
            let mut value = None;
            let mut states = Vec::new();
            let mut it = rest.iter();
            while let Some(t) = it.next() {
                if let Some(flag) = t.flag_name() {
                    match flag {
                        "timeout" => timeout = millis(it.next(), line)?,
                        other => return Err(bad(line, format!("unknown flag --{other}"))),
                    }
                } else if let Some((key, v)) = t.bare.split_once('=') {
                    if SELECTOR_KEYS.contains(&key) {
                        terms.push(t.written());
                    } else if key == "value" {
                        value = Some(t.quoted.clone().unwrap_or_else(|| v.to_owned()));
                    } else {
                        return Err(bad(
                            line,
                            format!("{:?} is neither a selector term nor value=", t.text()),
                        ));
                    }
                } else if t.quoted.is_none() && STATES.contains(&t.bare.as_str()) {
                    states.push(t.bare.clone());
                } else {
                    return Err(bad(
                        line,
                        format!(
                            "{:?} is not a selector term, value= or a state ({})",
                            t.text(),
                            STATES.join(", ")
                        ),
                    ));
                }
            }
            Ok(Expect::Node {
                selector: selector(&terms, line)?,
                value,
                states,
                timeout,
            })
        }
    }
}

pub(super) fn parse_screenshot(rest: &[Token], line: usize) -> Result<Expect, ScriptError> {
    let mut tolerance = Tolerance::default();
    let mut reference = None;
    let mut crop = None;
    let mut it = rest.iter();
    while let Some(t) = it.next() {
        match t.flag_name() {
            Some("threshold") => {
                tolerance.threshold = it
                    .next()
                    .and_then(|v| v.text().parse::<f32>().ok())
                    .filter(|v| v.is_finite() && *v >= 0.0)
                    .ok_or_else(|| bad(line, "--threshold takes a number, such as 0.6"))?;
            }
            Some("max-failed") => {
                tolerance.max_failed = it
                    .next()
                    .and_then(|v| v.text().parse::<u64>().ok())
                    .ok_or_else(|| bad(line, "--max-failed takes a whole number"))?;
            }
            Some("ref") => {
                let target = it.next().ok_or_else(|| bad(line, "--ref takes a target"))?;
                crop =
                    Some(Target::parse(&target.text()).map_err(|e| ScriptError::parse(line, &e))?);
            }
            Some(other) => return Err(bad(line, format!("unknown flag --{other}"))),
            None if reference.is_none() => reference = Some(PathBuf::from(t.text())),
            None => return Err(bad(line, format!("unexpected {:?}", t.text()))),
        }
    }
    Ok(Expect::Screenshot {
        reference: reference.ok_or_else(|| bad(line, "`expect screenshot` needs a PNG file"))?,
        tolerance,
        crop,
    })
}

pub(super) fn millis(token: Option<&Token>, line: usize) -> Result<Duration, ScriptError> {
    token
        .and_then(|t| t.text().parse::<u64>().ok())
        .map(Duration::from_millis)
        .ok_or_else(|| bad(line, "--timeout takes milliseconds"))
}

pub(super) fn selector(terms: &[String], line: usize) -> Result<Selector, ScriptError> {
    if terms.is_empty() {
        return Err(bad(
            line,
            "`expect` needs selector terms (role=, name=, text=, ...)",
        ));
    }
    Selector::parse(&terms.join(" ")).map_err(|e| ScriptError::parse(line, &e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_parses_commands_and_expectations_with_line_numbers() {
        let script = Script::parse(
            "# a comment\n\nfill role=textbox name=\"Name\" \"Ada\"\nexpect role=textbox name=\"Name\" value=\"Ada\" focused --timeout 200\nexpect gone role=dialog\nexpect screenshot refs/form.png --threshold 0.2 --max-failed 3 --ref @e3\n",
        )
        .unwrap();
        assert_eq!(script.steps.len(), 4);
        assert_eq!(script.steps[0].line, 3);
        assert!(matches!(script.steps[0].kind, StepKind::Command(_)));
        assert_eq!(
            script.steps[1].kind,
            StepKind::Expect(Expect::Node {
                selector: Selector::parse("role=textbox name=\"Name\"").unwrap(),
                value: Some("Ada".into()),
                states: vec!["focused".into()],
                timeout: Duration::from_millis(200),
            })
        );
        assert!(matches!(
            &script.steps[2].kind,
            StepKind::Expect(Expect::Gone { timeout, .. }) if *timeout == DEFAULT_EXPECT_TIMEOUT
        ));
        match &script.steps[3].kind {
            StepKind::Expect(Expect::Screenshot {
                reference,
                tolerance,
                crop,
            }) => {
                assert_eq!(reference, Path::new("refs/form.png"));
                assert_eq!((tolerance.threshold, tolerance.max_failed), (0.2, 3));
                assert_eq!(
                    crop.as_ref().map(ToString::to_string).as_deref(),
                    Some("@e3")
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bad_lines_are_refused_with_their_line_number() {
        for (text, line, says) in [
            ("status\nclik @e3\n", 2, "unknown verb"),
            ("expect\n", 1, "needs what it expects"),
            ("expect role=button bogus\n", 1, "not a selector term"),
            (
                "expect role=button colour=red\n",
                1,
                "neither a selector term",
            ),
            ("\n\nexpect value=\"x\"\n", 3, "needs selector terms"),
            ("expect screenshot\n", 1, "needs a PNG"),
            ("expect screenshot a.png --threshold x\n", 1, "--threshold"),
            ("expect gone role=x --wat 3\n", 1, "unknown flag"),
        ] {
            let e = Script::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(
                e.message.to_lowercase().contains(&says.to_lowercase()),
                "{text:?}: {e} (wanted {says:?})"
            );
        }
    }
}
