//! `audit` (docs/protocol.md section 4.10; docs/accessibility.md): the window's tree and the
//! next frame's pixels checked against WCAG 2.2.
//!
//! A command's path, in turns: the first gathers what the tree shows and applies the rules that
//! need no pixels (`winit_automation_audit`), and captures the next frame (`CaptureTo::Audit`),
//! whose pixels come back to `pixels.rs` to measure each text's contrast while the tree still
//! holds what was gathered. With `--keyboard` it then takes turns, one Tab each (the audit
//! crate's `Walk`), reading the focus from the tree between them, and gives the focus back; the
//! answer comes last (with `--screenshot`, the frame kept from the capture with every finding
//! drawn on it). An app that answers screenshots itself has no pixels here: contrast is `not-run`.

mod pixels;

use std::time::Instant;

use crossbeam_channel::TrySendError;

use super::{Forwarded, Service};
use winit_automation_acting::key_tap;
use winit_automation_audit::Picture;
use winit_automation_audit::{Audited, Walk, audited, focus_back, focused, tree_findings};
use winit_automation_link::wiring::{CaptureJob, Handover, Order, Plan, Reply};
use winit_automation_link::{CaptureTo, Stage, Step};
use winit_automation_protocol::{
    AuditAnswer, Checked, Command, ErrorCode, Failure, Finding, KeyChord, Label, NodeRef, NotRun,
    Response, Rule, Verb,
};

/// How long past its deadline a walk's order may wait for the app to draw: the turn after the
/// deadline gives the focus back within it unless the app has stopped drawing.
const WALK_GRACE: std::time::Duration = std::time::Duration::from_secs(5);

/// What an audit waits for from the render side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum InFlight {
    /// Nothing: the audit takes its next turn.
    Nothing,
    /// The frame's pixels (a `CaptureJob`).
    Capture,
    /// A Tab's reply: the next turn reads the focus it moved.
    Tab,
    /// The reply of the order giving the focus back: then the answer.
    FocusBack,
}

/// An audit between its turns.
struct Pending {
    /// The command, to take its turn again.
    command: Command,
    audited: Audited,
    /// The findings so far (tree rules, contrast, then the keyboard's).
    findings: Vec<Finding>,
    not_run: Vec<NotRun>,
    screenshot: Option<Label>,
    /// `--keyboard`: the keyboard's rules were asked for.
    keyboard: bool,
    /// The walk of Tab, with `--keyboard`.
    walk: Option<Walk>,
    in_flight: InFlight,
    /// The frame the pixels came from and how many texts they measured, once they came.
    measured: Option<(u64, usize)>,
    /// The texts whose contrast could not be measured.
    unmeasured: Vec<NodeRef>,
    /// The captured frame, kept to draw every finding on once all are known (`--screenshot`).
    picture: Option<Picture>,
    /// The command's deadline. A walk's orders go out without it, so that no turn is withdrawn
    /// with the focus moved: each turn checks it, and past it the walk ends, the focus is given
    /// back, and the answer is `expired`.
    deadline: Option<Instant>,
    /// The deadline passed during the walk.
    expired: bool,
}

impl Pending {
    /// Whether the audit measures pixels (it has not said contrast cannot run).
    fn wants_pixels(&self) -> bool {
        !self.not_run.iter().any(|n| n.rule == Rule::Contrast)
    }
}

/// The audits in progress, by seq.
#[derive(Default)]
pub(crate) struct PendingAudits(Vec<(u64, Pending)>);

impl PendingAudits {
    fn get_mut(&mut self, seq: u64) -> Option<&mut Pending> {
        self.0.iter_mut().find(|(s, _)| *s == seq).map(|(_, p)| p)
    }

    fn take(&mut self, seq: u64) -> Option<Pending> {
        let i = self.0.iter().position(|(s, _)| *s == seq)?;
        Some(self.0.swap_remove(i).1)
    }

    /// Command `seq` was answered: nothing of it is kept.
    pub fn forget(&mut self, seq: u64) {
        self.0.retain(|(s, _)| *s != seq);
    }
}

