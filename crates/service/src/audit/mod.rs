//! `audit` (docs/protocol.md section 4.10; docs/accessibility.md): the window's tree and the
//! next frame's pixels checked against WCAG 2.2.
//!
//! A command's path: its first turn gathers what the trees show (`tree/audit.rs`) and applies the
//! rules that need no pixels (`rules.rs`); with `--keyboard` it then takes turns, one Tab each
//! (`keyboard.rs`), reading the focus from the trees between them, and gives the focus back; its
//! last order captures the frame (`CaptureTo::Audit`), whose pixels come back here to measure each
//! text's contrast (`contrast.rs`) and, with `--screenshot`, to draw the findings. An app that
//! answers screenshots itself has no pixels here: contrast is `not-run`.

mod contrast;
mod keyboard;
mod rules;

use std::time::Instant;

use crossbeam_channel::TrySendError;

use super::marks::Marks;
use super::{Forwarded, Service, png};
use crate::tree::audit::{Audited, key_tap};
use keyboard::Walk;
use winit_automation_link::{
    CaptureJob, CaptureTo, Claim, FrameImage, Order, Plan, Reply, Stage, Step,
};
use winit_automation_protocol::{
    AuditAnswer, Checked, Command, ErrorCode, Failure, Finding, Label, NodeRef, NotRun, Response,
    Rule, Verb,
};

