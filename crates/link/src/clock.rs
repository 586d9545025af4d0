//! The plugin's clock: the time each frame carries ([`Clock`]), real or virtual, and what the
//! `clock` verb reads and changes ([`ClockChange`], [`ClockReading`]).
//!
//! On the real clock a frame's time follows the wall clock. On the virtual clock it is the
//! plugin's own and moves only by steps: one per frame while it runs, none while it is paused
//! except as it is told (`clock run`, a settle that waits, a gesture's hold). Either way it never
//! runs backwards, and a switch continues from the time reached. The render side owns the clock
//! and changes it only at frame boundaries; the service sees it through [`ClockShare`].

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Which clock a frame's time follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClockMode {
    /// The wall clock (the default).
    #[default]
    Real,
    /// The plugin's own time, moved in steps: the same commands see the same times.
    Virtual,
}

impl ClockMode {
    /// The mode's name as answers and `WINIT_AUTOMATION_CLOCK` spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            ClockMode::Real => "real",
            ClockMode::Virtual => "virtual",
        }
    }

    /// Parses `real` or `virtual` (`WINIT_AUTOMATION_CLOCK`, any case).
    pub fn parse(s: &str) -> Option<ClockMode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "real" => Some(ClockMode::Real),
            "virtual" => Some(ClockMode::Virtual),
            _ => None,
        }
    }
}

/// The step a virtual clock takes per frame unless told otherwise: a 60 Hz frame, rounded.
pub const DEFAULT_STEP: Duration = Duration::from_millis(16);

/// A change the `clock` verb makes, carried out at a frame boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockChange {
    /// Nothing: the answer says how the clock stands.
    Read,
    /// Stop time: the virtual clock, paused at the time reached.
    Pause,
    /// The virtual clock moves one step per frame again (the real clock runs anyway).
    Resume,
    /// Back to the wall clock, continuing from the time reached.
    Real,
    /// The virtual clock, paused at the time reached; `step` sets the step per frame.
    Virtual {
        /// The new step, if one is given.
        step: Option<Duration>,
    },
    /// Moves the virtual clock on by this much (one stage of `clock run`).
    Advance(Duration),
}

/// How the clock stands, for the `clock` verb's answer (the service formats it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockReading {
    /// Which clock.
    pub mode: ClockMode,
    /// The virtual clock moves only when told (always `false` on the real clock).
    pub paused: bool,
    /// The frame's time, since the plugin started.
    pub time: Duration,
    /// The virtual clock's step per frame.
    pub step: Duration,
    /// The frames drawn since the plugin started, this one included.
    pub frames: u64,
}

/// The clock's state that the service reads: its mode, the time of the last published frame,
/// and whether a settle wants virtual time to move. Atomics: neither side waits.
#[derive(Debug, Default)]
pub struct ClockShare {
    virtual_clock: AtomicBool,
    paused: AtomicBool,
    published_micros: AtomicU64,
    step_micros: AtomicU64,
    driven: AtomicBool,
    /// The frame that took the service's last step.
    driven_in: AtomicU64,
}

impl ClockShare {
    /// Whether the clock is virtual.
    pub fn is_virtual(&self) -> bool {
        self.virtual_clock.load(Ordering::SeqCst)
    }

    /// Whether the virtual clock is paused (moves only when told).
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    /// The time of the last published frame.
    pub fn published_time(&self) -> Duration {
        Duration::from_micros(self.published_micros.load(Ordering::SeqCst))
    }

    /// The virtual clock's step per frame (the default before the first frame).
    pub fn step(&self) -> Duration {
        match self.step_micros.load(Ordering::SeqCst) {
            0 => DEFAULT_STEP,
            micros => Duration::from_micros(micros),
        }
    }

    /// The service, waiting for a settle, asks for a frame: that frame moves the virtual clock
    /// one step. Frames the app draws by itself meanwhile move nothing, so a settle takes as
    /// many steps as the frames it asked for, however many the app drew.
    pub fn drive(&self) {
        self.driven.store(true, Ordering::SeqCst);
    }

    /// Whether the service's last step is still to be taken, or was taken by a frame after
    /// `published` (its effect is not in the trees yet): the service asks for the next step only
    /// once it has seen what the last one did, so every run moves time in the same steps.
    pub fn step_outstanding(&self, published: u64) -> bool {
        self.driven.load(Ordering::SeqCst) || self.driven_in.load(Ordering::SeqCst) > published
    }

    /// The render side takes the service's step in frame `building`, if it asked for one.
    fn take_drive(&self, building: u64) -> bool {
        let taken = self.driven.swap(false, Ordering::SeqCst);
        if taken {
            self.driven_in.store(building, Ordering::SeqCst);
        }
        taken
    }
}

/// The render side's clock.
#[derive(Debug)]
pub(crate) struct Clock {
    mode: ClockMode,
    /// The virtual clock moves one step per frame.
    running: bool,
    step: Duration,
    /// Real: the time at `anchor`; virtual: the time.
    base: Duration,
    anchor: Instant,
    /// The open (or last) frame's time, and the one before's.
    frame: Duration,
    previous: Duration,
}

impl Clock {
    /// A clock at time zero now; a virtual one starts paused.
    pub fn new(mode: ClockMode) -> Clock {
        Clock {
            mode,
            running: false,
            step: DEFAULT_STEP,
            base: Duration::ZERO,
            anchor: Instant::now(),
            frame: Duration::ZERO,
            previous: Duration::ZERO,
        }
    }

    fn now(&self, wall: Instant) -> Duration {
        match self.mode {
            ClockMode::Real => self.base + wall.saturating_duration_since(self.anchor),
            ClockMode::Virtual => self.base,
        }
    }

