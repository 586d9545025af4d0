//! Scripts: a file of protocol lines and `expect` lines, replayed against a running app (the
//! CLI's `run`; `record` writes them). The format is documented in docs/scripts.md.
//!
//! ```text
//! # fill and submit the form
//! fill role=textbox name="Name" "Ada"
//! click role=button name="Submit"
//! expect role=text text~="Submitted: Ada"
//! expect role=textbox name="Name" value="Ada"
//! expect gone role=dialog name="Confirm"
//! expect screenshot form.png --threshold 0.6 --max-failed 0
//! ```
//!
//! A script is checked whole before anything is sent: a line that does not parse is an error
//! with its line number, and nothing reaches the app.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::compare::{Rgba, Tolerance, check_reference_with, update_requested};
use crate::client::{Client, ClientError, screenshot_path};
use crate::protocol::{
    ClientCode, Code, Coded, Command, ErrorCode, Label, NodeLine, NodeValue, Selector, Target,
    Token, Verb, quote, tokenize,
};

/// How long an `expect` waits for what it expects, unless it says `--timeout MS`.
pub const DEFAULT_EXPECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest `wait` an expectation sends at once (see [`wait`]).
const WAIT_SLICE: Duration = Duration::from_secs(1);

/// How often a field check is looked at again while it waits.
const RECHECK: Duration = Duration::from_millis(10);

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
];

/// The selector keys; anything else with `=` in an `expect` is a field check (`value=`).
const SELECTOR_KEYS: &[&str] = &["role", "name", "name~", "text", "text~", "id", "nth"];

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
    fn parse(line: usize, e: &crate::protocol::ParseError) -> ScriptError {
        ScriptError {
            code: Code::Protocol(e.code),
            line,
            message: e.message().to_owned(),
            hint: e.hint().to_owned(),
        }
    }
}

const EXPECT_HINT: &str = "expect SELECTOR [value=TEXT] [checked|focused|...] [--timeout MS] | expect gone SELECTOR [--timeout MS] | expect screenshot FILE [--threshold T] [--max-failed N] [--ref TARGET]";

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

fn bad(line: usize, message: impl Into<String>) -> ScriptError {
    ScriptError {
        code: Code::Protocol(ErrorCode::BadArgument),
        line,
        message: message.into(),
        hint: EXPECT_HINT.to_owned(),
    }
}

fn parse_expect(text: &str, line: usize) -> Result<Expect, ScriptError> {
    let tokens = tokenize(text).map_err(|e| bad(line, e.message()))?;
    let rest = &tokens[1..];
    let mut timeout = DEFAULT_EXPECT_TIMEOUT;
    match rest.first().map(|t| (t.bare.as_str(), t.quoted.is_some())) {
        None => Err(bad(line, "`expect` needs what it expects")),
        Some(("screenshot", false)) => parse_screenshot(&rest[1..], line),
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

fn parse_screenshot(rest: &[Token], line: usize) -> Result<Expect, ScriptError> {
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

fn millis(token: Option<&Token>, line: usize) -> Result<Duration, ScriptError> {
    token
        .and_then(|t| t.text().parse::<u64>().ok())
        .map(Duration::from_millis)
        .ok_or_else(|| bad(line, "--timeout takes milliseconds"))
}

fn selector(terms: &[String], line: usize) -> Result<Selector, ScriptError> {
    if terms.is_empty() {
        return Err(bad(
            line,
            "`expect` needs selector terms (role=, name=, text=, ...)",
        ));
    }
    Selector::parse(&terms.join(" ")).map_err(|e| ScriptError::parse(line, &e))
}

/// How to run a script.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The folder relative screenshot references are read from (the script's folder).
    pub base: PathBuf,
    /// Write screenshot references instead of comparing (`UPDATE_SNAPSHOTS`, `run --update`).
    pub update: bool,
}

/// Why a run stopped.
#[derive(Debug)]
pub struct RunFailure {
    /// The step that failed.
    pub step: Step,
    /// What went wrong.
    pub reason: String,
    /// The app's interactive snapshot after the failure, when it could be taken.
    pub snapshot: Option<String>,
    /// No answer came from the app (it exited, or the directory holds no live app): the CLI's
    /// exit code 3 rather than 1.
    pub no_answer: bool,
}

impl fmt::Display for RunFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}: {}\n  {}",
            self.step.line, self.step.text, self.reason
        )?;
        if let Some(s) = &self.snapshot {
            write!(f, "\nthe interactive snapshot now:\n{s}")?;
        }
        Ok(())
    }
}

/// What a passing run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunSummary {
    /// Protocol lines sent.
    pub commands: usize,
    /// Expectations met.
    pub expectations: usize,
}

impl Script {
    /// Replays the script against the app `client` is connected to, stopping at the first
    /// failure. `on_step` hears each step that passed, with the answer's body or a summary.
    pub fn run(
        &self,
        client: &Client,
        options: &RunOptions,
        mut on_step: impl FnMut(&Step, &str),
    ) -> Result<RunSummary, Box<RunFailure>> {
        let mut summary = RunSummary::default();
        for (n, step) in self.steps.iter().enumerate() {
            let outcome = match &step.kind {
                StepKind::Command(line) => {
                    summary.commands += 1;
                    run_command(client, line)
                }
                StepKind::Expect(expect) => {
                    summary.expectations += 1;
                    check(client, expect, options, n)
                }
            };
            match outcome {
                Ok(said) => on_step(step, &said),
                Err(Stop { reason, no_answer }) => {
                    let snapshot = if no_answer {
                        None
                    } else {
                        client
                            .send(&super::app::interactive_snapshot())
                            .ok()
                            .filter(|r| r.is_ok())
                            .map(|r| r.body().to_owned())
                    };
                    return Err(Box::new(RunFailure {
                        step: step.clone(),
                        reason,
                        snapshot,
                        no_answer,
                    }));
                }
            }
        }
        Ok(summary)
    }
}

