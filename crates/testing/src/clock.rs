//! The app's clock as a test holds it: [`App::clock`] gives a [`Clock`] that reads it, stops
//! it, moves it on and switches it between the wall clock and the virtual one (the protocol's
//! `clock` verb, docs/protocol.md section 4.9).

use std::time::Duration;

use super::app::App;
use winit_automation_protocol::{ClockAnswer, ClockCommand, Command};

/// The app's clock ([`App::clock`]). On the virtual clock (start the app with
/// [`Spawn::virtual_clock`](super::Spawn::virtual_clock)) time stands still until the test moves
/// it, so a tooltip's delay or an animation costs frames, not seconds, and two runs of the same
/// test see the same times (the same screenshots).
///
/// ```no_run
/// use std::time::Duration;
/// use winit_automation_testing::{By, Spawn};
///
/// let app = Spawn::example("egui_gallery").headless(1280, 800).virtual_clock().start();
/// app.get_by_role_and_name("button", "Tooltips").click();
/// app.clock().run_for(Duration::from_secs(1));
/// assert!(app.clock().now().time >= Duration::from_secs(1));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Clock<'a> {
    app: &'a App,
}

impl App {
    /// The app's clock: read it ([`Clock::now`]), move the virtual clock on
    /// ([`Clock::run_for`]), pause, resume, switch.
    pub fn clock(&self) -> Clock<'_> {
        Clock { app: self }
    }
}

impl Clock<'_> {
    /// How the clock stands (`clock`): real or virtual, paused, the frame's time, the step, the
    /// frames drawn.
    #[track_caller]
    pub fn now(&self) -> ClockAnswer {
        self.send(ClockCommand::Read)
    }

    /// Moves the virtual clock on by `span`, one step per frame (`clock run`), and returns once
    /// the last step's frame is published. Fails the test on the real clock (`clock_state`).
    #[track_caller]
    pub fn run_for(&self, span: Duration) -> ClockAnswer {
        self.send(ClockCommand::Run {
            ms: millis(span),
            step_ms: None,
        })
    }

    /// [`Clock::run_for`] with steps of `step` (`clock run MS --step MS`): fewer, longer frames.
    #[track_caller]
    pub fn run_for_in_steps(&self, span: Duration, step: Duration) -> ClockAnswer {
        self.send(ClockCommand::Run {
            ms: millis(span),
            step_ms: Some(millis(step)),
        })
    }

    /// Stops time (`clock pause`): the virtual clock, standing still at the time reached.
    #[track_caller]
    pub fn pause(&self) -> ClockAnswer {
        self.send(ClockCommand::Pause)
    }

    /// The virtual clock moves one step per frame the app draws (`clock resume`).
    #[track_caller]
    pub fn resume(&self) -> ClockAnswer {
        self.send(ClockCommand::Resume)
    }

    /// Switches to the virtual clock, paused at the time reached (`clock virtual`), with `step`
    /// per frame when given.
    #[track_caller]
    pub fn set_virtual(&self, step: Option<Duration>) -> ClockAnswer {
        self.send(ClockCommand::Virtual {
            step_ms: step.map(millis),
        })
    }

    /// Back to the wall clock, on from the time reached (`clock real`).
    #[track_caller]
    pub fn set_real(&self) -> ClockAnswer {
        self.send(ClockCommand::Real)
    }

    #[track_caller]
    fn send(&self, clock: ClockCommand) -> ClockAnswer {
        let body = self.app.ok_command(&Command::Clock(clock));
        match ClockAnswer::parse(&body) {
            Ok(answer) => answer,
            Err(e) => panic!("the app's clock answer does not read: {e}\n{body}"),
        }
    }
}

/// Whole milliseconds, at least 1 (the protocol's smallest span).
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)
}
