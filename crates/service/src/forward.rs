//! Carrying an app-side action out: planning it against the trees and sending its order to the
//! render side, or taking its turn again later while its target is waited for (`--wait`,
//! `actionable.rs`) or scrolled into view (`scroll_in.rs`); `retries.rs` holds the two.

use std::time::Instant;

use crossbeam_channel::TrySendError;

use super::actionable::Verdict;
use super::jobs::{Job, SettleAfter};
use super::scrolling::{self, Next, Seen};
use super::{Forwarded, Service, internal_error};
use winit_automation_acting::{ActionAnswer, Planned, secret_text};
use winit_automation_link::wiring::{Handover, Order, Plan, StageWait};
use winit_automation_protocol::{Command, ErrorCode, Failure, Verb};

/// Why an action has no plan.
enum Unplanned {
    /// The trees refuse it (out of view, covered, not found...): scrolling or waiting may help.
    Refused(Failure),
    /// Nothing helps: it is answered with this.
    Failed(Failure),
}

impl Service {
    /// Plans an action against the current trees and sends it to the render side, in stages:
    /// the plan, the wait for its target (scrolled in, holding still), what goes with the order
    /// (marks, settle, the answer's lines, the trace's aim), and the order itself.
    pub(super) fn forward(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
    ) -> Forwarded {
        let verb = command.verb();
        if verb == Verb::Audit {
            // A panic while auditing fails the command, not the service thread.
            let turn = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                self.forward_audit(seq, command, deadline)
            }));
            return turn.unwrap_or_else(|panic| {
                self.fail(seq, Some(verb), internal_error("auditing", &*panic));
                Forwarded::No
            });
        }
        self.drain_scene();
        let plan = match self.plan_or_refusal(seq, &command) {
            Ok(plan) => plan,
            Err(Unplanned::Refused(failure)) => {
                return self.refused(seq, command, deadline, failure);
            }
            Err(Unplanned::Failed(failure)) => {
                self.fail(seq, Some(verb), failure);
                return Forwarded::No;
            }
        };
        if let Some(p) = &plan {
            match self.hold(seq, &command, deadline, p.answer()) {
                Verdict::Act => {}
                Verdict::Again => return self.again(seq, command, deadline),
                Verdict::Refuse(failure) => {
                    self.fail(seq, Some(verb), failure);
                    return Forwarded::No;
                }
            }
        }
        if let (Command::Screenshot { refs: true, .. }, Some(p)) = (&command, &plan) {
            let boxes = self.tree.marks(p.window());
            self.overlays.set(seq, boxes);
        }
        let settle = self.settle_after(&command, deadline);
        let (plan, moved) = match plan {
            Some(p) => {
                let scrolled = self
                    .retries
                    .scrolling(seq)
                    .map(|s| s.lines().to_vec())
                    .unwrap_or_default();
                let (plan, moved) = p.into_order(scrolled);
                (Some(plan), Some(moved))
            }
            None => (None, None),
        };
        if let Some(p) = &plan {
            self.trace_aimed(seq, &command, p);
        }
        let forwarded = self.send_order(seq, command, plan, deadline, settle);
        // The pointer is where the order leaves it once the order went out, and a drag's answer
        // names the node it took hold of; a capped snapshot keeps the line of the node it acts on.
        if matches!(forwarded, Forwarded::Yes)
            && let Some(moved) = moved
        {
            if let Some(target) = moved.target() {
                self.tree.acted_on(target);
            }
            self.gestures.sent(seq, moved);
        }
        forwarded
    }

    /// Plans command `seq` against the trees, naming its targets for the journal; `Ok(None)` for
    /// a screenshot the app takes itself. A panic while planning fails the command.
    fn plan_or_refusal(
        &mut self,
        seq: u64,
        command: &Command,
    ) -> Result<Option<Planned>, Unplanned> {
        let verb = command.verb();
        if let Command::Clock(clock) = command {
            // The clock is the render side's, not the trees'.
            let plan = winit_automation_acting::plan_clock(clock, &self.link.ends().counters.clock)
                .map_err(Unplanned::Failed)?;
            return Ok(Some(Planned::new(plan, "clock")));
        }
        if self.cfg.app_screenshots && verb == Verb::Screenshot {
            if matches!(command, Command::Screenshot { refs: true, .. }) {
                return Err(Unplanned::Failed(Failure::new(
                    ErrorCode::Unsupported,
                    "this app takes its screenshots itself (Builder::app_screenshots): the plugin has no image to draw refs on",
                    "take the screenshot without --refs, and match refs with `snapshot -i --bounds`",
                )));
            }
            return Ok(None);
        }
        let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // Named for the journal against the tree the plan resolves them in.
            let named = self.tree.named_targets(command);
            self.journal.resolved(seq, named);
            match secret_text(&mut self.tree, command) {
                Some(true) => self.journal.keep_secret(seq),
                Some(false) => self.journal.not_secret(seq),
                None => {}
            }
            self.gestures.plan(&mut self.tree, command)
        }));
        match planned {
            Ok(result) => result.map_err(Unplanned::Refused),
            Err(panic) => Err(Unplanned::Failed(internal_error(
                &format!("planning {verb}"),
                &*panic,
            ))),
        }
    }

    /// The trees refused the action with `failure`: its target is scrolled in when that can
    /// help, else waited for (`--wait`, or the wait after scrolling), else the refusal is the
    /// answer.
    fn refused(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
        mut failure: Failure,
    ) -> Forwarded {
        if failure.code == ErrorCode::Offscreen && scrolling::scrolls_in(&command) {
            match self.advance_scroll(seq, &command, deadline) {
                Next::Step(step) => return self.send_step(seq, command, deadline, step),
                Next::Again => return self.again(seq, command, deadline),
                Next::GiveUp(why) => failure = scrolling::gave_up(failure, &why),
            }
        } else if failure.code == ErrorCode::Offscreen {
            // Only `--no-scroll` keeps an offscreen pointer target from scrolling in.
            failure = scrolling::without_no_scroll(failure, &command);
        }
        self.wait_refused(seq, command, deadline, failure)
    }

    /// One attempt at scrolling command `seq`'s target in: what `ScrollingIn` makes of it,
    /// after waking the app when the attempt waits for a frame.
    fn advance_scroll(&mut self, seq: u64, command: &Command, deadline: Option<Instant>) -> Next {
        let scrolling = self.retries.scroll(seq, deadline);
        let step = self
            .gestures
            .scroll_in(&mut self.tree, command, scrolling.wheel_only);
        let frame = self.link.published();
        let seen = Seen {
            frame,
            animating: self.tree.animating(),
            last_change: self.changes.last_change(),
        };
        let next = scrolling.next(step, seen);
        if matches!(next, Next::Again) && scrolling.wake_for(frame) {
            self.link.wake_app();
        }
        next
    }

    /// A refused action under a wait takes its turn again while a later frame can lift the
    /// refusal; otherwise the refusal (the wait's, once it is over) is the answer.
    fn wait_refused(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
        failure: Failure,
    ) -> Forwarded {
        let verb = command.verb();
        let asked = asked_wait(&command);
        let verdict = self.wait_ms(seq, asked).map(|ms| {
            self.retries
                .wait(seq, ms, deadline)
                .refused(failure.clone(), &command)
        });
        let failure = match verdict {
            Some(Verdict::Again) => return self.again(seq, command, deadline),
            Some(Verdict::Refuse(f)) => {
                self.retries.end_wait();
                // A wait the command did not ask for: the one after scrolling it in.
                match self.retries.scrolling(seq).filter(|s| s.scrolled()) {
                    Some(s) if asked.is_none() => s.explain_wait(f),
                    _ => f,
                }
            }
            Some(Verdict::Act) | None => failure,
        };
        self.fail(seq, Some(verb), failure);
        Forwarded::No
    }

    /// Whether a planned action goes now: after scrolling, once the content stops gliding; under
    /// a wait, once its aim held still over two frames (`Again` wakes the app for the frame that
    /// shows it).
    fn hold(
        &mut self,
        seq: u64,
        command: &Command,
        deadline: Option<Instant>,
        answer: &ActionAnswer,
    ) -> Verdict {
        let frame = self.published();
        let animating = self.tree.animating();
        if let Some(s) = self.retries.scrolling_mut(seq)
            && s.still_moving(animating)
        {
            // Scrolled in, and the content may still be gliding: act once it stops.
            if s.wake_for(frame) {
                self.link.wake_app();
            }
            return Verdict::Again;
        }
        let Some(ms) = self.wait_ms(seq, asked_wait(command)) else {
            return Verdict::Act;
        };
        let verdict = self.retries.wait(seq, ms, deadline).planned(frame, answer);
        match &verdict {
            // Cleared once the order is sent (a full channel takes the turn again).
            Verdict::Act => {}
            Verdict::Again => {
                // A frame must come to show whether the target holds still.
                if self
                    .retries
                    .waiting_mut(seq)
                    .is_some_and(|a| a.wake_for(frame))
                {
                    self.link.wake_app();
                }
            }
            Verdict::Refuse(_) => self.retries.end_wait(),
        }
        verdict
    }

    /// How long command `seq` waits for its target: its `--wait`, else, once its target was
    /// scrolled in, until it holds still.
    fn wait_ms(&self, seq: u64, asked: Option<u64>) -> Option<u64> {
        asked.or(self.retries.scrolled(seq).then_some(scrolling::STILL_MS))
    }

    /// What an action sent with `--settle` waits for: the tree before it, and its deadline.
    fn settle_after(
        &mut self,
        command: &Command,
        deadline: Option<Instant>,
    ) -> Option<SettleAfter> {
        let options = command.act_options().filter(|o| o.settle)?;
        Some(SettleAfter {
            options,
            before: self.tree.settle_text(),
            deadline,
        })
    }

    /// Sends an action's order; the job is `Forwarded` once the order is in the channel.
    fn send_order(
        &mut self,
        seq: u64,
        command: Command,
        plan: Option<Plan>,
        deadline: Option<Instant>,
        settle: Option<SettleAfter>,
    ) -> Forwarded {
        let verb = command.verb();
        let claim = Handover::default();
        // A drag's dwell waits for the trees to hold still, which this thread sees.
        for stage in plan.iter().flat_map(|p| &p.stages) {
            if let StageWait::Still { still, .. } | StageWait::Quiet { still, .. } = &stage.wait {
                self.changes.watch(still.clone());
            }
        }
        // A burst: the next command's frame draws over this one's (the service wakes the app for
        // a picture if that command never goes out, `take_turns`).
        let followed = self.jobs.app_command_queued();
        let order = Order {
            seq,
            command,
            plan,
            deadline,
            handover: claim.clone(),
            followed,
        };
        match self.link.send_action(order) {
            Ok(()) => {
                self.retries.release(seq);
                self.forwarded(seq, verb, settle, deadline, claim)
            }
            // The render side has not drained the channel: a stalled frame loop that still
            // holds orders the service withdrew at their deadlines. The entry is taken; the
            // command waits for its turn again (or its deadline).
            Err(TrySendError::Full(order)) => self.again(seq, order.command, deadline),
            Err(TrySendError::Disconnected(_)) => self.render_side_gone(seq, verb),
        }
    }

    /// Sends a step scrolling the target of command `seq` into view: an order of its own, whose
    /// answer takes the command's turn again instead of answering it (`answers.rs`).
    fn send_step(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
        step: winit_automation_acting::ScrollIn,
    ) -> Forwarded {
        let verb = command.verb();
        let claim = Handover::default();
        // The action's own frame draws over the step's; if the action never goes out (it gives
        // up, or its deadline passes), the app is woken for a frame that is drawn.
        let order = Order {
            seq,
            command: command.clone(),
            plan: Some(step.plan),
            deadline,
            handover: claim.clone(),
            // The action takes its turn again after the step: its frame draws over this one.
            followed: true,
        };
        match self.link.send_action(order) {
            Ok(()) => {
                if let Some(s) = self.retries.scrolling_mut(seq) {
                    s.in_flight = Some((command, deadline));
                }
                self.forwarded(seq, verb, None, deadline, claim)
            }
            Err(TrySendError::Full(order)) => {
                // Planned again when its turn comes again.
                if let Some(s) = self.retries.scrolling_mut(seq) {
                    s.unsend();
                }
                self.again(seq, order.command, deadline)
            }
            Err(TrySendError::Disconnected(_)) => self.render_side_gone(seq, verb),
        }
    }

    /// Command `seq`'s order is in the channel: its job waits for the render side's reply.
    pub(super) fn forwarded(
        &mut self,
        seq: u64,
        verb: Verb,
        settle: Option<SettleAfter>,
        deadline: Option<Instant>,
        handover: Handover,
    ) -> Forwarded {
        self.jobs.insert(
            seq,
            Job::Forwarded {
                verb,
                settle,
                since: Instant::now(),
                deadline,
                handover,
            },
        );
        Forwarded::Yes
    }

    /// The order channel is closed: the command is refused, the app is going.
    pub(super) fn render_side_gone(&mut self, seq: u64, verb: Verb) -> Forwarded {
        self.fail(
            seq,
            Some(verb),
            Failure::new(
                ErrorCode::ShuttingDown,
                "the app is shutting down",
                "restart the app and send the command again",
            ),
        );
        Forwarded::No
    }

    /// The command takes its turn again later (its entry is taken already); later ones wait.
    pub(super) fn again(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
    ) -> Forwarded {
        self.jobs.requeue(seq, command, deadline);
        Forwarded::Later
    }
}

/// The `--wait` an action asked for.
fn asked_wait(command: &Command) -> Option<u64> {
    command.act_options().and_then(|o| o.wait_ms)
}
