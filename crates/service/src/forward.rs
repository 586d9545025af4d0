//! Carrying an app-side action out: planning it against the trees and sending its order to the
//! render side, or taking its turn again later while its target is waited for (`--wait`,
//! `actionable.rs`) or scrolled into view (`scroll_in.rs`).

use std::time::Instant;

use crossbeam_channel::TrySendError;

use super::jobs::{Job, SettleAfter};
use super::{Forwarded, Service, actionable, internal_error, scroll_in};
use winit_automation_link::{Claim, Order};
use winit_automation_protocol::{Command, ErrorCode, Failure, Verb};

impl Service {
    /// Plans an action against the current trees and sends it to the render side.
    pub(super) fn forward(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
    ) -> Forwarded {
        let verb = command.verb();
        self.drain_scene();
        let app_answers = self.cfg.app_screenshots && verb == Verb::Screenshot;
        if app_answers && matches!(command, Command::Screenshot { refs: true, .. }) {
            let failure = Failure::new(
                ErrorCode::Unsupported,
                "this app takes its screenshots itself (Builder::app_screenshots): the plugin has no image to draw refs on",
                "take the screenshot without --refs, and match refs with `snapshot -i --bounds`",
            );
            self.fail(seq, Some(verb), failure);
            return Forwarded::No;
        }
        let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if app_answers {
                Ok(None)
            } else {
                // Named for the journal against the tree the plan resolves them in.
                let named = self.trees.named_targets(&command);
                self.journal.resolved(seq, named);
                self.trees.plan(&command)
            }
        }));
        // After scrolling, the target is acted on once it holds still, as with `--wait`.
        let asked = command.act_options().and_then(|o| o.wait_ms);
        let wait = |service: &Service| {
            let scrolled = service
                .scrolling
                .as_ref()
                .is_some_and(|s| s.seq == seq && s.scrolled());
            asked.or(scrolled.then_some(scroll_in::STILL_MS))
        };
        let plan = match planned {
            Ok(Ok(plan)) => plan,
            Ok(Err(mut failure)) => {
                if failure.code == ErrorCode::Offscreen && scroll_in::scrolls_in(&command) {
                    let scrolling = scroll_in::ScrollingIn::of(&mut self.scrolling, seq, deadline);
                    let step = self.trees.scroll_in(&command, scrolling.wheel_only);
                    let frame = self.link.counters.published();
                    let seen = scroll_in::Seen {
                        frame,
                        animating: self.trees.animating(),
                        last_change: self.last_change,
                    };
                    match scrolling.next(step, seen) {
                        scroll_in::Next::Step(step) => {
                            return self.send_step(seq, command, deadline, step);
                        }
                        scroll_in::Next::Again => {
                            if scrolling.wake_for(frame) {
                                self.wake_app();
                            }
                            return self.again(seq, command, deadline);
                        }
                        scroll_in::Next::GiveUp(why) => {
                            failure.message = format!("{}; {why}", failure.message);
                            failure.hint = "it could not be scrolled into view: scroll its \
                                            container yourself (`scroll`), or check it with `get`"
                                .to_owned();
                        }
                    }
                } else if failure.code == ErrorCode::Offscreen
                    && command.act_options().is_some_and(|o| o.no_scroll)
                {
                    failure.hint = format!(
                        "drop --no-scroll: the action then scrolls it into view first; {}",
                        failure.hint
                    );
                }
                let verdict = wait(self).map(|ms| {
                    actionable::Actionable::of(&mut self.actionable, seq, ms, deadline)
                        .refused(failure.clone(), &command)
                });
                return match verdict {
                    Some(actionable::Verdict::Again) => self.again(seq, command, deadline),
                    Some(actionable::Verdict::Refuse(mut f)) => {
                        self.actionable = None;
                        // A wait the command did not ask for: the one after scrolling it in.
                        if let (None, Some(s)) = (
                            asked,
                            self.scrolling
                                .as_ref()
                                .filter(|s| s.seq == seq && s.scrolled()),
                        ) {
                            f.message = format!(
                                "{} (it was scrolled into view first: {}; the wait was for it to \
                                 hold still)",
                                f.message,
                                s.lines().join(", ")
                            );
                        }
                        self.fail(seq, Some(verb), f);
                        Forwarded::No
                    }
                    Some(actionable::Verdict::Act) | None => {
                        self.fail(seq, Some(verb), failure);
                        Forwarded::No
                    }
                };
            }
            Err(panic) => {
                let failure = internal_error(&format!("planning {verb}"), &*panic);
                self.fail(seq, Some(verb), failure);
                return Forwarded::No;
            }
        };
        let frame = self.published();
        let animating = self.trees.animating();
        if let (Some(s), Some(_)) = (self.scrolling.as_mut().filter(|s| s.seq == seq), &plan)
            && s.still_moving(animating)
        {
            // Scrolled in, and the content may still be gliding: act once it stops.
            if s.wake_for(frame) {
                self.wake_app();
            }
            return self.again(seq, command, deadline);
        }
        if let (Some(ms), Some(p)) = (wait(self), &plan) {
            let frame = self.published();
            match actionable::Actionable::of(&mut self.actionable, seq, ms, deadline)
                .planned(frame, &p.summary)
            {
                // Cleared once the order is sent (a full channel takes the turn again).
                actionable::Verdict::Act => {}
                actionable::Verdict::Again => {
                    // A frame must come to show whether the target holds still.
                    if self.actionable.as_mut().is_some_and(|a| a.wake_for(frame)) {
                        self.wake_app();
                    }
                    return self.again(seq, command, deadline);
                }
                actionable::Verdict::Refuse(f) => {
                    self.actionable = None;
                    self.fail(seq, Some(verb), f);
                    return Forwarded::No;
                }
            }
        }
        if let (Command::Screenshot { refs: true, .. }, Some(p)) = (&command, &plan) {
            let marks = self.trees.marks(p.window);
            self.marks.retain(|(s, _)| *s != seq);
            self.marks.push((seq, marks));
        }
        let settle = command
            .act_options()
            .filter(|o| o.settle)
            .map(|options| SettleAfter {
                options,
                before: self.trees.settle_text(),
                deadline,
            });
        let mut plan = plan;
        if let (Some(s), Some(p)) = (
            self.scrolling.as_ref().filter(|s| s.seq == seq),
            plan.as_mut(),
        ) {
            // What was scrolled goes after the answer's `path` line.
            let at = p.summary.find('\n').map_or(p.summary.len(), |i| i + 1);
            let lines: String = s.lines().iter().map(|l| format!("{l}\n")).collect();
            p.summary.insert_str(at, &lines);
        }
        if let Some(p) = &plan {
            self.trace_aimed(seq, &command, p);
        }
        let claim = Claim::default();
        // A burst: the next command's frame draws over this one's (the service wakes the app for
        // a picture if that command never goes out, `take_turns`).
        let followed = self.jobs.app_command_queued();
        self.picture_owed = followed;
        let order = Order {
            seq,
            command,
            plan,
            deadline,
            claim: claim.clone(),
            followed,
        };
        match self.link.orders.try_send(order) {
            Ok(()) => {
                if self.actionable.as_ref().is_some_and(|a| a.seq == seq) {
                    self.actionable = None;
                }
                if self.scrolling.as_ref().is_some_and(|s| s.seq == seq) {
                    self.scrolling = None;
                }
                self.jobs.insert(
                    seq,
                    Job::Forwarded {
                        verb,
                        settle,
                        since: Instant::now(),
                        deadline,
                        claim,
                    },
                );
                Forwarded::Yes
            }
            Err(TrySendError::Full(order)) => {
                // The render side has not drained the channel: a stalled frame loop that still
                // holds orders the service withdrew at their deadlines. The entry is taken; the
                // command waits for its turn again (or its deadline).
                self.again(seq, order.command, deadline)
            }
            Err(TrySendError::Disconnected(_)) => {
                self.fail(seq, Some(verb), shutting_down());
                Forwarded::No
            }
        }
    }

    /// Sends a step scrolling the target of command `seq` into view: an order of its own, whose
    /// answer takes the command's turn again instead of answering it (`write_replies`).
    fn send_step(
        &mut self,
        seq: u64,
        command: Command,
        deadline: Option<Instant>,
        step: crate::tree::ScrollIn,
    ) -> Forwarded {
        let verb = command.verb();
        let claim = Claim::default();
        // The action's own frame draws over the step's; if the action never goes out (it gives
        // up, or its deadline passes), the app is woken for a frame that is drawn.
        self.picture_owed = true;
        let order = Order {
            seq,
            command: command.clone(),
            plan: Some(step.plan),
            deadline,
            claim: claim.clone(),
            // The action takes its turn again after the step: its frame draws over this one.
            followed: true,
        };
        match self.link.orders.try_send(order) {
            Ok(()) => {
                if let Some(s) = self.scrolling.as_mut().filter(|s| s.seq == seq) {
                    s.in_flight = Some((command, deadline));
                }
                self.jobs.insert(
                    seq,
                    Job::Forwarded {
                        verb,
                        settle: None,
                        since: Instant::now(),
                        deadline,
                        claim,
                    },
                );
                Forwarded::Yes
            }
            Err(TrySendError::Full(order)) => {
                // Planned again when its turn comes again.
                if let Some(s) = self.scrolling.as_mut().filter(|s| s.seq == seq) {
                    s.unsend();
                }
                self.again(seq, order.command, deadline)
            }
            Err(TrySendError::Disconnected(_)) => {
                self.fail(seq, Some(verb), shutting_down());
                Forwarded::No
            }
        }
    }

    /// The command takes its turn again later (its entry is taken already); later ones wait.
    fn again(&mut self, seq: u64, command: Command, deadline: Option<Instant>) -> Forwarded {
        self.jobs.requeue(seq, command, deadline);
        Forwarded::Later
    }
}

/// The refusal of an order the render side can no longer take: the app is going.
fn shutting_down() -> Failure {
    Failure::new(
        ErrorCode::ShuttingDown,
        "the app is shutting down",
        "restart the app and send the command again",
    )
}
