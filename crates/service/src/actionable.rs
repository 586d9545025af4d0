//! Waiting for a target to be actionable (an action's `--wait MS`, docs/protocol.md section 4.6):
//! the action's turn is taken again, frame after frame, until its plan succeeds twice in a row in
//! two published frames with the same aim (the target resolves to one node that is shown,
//! enabled, not covered, and has not moved), or until the wait ends with the check that failed
//! last. Pure bookkeeping: the service plans, this says what to make of each attempt.

use std::time::{Duration, Instant};

use winit_automation_acting::ActionAnswer;
use winit_automation_protocol::{Command, ErrorCode, Failure, Target};

/// The action whose target is waited for (one at a time: actions take their turns in order).
pub(super) struct Actionable {
    pub seq: u64,
    started: Instant,
    until: Instant,
    /// The last attempt that planned: the published frame it saw and the plan's answer (the aim
    /// point and the target's line, bounds included).
    seen: Option<(u64, ActionAnswer)>,
    /// The published frame the app was last woken at, for the frame that shows whether the
    /// target holds still: once per frame.
    woken_at: Option<u64>,
}

/// How long before the client's deadline the wait ends.
pub(super) const DEADLINE_MARGIN: Duration = Duration::from_millis(50);

/// What to do after an attempt.
pub(super) enum Verdict {
    /// Carry the action out now.
    Act,
    /// Take the turn again at the next change (or frame).
    Again,
    /// Refuse it with this failure.
    Refuse(Failure),
}

impl Actionable {
    /// Waiting for command `seq` for `wait_ms`, and not past its client's deadline.
    pub fn new(seq: u64, wait_ms: u64, deadline: Option<Instant>) -> Actionable {
        let started = Instant::now();
        let until = started + Duration::from_millis(wait_ms);
        // Ends a little before the client's deadline, so the answer is the check that failed,
        // not `expired`.
        let before = |d: Instant| d.checked_sub(DEADLINE_MARGIN).unwrap_or(started);
        Actionable {
            seq,
            started,
            until: deadline.map_or(until, |d| before(d).min(until)),
            seen: None,
            woken_at: None,
        }
    }

    /// The wait for command `seq`'s target in `slot`: begun now, unless it is the one there.
    pub fn of(
        slot: &mut Option<Actionable>,
        seq: u64,
        wait_ms: u64,
        deadline: Option<Instant>,
    ) -> &mut Actionable {
        if slot.as_ref().is_none_or(|a| a.seq != seq) {
            *slot = Some(Actionable::new(seq, wait_ms, deadline));
        }
        slot.as_mut().expect("set above")
    }

    /// When the wait ends.
    pub fn until(&self) -> Instant {
        self.until
    }

    /// Whether to wake the app for the frame an attempt in published frame `frame` waits for:
    /// once per frame, so a plan repeated within one frame does not flood the app.
    pub fn wake_for(&mut self, frame: u64) -> bool {
        self.woken_at.replace(frame) != Some(frame)
    }

    /// An attempt planned the action in published frame `frame`: it is acted on when the previous
    /// attempt planned the same in an earlier frame (the target held still over two frames), or
    /// when the wait is over and no frame came since this plan's (nothing could move it).
    pub fn planned(&mut self, frame: u64, answer: &ActionAnswer) -> Verdict {
        let over = Instant::now() >= self.until;
        match &self.seen {
            Some((seen, last)) if *seen < frame && last == answer => return Verdict::Act,
            Some((seen, _)) if *seen >= frame && over => return Verdict::Act,
            None if over => return Verdict::Act,
            _ => {}
        }
        // Here a plan differs from the last frame's: it moved.
        if over {
            return Verdict::Refuse(Failure::new(
                ErrorCode::Timeout,
                format!(
                    "the target kept moving for {} ms; last aimed: {}",
                    self.started.elapsed().as_millis(),
                    answer.to_string().lines().collect::<Vec<_>>().join(", ")
                ),
                "wait until it stops (settle), or act on it with `action`",
            ));
        }
        if self.seen.as_ref().is_none_or(|(seen, _)| *seen < frame) {
            self.seen = Some((frame, answer.clone()));
        }
        Verdict::Again
    }

    /// An attempt was refused with `failure`: taken again while the wait lasts, when the refusal
    /// is one a later frame can lift (the node appears, shows, is enabled, is uncovered, or gets an
    /// area).
    /// `command` is the action: a ref that names no node never will (refs are not reused).
    pub fn refused(&mut self, failure: Failure, command: &Command) -> Verdict {
        self.seen = None;
        let by_ref = failure.code == ErrorCode::NotFound && names_a_ref(command);
        if by_ref || !lifts_with_time(failure.code) {
            return Verdict::Refuse(failure);
        }
        if Instant::now() < self.until {
            return Verdict::Again;
        }
        Verdict::Refuse(Failure::new(
            failure.code,
            format!(
                "after waiting {} ms: {}",
                self.started.elapsed().as_millis(),
                failure.message
            ),
            &failure.hint,
        ))
    }
}

