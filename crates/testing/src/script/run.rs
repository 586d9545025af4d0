//! A parsed script replayed against a running app: each command sent, each expectation waited
//! for, the first failure reported with its line.

mod expect_audit;

use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::compare::{Rgba, check_reference_with, update_requested};
use winit_automation_client::{Client, ClientError, screenshot_path};
use winit_automation_protocol::{
    Coded, Command, FindAnswer, Label, NodeLine, NodeValue, Selector, Verb, quote,
};

use super::parse::*;

/// The longest `wait` an expectation sends at once (see [`wait`]).
pub(super) const WAIT_SLICE: Duration = Duration::from_secs(1);

/// How often a field check is looked at again while it waits.
pub(super) const RECHECK: Duration = Duration::from_millis(10);

/// How to run a script.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The folder relative screenshot references are read from (the script's folder).
    pub base: PathBuf,
    /// Write screenshot references instead of comparing (`UPDATE_SNAPSHOTS`, `run --update`).
    pub update: bool,
    /// When the run must have ended (`test --script-timeout`): a step that would start later
    /// fails the run, and an `expect` or a command waits no later than it.
    pub deadline: Option<Instant>,
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
            self.step.line,
            self.step.shown(),
            self.reason
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
            let left = options
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now()));
            let outcome = match &step.kind {
                _ if left.is_some_and(|l| l.is_zero()) => Err(Stop {
                    reason: OUT_OF_TIME.to_owned(),
                    no_answer: false,
                }),
                StepKind::Command(line) => {
                    summary.commands += 1;
                    run_command(client, line, left)
                }
                StepKind::Expect(expect) => {
                    summary.expectations += 1;
                    let (expect, cut) = within(expect, left);
                    check(client, &expect, options, n).map_err(|stop| stop.cut_short(cut))
                }
            };
            match outcome {
                Ok(said) => on_step(step, &said),
                Err(Stop { reason, no_answer }) => {
                    let snapshot = if no_answer {
                        None
                    } else {
                        client
                            .send(&crate::failure::interactive_snapshot())
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

/// Why a step did not start: the run's deadline passed.
const OUT_OF_TIME: &str = "timed out: the script's time was up before this line (--script-timeout)";

/// `expect` with its wait cut to `left` when that is shorter; whether it was cut.
fn within(expect: &Expect, left: Option<Duration>) -> (Expect, bool) {
    let mut expect = expect.clone();
    let mut cut = false;
    if let (Expect::Node { timeout, .. } | Expect::Gone { timeout, .. }, Some(left)) =
        (&mut expect, left)
        && left < *timeout
    {
        *timeout = left;
        cut = true;
    }
    (expect, cut)
}

pub(crate) struct Stop {
    pub(crate) reason: String,
    pub(super) no_answer: bool,
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

pub(super) fn refused(text: String) -> Stop {
    Stop {
        reason: text,
        no_answer: false,
    }
}

impl Stop {
    /// A failure of a step whose wait the run's deadline cut (`cut`) says so.
    fn cut_short(mut self, cut: bool) -> Stop {
        if cut {
            self.reason
                .push_str(" (its wait was cut short: the script's time was up, --script-timeout)");
        }
        self
    }
}

/// Sends a script's command line and waits for its answer, no longer than `left` when given.
pub(super) fn run_command(
    client: &Client,
    line: &str,
    left: Option<Duration>,
) -> Result<String, Stop> {
    let filled = crate::secret::from_env(line).map_err(|e| refused(e.to_string()))?;
    // A command the app holds (`wait --timeout`, `audit --keyboard`, a long press) is waited
    // for that long and 2 s more, as the CLI, the harness and the MCP server do.
    let command = filled.or_else(|| Command::parse(line).ok());
    let r = match command {
        Some(command) => {
            let timeout = command.held_in_app_ms().map_or(client.timeout(), |ms| {
                client
                    .timeout()
                    .max(Duration::from_millis(ms.saturating_add(2_000)))
            });
            client.send_within(&command, left.map_or(timeout, |l| timeout.min(l)))?
        }
        None => client.send_line(line)?,
    };
    if r.is_ok() {
        Ok(r.body().to_owned())
    } else {
        Err(refused(format!("refused: {}", r.to_text().trim_end())))
    }
}

pub(crate) fn check(
    client: &Client,
    expect: &Expect,
    options: &RunOptions,
    n: usize,
) -> Result<String, Stop> {
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
                if let Some(refusal) = r.error_text() {
                    return Err(refused(format!(
                        "`find {selector}` was refused:\n{refusal}"
                    )));
                }
                let found = FindAnswer::parse(r.body())
                    .map_err(|e| {
                        refused(format!("the answer to `find` does not read: {}", e.message))
                    })?
                    .matches;
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
                refs: false,
            };
            let body = run_command(client, &screenshot.to_line(), None)?;
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
        Expect::Audit {
            scope,
            keyboard,
            allow,
        } => expect_audit::check(client, scope, *keyboard, allow, n),
    }
}

/// Waits (the app's `wait`) until a node matches `selector`, or with `gone` none does, for up to
/// `timeout`; `None` once it holds, else the last answer. It waits in slices of at most
/// [`WAIT_SLICE`], each a command of its own: the client stops waiting for an answer at its own
/// timeout (the CLI's `--timeout`), which may be shorter than the expectation's.
pub(super) fn wait(
    client: &Client,
    selector: &Selector,
    gone: bool,
    timeout: Duration,
) -> Result<Option<winit_automation_protocol::Response>, Stop> {
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
            .is_some_and(|f| f.code == winit_automation_protocol::ErrorCode::Timeout);
        if r.is_ok() {
            return Ok(None);
        }
        if !timed_out || Instant::now() >= deadline {
            return Ok(Some(r));
        }
    }
}

pub(super) fn fits(node: &NodeLine, value: &Option<String>, states: &[String]) -> bool {
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
    fn field_checks_compare_value_and_states() {
        let n = NodeLine::parse("@e3 checkbox \"Subscribe\" checked focused").unwrap();
        assert!(fits(&n, &None, &["checked".into()]));
        assert!(!fits(&n, &None, &["unchecked".into()]));
        assert!(fits(&n, &Some(String::new()), &[]));
        assert!(!fits(&n, &Some("x".into()), &[]));
    }
}