/// An audit between its turns.
struct Pending {
    audited: Audited,
    /// The findings so far (tree rules, then the keyboard's).
    findings: Vec<Finding>,
    not_run: Vec<NotRun>,
    screenshot: Option<Label>,
    /// The walk of Tab, while `--keyboard` goes on.
    walk: Option<Walk>,
    /// A Tab is on its way: its reply gives the audit its turn again.
    tab_in_flight: Option<Command>,
    /// The last Tab's reply came: this turn reads the focus it moved.
    tab_answered: bool,
    /// The last order (focus given back, the frame captured) went out.
    finishing: bool,
    /// The command's deadline. A walk's orders go out without it, so that no turn is withdrawn
    /// with the focus moved: each turn checks it, and past it the walk ends, the focus is given
    /// back, and the answer is `expired`.
    deadline: Option<Instant>,
    /// The deadline passed during the walk.
    expired: bool,
    /// The texts whose contrast could not be measured.
    unmeasured: Vec<NodeRef>,
    /// `--keyboard`: the keyboard's rules were asked for.
    keyboard: bool,
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
    /// One turn of `audit` (see the module's docs).
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
        let focus = self.trees.focused(window);
        let pending = self.audits.get_mut(seq).expect("begun above");
        if let Some(walk) = pending.walk.as_mut().filter(|w| w.end.is_none()) {
            if std::mem::take(&mut pending.tab_answered) {
                walk.saw(focus);
            }
            if walk.end.is_none() && pending.deadline.is_some_and(|d| Instant::now() >= d) {
                walk.cut();
                pending.expired = true;
            }
            if walk.end.is_none() {
                walk.tabbed();
                let tab = Plan {
                    window,
                    // The Tab, then a frame for the focus it moved to reach the tree.
                    stages: vec![key_tap("Tab").to_vec().into(), Stage::from(Vec::new())],
                    summary: String::new(),
                    press: None,
                };
                pending.tab_in_flight = Some(command.clone());
                return self.send_audit_order(seq, command, tab);
            }
            let (findings, not_run) = walk.findings(&pending.audited.controls);
            pending.findings.extend(findings);
            pending.not_run.extend(not_run);
        }
        self.finish_audit(seq, command)
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
        let audited = self.trees.audited(scope.as_ref())?;
        // The journal names the scope as a selector (a recording replays it so).
        let named = self.trees.named_targets(command);
        self.journal.resolved(seq, named);
        let findings = rules::tree_findings(&audited);
        let mut not_run = Vec::new();
        if audited.no_tree {
            let why = format!("window {} has handed over no tree yet", audited.window);
            for rule in Rule::ALL {
                if *keyboard || !matches!(rule, Rule::Keyboard | Rule::FocusOrder) {
                    not_run.push(NotRun {
                        rule,
                        why: why.clone(),
                    });
                }
            }
        }
        let walk = if *keyboard && !audited.no_tree {
            let start = self.trees.focused(audited.window).map(|f| f.node);
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
            audited,
            findings,
            not_run,
            screenshot: screenshot.clone(),
            walk,
            tab_in_flight: None,
            tab_answered: false,
            finishing: false,
            deadline,
            expired: false,
            keyboard: *keyboard,
            unmeasured: Vec::new(),
        })
    }

    /// The last order: the focus given back after a walk, and the frame captured (unless the
    /// app answers screenshots itself, or the deadline cut the walk short).
    fn finish_audit(&mut self, seq: u64, command: Command) -> Forwarded {
        let pending = self.audits.get_mut(seq).expect("begun");
        let window = pending.audited.window;
        let start = pending.walk.as_ref().map(|w| w.start);
        let mut stages: Vec<Stage> = Vec::new();
        if let Some(start) = start {
            stages.push(self.trees.focus_back(start).into());
            // A frame for the focus given back to show before the capture.
            stages.push(Vec::new().into());
        }
        let pending = self.audits.get_mut(seq).expect("begun");
        pending.finishing = true;
        let measured = !pending.not_run.iter().any(|n| n.rule == Rule::Contrast);
        if self.cfg.app_screenshots && measured {
            pending.not_run.push(NotRun {
                rule: Rule::Contrast,
                why: "this app answers screenshots itself (Builder::app_screenshots): the plugin holds no pixels to measure".into(),
            });
        } else if measured && !pending.expired {
            stages.push(
                vec![Step::Capture {
                    to: CaptureTo::Audit,
                    crop: None,
                }]
                .into(),
            );
        }
        if stages.is_empty() {
            let frame = self.published();
            self.answer_audit(seq, frame, None);
            return Forwarded::No;
        }
        let plan = Plan {
            window,
            stages,
            summary: String::new(),
            press: None,
        };
        self.send_audit_order(seq, command, plan)
    }

    /// Sends one of an audit's orders: with the command's deadline, unless it walks Tab (its
    /// turns check the deadline themselves, so the focus is always given back).
    fn send_audit_order(&mut self, seq: u64, command: Command, plan: Plan) -> Forwarded {
        let Some(pending) = self.audits.get_mut(seq) else {
            return Forwarded::No;
        };
        let deadline = match pending.walk {
            Some(_) => None,
            None => pending.deadline,
        };
        let claim = Claim::default();
        let followed = self.jobs.app_command_queued();
        let order = Order {
            seq,
            command,
            plan: Some(plan),
            deadline,
            claim: claim.clone(),
            followed,
        };
        match self.link.send_action(order) {
            Ok(()) => self.forwarded(seq, Verb::Audit, None, deadline, claim),
            Err(TrySendError::Full(order)) => {
                // Planned again when its turn comes again: the Tab was not sent.
                if let Some(p) = self.audits.get_mut(seq) {
                    if p.tab_in_flight.take().is_some()
                        && let Some(w) = p.walk.as_mut()
                    {
                        w.tabs -= 1;
                    }
                    p.finishing = false;
                }
                self.again(seq, order.command, deadline)
            }
            Err(TrySendError::Disconnected(_)) => self.render_side_gone(seq, Verb::Audit),
        }
    }

    /// A reply to one of an audit's orders, if `reply` is one: a Tab's gives the audit its turn
    /// again; the last order's, without a capture, answers. Any other reply is given back.
    pub(super) fn audit_replied(&mut self, reply: Reply) -> Option<Reply> {
        let Some(pending) = self.audits.get_mut(reply.seq) else {
            return Some(reply);
        };
        if let Err(failure) = reply.result {
            self.fail(reply.seq, Some(Verb::Audit), failure);
            return None;
        }
        if let Some(command) = pending.tab_in_flight.take() {
            pending.tab_answered = true;
            // No deadline: the next turn checks it (see `Pending::deadline`).
            self.jobs.requeue(reply.seq, command, None);
        } else if pending.finishing && pending.expired {
            let tabs = pending.walk.as_ref().map_or(0, |w| w.tabs);
            self.fail(
                reply.seq,
                Some(Verb::Audit),
                Failure::new(
                    ErrorCode::Expired,
                    format!("its deadline passed during the walk of Tab, after {tabs} presses; the focus was given back and nothing was measured"),
                    "give the audit a later deadline, or audit without --keyboard",
                ),
            );
        } else if pending.finishing {
            self.journal.carried(reply.seq, reply.frame);
            self.drain_scene();
            self.answer_audit(reply.seq, reply.frame, None);
        }
        None
    }

    /// The frame an audit captured: each text's contrast measured, the findings drawn when
    /// asked, the answer written. A panic costs this command an `app_error` answer.
    pub(super) fn audit_pixels(&mut self, job: CaptureJob) {
        let seq = job.seq;
        self.journal.carried(seq, job.frame);
        let frame = job.frame;
        let Some(mut pending) = self.audits.take(seq) else {
            // Answered already (withdrawn, or the app is stopping): the pixels go unread.
            self.take_turns();
            return;
        };
        if self.jobs.is_orphan(seq) {
            // Its entry went with the drop-box: no marked frame for the directory there now.
            pending.screenshot = None;
        }
        let dir = self.cfg.dir.clone();
        let measured = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            measure_frame(&dir, job, &mut pending)
        }))
        .unwrap_or_else(|panic| Err(super::internal_error("auditing the frame", &*panic)));
        match measured {
            Ok(checked) => {
                self.audits.0.push((seq, pending));
                self.answer_audit(seq, frame, Some(checked));
            }
            Err(failure) => self.fail(seq, Some(Verb::Audit), failure),
        }
        self.take_turns();
    }

    /// Writes the answer of audit `seq`, read in `frame`.
    fn answer_audit(&mut self, seq: u64, frame: u64, texts: Option<(usize, usize)>) {
        let Some(p) = self.audits.take(seq) else {
            return;
        };
        let (texts, unmeasured) = texts.unwrap_or((0, 0));
        let mut findings = p.findings;
        findings.sort_by_key(|f| Rule::ALL.iter().position(|r| *r == f.rule));
        let mut not_run = p.not_run;
        not_run.sort_by_key(|n| Rule::ALL.iter().position(|r| *r == n.rule));
        let asked = |r: &&Rule| p.keyboard || !matches!(r, Rule::Keyboard | Rule::FocusOrder);
        let answer = AuditAnswer {
            frame,
            window: p.audited.window,
            scope: p.audited.scope,
            rules: Rule::ALL.iter().filter(asked).copied().collect(),
            checked: Checked {
                controls: p.audited.controls.len(),
                texts,
                unmeasured,
                images: p.audited.images.len(),
            },
            not_run,
            unmeasured_texts: p.unmeasured,
            findings,
        };
        self.answer(Response::ok(seq, Some(Verb::Audit), answer.to_string()));
    }
}

