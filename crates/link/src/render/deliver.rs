//! The start of a frame: each order's next input stage is handed to the app, in command order,
//! and an order whose deadline passed is dropped (answered `expired`), releasing what it pressed.

use std::time::{Duration, Instant};

use super::expired::expired;
use super::{Awaiting, Held, Pending, RenderEnd, Sizing, State, Waited, scale_of};
use crate::pictures::PendingCapture;
use crate::{AppCommand, Hit, Order, StageWait, Step, TouchPhase};

/// One piece of a frame's input, in command order: a planned step for a window, or a command the
/// app answers itself. The frame loop's adapter turns a step into its toolkit's input
/// (winit-automation: a winit `WindowEvent`, its own key type, text, an AccessKit request).
#[derive(Debug)]
pub enum Injected {
    /// A step of an action, for `window`.
    Step {
        /// The window, by the app's id for it (the id it named the window by: snapshots and the
        /// service thread know it by its number).
        window: u64,
        /// The window's scale factor now: physical pixels per logical pixel (a step's positions
        /// are logical).
        scale: f64,
        /// What to deliver.
        step: Step,
    },
    /// A command the plugin does not carry out itself: the app answers it.
    AppCommand(AppCommand),
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
        state.clock.open_frame(Instant::now());
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
        self.receive_orders(state);
        self.move_clock(state);
        if state.pending.is_empty() {
            return Vec::new().into_iter();
        }
        let now = Instant::now();
        let mut input = FrameInput::default();
        while let Some(p) = state.pending.front_mut() {
            let late = p.deadline.is_some_and(|d| d <= now);
            let next = if p.next == 0 && !self.starts(p, late) {
                state.pending.pop_front();
                Next::Order
            } else if late && p.plan.is_some() {
                self.cut_short(state, &mut input);
                Next::Order
            } else if p.plan.is_none() {
                self.hand_to_app(state, &mut input);
                Next::Order
            } else {
                self.deliver_stage(state, &mut input)
            };
            if next == Next::Frame {
                break;
            }
        }
        state.superseded = input.replaced.unwrap_or(false);
        input.out.into_iter()
    }

    /// Moves the orders the service sent since the last frame to the pending queue.
    fn receive_orders(&self, state: &mut State) {
        while let Ok(Order {
            seq,
            command,
            plan,
            deadline,
            handover,
            followed,
        }) = self.link.orders.try_recv()
        {
            state.pending.push_back(Pending {
                seq,
                command,
                plan,
                next: 0,
                stage_at: None,
                deadline,
                handover,
                followed,
                reported: None,
                awaiting: None,
            });
        }
    }

    /// Whether an order not started yet starts now: only before its deadline (a late one is
    /// answered `expired` here), and only if the service has not withdrawn it.
    fn starts(&self, p: &Pending, late: bool) -> bool {
        if late {
            if p.handover.withdraw() {
                let total = p.plan.as_ref().map_or(1, |plan| plan.stages.len());
                self.replier
                    .send(p.seq, p.command.verb(), Err(expired(0, total)));
            }
            return false;
        }
        p.handover.take()
    }

    /// Drops the rest of a started order whose deadline passed, answering it `expired` with what
    /// was delivered; only what lets go of a button or key the delivered part pressed still goes
    /// out (the app must not be left with it held).
    fn cut_short(&self, state: &mut State, input: &mut FrameInput) {
        let Some(mut p) = state.pending.pop_front() else {
            return;
        };
        let Some(plan) = &mut p.plan else {
            return;
        };
        let window = state.numbers.platform(plan.window);
        let scale = scale_of(&state.windows, plan.window);
        let rest = plan
            .stages
            .iter_mut()
            .skip(p.next)
            .flat_map(|s| s.steps.drain(..));
        for step in releases_left_over(rest) {
            input.out.push(Injected::Step {
                window,
                scale,
                step,
            });
        }
        self.replier.send(
            p.seq,
            p.command.verb(),
            Err(expired(p.next, plan.stages.len())),
        );
    }

    /// Hands a command the app answers itself over as an [`AppCommand`]: what it does with the frame
    /// is its own.
    fn hand_to_app(&self, state: &mut State, input: &mut FrameInput) {
        input.replaced = Some(false);
        if let Some(p) = state.pending.pop_front() {
            input.out.push(Injected::AppCommand(AppCommand::new(
                p.seq,
                p.command,
                self.request_replier.clone(),
            )));
        }
    }

    /// Delivers the front order's next stage; a finished order is answered (or left to wait
    /// for its press report, its size or its screenshot) and leaves the queue. Says whether the
    /// next order waits for the next frame.
    fn deliver_stage(&self, state: &mut State, input: &mut FrameInput) -> Next {
        let State {
            pending,
            numbers,
            windows,
            pictures,
            clock,
            ..
        } = state;
        let Some(p) = pending.front_mut() else {
            return Next::Order;
        };
        let Some(plan) = &mut p.plan else {
            return Next::Order;
        };
        let scale = scale_of(windows, plan.window);
        let gate = plan.stages.get(p.next).map(|s| &s.wait);
        let now = clock.frame_time().0;
        if !gate.is_none_or(|g| self.gate_open(g, p.stage_at, now)) {
            // The order keeps its turn; later orders wait behind it.
            return Next::Frame;
        }
        p.stage_at = Some(now);
        if plan.press.as_ref().is_some_and(|c| c.stage == p.next) {
            p.awaiting = Some(Awaiting::new());
        }
        let mut stage = StageEffects::default();
        for step in plan
            .stages
            .get_mut(p.next)
            .into_iter()
            .flat_map(|s| s.steps.drain(..))
        {
            match step {
                Step::Clock(change) => {
                    clock.apply(change, Instant::now());
                    stage.clock = true;
                }
                Step::Capture { to, crop } => {
                    stage.captured = true;
                    stage.for_trace |= to.is_trace();
                    pictures.add_pending(PendingCapture {
                        seq: p.seq,
                        command: p.command.clone(),
                        window: plan.window,
                        scale,
                        to,
                        crop,
                    });
                }
                step => {
                    if let Step::Resize { width, height } = step {
                        stage.resized = Some((width, height));
                    }
                    input.out.push(Injected::Step {
                        window: numbers.platform(plan.window),
                        scale,
                        step,
                    });
                }
            }
        }
        p.next += 1;
        let more = p.next < plan.stages.len();
        input.replaced = Some(input.replaced.unwrap_or(true) && (more || p.followed));
        if more {
            return Next::Frame;
        }
        if stage.clock {
            let reading = clock.reading(self.link.counters.building());
            self.replier.send_clock(p.seq, p.command.verb(), reading);
        } else if !stage.captured {
            // A screenshot is answered by the service thread once its PNG is written.
            self.finish(state, stage.resized);
        }
        state.pending.pop_front();
        // A trace's frame after a step: the next order waits for the next frame, so the picture
        // shows the step's effect and nothing of the next command's input.
        if stage.for_trace {
            Next::Frame
        } else {
            Next::Order
        }
    }

    /// Whether a stage's gate is open at `now`, the previous stage having gone out at `previous`
    /// (both on the frames' clock): a [`StageWait::Still`] begins its wait in the frame that first
    /// asks.
    fn gate_open(&self, gate: &StageWait, previous: Option<Duration>, now: Duration) -> bool {
        let waited = |d| previous.is_none_or(|at| now.saturating_sub(at) >= d);
        match gate {
            StageWait::Frame => true,
            StageWait::After(d) => waited(*d),
            StageWait::Still { still, at_most } => {
                still.begin(self.link.counters.building());
                still.is_still() || waited(*at_most)
            }
            StageWait::Quiet { still, frames } => {
                let building = self.link.counters.building();
                still.begin(building);
                still.is_still() || still.since().is_some_and(|f| building >= f + frames)
            }
        }
    }

    /// Moves the virtual clock by what this frame takes by itself (`Clock::own_advance`): a step
    /// while it runs or a settle drives it, else what the front order's timed gate still waits
    /// (a long press's hold passes in frames, not in wall time). A `clock run` stage due now
    /// moves it itself.
    fn move_clock(&self, state: &mut State) {
        let front = state.pending.front();
        let stage = front.and_then(|p| p.plan.as_ref()?.stages.get(p.next));
        if stage.is_some_and(|s| s.steps.iter().any(|s| matches!(s, Step::Clock(_)))) {
            return;
        }
        let now = state.clock.frame_time().0;
        let left = match (stage.map(|s| &s.wait), front.and_then(|p| p.stage_at)) {
            (Some(StageWait::After(d)), Some(at)) => Some(d.saturating_sub(now.saturating_sub(at))),
            (Some(StageWait::Still { at_most, .. }), Some(at)) => {
                Some(at_most.saturating_sub(now.saturating_sub(at)))
            }
            _ => None,
        };
        let building = self.link.counters.building();
        if let Some(by) = state
            .clock
            .own_advance(&self.link.counters.clock, left, building)
        {
            state.clock.advance(by);
        }
    }

    /// Answers the front order, whose last stage was delivered: once the window reports the
    /// size it asked for, once the app reports what took its press, or now.
    fn finish(&self, state: &mut State, resized: Option<(u32, u32)>) {
        let Some(p) = state.pending.front_mut() else {
            return;
        };
        let Some(plan) = &mut p.plan else {
            return;
        };
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
            return;
        }
        match (plan.press.take(), p.awaiting.take()) {
            // The app reports what took the press before the frame ends (or, for a window whose
            // pass is still to run, once it ran).
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
}

