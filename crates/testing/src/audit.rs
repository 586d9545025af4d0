//! The accessibility audit as a test holds it: [`App::audit`] (or [`Node::audit`]) gives an
//! [`Audit`] of the window or a subtree (the protocol's `audit` verb, docs/protocol.md section
//! 4.10), answered as the typed [`AuditAnswer`]; [`Audit::assert_clean`] fails the test with the
//! findings no [`Allow`] covers, the rules that did not run, and the frame with the findings
//! marked among the failure's artifacts.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use super::app::App;
use super::node::Node;
use super::query::By;
use super::screenshot::Screenshot;
use winit_automation_client::{Client, ClientError};
use winit_automation_protocol::{AuditAnswer, Command, Label, Target};

mod allow;
mod verdict;

pub use allow::Allow;
pub(crate) use verdict::{Form, judge};

/// An audit of the app's window, or of one subtree, against WCAG 2.2 ([`App::audit`],
/// [`Node::audit`]): controls with no name, small targets, text contrast from the frame's pixels,
/// images with no name, and with [`Audit::keyboard`] what Tab reaches and in what order.
///
/// ```no_run
/// use winit_automation_testing::{Allow, By, Rule, Spawn};
///
/// let app = Spawn::example("demo").headless(800, 600).start();
/// app.settle();
/// // The findings, typed: each with its rule (and WCAG criterion), evidence and node.
/// let answer = app.audit().run();
/// assert!(answer.findings.iter().all(|f| f.rule != Rule::Name));
/// // Fails the test with the findings and the frame with them marked, unless allowed.
/// app.audit().keyboard().assert_clean(&[
///     Allow::rule(Rule::TargetSize),
///     Allow::rule(Rule::Contrast).on(&By::role("text").and_name_contains("hint")),
/// ]);
/// app.get_by_role("dialog").audit().assert_clean(&[]);
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Audit<'a> {
    app: &'a App,
    scope: Option<Target>,
    keyboard: bool,
}

impl App {
    /// An audit of the default window; [`Audit::within`] narrows it to a subtree,
    /// [`Audit::keyboard`] adds the keyboard's rules. Audit a settled app: the tree is read when
    /// the app plans the command, the pixels a frame later.
    pub fn audit(&self) -> Audit<'_> {
        Audit {
            app: self,
            scope: None,
            keyboard: false,
        }
    }
}

impl<'a> Node<'a> {
    /// An audit of this node's subtree (`audit @eN`).
    pub fn audit(&self) -> Audit<'a> {
        Audit {
            app: self.app,
            scope: Some(Target::Ref(self.line.r#ref)),
            keyboard: false,
        }
    }
}

impl Audit<'_> {
    /// Only the subtree of the node `by` finds (`audit SELECTOR`): exactly one must match.
    #[track_caller]
    pub fn within(mut self, by: &By) -> Self {
        match by.selector() {
            Some(selector) => self.scope = Some(Target::Selector(selector)),
            None => panic!("a query needs at least one term: By::role(..), By::name(..), ..."),
        }
        self
    }

    /// Also the keyboard's rules (`--keyboard`): the app presses Tab through the window and
    /// reports controls focus never reaches (2.1.1) and a focus order against reading order
    /// (2.4.3), then gives the focus back. Without it they are not asked for: the answer's
    /// `rules` does not name them, and they are neither found nor listed as not run.
    pub fn keyboard(mut self) -> Self {
        self.keyboard = true;
        self
    }

    /// Audits and returns the answer: what was checked, the rules that did not run, the findings.
    /// A refusal fails the test, as every harness command does; findings do not.
    #[track_caller]
    pub fn run(&self) -> AuditAnswer {
        let body = self
            .app
            .ok_command(&command(&self.scope, self.keyboard, None));
        read(&body)
    }

    /// [`Audit::run`], also drawing each finding's box and criterion on the frame (`--screenshot`):
    /// the answer and that image.
    #[track_caller]
    pub fn marked(&self) -> (AuditAnswer, Screenshot) {
        let label = self.app.next_label("audit");
        let body = self
            .app
            .ok_command(&command(&self.scope, self.keyboard, Some(label.clone())));
        let answer = read(&body);
        let path = self.app.dir().join(label.file_name());
        match Screenshot::read(path, self.app.trace.is_some()) {
            Ok(marked) => (answer, marked),
            Err(e) => panic!("the audit's marked frame: {e}\n{body}"),
        }
    }