/// Measures each text of `pending` in the captured frame, adds the contrast findings, and draws
/// every finding onto `screenshot-<label>.png` when the audit asked for it; returns how many texts
/// were measured and how many could not be.
fn measure_frame(
    dir: &std::path::Path,
    job: CaptureJob,
    pending: &mut Pending,
) -> Result<(usize, usize), Failure> {
    let frame_no = job.frame;
    let mut outcome: Option<Result<(usize, usize), Failure>> = None;
    let mut encoded = None;
    (job.read)(&mut |frame: &FrameImage<'_>| {
        let mut texts = 0;
        for text in &pending.audited.texts {
            let measured = text
                .node
                .bounds
                .map(|bounds| contrast::measure(frame, bounds, text.inset, &text.mask));
            match measured {
                Some(Ok(m)) => {
                    texts += 1;
                    pending.findings.extend(rules::contrast_finding(text, &m));
                }
                _ => pending.unmeasured.push(text.node.r#ref),
            }
        }
        outcome = Some(Ok((texts, pending.unmeasured.len())));
        if pending.screenshot.is_some() {
            let boxes: Vec<(String, [f64; 4])> = pending
                .findings
                .iter()
                .filter_map(|f| {
                    let label = format!("{} {}", f.node.r#ref, f.rule.criterion().0);
                    Some((label, f.node.bounds?))
                })
                .collect();
            let marks = Marks::new(&boxes, frame.scale, frame.width);
            encoded = Some(png::encode_png(frame, None, Some(&marks)));
        }
    })?;
    let counted = outcome.unwrap_or_else(|| {
        Err(Failure::new(
            ErrorCode::AppError,
            "the frame was read back but never handed over",
            "please report it",
        ))
    })?;
    if let (Some(label), Some(encoded)) = (pending.screenshot.clone(), encoded) {
        png::publish_png(dir, frame_no, label, encoded?)?;
    }
    Ok(counted)
}
