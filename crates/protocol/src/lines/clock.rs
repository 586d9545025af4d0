//! The `clock` answer (docs/protocol.md, section 4.9): [`ClockAnswer`], written and parsed back.

use std::fmt;
use std::time::Duration;

use super::malformed::malformed;
use crate::ParseError;

/// The body of a `clock` answer, after the `frame N` line every app-side answer starts with:
///
/// ```text
/// clock virtual paused time=3200ms step=16ms frames=42
/// clock real time=81234ms frames=4711
/// ```
///
/// Times are whole milliseconds, rounded down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockAnswer {
    /// The frame it was read in.
    pub frame: u64,
    /// Whether the clock is virtual (else it follows the wall clock).
    pub virtual_clock: bool,
    /// Whether the virtual clock is paused: it moves only when a command moves it.
    pub paused: bool,
    /// The frame's time since the app's plugin started.
    pub time: Duration,
    /// The virtual clock's step per frame (`None` on the real clock).
    pub step: Option<Duration>,
    /// The frames drawn since the app's plugin started.
    pub frames: u64,
}

const HINT: &str = "a clock answer is `frame N` then `clock real|virtual [paused|running] time=MSms [step=MSms] frames=N`";

impl ClockAnswer {
    /// Parses the body of a `clock` answer.
    pub fn parse(body: &str) -> Result<ClockAnswer, ParseError> {
        let mut frame = None;
        let mut clock = None;
        for line in body.lines() {
            match line.split_once(' ') {
                Some(("frame", n)) => {
                    frame = Some(
                        n.parse()
                            .map_err(|_| malformed("clock answer line", line, HINT))?,
                    )
                }
                Some(("clock", rest)) => clock = Some(clock_line(line, rest)?),
                _ => {}
            }
        }
        let (virtual_clock, paused, time, step, frames) =
            clock.ok_or_else(|| malformed("clock answer: no clock line", body, HINT))?;
        Ok(ClockAnswer {
            frame: frame.ok_or_else(|| malformed("clock answer: no frame", body, HINT))?,
            virtual_clock,
            paused,
            time,
            step,
            frames,
        })
    }
}

type Fields = (bool, bool, Duration, Option<Duration>, u64);

/// The words after `clock`: the mode, the virtual clock's state, then `key=value` fields
/// (a newer app's unknown words are skipped).
fn clock_line(line: &str, rest: &str) -> Result<Fields, ParseError> {
    let bad = || malformed("clock answer line", line, HINT);
    let ms = |v: &str| {
        v.strip_suffix("ms")
            .and_then(|n| n.parse().ok())
            .map(Duration::from_millis)
            .ok_or_else(bad)
    };
    let mut words = rest.split(' ');
    let virtual_clock = match words.next() {
        Some("virtual") => true,
        Some("real") => false,
        _ => return Err(bad()),
    };
    let (mut paused, mut time, mut step, mut frames) = (false, None, None, None);
    for word in words {
        match word.split_once('=') {
            Some(("time", v)) => time = Some(ms(v)?),
            Some(("step", v)) => step = Some(ms(v)?),
            Some(("frames", v)) => frames = Some(v.parse().map_err(|_| bad())?),
            None if word == "paused" => paused = true,
            _ => {}
        }
    }
    Ok((
        virtual_clock,
        paused,
        time.ok_or_else(bad)?,
        step,
        frames.ok_or_else(bad)?,
    ))
}

impl ClockAnswer {
    /// The clock line alone, with its newline (the app writes it after the `frame` line).
    pub fn clock_line(&self) -> String {
        let mut line = String::new();
        let _ = self.write_clock_line(&mut line);
        line
    }

    fn write_clock_line(&self, f: &mut impl fmt::Write) -> fmt::Result {
        let ms = |d: Duration| d.as_millis();
        if self.virtual_clock {
            let state = if self.paused { "paused" } else { "running" };
            write!(f, "clock virtual {state} time={}ms", ms(self.time))?;
        } else {
            write!(f, "clock real time={}ms", ms(self.time))?;
        }
        if let Some(step) = self.step {
            write!(f, " step={}ms", ms(step))?;
        }
        writeln!(f, " frames={}", self.frames)
    }
}

impl fmt::Display for ClockAnswer {
    /// The whole body: `frame N`, then the clock line, each with its newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "frame {}", self.frame)?;
        self.write_clock_line(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answer_parses_back_to_itself() {
        for body in [
            "frame 59\nclock virtual paused time=3000ms step=16ms frames=59\n",
            "frame 60\nclock virtual running time=3016ms step=16ms frames=60\n",
            "frame 63\nclock real time=3530ms frames=63\n",
        ] {
            let answer = ClockAnswer::parse(body).unwrap();
            assert_eq!(answer.to_string(), body);
        }
        let a = ClockAnswer::parse(
            "frame 9\nclock virtual paused time=250ms step=16ms frames=9 tz=utc\n",
        )
        .unwrap();
        assert!(
            a.virtual_clock && a.paused,
            "a newer app's field is skipped"
        );
        assert_eq!(a.time, Duration::from_millis(250));
        assert!(ClockAnswer::parse("frame 9\nclock sundial time=1ms frames=1\n").is_err());
        assert!(ClockAnswer::parse("frame 9\n").is_err());
    }
}