/// Whether the action's target (or a drag's either end) is a ref.
fn names_a_ref(command: &Command) -> bool {
    command
        .action_targets()
        .any(|t| matches!(t, Target::Ref(_)))
}

/// Whether a later frame can lift a refusal with `code`. A stale ref, a missing action or a bad
/// argument never changes; an ambiguous selector is refused at once too (as Playwright's strict
/// mode does): waiting for the matches to narrow to one hides a selector that needs a term.
fn lifts_with_time(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::NotFound
            | ErrorCode::Offscreen
            | ErrorCode::Disabled
            | ErrorCode::Covered
            | ErrorCode::ZeroSize
            | ErrorCode::NoFocus
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn failure(code: ErrorCode) -> Failure {
        Failure::new(code, "@e3 button \"Save\" is disabled", "wait for it")
    }

    /// A pointer action's answer, aimed at `at`.
    fn aimed(at: &str) -> ActionAnswer {
        ActionAnswer {
            path: "pointer",
            scrolled: Vec::new(),
            rest: format!("at {at}\n"),
        }
    }

    #[test]
    fn an_aim_held_over_two_frames_is_acted_on() {
        let mut a = Actionable::new(1, 5_000, None);
        assert!(matches!(a.planned(7, &aimed("1,2")), Verdict::Again));
        // The same frame again proves nothing.
        assert!(matches!(a.planned(7, &aimed("1,2")), Verdict::Again));
        // It moved: the new aim must hold for another frame.
        assert!(matches!(a.planned(8, &aimed("3,4")), Verdict::Again));
        assert!(matches!(a.planned(9, &aimed("3,4")), Verdict::Act));
        // A wait that is over with no frame since the plan acts on it: nothing could move it
        // (an app that draws no frame must not keep the service asking).
        let mut a = Actionable::new(1, 0, None);
        assert!(matches!(a.planned(7, &aimed("1,2")), Verdict::Act));
        // One that moved between the last two frames is refused.
        let mut a = Actionable::new(1, 30, None);
        assert!(matches!(a.planned(7, &aimed("1,2")), Verdict::Again));
        std::thread::sleep(Duration::from_millis(40));
        let Verdict::Refuse(f) = a.planned(8, &aimed("3,4")) else {
            panic!("it kept moving")
        };
        assert_eq!(f.code, ErrorCode::Timeout);
        assert!(
            f.message.ends_with("last aimed: path pointer, at 3,4"),
            "{}",
            f.message
        );
        // The app is woken once per frame.
        assert!(a.wake_for(8) && !a.wake_for(8) && a.wake_for(9));
    }

    #[test]
    fn a_refusal_a_frame_can_lift_is_waited_out_and_then_named() {
        let click = Command::parse("click name=Save").unwrap();
        let mut a = Actionable::new(1, 0, None);
        let Verdict::Refuse(f) = a.refused(failure(ErrorCode::Disabled), &click) else {
            panic!("the wait is over")
        };
        assert_eq!(f.code, ErrorCode::Disabled);
        assert!(f.message.starts_with("after waiting "), "{}", f.message);
        assert!(f.message.ends_with("is disabled"), "{}", f.message);
        let mut a = Actionable::new(1, 60_000, None);
        assert!(matches!(
            a.refused(failure(ErrorCode::Covered), &click),
            Verdict::Again
        ));
        assert!(matches!(
            a.refused(failure(ErrorCode::NotFound), &click),
            Verdict::Again
        ));
        // One no frame can lift is refused at once, as it is: a stale ref, a ref that names no
        // node (refs are never reused).
        let Verdict::Refuse(f) = a.refused(failure(ErrorCode::StaleRef), &click) else {
            panic!("a stale ref never heals")
        };
        assert_eq!(f.message, "@e3 button \"Save\" is disabled");
        assert!(matches!(
            a.refused(failure(ErrorCode::Ambiguous), &click),
            Verdict::Refuse(_)
        ));
        let by_ref = Command::parse("click @e3").unwrap();
        assert!(matches!(
            a.refused(failure(ErrorCode::NotFound), &by_ref),
            Verdict::Refuse(_)
        ));
    }

    #[test]
    fn the_client_s_deadline_ends_the_wait_first() {
        let deadline = Instant::now() + Duration::from_secs(1);
        let a = Actionable::new(1, 60_000, Some(deadline));
        assert!(a.until() < deadline);
    }
}
