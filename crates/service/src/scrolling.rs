//! Scrolling a pointer action's target into view before the action (docs/protocol.md section
//! 4.6, "Scrolling into view"), as a person scrolls a list to the row they want: a target refused
//! `offscreen` because a container cuts it off is brought in one step at a time (the tree says
//! what the next step is: `winit-automation-acting`'s `scroll_in.rs`), each step's input sent as an order of its own
//! whose answer goes nowhere but back to this; after a step, the target's place is read again
//! once it holds still over two frames (an app may animate the scroll, as egui does), and the
//! action is planned again. Bounded: [`MAX_STEPS`] steps, and a step that moves nothing ends it.
//! Pure bookkeeping: the service sends and plans, this says what to make of each attempt.

use std::time::{Duration, Instant};

use super::actionable::DEADLINE_MARGIN;
use winit_automation_acting::ScrollIn;
use winit_automation_link::Step;
use winit_automation_protocol::{Command, Failure};

/// How many steps an action may take to bring its target in.
pub(super) const MAX_STEPS: usize = 8;

/// How long, when the action has no `--wait` of its own, it waits after scrolling for its
/// target to hold still (the plan must be the same in two frames, as with `--wait`).
pub(super) const STILL_MS: u64 = 2_000;

/// The action whose target is being scrolled into view (one at a time: actions take their turns
/// in order).
pub(super) struct ScrollingIn {
    pub seq: u64,
    /// A step's order is at the render side: its answer comes back here, not to the client,
    /// and the command (with its deadline) takes its turn again.
    pub in_flight: Option<(Command, Option<Instant>)>,
    /// When the command's client gives up: scrolling ends a little before, with the refusal.
    deadline: Option<Instant>,
    /// What each step did (`scrolled @e5 scrollview "Files" by 0,228`), for the answer.
    lines: Vec<String>,
    /// The last step was the target's `scroll_into_view` action (not a wheel turn).
    last_by_action: bool,
    /// The target's line (bounds included) before the last step.
    before: Option<String>,
    /// The last attempt since the last step: the published frame it saw and the target's line.
    seen: Option<(u64, String)>,
    /// The published frame the app was last woken at: once per frame.
    woken_at: Option<u64>,
    /// When the last step was sent, and the published frame then: its effect is read once the
    /// trees changed after it and held still, or [`STILL_MS`] after it.
    stepped: Option<(Instant, u64)>,
    /// The target's `scroll_into_view` action moved nothing: the steps are wheel turns.
    pub wheel_only: bool,
    /// Why scrolling stopped short: the command is not scrolled again (with `--wait` it may
    /// still wait for its target, which then has to come into view by itself).
    gave_up: Option<String>,
}

/// What to do after an attempt found the target out of view.
pub(super) enum Next {
    /// Send this step.
    Step(ScrollIn),
    /// The last step's effect may still be showing: plan again at the next frame.
    Again,
    /// Nothing more to try: why, for the refusal.
    GiveUp(String),
}

/// What the app did after a step, as the service sees it.
pub(super) struct Seen {
    /// The published frame.
    pub frame: u64,
    /// A window says it animates.
    pub animating: bool,
    /// The frame that carried the trees' last change.
    pub last_change: u64,
}

impl ScrollingIn {
    /// The scrolling for command `seq` in `slot`: begun now, unless it is the one there.
    pub fn of(
        slot: &mut Option<ScrollingIn>,
        seq: u64,
        deadline: Option<Instant>,
    ) -> &mut ScrollingIn {
        if slot.as_ref().is_none_or(|s| s.seq != seq) {
            *slot = Some(ScrollingIn {
                seq,
                in_flight: None,
                deadline,
                lines: Vec::new(),
                last_by_action: false,
                before: None,
                seen: None,
                woken_at: None,
                stepped: None,
                wheel_only: false,
                gave_up: None,
            });
        }
        slot.as_mut().expect("set above")
    }

    /// Whether a step was taken and the target came into view: the action then waits for its
    /// target to hold still.
    pub fn scrolled(&self) -> bool {
        !self.lines.is_empty() && self.gave_up.is_none()
    }

    /// The answer's lines saying what was scrolled.
    pub fn lines(&self) -> &[String] {
        &self.lines
    }

    /// Whether the last step is less than [`STILL_MS`] old.
    fn recent(&self) -> bool {
        self.stepped
            .is_some_and(|(at, _)| at.elapsed() < Duration::from_millis(STILL_MS))
    }

    /// Whether, after a step, the app still animates (egui scrolls smoothly, over several
    /// frames): the target's place is read once it stops, or [`STILL_MS`] after the step.
    pub fn still_moving(&self, animating: bool) -> bool {
        animating && self.recent()
    }

    /// When the service must look again without being told of a change: [`STILL_MS`] after the
    /// last step, or a little before the deadline.
    pub fn until(&self) -> Option<Instant> {
        let settled = self
            .stepped
            .map(|(at, _)| at + Duration::from_millis(STILL_MS));
        let end = self
            .deadline
            .map(|d| d.checked_sub(DEADLINE_MARGIN).unwrap_or(d));
        settled.into_iter().chain(end).min()
    }

