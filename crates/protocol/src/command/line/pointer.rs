//! The pointer verbs' parts of a command line (`drag`, `scroll`, `stroke`, `pinch`, and the
//! buttons and moves they share), read by `from_args` in `line.rs`.

use super::act_from_args;
use crate::args::Args;
use crate::command::{Button, Command, DragMotion};
use crate::lexer::quote;
use crate::target::Point;
use crate::{ErrorCode, ParseError};

/// `--steps N`, from 1 to [`DragMotion::MAX_STEPS`].
pub(super) fn steps_from_args(a: &Args) -> Result<Option<u32>, ParseError> {
    match a.number("steps")? {
        Some(0) => Err(ParseError::new(
            ErrorCode::BadArgument,
            "--steps 0 makes no move",
            "give --steps 1 or more (the moves on the way, one frame each)",
        )),
        Some(n) if n > DragMotion::MAX_STEPS => Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("--steps {n} is more than {} moves", DragMotion::MAX_STEPS),
            format!(
                "give --steps {} at most (each move takes a frame of its own)",
                DragMotion::MAX_STEPS
            ),
        )),
        steps => Ok(steps),
    }
}

/// A gesture's time flag (`--hold MS`, `--dwell MS`), at most [`DragMotion::MAX_MS`].
pub(super) fn gesture_ms(a: &Args, name: &str) -> Result<Option<u64>, ParseError> {
    match a.number(name)? {
        Some(ms) if ms > DragMotion::MAX_MS => Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("--{name} {ms} is longer than {} ms", DragMotion::MAX_MS),
            format!(
                "give --{name} {} at most (ten minutes); a longer gesture is a down, a wait and an up",
                DragMotion::MAX_MS
            ),
        )),
        ms => Ok(ms),
    }
}

/// `stroke POINT POINT [POINT...]`: two points at least.
pub(super) fn stroke_from_args(a: &Args) -> Result<Command, ParseError> {
    let points = a.token_targets()?;
    match points.len() {
        0 => return Err(a.missing("the stroke's points")),
        1 => {
            return Err(ParseError::new(
                ErrorCode::MissingArgument,
                "a stroke needs two points at least",
                "write stroke X,Y X,Y [X,Y...]: it presses at the first and lets go at the last",
            ));
        }
        _ => {}
    }
    Ok(Command::Stroke {
        points,
        button: button_from_args(a),
        modifiers: a.modifiers()?,
        opts: act_from_args(a)?,
    })
}

/// `pinch TARGET SCALE`, the scale a finite number above 0.
pub(super) fn pinch_from_args(a: &Args) -> Result<Command, ParseError> {
    let (target, at) = a.target_at(0, "a target")?;
    let scale = a.float_at(at, "SCALE")?;
    a.done(at + 1)?;
    if scale <= 0.0 {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("a pinch's SCALE must be above 0, not {scale}"),
            "write e.g. pinch TARGET 2 (spread: zoom in) or pinch TARGET 0.5 (close: zoom out)",
        ));
    }
    let pan = match a.value("pan") {
        None => None,
        Some(t) => Some(Point::parse(&t.text()).ok_or_else(|| {
            ParseError::new(
                ErrorCode::BadArgument,
                format!("--pan takes DX,DY, not {}", quote(&t.text())),
                "write e.g. --pan 0,-100 (logical pixels; negative DY moves up)",
            )
        })?),
    };
    Ok(Command::Pinch {
        target,
        scale,
        pan,
        opts: act_from_args(a)?,
    })
}

/// `click`'s button: `--right`, `--middle` or the left one.
pub(super) fn button_from_args(a: &Args) -> Button {
    if a.has("right") {
        Button::Right
    } else if a.has("middle") {
        Button::Middle
    } else {
        Button::Left
    }
}

/// `drag FROM [to] TO`: two targets, the word `to` between them optional.
pub(super) fn drag_from_args(a: &Args) -> Result<Command, ParseError> {
    let (from, mut at) = a.target_at(0, "a start target")?;
    if a.positional
        .get(at)
        .is_some_and(|t| t.quoted.is_none() && t.bare == "to")
    {
        at += 1;
    }
    let (to, used) = a.target_at(at, "an end target")?;
    a.done(used)?;
    Ok(Command::Drag {
        from,
        to,
        motion: DragMotion {
            steps: steps_from_args(a)?,
            hold_ms: gesture_ms(a, "hold")?,
            dwell_ms: gesture_ms(a, "dwell")?,
        },
        modifiers: a.modifiers()?,
        opts: act_from_args(a)?,
    })
}

/// `scroll TARGET DX DY`.
pub(super) fn scroll_from_args(a: &Args) -> Result<Command, ParseError> {
    let (target, at) = a.target_at(0, "a target")?;
    let dx = a.float_at(at, "DX")?;
    let dy = a.float_at(at + 1, "DY")?;
    a.done(at + 2)?;
    Ok(Command::Scroll {
        target,
        dx,
        dy,
        modifiers: a.modifiers()?,
        opts: act_from_args(a)?,
    })
}
