//! The `clock` verb's plan (stages of clock changes the render side
//! carries out at frame boundaries) and its answer's line, written from the render side's
//! reading (`clock virtual paused time=3200ms step=16ms frames=42`).

use std::time::Duration;

use winit_automation_link::wiring::{Plan, StageWait};
use winit_automation_link::{ClockChange, ClockMode, ClockReading, ClockShare, Stage, Step, Still};
use winit_automation_protocol::{ClockAnswer, ClockCommand, ErrorCode, Failure};

/// The plan of a `clock` command: one stage with its change, or, for `clock run`, one stage per
/// step, each moving the virtual clock by a step (the last by what is left). Refused
/// `clock_state` when `clock run` finds the real clock.
pub fn plan_clock(clock: &ClockCommand, share: &ClockShare) -> Result<Plan, Failure> {
    let change = |c| vec![Stage::from(vec![Step::Clock(c)])];
    let stages = match *clock {
        ClockCommand::Read => change(ClockChange::Read),
        ClockCommand::Pause => change(ClockChange::Pause),
        ClockCommand::Resume => change(ClockChange::Resume),
        ClockCommand::Real => change(ClockChange::Real),
        ClockCommand::Virtual { step_ms } => change(ClockChange::Virtual {
            step: step_ms.map(Duration::from_millis),
        }),
        ClockCommand::Run { ms, step_ms } => {
            if !share.is_virtual() {
                return Err(Failure::new(
                    ErrorCode::ClockState,
                    format!(
                        "clock run {ms} moves the virtual clock, and the app is on the real clock"
                    ),
                    "switch first: `clock virtual` (time stands still until run) or start the app with WINIT_AUTOMATION_CLOCK=virtual",
                ));
            }
            run_stages(
                Duration::from_millis(ms),
                step_ms.map_or(share.step(), Duration::from_millis),
            )
        }
    };
    Ok(Plan {
        window: 0,
        stages,
        summary: String::new(),
        press: None,
    })
}

/// The most frames a `clock run` waits for the UI to hold still before its first step.
const QUIET_FRAMES: u64 = 30;

/// `total` in stages of `step`, one per frame: the last takes what is left. The first waits for
/// the UI to hold still at the time it stands at ([`StageWait::Quiet`]), so each run moves time from
/// the same state (a window a click opened has laid out).
fn run_stages(total: Duration, step: Duration) -> Vec<Stage> {
    let step = step.max(Duration::from_micros(1));
    let mut stages = Vec::new();
    let mut left = total;
    while !left.is_zero() {
        let by = left.min(step);
        left -= by;
        let gate = if stages.is_empty() {
            StageWait::Quiet {
                still: Still::default(),
                frames: QUIET_FRAMES,
            }
        } else {
            StageWait::Frame
        };
        stages.push(Stage {
            wait: gate,
            steps: vec![Step::Clock(ClockChange::Advance(by))],
        });
    }
    stages
}

/// The answer's clock line (the protocol's [`ClockAnswer`] writes it): `clock virtual paused
/// time=3200ms step=16ms frames=42`, on the real clock `clock real time=... frames=...`.
pub fn clock_line(reading: &ClockReading) -> String {
    let virtual_clock = reading.mode == ClockMode::Virtual;
    ClockAnswer {
        frame: reading.frames,
        virtual_clock,
        paused: reading.paused,
        time: reading.time,
        step: virtual_clock.then_some(reading.step),
        frames: reading.frames,
    }
    .clock_line()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_is_a_stage_per_step_and_the_last_takes_what_is_left() {
        let stages = run_stages(Duration::from_millis(250), Duration::from_millis(100));
        let by: Vec<_> = stages
            .iter()
            .map(|s| match s.steps.as_slice() {
                [Step::Clock(ClockChange::Advance(d))] => d.as_millis(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(by, [100, 100, 50]);
    }

    #[test]
    fn run_is_refused_on_the_real_clock() {
        let share = ClockShare::default();
        let refused = plan_clock(
            &ClockCommand::Run {
                ms: 100,
                step_ms: None,
            },
            &share,
        )
        .unwrap_err();
        assert_eq!(refused.code, ErrorCode::ClockState);
        assert!(plan_clock(&ClockCommand::Read, &share).is_ok());
    }

    #[test]
    fn the_line_says_mode_time_step_and_frames() {
        let reading = ClockReading {
            mode: ClockMode::Virtual,
            paused: true,
            time: Duration::from_millis(3200),
            step: Duration::from_millis(16),
            frames: 42,
        };
        assert_eq!(
            clock_line(&reading),
            "clock virtual paused time=3200ms step=16ms frames=42\n"
        );
    }
}