    /// The target is out of view; `step` is the next step the tree offers, or why there is none.
    pub fn next(&mut self, step: Result<ScrollIn, String>, seen: Seen) -> Next {
        if let Some(why) = &self.gave_up {
            return Next::GiveUp(why.clone());
        }
        if self
            .deadline
            .is_some_and(|d| Instant::now() + DEADLINE_MARGIN >= d)
        {
            let why = format!(
                "the command's deadline came while scrolling it in ({})",
                self.lines.join(", ")
            );
            self.gave_up = Some(why.clone());
            return Next::GiveUp(why);
        }
        if self.still_moving(seen.animating) {
            self.seen = None;
            return Next::Again;
        }
        let next = self.step(step, &seen);
        if let Next::GiveUp(why) = &next {
            self.gave_up = Some(why.clone());
        }
        next
    }

    fn step(&mut self, step: Result<ScrollIn, String>, seen: &Seen) -> Next {
        let step = match step {
            Ok(step) => step,
            Err(why) => return Next::GiveUp(format!("nothing scrolls it into view: {why}")),
        };
        if let (Some(before), Some((_, sent_in))) = (&self.before, self.stepped) {
            // The step's effect shows once the trees changed after it and the target held still
            // over two frames; an app that shows nothing within STILL_MS is judged as it is.
            if self.recent() {
                if seen.last_change <= sent_in {
                    self.seen = None;
                    return Next::Again;
                }
                match &self.seen {
                    Some((frame, line)) if *frame < seen.frame && *line == step.target => {}
                    _ => {
                        self.seen = Some((seen.frame, step.target));
                        return Next::Again;
                    }
                }
            }
            if step.target == *before {
                let last = self.lines.last().map_or("the last step", String::as_str);
                if self.last_by_action && !self.wheel_only {
                    // The app lists the action but did nothing with it: turn the wheel instead.
                    self.wheel_only = true;
                    self.stepped = None;
                    self.before = None;
                    self.seen = None;
                    return Next::Again;
                }
                return Next::GiveUp(format!(
                    "{last} did not move it (the container does not scroll, or not that way)"
                ));
            }
            if self.lines.len() >= MAX_STEPS {
                return Next::GiveUp(format!(
                    "it is still out of view after {MAX_STEPS} steps ({})",
                    self.lines.join(", ")
                ));
            }
        }
        self.before = Some(step.target.clone());
        self.seen = None;
        self.lines.push(step.line.clone());
        self.last_by_action = by_action(&step);
        self.stepped = Some((Instant::now(), seen.frame));
        Next::Step(step)
    }

    /// The step [`ScrollingIn::next`] gave could not be sent (the order channel was full): it is
    /// planned again at the command's next turn.
    pub fn unsend(&mut self) {
        self.lines.pop();
        self.before = None;
        self.stepped = None;
        self.seen = None;
    }

    /// Whether to wake the app for the frame an attempt in published frame `frame` waits for.
    pub fn wake_for(&mut self, frame: u64) -> bool {
        self.woken_at.replace(frame) != Some(frame)
    }

    /// The refusal `failure` that ends the wait after scrolling the target in (a wait the
    /// command did not ask for), saying so.
    pub fn explain_wait(&self, mut failure: Failure) -> Failure {
        failure.message = format!(
            "{} (it was scrolled into view first: {}; the wait was for it to hold still)",
            failure.message,
            self.lines.join(", ")
        );
        failure
    }
}

/// Whether `step` is the target's `scroll_into_view` action rather than a wheel turn.
fn by_action(step: &ScrollIn) -> bool {
    step.plan
        .stages
        .iter()
        .flat_map(|s| &s.steps)
        .any(|s| matches!(s, Step::Action { .. }))
}

/// The `offscreen` refusal `failure` of an action whose target could not be scrolled in
/// (`why`), saying so.
pub(super) fn gave_up(mut failure: Failure, why: &str) -> Failure {
    failure.message = format!("{}; {why}", failure.message);
    failure.hint = "it could not be scrolled into view: scroll its \
                    container yourself (`scroll`), or check it with `get`"
        .to_owned();
    failure
}

/// The `offscreen` refusal `failure` of `command`: with `--no-scroll`, its hint says that
/// dropping it scrolls the target in first.
pub(super) fn without_no_scroll(mut failure: Failure, command: &Command) -> Failure {
    if command.act_options().is_some_and(|o| o.no_scroll) {
        failure.hint = format!(
            "drop --no-scroll: the action then scrolls it into view first; {}",
            failure.hint
        );
    }
    failure
}

/// Whether a command scrolls its target into view when it lies out of view: the pointer verbs,
/// unless `--no-scroll`.
pub(super) fn scrolls_in(command: &Command) -> bool {
    matches!(
        command,
        Command::Click { .. }
            | Command::Hover { .. }
            | Command::Drag { .. }
            | Command::Scroll { .. }
            | Command::Down { .. }
            | Command::Pinch { .. }
    ) && !command.act_options().is_some_and(|o| o.no_scroll)
}
