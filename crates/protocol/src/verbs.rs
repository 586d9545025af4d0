//! The verb table: every verb's name, side, arguments and flags, in one place.
//!
//! Every front end reads this table: parsing (which flags a verb takes, which exclude each other, which
//! need another), the usage line in errors, the order of flags in the canonical form, the CLI's
//! subcommands and their `--help`, the MCP server's tools with their argument schemas and
//! descriptions, and the harness's and the scripts' commands. `command.rs` only says how each
//! verb's positional arguments map to its `Command` variant; `invocation.rs` how a front end's
//! arguments become those positional tokens.

use std::fmt;

mod group;
mod parts;

pub use group::Group;

pub(crate) use parts::dashed;
pub use parts::{Arg, ArgKind, Arity, Flag, FlagRule, ValueKind};

const SETTLE: Flag = Flag::switch(
    "settle",
    "answer once the UI has settled, with what changed",
)
.on_for_agents();
const FRAMES: Flag = Flag::count("frames", "K", "unchanged frames that count as settled");
const TIMEOUT: Flag = Flag::count("timeout", "MS", "the app's time limit in milliseconds");

const WAIT: Flag = Flag::count(
    "wait",
    "MS",
    "first wait up to MS ms for the target to be actionable",
);

/// A verb's own flags, then `ACT`'s (`--settle [--frames K]`, `--timeout`, `--wait`), in that
/// order: `act![FlagRule::Free(MODIFIERS)]`.
macro_rules! act {
    ($($own:expr),* $(,)?) => {
        &[
            $($own,)*
            FlagRule::Needs(SETTLE, FRAMES),
            FlagRule::Free(TIMEOUT),
            FlagRule::Free(WAIT),
        ]
    };
}

/// A pointer verb's own flags, then `ACT`'s and `--no-scroll` (`POINTER_ACT`).
macro_rules! pointer_act {
    ($($own:expr),* $(,)?) => {
        &[
            $($own,)*
            FlagRule::Needs(SETTLE, FRAMES),
            FlagRule::Free(TIMEOUT),
            FlagRule::Free(WAIT),
            FlagRule::Free(NO_SCROLL),
        ]
    };
}

/// The flags every app-side action takes (`ACT` in docs/protocol.md).
const ACT: &[FlagRule] = act![];

/// The flags of the verbs that send text: `--secret` and `ACT`.
const TEXT_ACT: &[FlagRule] = act![FlagRule::Free(Flag::switch(
    "secret",
    "a secret: answers, the journal and traces show a mask, never the text",
))];

const NO_SCROLL: Flag = Flag::switch(
    "no-scroll",
    "refuse an offscreen target instead of scrolling it into view",
);

/// The flags of the pointer verbs: `ACT` and `--no-scroll`.
const POINTER_ACT: &[FlagRule] = pointer_act![];

const MODIFIERS: Flag = Flag::worded(
    "modifiers",
    "MODS",
    "keys held around it: ctrl, alt, shift, meta, joined by + (ctrl+shift)",
);
const BUTTONS: FlagRule = FlagRule::Either(
    Flag::switch("right", "the right button"),
    Flag::switch("middle", "the middle button"),
    "pick one button",
);
const HOLD: Flag = Flag::count(
    "hold",
    "MS",
    "keep the button down MS milliseconds before letting go or moving",
);
const STEPS: Flag = Flag::count(
    "steps",
    "N",
    "the moves the pointer makes on its way, each in a frame of its own",
);

const TARGET: Arg = Arg::one(
    "TARGET",
    "target",
    ArgKind::Target,
    "a ref (@e12), a point x,y or a selector (role=button name=\"Save\")",
);
const SELECTOR: Arg = Arg::one(
    "SELECTOR",
    "selector",
    ArgKind::Selector,
    "selector terms, ANDed: role=, name=, name~= (contains), text=, text~=, label=, label~=, id=, nth=N",
);