    /// Audits and fails the test unless every finding is allowed and every rule asked for ran (a
    /// rule that did not run is never clean: allow it with [`Allow::rule`] where that is
    /// expected, such as contrast in an app that answers screenshots itself). The failure lists
    /// the rules that ran, and the findings and rules not run as the app wrote them, with the interactive snapshot, and leaves
    /// the frame with the findings marked as `audit.png` among the failure's artifacts
    /// (`target/winit-automation/<test name>/`). Returns the whole answer, allowed findings
    /// included.
    #[track_caller]
    pub fn assert_clean(&self, allow: &[Allow]) -> AuditAnswer {
        let label = self.app.next_label("audit");
        let sent = match send(self.app.client(), &self.scope, self.keyboard, Some(label)) {
            Ok(sent) => sent,
            Err(Failed::NoAnswer(line, e)) => self.app.fail(&line, &e),
            Err(Failed::Refused(why)) => panic!("{why}{}", self.app.context()),
        };
        let find = |selector: &winit_automation_protocol::Selector| {
            let nodes = self.app.query_all(&By::from(selector.clone()));
            Ok::<_, std::convert::Infallible>(nodes.iter().map(Node::r#ref).collect())
        };
        let verdict = match judge(&sent.answer, allow, find) {
            Ok(verdict) => verdict,
            Err(never) => match never {},
        };
        if verdict.passed() {
            if let Ok(marked) = &sent.marked {
                let _ = std::fs::remove_file(marked);
            }
            return sent.answer;
        }
        let report = verdict.report(&sent.answer, Form::Rust);
        let context = self.app.context();
        panic!("{report}\n{}\n{context}", keep_marked(&sent.marked));
    }
}

/// Copies the marked frame into the failure's artifacts as `audit.png` (after `App::context`
/// wrote them) and says where it is, or why there is none.
fn keep_marked(marked: &Result<PathBuf, String>) -> String {
    let from = match marked {
        Ok(from) => from,
        Err(why) => return format!("the findings marked: none ({why})"),
    };
    let Some(folder) = super::artifacts::folder() else {
        return format!("the findings marked: {}", from.display());
    };
    let to = folder.join("audit.png");
    let copied = std::fs::create_dir_all(&folder).and_then(|()| std::fs::copy(from, &to));
    match copied {
        Ok(_) => format!("the findings marked: {}", to.display()),
        Err(e) => format!("the findings marked: {} (not copied: {e})", from.display()),
    }
}

/// The `audit` command.
fn command(scope: &Option<Target>, keyboard: bool, screenshot: Option<Label>) -> Command {
    Command::Audit {
        scope: scope.clone(),
        keyboard,
        screenshot,
    }
}

/// The answer's body, read; a body that does not read fails the test.
#[track_caller]
fn read(body: &str) -> AuditAnswer {
    match AuditAnswer::parse(body) {
        Ok(answer) => answer,
        Err(e) => panic!("the answer to `audit` does not read: {}\n{body}", e.message),
    }
}

/// An audit the app answered, and its frame with the findings marked, or why there is none.
pub(crate) struct Sent {
    pub answer: AuditAnswer,
    pub marked: Result<PathBuf, String>,
}

/// Why an audit has no answer to judge.
pub(crate) enum Failed {
    /// None came: the line sent, and why.
    NoAnswer(String, ClientError),
    /// The app refused it, or its answer does not read.
    Refused(String),
}

/// Sends `audit`, with `--screenshot LABEL` when a label is given; an app that refuses the
/// marked frame (it holds no pixels to draw on) is asked again without it, and the refusal is
/// kept as why there is no marked frame.
pub(crate) fn send(
    client: &Client,
    scope: &Option<Target>,
    keyboard: bool,
    label: Option<Label>,
) -> Result<Sent, Failed> {
    let ask = |label: Option<Label>| {
        let command = command(scope, keyboard, label);
        // `--keyboard` is held in the app while it walks Tab: waited for that long, and 2 s
        // more for its answer, as `App::ok_command` waits.
        let timeout = command.held_in_app_ms().map_or(client.timeout(), |ms| {
            client
                .timeout()
                .max(Duration::from_millis(ms.saturating_add(2_000)))
        });
        client
            .send_within(&command, timeout)
            .map_err(|e| Failed::NoAnswer(command.to_line(), e))
            .map(|r| (command, r))
    };
    let (mut command, mut r) = ask(label.clone())?;
    let mut marked = match &label {
        Some(label) => Ok(client.dir().join(label.file_name())),
        None => Err("not asked for".to_owned()),
    };
    if let (Some(refusal), Some(_)) = (r.error_text(), &label) {
        marked = Err(format!(
            "`--screenshot` was refused: {}",
            refusal.trim_end()
        ));
        (command, r) = ask(None)?;
    }
    if let Some(refusal) = r.error_text() {
        return Err(Failed::Refused(format!(
            "`{command}` was refused:\n{refusal}"
        )));
    }
    let answer = AuditAnswer::parse(r.body()).map_err(|e| {
        Failed::Refused(format!(
            "the answer to `audit` does not read: {}\n{}",
            e.message,
            r.body()
        ))
    })?;
    if let Ok(path) = &marked
        && !path.exists()
    {
        marked = Err(format!("the app wrote no {}", path.display()));
    }
    Ok(Sent { answer, marked })
}

impl App {
    /// A fresh screenshot label, `<prefix>-N`.
    pub(super) fn next_label(&self, prefix: &str) -> Label {
        let n = self.screenshots.fetch_add(1, Ordering::Relaxed);
        match Label::new(&format!("{prefix}-{n}")) {
            Ok(label) => label,
            Err(e) => unreachable!("{prefix}-N is a label: {e}"),
        }
    }
}

#[cfg(test)]
mod tests;