impl Service {
    /// One turn of `audit` (see the module's docs): the capture, then each Tab, then the focus
    /// given back, then the answer.
    pub(super) fn forward_audit(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
    ) -> Forwarded {
        self.drain_scene();
        if self.audits.get_mut(seq).is_none() {
            match self.begin_audit(seq, &command, deadline) {
                Ok(pending) => self.audits.0.push((seq, pending)),
                Err(failure) => {
                    self.fail(seq, Some(Verb::Audit), failure);
                    return Forwarded::No;
                }
            }
        }
        let window = self.audits.get_mut(seq).map_or(0, |p| p.audited.window);
        let focus = focused(&mut self.tree, window);
        let pending = self.audits.get_mut(seq).expect("begun above");
        let plan = |stages: Vec<Stage>| Plan {
            window,
            stages,
            summary: String::new(),
            press: None,
        };
        if pending.wants_pixels() && pending.measured.is_none() {
            pending.in_flight = InFlight::Capture;
            let capture = Step::Capture {
                to: CaptureTo::Audit,
                crop: None,
            };
            return self.send_audit_order(seq, command, plan(vec![vec![capture].into()]));
        }
        let orphan = self.jobs.is_orphan(seq);
        if let Some(walk) = pending.walk.as_mut() {
            if walk.end.is_none() {
                if pending.in_flight == InFlight::Tab {
                    walk.saw(focus);
                }
                // Past the deadline, or with the drop-box gone: the walk ends, and the focus is
                // given back all the same.
                if walk.end.is_none()
                    && (orphan || pending.deadline.is_some_and(|d| Instant::now() >= d))
                {
                    walk.cut();
                    pending.expired = true;
                }
                if walk.end.is_none() {
                    walk.tabbed();
                    pending.in_flight = InFlight::Tab;
                    // The Tab, then a frame for the focus it moved to reach the tree.
                    let tab = KeyChord::parse("Tab").expect("a valid chord");
                    let tab = plan(vec![key_tap(tab).to_vec().into(), Vec::new().into()]);
                    return self.send_audit_order(seq, command, tab);
                }
                let (findings, not_run) = walk.findings(&pending.audited.controls);
                pending.findings.extend(findings);
                pending.not_run.extend(not_run);
            }
            // Until it goes out (a full channel sends it again on the next turn).
            let start = walk.start;
            pending.in_flight = InFlight::FocusBack;
            // The focus given back, then a frame for it to show.
            let back = plan(vec![
                focus_back(&mut self.tree, start).into(),
                Vec::new().into(),
            ]);
            return self.send_audit_order(seq, command, back);
        }
        let frame = self.published();
        self.answer_audit(seq, frame);
        Forwarded::No
    }

    /// The first turn: what the trees show, the rules that need no pixels, the walk to make.
    fn begin_audit(
        &mut self,
        seq: u64,
        command: &Command,
        deadline: Option<Instant>,
    ) -> Result<Pending, Failure> {
        let Command::Audit {
            scope,
            keyboard,
            screenshot,
        } = command
        else {
            unreachable!("only audits are audited")
        };
        if self.cfg.app_screenshots && screenshot.is_some() {
            return Err(Failure::new(
                ErrorCode::Unsupported,
                "this app answers screenshots itself (Builder::app_screenshots): the plugin has no frame to draw the findings on",
                "audit without --screenshot; the findings' lines carry their bounds",
            ));
        }
        let audited = audited(&mut self.tree, scope.as_ref())?;
        // The journal names the scope as a selector (a recording replays it so).
        let named = self.tree.named_targets(command);
        self.journal.resolved(seq, named);
        let findings = tree_findings(&audited);
        let mut not_run = Vec::new();
        if self.cfg.app_screenshots {
            not_run.push(NotRun {
                rule: Rule::Contrast,
                why: "this app answers screenshots itself (Builder::app_screenshots): the plugin holds no pixels to measure".into(),
            });
        }
        if audited.no_tree {
            let why = format!("window {} has handed over no tree yet", audited.window);
            for rule in Rule::ALL {
                let asked = *keyboard || !matches!(rule, Rule::Keyboard | Rule::FocusOrder);
                if asked && !(rule == Rule::Contrast && self.cfg.app_screenshots) {
                    not_run.push(NotRun {
                        rule,
                        why: why.clone(),
                    });
                }
            }
        }
        let walk = if *keyboard && !audited.no_tree {
            let start = focused(&mut self.tree, audited.window).map(|f| f.node);
            // Tab walks the whole window, whatever the scope.
            let window = if audited.neighbours.is_empty() {
                &audited.controls
            } else {
                &audited.neighbours
            };
            Some(Walk::new(start, window))
        } else {
            None
        };
        Ok(Pending {
            command: command.clone(),
            audited,
            findings,
            not_run,
            screenshot: screenshot.clone(),
            keyboard: *keyboard,
            walk,
            in_flight: InFlight::Nothing,
            measured: None,
            unmeasured: Vec::new(),
            picture: None,
            deadline,
            expired: false,
        })
    }

    /// Sends one of an audit's orders, with the command's deadline; a walk's Tabs and the focus
    /// given back get [`WALK_GRACE`] more (its turns check the deadline themselves and give the
    /// focus back past it; the grace only ends a walk the app stopped drawing for).
    fn send_audit_order(&mut self, seq: u64, command: Command, plan: Plan) -> Forwarded {
        let Some(pending) = self.audits.get_mut(seq) else {
            return Forwarded::No;
        };
        let deadline = match pending.in_flight {
            InFlight::Tab | InFlight::FocusBack => pending.deadline.map(|d| d + WALK_GRACE),
            InFlight::Capture | InFlight::Nothing => pending.deadline,
        };
        let claim = Handover::default();
        let followed = self.jobs.app_command_queued();
        let order = Order {
            seq,
            command,
            plan: Some(plan),
            deadline,
            handover: claim.clone(),
            followed,
        };
        match self.link.send_action(order) {
            Ok(()) => self.forwarded(seq, Verb::Audit, None, deadline, claim),
            Err(TrySendError::Full(order)) => {
                // Planned again when its turn comes again: this order did not go out.
                if let Some(p) = self.audits.get_mut(seq) {
                    if p.in_flight == InFlight::Tab
                        && let Some(w) = p.walk.as_mut()
                    {
                        w.tabs -= 1;
                    }
                    p.in_flight = InFlight::Nothing;
                }
                self.again(seq, order.command, deadline)
            }
            Err(TrySendError::Disconnected(_)) => self.render_side_gone(seq, Verb::Audit),
        }
    }

