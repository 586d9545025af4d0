//! Commands: [`Command`], its options, and what a command says about itself.
//!
//! `Command::parse` accepts what docs/protocol.md describes; `Command::to_line` (and `Display`)
//! writes the canonical form, which parses back to an equal command. Which flags a verb takes, how
//! they relate and the order they are written in come from the verb table (`verbs.rs`);
//! `command/line.rs` only maps each verb's positional arguments and flag values to its variant and
//! back. There the two directions of each verb, `from_args` and its inverse (`positional_words`
//! and `set_flags`), sit side by side, so a change to one is seen next to the other.

use super::key::{KeyChord, Modifiers};
use super::names::Label;
use super::target::{Selector, Target};
use super::verbs::Verb;

mod file;
mod line;

pub(crate) use file::file_line;
#[cfg(test)]
mod tests;

/// What a secret text (`--secret`, or text for a password field) is written as wherever a
/// command is kept (the journal, traces, recordings): one fixed word that does not reveal the
/// text's length. A script line holding it with `--secret` is filled from the environment
/// variable it names when the script runs.
pub const SECRET_PLACEHOLDER: &str = "$WINIT_AUTOMATION_SECRET";

/// How long a `wait`, a `settle` or an action's `--settle` waits without a `--timeout`, in
/// milliseconds.
pub const DEFAULT_WAIT_MS: u64 = 5_000;

/// How long `audit --keyboard` may take in the app, in milliseconds: its walk of Tab takes two
/// frames a press, at most 200 presses (two minutes is 3 frames a second).
pub const AUDIT_KEYBOARD_MS: u64 = 120_000;

/// Which projection of the tree a snapshot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Projection {
    /// What a person can see (the default).
    #[default]
    Regular,
    /// Actionable nodes and the labels they need (`-i`).
    Interactive,
    /// The whole tree (`--raw`).
    Raw,
}

/// Options of `snapshot`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SnapshotOptions {
    /// The projection.
    pub projection: Projection,
    /// `--depth N`: levels below the scope root to show.
    pub depth: Option<u32>,
    /// `--scope TARGET`: the subtree to show.
    pub scope: Option<Target>,
    /// `--force`: print the tree even if it is unchanged since the last snapshot.
    pub force: bool,
    /// `--diff`: print changes against the previous snapshot.
    pub diff: bool,
    /// `--bounds` (with `-i`): print each node's bounds; the other projections always do.
    pub bounds: bool,
    /// `--actions` (with `-i`): print each node's actions; the other projections always do.
    pub actions: bool,
    /// `--since FRAME`: the frame the client last saw; `unchanged since frame N` when nothing
    /// changed after it, else the tree (with `--diff`, its changes since then).
    pub since: Option<u64>,
    /// `--max-bytes N`: the most bytes the answer may take. Whole lines are left out of the tree
    /// (or diff) part, the outline first, and one last line says what; the windows, the focused
    /// node, the last action's target and their ancestors are always kept (docs/protocol.md
    /// section 6.2, "Size cap").
    pub max_bytes: Option<u64>,
}

/// Options every action takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ActOptions {
    /// `--settle`: answer once the tree has been unchanged for some frames, with a diff.
    pub settle: bool,
    /// `--frames K`: how many unchanged frames count as settled (needs `--settle`).
    pub frames: Option<u32>,
    /// `--timeout MS`: give up after this long.
    pub timeout_ms: Option<u64>,
    /// `--wait MS`: wait up to this long for the target to be actionable (one node, shown,
    /// enabled, not covered, its bounds unchanged over two frames) before acting.
    pub wait_ms: Option<u64>,
    /// `--no-scroll` (pointer verbs): refuse a target scrolled out of view instead of scrolling
    /// it into view first.
    pub no_scroll: bool,
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub enum Button {
    #[default]
    Left,
    Right,
    Middle,
}

/// How `click` presses: once, twice, or held down (a long press).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Press {
    /// One press and release.
    #[default]
    Single,
    /// `--double`: two presses and releases.
    Double,
    /// `--hold MS`: one press, released after this many milliseconds.
    Hold(u64),
}