struct Stop {
    reason: String,
    no_answer: bool,
}

impl From<ClientError> for Stop {
    fn from(e: ClientError) -> Stop {
        let hint = e.hint().map(|h| format!(" ({h})")).unwrap_or_default();
        Stop {
            reason: format!("no answer: {e}{hint}"),
            no_answer: true,
        }
    }
}

fn refused(text: String) -> Stop {
    Stop {
        reason: text,
        no_answer: false,
    }
}

fn run_command(client: &Client, line: &str) -> Result<String, Stop> {
    let r = client.send_line(line)?;
    if r.is_ok() {
        Ok(r.body().to_owned())
    } else {
        Err(refused(format!("refused: {}", r.to_text().trim_end())))
    }
}

fn check(client: &Client, expect: &Expect, options: &RunOptions, n: usize) -> Result<String, Stop> {
    match expect {
        Expect::Gone { selector, timeout } => match wait(client, selector, true, *timeout)? {
            None => Ok(format!("gone: {selector}")),
            Some(r) => Err(refused(format!(
                "still there after {} ms: {}",
                timeout.as_millis(),
                r.body().lines().skip(1).collect::<Vec<_>>().join("; ")
            ))),
        },
        Expect::Node {
            selector,
            value,
            states,
            timeout,
        } => {
            let deadline = Instant::now() + *timeout;
            if wait(client, selector, false, *timeout)?.is_some() {
                return Err(refused(format!(
                    "no node matches {selector} after {} ms",
                    timeout.as_millis()
                )));
            }
            loop {
                let r = client.send(&Command::Find {
                    selector: selector.clone(),
                })?;
                let found = NodeLine::all(r.body());
                if let Some(hit) = found.iter().find(|n| fits(n, value, states)) {
                    return Ok(hit.to_string());
                }
                if Instant::now() >= deadline {
                    let want = value
                        .iter()
                        .map(|v| format!("value={}", quote(v)))
                        .chain(states.iter().cloned())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let lines = found
                        .iter()
                        .map(|n| format!("\n    {n}"))
                        .collect::<String>();
                    return Err(refused(format!(
                        "{} node(s) match {selector} but none has {want} after {} ms:{lines}",
                        found.len(),
                        timeout.as_millis()
                    )));
                }
                std::thread::sleep(RECHECK);
            }
        }
        Expect::Screenshot {
            reference,
            tolerance,
            crop,
        } => {
            let label = Label::new(&format!("script-{n}")).map_err(|e| refused(e.message))?;
            let screenshot = Command::Screenshot {
                label,
                crop: crop.clone(),
            };
            let body = run_command(client, &screenshot.to_line())?;
            let file = screenshot_path(client.dir(), &body).map_err(refused)?;
            let actual = Rgba::read(&file)
                .map_err(|e| refused(format!("cannot read the screenshot: {e}")))?;
            let reference = options.base.join(reference);
            check_reference_with(
                &actual,
                &reference,
                *tolerance,
                options.update || update_requested(),
            )
            .map_err(refused)?;
            let _ = std::fs::remove_file(&file);
            Ok(format!("matches {}", reference.display()))
        }
    }
}

/// Waits (the app's `wait`) until a node matches `selector`, or with `gone` none does, for up to
/// `timeout`; `None` once it holds, else the last answer. It waits in slices of at most
/// [`WAIT_SLICE`], each a command of its own: the client stops waiting for an answer at its own
/// timeout (the CLI's `--timeout`), which may be shorter than the expectation's.
fn wait(
    client: &Client,
    selector: &Selector,
    gone: bool,
    timeout: Duration,
) -> Result<Option<crate::protocol::Response>, Stop> {
    let deadline = Instant::now() + timeout;
    loop {
        let slice = deadline
            .saturating_duration_since(Instant::now())
            .min(WAIT_SLICE);
        let r = client.send(&Command::Wait {
            selector: selector.clone(),
            gone,
            timeout_ms: Some(u64::try_from(slice.as_millis()).unwrap_or(u64::MAX)),
        })?;
        let timed_out = r
            .failure()
            .is_some_and(|f| f.code == crate::protocol::ErrorCode::Timeout);
        if r.is_ok() {
            return Ok(None);
        }
        if !timed_out || Instant::now() >= deadline {
            return Ok(Some(r));
        }
    }
}

fn fits(node: &NodeLine, value: &Option<String>, states: &[String]) -> bool {
    value
        .as_ref()
        .is_none_or(|v| node.value.as_ref().map_or("", NodeValue::as_str) == v)
        && states.iter().all(|s| node.has(s))
}

/// Whether a verb changes the app (what `record` keeps): the app-side verbs, `wait` and
/// `settle`; not the read-only ones.
pub fn is_replayed(verb: Verb) -> bool {
    !matches!(
        verb,
        Verb::Status
            | Verb::Windows
            | Verb::Snapshot
            | Verb::Find
            | Verb::Get
            | Verb::Clean
            | Verb::Journal
    )
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

    #[test]
    fn field_checks_compare_value_and_states() {
        let n = NodeLine::parse("@e3 checkbox \"Subscribe\" checked focused").unwrap();
        assert!(fits(&n, &None, &["checked".into()]));
        assert!(!fits(&n, &None, &["unchecked".into()]));
        assert!(fits(&n, &Some(String::new()), &[]));
        assert!(!fits(&n, &Some("x".into()), &[]));
    }
}
