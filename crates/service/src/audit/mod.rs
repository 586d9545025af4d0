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
    AuditAnswer, Checked, Command, ErrorCode, Failure, Finding, Label, NotRun, Response, Rule, Verb,
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
    tab_in_flight: Option<(Command, Option<Instant>)>,
    /// The last Tab's reply came: this turn reads the focus it moved.
    tab_answered: bool,
    /// The last order (focus given back, the frame captured) went out.
    finishing: bool,
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
            match self.begin_audit(seq, &command) {
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
            if walk.end.is_none() {
                walk.tabbed();
                let tab = Plan {
                    window,
                    // The Tab, then a frame for the focus it moved to reach the tree.
                    stages: vec![key_tap("Tab").to_vec().into(), Stage::from(Vec::new())],
                    summary: String::new(),
                    press: None,
                };
                pending.tab_in_flight = Some((command.clone(), deadline));
                return self.send_audit_order(seq, command, tab, deadline);
            }
            let (findings, not_run) = walk.findings(&pending.audited.controls);
            pending.findings.extend(findings);
            pending.not_run.extend(not_run);
        }
        self.finish_audit(seq, command, deadline)
    }

    /// The first turn: what the trees show, the rules that need no pixels, the walk to make.
    fn begin_audit(&mut self, seq: u64, command: &Command) -> Result<Pending, Failure> {
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
        let not_run = Vec::new();
        let walk = if *keyboard {
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
        })
    }

    /// The last order: the focus given back after a walk, and the frame captured (unless the
    /// app answers screenshots itself).
    fn finish_audit(&mut self, seq: u64, command: Command, deadline: Option<Instant>) -> Forwarded {
        let pending = self.audits.get_mut(seq).expect("begun");
        let window = pending.audited.window;
        let mut stages: Vec<Stage> = Vec::new();
        if let Some(walk) = &pending.walk {
            let start = walk.start;
            stages.push(self.trees.focus_back(start).into());
            // A frame for the focus given back to show before the capture.
            stages.push(Vec::new().into());
        }
        let pending = self.audits.get_mut(seq).expect("begun");
        pending.finishing = true;
        if self.cfg.app_screenshots {
            pending.not_run.push(NotRun {
                rule: Rule::Contrast,
                why: "this app answers screenshots itself (Builder::app_screenshots): the plugin holds no pixels to measure".into(),
            });
            if stages.is_empty() {
                let frame = self.published();
                self.answer_audit(seq, frame, None);
                return Forwarded::No;
            }
        } else {
            stages.push(
                vec![Step::Capture {
                    to: CaptureTo::Audit,
                    crop: None,
                }]
                .into(),
            );
        }
        let plan = Plan {
            window,
            stages,
            summary: String::new(),
            press: None,
        };
        self.send_audit_order(seq, command, plan, deadline)
    }

    /// Sends one of an audit's orders.
    fn send_audit_order(
        &mut self,
        seq: u64,
        command: Command,
        plan: Plan,
        deadline: Option<Instant>,
    ) -> Forwarded {
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
        if let Some((command, deadline)) = pending.tab_in_flight.take() {
            pending.tab_answered = true;
            self.jobs.requeue(reply.seq, command, deadline);
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
            return;
        };
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
        let asked = |r: &&Rule| p.walk.is_some() || !matches!(r, Rule::Keyboard | Rule::FocusOrder);
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
        let (mut texts, mut unmeasured) = (0, 0);
        for text in &pending.audited.texts {
            let Some(bounds) = text.node.bounds else {
                unmeasured += 1;
                continue;
            };
            match contrast::measure(frame, bounds, text.inset) {
                Ok(m) => {
                    texts += 1;
                    pending.findings.extend(rules::contrast_finding(text, &m));
                }
                Err(_) => unmeasured += 1,
            }
        }
        outcome = Some(Ok((texts, unmeasured)));
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