/// How `drag` moves, each `None` for its default (docs/protocol.md section 4.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DragMotion {
    /// `--steps N`: the moves on the way, each in a frame of its own (1 or more).
    pub steps: Option<u32>,
    /// `--hold MS`: how long the button stays down before the first move.
    pub hold_ms: Option<u64>,
    /// `--dwell MS`: the most time spent at the destination, waiting for the UI to hold still,
    /// before the release.
    pub dwell_ms: Option<u64>,
}

impl DragMotion {
    /// Moves on the way when `--steps` is not given.
    pub const DEFAULT_STEPS: u32 = 10;
    /// Milliseconds the button stays down before the first move when `--hold` is not given.
    pub const DEFAULT_HOLD_MS: u64 = 100;
    /// The most milliseconds spent at the destination when `--dwell` is not given.
    pub const DEFAULT_DWELL_MS: u64 = 1_000;
    /// The most moves a `--steps` may ask for.
    pub const MAX_STEPS: u32 = 1_000;
    /// The longest `--hold` or `--dwell` (and `click --hold`), in milliseconds: ten minutes.
    pub const MAX_MS: u64 = 600_000;
    /// The least time between two moves on the way, in milliseconds (a move also waits for a
    /// frame of its own): a person's drag takes time, and toolkits read a drag's speed.
    pub const STEP_MS: u64 = 16;

    /// The moves on the way, at least one.
    pub fn steps(&self) -> u32 {
        self.steps.unwrap_or(Self::DEFAULT_STEPS).max(1)
    }

    /// How long the button stays down before the first move, in milliseconds.
    pub fn hold_ms(&self) -> u64 {
        self.hold_ms.unwrap_or(Self::DEFAULT_HOLD_MS)
    }

    /// The most time spent at the destination, in milliseconds.
    pub fn dwell_ms(&self) -> u64 {
        self.dwell_ms.unwrap_or(Self::DEFAULT_DWELL_MS)
    }
}

/// What a `trace` command does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceCommand {
    /// `trace start [--screenshots] [--replaceable]`: records every command answered from now on.
    Start {
        /// `--screenshots`: keep the frame after each action.
        screenshots: bool,
        /// `--replaceable`: a later `trace start` replaces this trace (dropping its steps)
        /// instead of being refused: for a trace recorded in the background (the harness's).
        replaceable: bool,
    },
    /// `trace save FILE`: writes the trace so far to FILE as one HTML file; it keeps running.
    Save {
        /// The file to write, as for `Stop`.
        file: std::path::PathBuf,
    },
    /// `trace stop FILE`: writes the trace to FILE as one HTML file and ends it.
    Stop {
        /// The file to write. The app takes an absolute path only (a relative one is refused when
        /// the command is carried out); [`Command::with_paths_from`] makes it absolute.
        file: std::path::PathBuf,
    },
}

impl TraceCommand {
    /// The file it writes: `None` for `start`.
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            TraceCommand::Start { .. } => None,
            TraceCommand::Save { file } | TraceCommand::Stop { file } => Some(file),
        }
    }
}

/// The environment variable that starts an app on the virtual clock (`virtual`) or the real one
/// (`real`, the default) from its first frame (docs/protocol.md section 4.9).
pub const CLOCK_ENV: &str = "WINIT_AUTOMATION_CLOCK";

/// What a `clock` command does (docs/protocol.md section 4.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockCommand {
    /// `clock`: how the clock stands.
    Read,
    /// `clock pause`: the virtual clock, standing still at the time reached.
    Pause,
    /// `clock resume`: the virtual clock moves one step per frame.
    Resume,
    /// `clock real`: the wall clock, on from the time reached.
    Real,
    /// `clock virtual [--step MS]`: the virtual clock, paused at the time reached.
    Virtual {
        /// The step per frame, in milliseconds (unchanged when `None`).
        step_ms: Option<u64>,
    },
    /// `clock run MS [--step MS]`: the virtual time moves MS milliseconds, a step per frame.
    Run {
        /// How far, in milliseconds.
        ms: u64,
        /// The step per frame for this run (the clock's own when `None`).
        step_ms: Option<u64>,
    },
}

