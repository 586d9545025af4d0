//! `clock`'s command line both ways: `clock`, `clock pause`, `clock resume`, `clock real`,
//! `clock virtual [--step MS]`, `clock run MS [--step MS]`.

use crate::args::Args;
use crate::command::ClockCommand;
use crate::lexer::quote;
use crate::{ErrorCode, ParseError};

/// The most frames one `clock run` draws: its MS over its step.
pub const MAX_RUN_FRAMES: u64 = 10_000;

/// The longest step a virtual clock takes per frame, in milliseconds (a minute).
pub const MAX_STEP_MS: u64 = 60_000;

const USAGE: &str = "write `clock` (how it stands), `clock pause`, `clock resume`, `clock real`, `clock virtual [--step MS]` or `clock run MS [--step MS]`";

/// `clock [pause|resume|real|virtual|run MS] [--step MS]`.
pub(super) fn clock_from_args(a: &Args) -> Result<ClockCommand, ParseError> {
    let Some(what) = a.positional.first().map(|t| t.text()) else {
        a.done(0)?;
        return no_step(a, "clock").map(|()| ClockCommand::Read);
    };
    let step_ms = step_from_args(a)?;
    let command = match what.as_str() {
        "pause" => ClockCommand::Pause,
        "resume" => ClockCommand::Resume,
        "real" => ClockCommand::Real,
        "virtual" => ClockCommand::Virtual { step_ms },
        "run" => {
            let ms = u64::from(a.size_at(1, "MS, how far to move the virtual time")?);
            a.done(2)?;
            let frames = ms.div_ceil(step_ms.unwrap_or(16));
            if frames > MAX_RUN_FRAMES {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!(
                        "clock run {ms} would draw {frames} frames; one run draws at most {MAX_RUN_FRAMES}"
                    ),
                    format!(
                        "take longer steps (--step {}) or run in parts",
                        ms.div_ceil(MAX_RUN_FRAMES)
                    ),
                ));
            }
            return Ok(ClockCommand::Run { ms, step_ms });
        }
        other => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                format!(
                    "clock takes pause, resume, real, virtual or run, not {}",
                    quote(other)
                ),
                USAGE,
            ));
        }
    };
    a.done(1)?;
    if !matches!(command, ClockCommand::Virtual { .. }) {
        no_step(a, &format!("clock {what}"))?;
    }
    Ok(command)
}

/// `--step MS`: at least 1, at most [`MAX_STEP_MS`].
fn step_from_args(a: &Args) -> Result<Option<u64>, ParseError> {
    let step = a.number::<u64>("step")?;
    match step {
        Some(ms) if ms == 0 || ms > MAX_STEP_MS => Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("--step {ms} is out of range: a step is 1 to {MAX_STEP_MS} milliseconds"),
            "--step 16 is a 60 Hz frame",
        )),
        step => Ok(step),
    }
}

/// Refuses `--step` where it sets nothing.
fn no_step(a: &Args, written: &str) -> Result<(), ParseError> {
    if a.has("step") {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("`{written}` takes no --step"),
            "--step goes with `clock virtual` (the step per frame) or `clock run MS`",
        ));
    }
    Ok(())
}

/// The positional words of a `clock` command.
pub(super) fn clock_words(clock: &ClockCommand) -> Vec<String> {
    match clock {
        ClockCommand::Read => vec![],
        ClockCommand::Pause => vec!["pause".into()],
        ClockCommand::Resume => vec!["resume".into()],
        ClockCommand::Real => vec!["real".into()],
        ClockCommand::Virtual { .. } => vec!["virtual".into()],
        ClockCommand::Run { ms, .. } => vec!["run".into(), ms.to_string()],
    }
}

/// The `--step` a `clock` command writes.
pub(super) fn clock_step(clock: &ClockCommand) -> Option<u64> {
    match clock {
        ClockCommand::Virtual { step_ms } | ClockCommand::Run { step_ms, .. } => *step_ms,
        _ => None,
    }
}