/// What a frame takes: its input in command order, and whether every command it carries input
/// of is drawn over by a later frame (its next stage's, or the next command's): `None` while it
/// carries none.
#[derive(Default)]
struct FrameInput {
    out: Vec<Injected>,
    replaced: Option<bool>,
}

/// What a delivered stage held besides input: a screenshot (a trace's, too), a resize, a clock
/// change.
#[derive(Default)]
struct StageEffects {
    clock: bool,
    captured: bool,
    for_trace: bool,
    resized: Option<(u32, u32)>,
}

/// Whether the next order's stage goes into this frame or waits for the next one.
#[derive(PartialEq, Eq)]
enum Next {
    Order,
    Frame,
}

/// Of the steps an expired order drops, the releases whose press was delivered: a release whose
/// press is among the dropped steps is dropped with it. The same for a finger's end; and when a
/// change of the modifiers is dropped, the last one goes out (a gesture's last gives back what
/// was held before it).
fn releases_left_over(dropped: impl Iterator<Item = Step>) -> Vec<Step> {
    let mut presses: Vec<Step> = Vec::new();
    let mut out = Vec::new();
    let mut modifiers = None;
    for step in dropped {
        match &step {
            Step::Modifiers(m) => modifiers = Some(*m),
            Step::Button { pressed: true, .. }
            | Step::Key { pressed: true, .. }
            | Step::Touch {
                phase: TouchPhase::Start,
                ..
            } => {
                presses.push(step);
            }
            Step::Button { pressed: false, .. }
            | Step::Key { pressed: false, .. }
            | Step::Touch {
                phase: TouchPhase::End,
                ..
            } => match presses.iter().position(|p| releases(&step, p)) {
                Some(i) => {
                    presses.swap_remove(i);
                }
                None => out.push(step),
            },
            _ => {}
        }
    }
    out.extend(modifiers.map(Step::Modifiers));
    out
}

/// Whether `release` lets go of what `press` pressed.
fn releases(release: &Step, press: &Step) -> bool {
    match (release, press) {
        (Step::Button { button: a, .. }, Step::Button { button: b, .. }) => a == b,
        (Step::Key { chord: a, .. }, Step::Key { chord: b, .. }) => a == b,
        (Step::Touch { finger: a, .. }, Step::Touch { finger: b, .. }) => a == b,
        _ => false,
    }
}