/// A parsed command.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[allow(missing_docs)]
pub enum Command {
    /// `status`
    Status,
    /// `windows`
    Windows,
    /// `snapshot [-i|--raw] [--depth N] [--scope TARGET] [--force] [--diff]`
    Snapshot(SnapshotOptions),
    /// `find SELECTOR`
    Find { selector: Selector },
    /// `get TARGET`
    Get { target: Target },
    /// `wait SELECTOR [--gone] [--timeout MS]`
    Wait {
        selector: Selector,
        gone: bool,
        timeout_ms: Option<u64>,
    },
    /// `settle [--frames K] [--timeout MS]`
    Settle {
        frames: Option<u32>,
        timeout_ms: Option<u64>,
    },
    /// `clean [--keep N] [--dry-run]`: removes the directory's screenshots but the N newest
    Clean { keep: Option<u32>, dry_run: bool },
    /// `journal [--after N] [--wait MS]`: the journal entries after index N; with a wait, answered
    /// once there is one (or empty when the wait is over)
    Journal {
        after: Option<u64>,
        timeout_ms: Option<u64>,
    },
    /// `click TARGET [--double|--hold MS] [--right|--middle] [--modifiers MODS]`
    Click {
        target: Target,
        button: Button,
        press: Press,
        modifiers: Modifiers,
        opts: ActOptions,
    },
    /// `hover TARGET`
    Hover { target: Target, opts: ActOptions },
    /// `drag FROM [to] TO [--steps N] [--hold MS] [--dwell MS] [--modifiers MODS]`
    Drag {
        from: Target,
        to: Target,
        motion: DragMotion,
        modifiers: Modifiers,
        opts: ActOptions,
    },
    /// `scroll TARGET DX DY [--modifiers MODS]` (logical pixels; positive DY scrolls content up,
    /// showing what is below)
    Scroll {
        target: Target,
        dx: f64,
        dy: f64,
        modifiers: Modifiers,
        opts: ActOptions,
    },
    /// `stroke POINT POINT [POINT...] [--right|--middle] [--modifiers MODS]`: two points at least
    Stroke {
        points: Vec<Target>,
        button: Button,
        modifiers: Modifiers,
        opts: ActOptions,
    },
    /// `down TARGET [--right|--middle] [--modifiers MODS]`: the button stays down
    Down {
        target: Target,
        button: Button,
        modifiers: Modifiers,
        opts: ActOptions,
    },
    /// `move TARGET [--steps N]`: with the buttons `down` left pressed
    Move {
        target: Target,
        steps: Option<u32>,
        opts: ActOptions,
    },
    /// `up [--right|--middle]`: lets go of a button `down` pressed
    Up { button: Button, opts: ActOptions },
    /// `pinch TARGET SCALE [--pan DX,DY]`: two touches around the target's centre
    Pinch {
        target: Target,
        scale: f64,
        /// `--pan`: how far the fingers' centre moves, in logical pixels.
        pan: Option<super::target::Point>,
        opts: ActOptions,
    },
    /// `type TEXT [--secret]`
    Type {
        text: String,
        secret: bool,
        opts: ActOptions,
    },
    /// `fill TARGET TEXT [--secret]`
    Fill {
        target: Target,
        text: String,
        secret: bool,
        opts: ActOptions,
    },
    /// `key CHORD [CHORD...]`
    Key {
        chords: Vec<KeyChord>,
        opts: ActOptions,
    },
    /// `action TARGET NAME [VALUE]`
    Action {
        target: Target,
        action: accesskit::Action,
        value: Option<String>,
        opts: ActOptions,
    },
    /// `focus TARGET`
    Focus { target: Target, opts: ActOptions },
    /// `resize W H` (logical pixels)
    Resize {
        width: u32,
        height: u32,
        opts: ActOptions,
    },
    /// `screenshot [LABEL] [--ref TARGET]`
    Screenshot {
        label: Label,
        crop: Option<Target>,
        /// `--refs`: each interactive node's box and ref drawn onto the image.
        refs: bool,
    },
    /// `audit [TARGET] [--keyboard] [--screenshot LABEL]`
    Audit {
        /// The subtree to audit; `None`: the default window.
        scope: Option<Target>,
        /// `--keyboard`: also send Tab through the window and check what focus reaches (it moves
        /// the focus, then gives it back).
        keyboard: bool,
        /// `--screenshot LABEL`: write the frame with each finding's box and rule drawn on it.
        screenshot: Option<Label>,
    },
    /// `trace start [--screenshots]`, `trace save FILE` or `trace stop FILE`
    Trace(TraceCommand),
    /// `clock [pause|resume|real|virtual|run MS] [--step MS]`
    Clock(ClockCommand),
    /// `quit`
    Quit,
}