/// Who answers a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The service thread, from its mirror of the latest published frame, without waiting for a frame.
    Service,
    /// The render thread, at a frame boundary; answered after that frame is published.
    App,
}

/// One row of the verb table: everything every front end says about a verb.
#[derive(Debug, Clone, Copy)]
pub struct VerbSpec {
    /// The verb as written on the wire.
    pub name: &'static str,
    /// Who answers it.
    pub side: Side,
    /// The capability group it belongs to (the MCP server's `--caps`).
    pub group: Group,
    /// What it does, one sentence: the first line of the CLI's `--help` and the MCP tool's
    /// description.
    pub about: &'static str,
    /// More, when one sentence is not enough (the rest of `--help`, and the MCP `help` tool's
    /// answer).
    pub details: &'static str,
    /// Its positional arguments, in order.
    pub args: &'static [Arg],
    /// Its flags, in canonical order.
    pub flags: &'static [FlagRule],
}

macro_rules! verbs {
    ($($variant:ident => $name:literal, $side:ident, $group:ident, $about:literal, $details:expr, $args:expr, $flags:expr;)*) => {
        /// The verb of a command.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        #[allow(missing_docs)]
        pub enum Verb { $($variant,)* }

        impl Verb {
            /// Every verb of this protocol version, in documentation order.
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The verb's row of the table.
            pub fn spec(self) -> &'static VerbSpec {
                match self {
                    $(Verb::$variant => const {
                        &VerbSpec {
                            name: $name,
                            side: Side::$side,
                            group: Group::$group,
                            about: $about,
                            details: $details,
                            args: $args,
                            flags: $flags,
                        }
                    },)*
                }
            }
        }

    };
}

