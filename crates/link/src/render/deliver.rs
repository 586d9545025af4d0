//! The start of a frame: each order's next input stage is handed to the app, in command order,
//! and an order whose deadline passed is dropped (answered `expired`), releasing what it pressed.

use std::time::Instant;

use super::expired::expired;
use super::{Awaiting, Held, Pending, RenderEnd, Sizing, Waited, scale_of};
use crate::pictures::Wanted;
use crate::{Hit, Order, Request, Step};

/// One piece of a frame's input, in command order: a planned step for a window, or a command the
/// app answers itself. The frame loop's adapter turns a step into its toolkit's input
/// (winit-automation: a winit `WindowEvent`, its own key type, text, an AccessKit request).
#[derive(Debug)]
pub enum Injected {
    /// A step of an action, for `window`.
    Step {
        /// The window (the app's number for it).
        window: u64,
        /// The window's scale factor now: physical pixels per logical pixel (a step's positions
        /// are logical).
        scale: f64,
        /// What to deliver.
        step: Step,
    },
    /// A command the plugin does not carry out itself: the app answers it.
    Request(Request),
}

impl RenderEnd {
    /// Opens a frame: `false` while one is open (the frame asking joins it).
    pub fn open_frame(&self) -> bool {
        let mut state = self.state();
        if state.open {
            // The frame that asks was wanted (a redraw, a wake-up): once the open one ends,
            // another must come for what arrived meanwhile.
            state.joined = true;
            return false;
        }
        state.open = true;
        state.superseded = false;
        true
    }