impl Command {
    /// The verb of this command (the table's row, [`Verb::spec`]).
    pub fn verb(&self) -> Verb {
        match self {
            Command::Status => Verb::Status,
            Command::Windows => Verb::Windows,
            Command::Snapshot { .. } => Verb::Snapshot,
            Command::Find { .. } => Verb::Find,
            Command::Get { .. } => Verb::Get,
            Command::Wait { .. } => Verb::Wait,
            Command::Settle { .. } => Verb::Settle,
            Command::Clean { .. } => Verb::Clean,
            Command::Journal { .. } => Verb::Journal,
            Command::Trace { .. } => Verb::Trace,
            Command::Click { .. } => Verb::Click,
            Command::Hover { .. } => Verb::Hover,
            Command::Drag { .. } => Verb::Drag,
            Command::Scroll { .. } => Verb::Scroll,
            Command::Stroke { .. } => Verb::Stroke,
            Command::Down { .. } => Verb::Down,
            Command::Move { .. } => Verb::Move,
            Command::Up { .. } => Verb::Up,
            Command::Pinch { .. } => Verb::Pinch,
            Command::Type { .. } => Verb::Type,
            Command::Fill { .. } => Verb::Fill,
            Command::Key { .. } => Verb::Key,
            Command::Action { .. } => Verb::Action,
            Command::Focus { .. } => Verb::Focus,
            Command::Resize { .. } => Verb::Resize,
            Command::Screenshot { .. } => Verb::Screenshot,
            Command::Audit { .. } => Verb::Audit,
            Command::Clock { .. } => Verb::Clock,
            Command::Quit => Verb::Quit,
        }
    }
}

impl Command {
    /// The action options, for verbs that take them.
    pub fn act_options(&self) -> Option<ActOptions> {
        match self {
            Command::Click { opts, .. }
            | Command::Hover { opts, .. }
            | Command::Drag { opts, .. }
            | Command::Scroll { opts, .. }
            | Command::Stroke { opts, .. }
            | Command::Down { opts, .. }
            | Command::Move { opts, .. }
            | Command::Up { opts, .. }
            | Command::Pinch { opts, .. }
            | Command::Type { opts, .. }
            | Command::Fill { opts, .. }
            | Command::Key { opts, .. }
            | Command::Action { opts, .. }
            | Command::Focus { opts, .. }
            | Command::Resize { opts, .. } => Some(*opts),
            _ => None,
        }
    }

    /// The command with a relative file path (`trace stop FILE`) made absolute against `base`,
    /// a client's working directory: the protocol takes absolute paths only, so the client
    /// library calls this before it sends a command.
    pub fn with_paths_from(mut self, base: &std::path::Path) -> Command {
        if let Command::Trace(TraceCommand::Save { file } | TraceCommand::Stop { file }) = &mut self
            && file.is_relative()
        {
            *file = base.join(&*file);
        }
        self
    }

    /// The text a `type` or `fill` sends, and whether the command says it is a secret.
    pub fn text(&self) -> Option<(&str, bool)> {
        match self {
            Command::Type { text, secret, .. } | Command::Fill { text, secret, .. } => {
                Some((text, *secret))
            }
            _ => None,
        }
    }

    /// A `type` or `fill` with `text` in place of its own (a script fills a secret's
    /// placeholder so); any other command as it is.
    pub fn with_text(mut self, new: String) -> Command {
        if let Command::Type { text, .. } | Command::Fill { text, .. } = &mut self {
            *text = new;
        }
        self
    }