    /// A reply to one of an audit's orders, if `reply` is one: a Tab's gives the audit its turn
    /// again (the next turn reads the focus it moved); the focus given back's answers. Any other
    /// reply is given back.
    pub(super) fn audit_replied(&mut self, reply: Reply) -> Option<Reply> {
        let Some(pending) = self.audits.get_mut(reply.seq) else {
            return Some(reply);
        };
        if let Err(failure) = reply.result {
            self.fail(reply.seq, Some(Verb::Audit), failure);
            return None;
        }
        match pending.in_flight {
            // The next turn checks the deadline itself (see `Pending::deadline`).
            InFlight::Tab => {
                let grace = pending.deadline.map(|d| d + WALK_GRACE);
                self.jobs.requeue(reply.seq, pending.command.clone(), grace);
            }
            InFlight::FocusBack if pending.expired => {
                let tabs = pending.walk.as_ref().map_or(0, |w| w.tabs);
                self.fail(
                    reply.seq,
                    Some(Verb::Audit),
                    Failure::new(
                        ErrorCode::Expired,
                        format!("its deadline passed during the walk of Tab, after {tabs} presses; the focus was given back"),
                        "give the audit a later deadline, or audit without --keyboard",
                    ),
                );
            }
            InFlight::FocusBack => {
                self.journal.carried(reply.seq, reply.frame);
                self.drain_scene();
                self.answer_audit(reply.seq, reply.frame);
            }
            InFlight::Capture | InFlight::Nothing => {}
        }
        None
    }

    /// The frame an audit captured: each text's contrast measured (and, with `--screenshot`,
    /// the frame kept to draw on); then the walk of Tab, or the answer. A panic costs this
    /// command an `app_error` answer.
    pub(super) fn audit_pixels(&mut self, job: CaptureJob) {
        let (seq, frame) = (job.seq, job.frame);
        self.journal.carried(seq, frame);
        let Some(pending) = self.audits.get_mut(seq) else {
            // Answered already (withdrawn, or the app is stopping): the pixels go unread.
            self.take_turns();
            return;
        };
        let keep = pending.screenshot.is_some() && !self.jobs.is_orphan(seq);
        let measured = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pixels::measure(job, pending, keep)
        }))
        .unwrap_or_else(|panic| Err(super::internal_error("auditing the frame", &*panic)));
        match measured {
            Ok(()) if pending.walk.is_some() => {
                pending.in_flight = InFlight::Nothing;
                let grace = pending.deadline.map(|d| d + WALK_GRACE);
                self.jobs.requeue(seq, pending.command.clone(), grace);
            }
            Ok(()) => self.answer_audit(seq, frame),
            Err(failure) => self.fail(seq, Some(Verb::Audit), failure),
        }
        self.take_turns();
    }

    /// Writes the answer of audit `seq` (read in the frame its pixels came from, else `frame`),
    /// and its marked frame.
    fn answer_audit(&mut self, seq: u64, frame: u64) {
        let Some(p) = self.audits.take(seq) else {
            return;
        };
        let (frame, texts) = p.measured.unwrap_or((frame, 0));
        let mut findings = p.findings;
        findings.sort_by_key(|f| Rule::ALL.iter().position(|r| *r == f.rule));
        let mut not_run = p.not_run;
        not_run.sort_by_key(|n| Rule::ALL.iter().position(|r| *r == n.rule));
        if let (Some(label), Some(picture), false) =
            (p.screenshot, p.picture, self.jobs.is_orphan(seq))
        {
            let dir = self.cfg.dir.clone();
            let written = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pixels::publish_marked(&dir, frame, label, &picture, &findings)
            }))
            .unwrap_or_else(|panic| Err(super::internal_error("drawing the findings", &*panic)));
            if let Err(failure) = written {
                return self.fail(seq, Some(Verb::Audit), failure);
            }
        }
        let keyboard = p.keyboard;
        let asked = |r: &&Rule| keyboard || !matches!(r, Rule::Keyboard | Rule::FocusOrder);
        let answer = AuditAnswer {
            frame,
            window: p.audited.window,
            scope: p.audited.scope,
            rules: Rule::ALL.iter().filter(asked).copied().collect(),
            checked: Checked {
                controls: p.audited.controls.len(),
                texts,
                unmeasured: p.unmeasured.len(),
                images: p.audited.images.len(),
            },
            not_run,
            unmeasured_texts: p.unmeasured,
            findings,
        };
        self.answer(Response::ok(seq, Some(Verb::Audit), answer.to_string()));
    }
}