verbs! {
    Status => "status", Service, Core,
        "The app's handshake and runtime status: protocol, name, pid, frame, queue.",
        "", &[], &[];
    Windows => "windows", Service, App,
        "The app's windows: id, title, size, scale factor, focus.",
        "", &[], &[];
    Snapshot => "snapshot", Service, Core,
        "The tree as text, one line per node, with refs (@eN) to act on.",
        "The regular projection shows what a person can see; -i only actionable nodes and their labels, one short line each; --raw the whole tree. An unchanged view answers `unchanged since frame N`: pass --since with the frame= of the snapshot you last read to get that answer independently of other clients.",
        &[],
        &[
            FlagRule::Either(
                Flag::switch("i", "only actionable nodes, one short line each")
                    .alias("interactive")
                    .on_for_agents(),
                Flag::switch("raw", "the whole tree, nothing hidden"),
                "pick one projection: regular (default), -i or --raw",
            ),
            FlagRule::Free(Flag::count("depth", "N", "levels below the scope to show")),
            FlagRule::Free(Flag::target("scope", "only this subtree")),
            FlagRule::Free(
                Flag::switch("force", "print the tree even if it is unchanged")
                    .on_for_agents(),
            ),
            FlagRule::Free(Flag::switch("diff", "print only the changes since the last snapshot of this view (or --since)")),
            // Only -i leaves bounds and actions out; with the other projections these change nothing.
            FlagRule::Free(Flag::switch("bounds", "with -i: each node's bounds")),
            FlagRule::Free(Flag::switch("actions", "with -i: each node's actions")),
            FlagRule::Free(Flag::count("since", "FRAME", "the frame= you last read: `unchanged since frame N` if nothing changed")),
            FlagRule::Free(Flag::count("max-bytes", "N", "keep the answer within N bytes, saying what was left out")),
        ];
    Find => "find", Service, Core,
        "The refs of every node matching a selector.",
        "", &[SELECTOR], &[];
    Get => "get", Service, Core,
        "Every field of one node: its line with bounds and actions, window, node id, parent, children.",
        "", &[TARGET], &[];
    Wait => "wait", Service, Core,
        "Waits until a node matches the selector (with --gone: until none does).",
        "", &[SELECTOR],
        &[
            FlagRule::Free(Flag::switch("gone", "wait until nothing matches instead")),
            FlagRule::Free(TIMEOUT),
        ];
    Settle => "settle", Service, App,
        "Waits until the tree has been unchanged for some frames and nothing animates; answers with what changed.",
        "", &[], &[FlagRule::Free(FRAMES), FlagRule::Free(TIMEOUT)];
    Clean => "clean", Service, App,
        "Lists the app's screenshots (screenshot-LABEL.png) and removes all but the N newest.",
        "", &[],
        &[
            FlagRule::Free(Flag::count("keep", "N", "how many of the newest screenshots to keep")),
            FlagRule::Free(Flag::switch("dry-run", "only say what would be removed")),
        ];
    Journal => "journal", Service, Trace,
        "The commands the app answered (any client's), oldest first, with the selectors their refs resolved to.",
        "", &[],
        &[
            FlagRule::Free(Flag::count("after", "N", "only the entries with an index above N (the `next` of an earlier answer)")),
            FlagRule::Free(Flag::count("wait", "MS", "long poll: with no entry after N yet, wait up to MS milliseconds for one")),
        ];
    Trace => "trace", Service, Trace,
        "Records a trace: every command after `trace start` with its answer, timings, frame, target and tree diff; `trace stop FILE` writes it as one HTML file to open in a browser and ends it.",
        "`trace save FILE` writes the trace so far and keeps it running. With --screenshots each action's step also keeps the frame drawn after it (downscaled to 800 pixels wide at most, identical frames kept once). The trace keeps at most 10,000 steps and 64 MiB of frames; what goes past that is counted, not kept. A failed write keeps the trace running: stop it again with another FILE. The trace's own commands (and status, journal) are not steps.",
        &[
            Arg::one("WHAT", "what", ArgKind::Word, "start, save or stop"),
            Arg::one("FILE", "file", ArgKind::Path, "with save and stop: the HTML file to write (an existing file is replaced)").optional(),
        ],
        &[
            FlagRule::Free(Flag::switch("screenshots", "with start: keep the frame after each action")),
            FlagRule::Free(Flag::switch("replaceable", "with start: let a later `trace start` replace this trace (dropping its steps) instead of being refused, for a trace recorded in the background")),
        ];
    Click => "click", App, Core,
        "Clicks a node or a point.",
        "Aims at the centre of the node's visible part, stepping around what lies on top (the answer says `visible N%` when part is hidden), and presses through the target's own input proxy on top of it (a drag source over its label: the answer says `via @eN`). `ok ... hit verified` means the press reached that node; `hit unverified` that the app reports no press (widget records). A target scrolled out of its list or area is scrolled into view first (the answer says `scrolled @eN ... by DX,DY`; --no-scroll refuses it offscreen instead). --modifiers holds keys around it (shift-click, ctrl-click); --hold makes it a long press. A refusal names the true reason (covered: no part is free; offscreen, disabled, missed).",
        &[TARGET],
        pointer_act![
            FlagRule::Either(
                Flag::switch("double", "a double click"),
                HOLD,
                "a long press is one press: pick --double or --hold",
            ),
            BUTTONS,
            FlagRule::Free(MODIFIERS),
        ];
    Hover => "hover", App, Gestures,
        "Moves the pointer over a node (tooltips, hover states).",
        "", &[TARGET], POINTER_ACT;
    Drag => "drag", App, Core,
        "Drags from one node or point to another the way a person does: press, hold, move over frames, wait at the end until the UI holds still, release.",
        "`to` is needed between the two when FROM is a selector: drag role=slider to 200,40. The press goes through FROM's own input proxy when one lies on top of it (a drag source over its label: `via @eN`). The moves are spread over frames and time (--steps, default 10); at the end the pointer waits until the tree has been still for 3 frames, at most --dwell milliseconds (default 1000), so an animated list can open its gap before the release. The answer says where the press went, where the pointer let go and, when the tree shows it, where FROM ended up (`ended ...`).",
        &[
            Arg::one("FROM", "from", ArgKind::Target, "where the drag starts: a ref, a point or a selector"),
            Arg::one("to", "to_word", ArgKind::Keyword, "the word `to`").optional(),
            Arg::one("TO", "to", ArgKind::Target, "where it ends: a ref, a point or a selector"),
        ],
        pointer_act![
            FlagRule::Free(STEPS),
            FlagRule::Free(Flag::count("hold", "MS", "how long the button stays down before the first move (default 100)")),
            FlagRule::Free(Flag::count("dwell", "MS", "the most time to wait at the end for the UI to hold still before the release (default 1000)")),
            FlagRule::Free(MODIFIERS),
        ];
    Scroll => "scroll", App, Core,
        "Turns the mouse wheel over a node by DX, DY logical pixels (positive DY shows what is below).",
        "--modifiers holds keys around the turn (ctrl+wheel zooms in many apps).",
        &[
            TARGET,
            Arg::one("DX", "dx", ArgKind::Number, "horizontal distance in logical pixels"),
            Arg::one("DY", "dy", ArgKind::Number, "vertical distance in logical pixels (positive scrolls down)"),
        ],
        pointer_act![
            FlagRule::Free(MODIFIERS),
        ];
    Stroke => "stroke", App, Gestures,
        "Draws a stroke: presses at the first point, moves the pressed pointer through the others, one frame each, and lets go at the last.",
        "Each POINT is a point X,Y in logical pixels, a ref or a selector (its centre); the first is aimed at like a click's target (covered targets refused, the press verified). For a canvas, a painting demo, a game's path.",
        &[Arg::one("POINT", "points", ArgKind::Target, "a point the stroke passes through: X,Y, a ref or a selector; two at least").many()],
        act![
            BUTTONS,
            FlagRule::Free(MODIFIERS),
        ];
    Down => "down", App, Gestures,
        "Moves the pointer to a node or point and presses a button, leaving it down (a gesture the other verbs do not name: down, move, up).",
        "Refused (pointer_state) when that button is already down. The press is verified like a click's. --modifiers stay held until `up`.",
        &[TARGET],
        pointer_act![
            BUTTONS,
            FlagRule::Free(MODIFIERS),
        ];
    Move => "move", App, Gestures,
        "Moves the pointer to a node or point, with whatever buttons `down` left pressed (a drag made of parts).",
        "--steps spreads the way over frames. Where a button is down the target is not checked for cover (what lies on top of a drop target is where a person lets go).",
        &[TARGET],
        act![
            FlagRule::Free(STEPS),
        ];
    Up => "up", App, Gestures,
        "Lets go of a button `down` pressed, where the pointer is.",
        "Refused (pointer_state) when that button is not down.",
        &[],
        &[
            BUTTONS,
            FlagRule::Needs(SETTLE, FRAMES),
            FlagRule::Free(TIMEOUT),
        ];
    Pinch => "pinch", App, Gestures,
        "Pinches with two fingers around a node's centre: SCALE above 1 spreads them (zoom in), below 1 closes them; --pan moves them together (a two-finger pan).",
        "Two touches (winit touch events) start 40 logical pixels either side of the centre and move, over 8 frames, to SCALE times that distance, their centre moving by --pan; for apps that handle touch (egui's multi-touch demo). `pinch TARGET 1 --pan 0,-100` is a two-finger pan alone.",
        &[
            TARGET,
            Arg::one("SCALE", "scale", ArgKind::Number, "the ratio of the fingers' end distance to their start distance (2 zooms in, 0.5 out, 1 keeps it)"),
        ],
        pointer_act![
            FlagRule::Free(Flag::worded("pan", "DX,DY", "move the fingers' centre by DX,DY logical pixels while they pinch (a two-finger pan)")),
        ];
    Type => "type", App, Core,
        "Types text into the focused node.",
        "Refused (no_focus) when the app's tree says nothing is focused: focus a text field first (focus, click, or fill). Text typed into a password field, or with --secret, is never written down: answers say `typed secret`, the journal, traces and recordings hold $WINIT_AUTOMATION_SECRET in its place.",
        &[Arg::one("TEXT", "text", ArgKind::Text, "the text, exactly as given")],
        TEXT_ACT;
    Fill => "fill", App, Core,
        "Focuses a text field, selects all and replaces its text.",
        "Text filled into a password field, or with --secret, is never written down: answers say `typed secret`, the journal, traces and recordings hold $WINIT_AUTOMATION_SECRET in its place.",
        &[
            Arg::one("TARGET", "target", ArgKind::Target, "the text field: a ref, a point or a selector"),
            Arg::one("TEXT", "text", ArgKind::Text, "its new text, exactly as given"),
        ],
        TEXT_ACT;
    Key => "key", App, Core,
        "Presses key chords in order (Enter, ctrl+a, shift+Tab) on the focused node or the window.",
        "Chords that only type or delete text (a, Space, Backspace, Delete) are refused (no_focus) when the app's tree says nothing is focused.",
        &[Arg::one("CHORD", "chords", ArgKind::Word, "a key chord: Enter, ctrl+a, shift+Tab, ...").many()],
        ACT;
    Action => "action", App, Core,
        "Performs an AccessKit action on a node (click, focus, set_value, increment, expand, ...).",
        "Only the actions the node's line lists. VALUE follows the action name: set_value takes text or a number, replace_selected_text text, custom_action a whole number, scroll_to_point and set_scroll_offset a point X,Y.",
        &[
            TARGET,
            Arg::one("NAME", "name", ArgKind::Word, "the action, in snake_case: click, focus, set_value, increment, ..."),
            Arg::one("VALUE", "value", ArgKind::Text, "the action's value, for the actions that take one").optional(),
        ],
        ACT;
    Focus => "focus", App, App,
        "Gives a node the keyboard focus.",
        "", &[TARGET], ACT;
    Resize => "resize", App, App,
        "Resizes the window's content to WIDTH x HEIGHT logical pixels.",
        "Answered once the window reports that size; refused `not_applied`, with the size it has, when the app did not apply it within a second.",
        &[
            Arg::one("WIDTH", "width", ArgKind::Size, "the new width in logical pixels"),
            Arg::one("HEIGHT", "height", ArgKind::Size, "the new height in logical pixels"),
        ],
        ACT;
    Screenshot => "screenshot", App, Core,
        "Captures the exact rendered frame to screenshot-LABEL.png in the app's directory.",
        "",
        &[Arg::one("LABEL", "label", ArgKind::Word, "the file's label: [A-Za-z0-9._-], 64 characters at most (default latest)").optional()],
        &[
            FlagRule::Free(Flag::target("ref", "crop to this node's bounds")),
            FlagRule::Free(Flag::switch("refs", "draw each interactive node's box and ref on the image")),
        ];
    Audit => "audit", App, Audit,
        "Checks the window (or the subtree TARGET) against WCAG 2.2: controls with no name, small targets, text contrast from the frame's pixels, images with no name; one finding per line.",
        "Each finding is `RULE CRITERION IMPACT \"EVIDENCE\" NODE-LINE`: the rule (name 4.1.2, target-size 2.5.8, contrast 1.4.3, image-name 1.1.1; with --keyboard also keyboard 2.1.1 and focus-order 2.4.3), what was measured, and the node's line with its ref. Contrast is measured in the next frame's pixels inside each text's bounds; the answer's rules= names the rules asked for, and one that cannot run (no pixels: the app answers screenshots itself; no focus: Tab focuses nothing) is listed `not-run` with why, never as clean. Audit a settled app: the tree is read when the command is planned, the pixels a frame later. docs/accessibility.md says what each rule checks and what it cannot know.",
        &[Arg::one("TARGET", "target", ArgKind::Target, "only this subtree (a ref, a point or a selector); none: the whole default window").optional()],
        &[
            FlagRule::Free(Flag::switch("keyboard", "also press Tab through the window and report controls focus never reaches (2.1.1) and a focus order against reading order (2.4.3); the focus is given back after")),
            FlagRule::Free(Flag::worded("screenshot", "LABEL", "also write screenshot-LABEL.png: the frame with each finding's box and criterion drawn on it")),
        ];
    Clock => "clock", App, Clock,
        "Reads or sets the app's clock: real (the wall clock, the default) or virtual (the plugin's own time, moved in steps: the same commands see the same times).",
        "`clock` says how it stands (mode, time, step, frames drawn). `clock virtual` stops time where it is (it then moves only as told: `clock run`, a settle, a gesture's hold); `clock resume` moves it one step per frame, `clock pause` stops it again, `clock real` goes back to the wall clock from the time reached. `clock run 3000 --step 100` moves it 3000 ms in 30 frames, answered when the last is drawn: a tooltip's delay or an animation costs frames, not seconds. Time never runs backwards. An app started with WINIT_AUTOMATION_CLOCK=virtual is on the virtual clock from its first frame.",
        &[
            Arg::one("WHAT", "what", ArgKind::Word, "pause, resume, real, virtual or run; none: how the clock stands").optional(),
            Arg::one("MS", "ms", ArgKind::Size, "with run: how far to move the virtual time, in milliseconds").optional(),
        ],
        &[FlagRule::Free(Flag::count("step", "MS", "with virtual: the time each frame moves the virtual clock (default 16); with run: each frame's step for this run"))];
    Quit => "quit", App, App,
        "Asks the app to exit; answered before it goes.",
        "", &[], &[];
}