    /// The command as it may be kept once carried out: a `type` or `fill` whose text is a
    /// secret (`secret`: the command says so, or the service found a password field) holds
    /// [`SECRET_PLACEHOLDER`] instead, with `--secret`; any other command as it is.
    pub fn redacted(&self, secret: bool) -> Command {
        let mut out = self.clone();
        if let Command::Type {
            text, secret: s, ..
        }
        | Command::Fill {
            text, secret: s, ..
        } = &mut out
            && (secret || *s)
        {
            *text = SECRET_PLACEHOLDER.to_owned();
            *s = true;
        }
        out
    }

    /// The targets an action aims at: its target, both ends of a `drag`, every point of a
    /// `stroke`; none for other commands.
    pub fn action_targets(&self) -> impl Iterator<Item = &Target> {
        let (first, second, rest): (_, _, &[Target]) = match self {
            Command::Click { target, .. }
            | Command::Hover { target, .. }
            | Command::Scroll { target, .. }
            | Command::Fill { target, .. }
            | Command::Action { target, .. }
            | Command::Focus { target, .. }
            | Command::Down { target, .. }
            | Command::Move { target, .. }
            | Command::Pinch { target, .. } => (Some(target), None, &[]),
            Command::Drag { from, to, .. } => (Some(from), Some(to), &[]),
            Command::Stroke { points, .. } => (None, None, points),
            _ => (None, None, &[]),
        };
        first.into_iter().chain(second).chain(rest)
    }

    /// The time a gesture takes by its own flags, in milliseconds: a long press's hold, a drag's
    /// hold, dwell and moves, a `move`'s and a `stroke`'s moves, a `pinch`'s (a frame's worth
    /// each, [`DragMotion::STEP_MS`]).
    fn gesture_ms(&self) -> u64 {
        let moves = |n: usize| {
            u64::try_from(n)
                .unwrap_or(u64::MAX)
                .saturating_mul(DragMotion::STEP_MS)
        };
        match self {
            Command::Click {
                press: Press::Hold(ms),
                ..
            } => *ms,
            Command::Drag { motion, .. } => motion
                .hold_ms()
                .saturating_add(motion.dwell_ms())
                .saturating_add(moves(motion.steps() as usize)),
            Command::Move { steps, .. } => moves(steps.unwrap_or(1) as usize),
            Command::Stroke { points, .. } => moves(points.len()),
            Command::Pinch { .. } => moves(10),
            _ => 0,
        }
    }

    /// How long the app may hold this command before it answers, on top of carrying it out: a
    /// `wait`'s or `settle`'s `--timeout`, an action's `--timeout` with `--settle`, a `journal`'s
    /// `--wait`, an action's `--wait`. A client waits at least this long (and a margin for the
    /// answer to arrive).
    pub fn held_in_app_ms(&self) -> Option<u64> {
        match self {
            Command::Wait { timeout_ms, .. } | Command::Settle { timeout_ms, .. } => {
                Some(timeout_ms.unwrap_or(DEFAULT_WAIT_MS))
            }
            Command::Journal { timeout_ms, .. } => *timeout_ms,
            // Its frames are drawn as fast as the app draws; it is given its span of wall time.
            Command::Clock(ClockCommand::Run { ms, .. }) => Some(*ms),
            // A walk of Tab takes two frames a press, and at most 200 presses.
            Command::Audit { keyboard: true, .. } => Some(AUDIT_KEYBOARD_MS),
            _ => {
                let opts = self.act_options()?;
                let settle = opts
                    .settle
                    .then(|| opts.timeout_ms.unwrap_or(DEFAULT_WAIT_MS));
                match (opts.wait_ms, settle, self.gesture_ms()) {
                    (None, None, 0) => None,
                    (wait, settle, gesture) => Some(
                        wait.unwrap_or(0)
                            .saturating_add(settle.unwrap_or(0))
                            .saturating_add(gesture),
                    ),
                }
            }
        }
    }
}