    /// The open frame's input, asked for once (the app's `Frame::input`): one stage of every
    /// order in turn. A command's next stage (and every later command) waits for the next frame
    /// that asks, so the app sees each stage as a frame's input; a frame that never asks takes
    /// none.
    ///
    /// Deadlines: an order not started by its deadline is dropped (answered `expired` here, or
    /// already by the service when it withdrew it first); one started and not finished by then
    /// has its remaining stages dropped and is answered `expired` with what was delivered.
    pub fn take_input(&self) -> std::vec::IntoIter<Injected> {
        let mut guard = self.state();
        let state = &mut *guard;
        while let Ok(Order {
            seq,
            command,
            plan,
            deadline,
            claim,
            followed,
        }) = self.link.orders.try_recv()
        {
            state.pending.push_back(Pending {
                seq,
                command,
                plan,
                next: 0,
                deadline,
                claim,
                followed,
                reported: None,
                awaiting: None,
            });
        }
        if state.pending.is_empty() {
            return Vec::new().into_iter();
        }
        let now = Instant::now();
        let mut out = Vec::new();
        // Whether every command this frame carries input of is drawn over by a later frame (its
        // next stage's, or the next command's): `None` while the frame carries none.
        let mut replaced: Option<bool> = None;
        while let Some(p) = state.pending.front_mut() {
            let late = p.deadline.is_some_and(|d| d <= now);
            if p.next == 0 {
                // Not started: it starts only before its deadline, and only if the service has
                // not withdrawn it.
                if late {
                    if p.claim.withdraw() {
                        let total = p.plan.as_ref().map_or(1, |plan| plan.stages.len());
                        self.replier
                            .send(p.seq, p.command.verb(), Err(expired(0, total)));
                    }
                    state.pending.pop_front();
                    continue;
                }
                if !p.claim.take() {
                    state.pending.pop_front();
                    continue;
                }
            } else if late && let Some(plan) = &mut p.plan {
                // Started, not finished: the rest is not delivered, except what lets go of a button
                // or key the delivered part pressed (the app must not be left with it held).
                let window = plan.window;
                let scale = scale_of(&state.windows, plan.window);
                // A release whose press is among the dropped steps is dropped with it.
                let mut dropped_presses: Vec<Step> = Vec::new();
                for stage in plan.stages.iter_mut().skip(p.next) {
                    for step in stage.drain(..) {
                        match &step {
                            Step::Button { pressed: true, .. }
                            | Step::Key { pressed: true, .. } => {
                                dropped_presses.push(step);
                            }
                            Step::Button { pressed: false, .. }
                            | Step::Key { pressed: false, .. } => {
                                match dropped_presses.iter().position(|p| releases(&step, p)) {
                                    Some(i) => {
                                        dropped_presses.swap_remove(i);
                                    }
                                    None => out.push(Injected::Step {
                                        window,
                                        scale,
                                        step,
                                    }),
                                }
                            }
                            _ => {}
                        }
                    }
                }
                self.replier.send(
                    p.seq,
                    p.command.verb(),
                    Err(expired(p.next, plan.stages.len())),
                );
                state.pending.pop_front();
                continue;
            }
            let Some(plan) = &mut p.plan else {
                // The app answers it: what it does with the frame is its own.
                replaced = Some(false);
                if let Some(p) = state.pending.pop_front() {
                    out.push(Injected::Request(Request::new(
                        p.seq,
                        p.command,
                        self.request_replier.clone(),
                    )));
                }
                continue;
            };
            let window = plan.window;
            let scale = scale_of(&state.windows, plan.window);
            let mut captured = false;
            // A trace's frame after a step: the next order waits for the next frame, so the
            // picture shows the step's effect and nothing of the next command's input.
            let mut for_trace = false;
            let mut resized = None;
            if plan.press.as_ref().is_some_and(|c| c.stage == p.next) {
                p.awaiting = Some(Awaiting::new());
            }
            if let Some(stage) = plan.stages.get_mut(p.next) {
                for step in stage.drain(..) {
                    if let Step::Resize { width, height } = step {
                        resized = Some((width, height));
                    }
                    match step {
                        Step::Capture { to, crop } => {
                            captured = true;
                            for_trace |= to.is_trace();
                            state.pictures.want(Wanted {
                                seq: p.seq,
                                command: p.command.clone(),
                                window: plan.window,
                                scale,
                                to,
                                crop,
                            });
                        }
                        step => out.push(Injected::Step {
                            window,
                            scale,
                            step,
                        }),
                    }
                }
            }
            p.next += 1;
            let more = p.next < plan.stages.len();
            replaced = Some(replaced.unwrap_or(true) && (more || p.followed));
            if more {
                break;
            }
            if !captured {
                // A screenshot is answered by the service thread once its PNG is written.
                let summary = std::mem::take(&mut plan.summary);
                let (seq, verb) = (p.seq, p.command.verb());
                if let Some(size) = resized {
                    // Answered once the window reports the size (`check_sizes`).
                    state.sizing.push(Sizing {
                        seq,
                        verb,
                        summary,
                        window: plan.window,
                        size,
                        waited: Waited::new(),
                    });
                    state.pending.pop_front();
                    continue;
                }
                match (plan.press.take(), p.awaiting.take()) {
                    // The app reports what took the press before the frame ends (or, for a
                    // window whose pass is still to run, once it ran).
                    (Some(check), Some(awaiting)) => state.held.push(Held {
                        seq,
                        verb,
                        summary,
                        hit: Hit {
                            check,
                            reported: p.reported,
                        },
                        awaiting,
                    }),
                    (Some(check), None) => self.replier.send_hit(
                        seq,
                        verb,
                        Ok(summary),
                        Some(Hit {
                            check,
                            reported: p.reported,
                        }),
                    ),
                    (None, _) => self.replier.send(seq, verb, Ok(summary)),
                }
            }
            state.pending.pop_front();
            if for_trace {
                break;
            }
        }
        state.superseded = replaced.unwrap_or(false);
        out.into_iter()
    }
}

/// Whether `release` lets go of what `press` pressed.
fn releases(release: &Step, press: &Step) -> bool {
    match (release, press) {
        (Step::Button { button: a, .. }, Step::Button { button: b, .. }) => a == b,
        (Step::Key { chord: a, .. }, Step::Key { chord: b, .. }) => a == b,
        _ => false,
    }
}