impl Verb {
    /// The verb as written on the wire.
    pub fn as_str(self) -> &'static str {
        self.spec().name
    }

    /// Which side carries the verb out.
    pub fn side(self) -> Side {
        self.spec().side
    }

    /// The capability group it belongs to.
    pub fn group(self) -> Group {
        self.spec().group
    }

    /// Parses a verb.
    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.iter().copied().find(|v| v.as_str() == s)
    }

    /// Every flag the verb takes, in canonical order.
    pub fn flags(self) -> impl Iterator<Item = Flag> {
        self.spec().flags.iter().flat_map(FlagRule::flags)
    }

    /// The flag `name` (without dashes, an alias too) names, if the verb takes it.
    pub fn flag(self, name: &str) -> Option<Flag> {
        self.flags().find(|f| f.is(name))
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

fn flag_usage(flag: Flag) -> String {
    match flag.value {
        Some((value, _)) => format!("{} {value}", dashed(flag.name)),
        None => dashed(flag.name),
    }
}

/// The usage line of a verb, as docs/protocol.md states it.
pub fn usage(verb: Verb) -> String {
    let spec = verb.spec();
    let mut line = spec.name.to_owned();
    for arg in spec.args {
        line.push(' ');
        line.push_str(&arg.usage());
    }
    for rule in spec.flags {
        line.push_str(" [");
        match *rule {
            FlagRule::Free(a) => line.push_str(&flag_usage(a)),
            FlagRule::Either(a, b, _) => {
                line.push_str(&flag_usage(a));
                line.push('|');
                line.push_str(&flag_usage(b));
            }
            FlagRule::Needs(a, b) => {
                line.push_str(&flag_usage(a));
                line.push_str(" [");
                line.push_str(&flag_usage(b));
                line.push(']');
            }
        }
        line.push(']');
    }
    line
}

#[cfg(test)]
mod tests;