    /// A frame opens: its time is the clock's now (never before the last frame's).
    pub fn open_frame(&mut self, wall: Instant) {
        self.previous = self.frame;
        self.frame = self.now(wall).max(self.frame);
    }

    /// The open frame's time and the step since the frame before.
    pub fn frame_time(&self) -> (Duration, Duration) {
        (self.frame, self.frame.saturating_sub(self.previous))
    }

    /// How far frame `building` moves the virtual clock by itself: a step while it runs or a
    /// settle drives it, `gate` (the least a timed gate still waits, capped at a step) otherwise.
    pub fn own_advance(
        &self,
        share: &ClockShare,
        gate: Option<Duration>,
        building: u64,
    ) -> Option<Duration> {
        if self.mode != ClockMode::Virtual {
            return None;
        }
        if share.take_drive(building) || self.running {
            return Some(self.step);
        }
        gate.map(|left| left.min(self.step))
            .filter(|d| !d.is_zero())
    }

    /// Moves the virtual clock on (the real clock is not moved).
    pub fn advance(&mut self, by: Duration) {
        if self.mode == ClockMode::Virtual {
            self.base += by;
            self.frame = self.base;
        }
    }

    /// Carries out a `clock` change, at `wall`.
    pub fn apply(&mut self, change: ClockChange, wall: Instant) {
        match change {
            ClockChange::Read => {}
            ClockChange::Advance(by) => self.advance(by),
            ClockChange::Resume => self.running = self.mode == ClockMode::Virtual,
            ClockChange::Pause | ClockChange::Virtual { .. } => {
                if self.mode == ClockMode::Real {
                    // The time of the frame the change is carried out in (it opened a moment
                    // before): the app sees that time, and the clock stands there; the wall's
                    // time since then would move it by a fraction of a millisecond.
                    let _ = wall;
                    self.base = self.frame;
                    self.mode = ClockMode::Virtual;
                }
                self.running = false;
                if let ClockChange::Virtual { step: Some(step) } = change {
                    self.step = step;
                }
            }
            ClockChange::Real => {
                if self.mode == ClockMode::Virtual {
                    self.base = self.base.max(self.frame);
                    self.anchor = wall;
                    self.mode = ClockMode::Real;
                    self.running = false;
                }
            }
        }
    }

    /// How the clock stands at frame `frames`.
    pub fn reading(&self, frames: u64) -> ClockReading {
        ClockReading {
            mode: self.mode,
            paused: self.mode == ClockMode::Virtual && !self.running,
            time: self.frame,
            step: self.step,
            frames,
        }
    }

    /// Tells the service how the clock stands, as of a frame just published.
    pub fn share(&self, share: &ClockShare) {
        share
            .virtual_clock
            .store(self.mode == ClockMode::Virtual, Ordering::SeqCst);
        share.paused.store(
            self.mode == ClockMode::Virtual && !self.running,
            Ordering::SeqCst,
        );
        let micros = u64::try_from(self.frame.as_micros()).unwrap_or(u64::MAX);
        share.published_micros.store(micros, Ordering::SeqCst);
        let step = u64::try_from(self.step.as_micros()).unwrap_or(u64::MAX);
        share.step_micros.store(step, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_virtual_clock_moves_only_when_told() {
        let wall = Instant::now();
        let share = ClockShare::default();
        let mut clock = Clock::new(ClockMode::Virtual);
        clock.open_frame(wall + ms(500));
        assert_eq!(
            clock.frame_time(),
            (ms(0), ms(0)),
            "paused: the wall clock moves nothing"
        );
        assert_eq!(clock.own_advance(&share, None, 1), None);
        // A gate waiting 5 ms more moves it 5 ms, not a whole step.
        assert_eq!(clock.own_advance(&share, Some(ms(5)), 1), Some(ms(5)));
        clock.apply(ClockChange::Advance(ms(100)), wall);
        assert_eq!(clock.frame_time(), (ms(100), ms(100)));
        clock.apply(ClockChange::Resume, wall);
        assert_eq!(clock.own_advance(&share, None, 1), Some(DEFAULT_STEP));
        clock.apply(ClockChange::Virtual { step: Some(ms(40)) }, wall);
        assert!(clock.reading(7).paused, "`clock virtual` pauses");
        share.drive();
        assert_eq!(
            clock.own_advance(&share, None, 1),
            Some(ms(40)),
            "a settle drives it"
        );
        assert_eq!(
            clock.own_advance(&share, None, 1),
            None,
            "one step per frame asked for"
        );
    }

    #[test]
    fn switching_never_runs_time_backwards() {
        let wall = Instant::now();
        let mut clock = Clock::new(ClockMode::Real);
        clock.open_frame(clock.anchor + ms(300));
        assert_eq!(clock.frame_time().0, ms(300));
        // To virtual at the time of the frame it is carried out in (the app saw 300 ms, though
        // the wall moved on 10 ms since the frame opened); the virtual clock then runs ahead.
        clock.apply(ClockChange::Pause, clock.anchor + ms(310));
        assert_eq!(clock.reading(1).time, ms(300));
        clock.apply(ClockChange::Advance(ms(1000)), wall);
        assert_eq!(clock.frame_time().0, ms(1300));
        // Back to real: on from the virtual time reached, with the wall clock's pace.
        let at = Instant::now();
        clock.apply(ClockChange::Real, at);
        clock.open_frame(at + ms(20));
        assert_eq!(clock.frame_time(), (ms(1320), ms(20)));
        assert_eq!(clock.reading(3).mode, ClockMode::Real);
        // An advance of the real clock is nothing.
        clock.apply(ClockChange::Advance(ms(50)), at);
        assert_eq!(clock.frame_time().0, ms(1320));
    }
}
