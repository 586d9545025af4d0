//! The command line: the global options and one subcommand per protocol verb, as clap parses them.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub(crate) const AFTER_HELP: &str = "\
TARGETS:
  @e12                     a ref from a snapshot
  120,48                   a point in logical pixels
  role=button name=Save    a selector: terms ANDed (role=, name=, name~= for contains, text=,
                           text~= for the name or text value, id=, nth=N)
  A selector may be one argument ('role=button name=\"Save as\"') or one argument per term
  (role=button 'name=Save as').
  Put flags before `--` and text that starts with - after it: fill @e3 --settle -- -5 degrees.

EXIT CODES:
  0  the app answered ok
  1  the app answered an error (code, message and hint on stderr)
  2  usage error: bad flags or a malformed command, nothing was sent
  3  no live app in the directory, protocol mismatch, or no answer before --timeout; then the
     message says whether the command was withdrawn (never carried out), expired in the app, or
     was taken by the app and may still be carried out

The directory is --dir, else $WINIT_AUTOMATION_DIR, else target/winit-automation.";

const CLEAN_HELP: &str = "\
Only regular files named screenshot-LABEL.png with a valid label are listed; symlinks, directories
and every other file are left alone. Newest first by modification time (equal times by name), the
first N are kept and the rest removed. The answer has one line per screenshot, then the totals:

  kept screenshot-home.png bytes 4567
  removed screenshot-old.png bytes 1234
  total 2 kept 1 removed 1 failed 0 freed_bytes 1234

With --dry-run nothing is removed: `would_remove` replaces `removed`, and the last line is
`total T kept K would_remove R would_free_bytes B`. A file that cannot be removed gets the line
`failed NAME bytes B error \"WHY\"`; the others are still removed and the app answers app_error
(exit 1) with the same listing.";

const JOURNAL_HELP: &str = "\
Every command the app answered except status and journal (and lines that did not parse), in the
order it answered them, each with its index (1, 2, ... over the app's run), its seq, its outcome,
the frame that carried it out (app-side commands), its canonical line, and a selector for each ref
or point target naming the node it resolved to:

  $ winit-automation journal --after 1
  next 3
  entry 2 seq=7 ok frame=41 \"click @e5\"
  target role=button name=\"Save\"
  entry 3 seq=8 error code=not_found \"click @e999\"

`next` is the index to pass as --after next time. `lost K` (after `next`) says K entries after N
were already dropped: the app keeps the last 1,024. A drag's targets are `target from ...` and
`target to ...`.";

const RUN_HELP: &str = "\
EXIT CODES:
  0  every line passed
  1  a line failed: a command was refused or an expectation was not met (the line number, the
     reason and the app's interactive snapshot on stderr)
  2  usage error: a line of the script does not parse, or the file cannot be read; nothing was sent
  3  no answer: no live app in the directory, or the app exited during the run";

const COMPARE_HELP: &str = "\
Prints one line: `match: ...`, `mismatch: N of TOTAL pixels differ by more than threshold T
(budget N)` or `size mismatch: expected WxH, got WxH`. With --json, one object:
{\"ok\":true,\"matched\":BOOL,\"failed\":N,\"total\":N,\"threshold\":T,\"max_failed\":N,...}; ok is
false only when the comparison could not be made.

EXIT CODES:
  0  the images match
  1  they do not
  2  usage error, a file that cannot be read or decoded as a PNG, or a diff that cannot be written";

/// `--threshold`: a finite number, 0 or more.
fn threshold(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        Ok(_) => Err("the threshold must be a finite number, 0 or more".to_owned()),
        Err(e) => Err(e.to_string()),
    }
}

/// Inspect and drive a running winit + wgpu app through its drop-box directory.
#[derive(Parser, Debug)]
#[command(name = "winit-automation", version, after_help = AFTER_HELP)]
pub(crate) struct Cli {
    /// The app's drop-box directory.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// How long to wait for the answer, in milliseconds; also the timeout of wait and settle.
    #[arg(long, global = true, value_name = "MS", default_value_t = 10_000)]
    pub(crate) timeout: u64,
    /// Print one JSON object per answer instead of text.
    #[arg(long, global = true)]
    pub(crate) json: bool,
    #[command(subcommand)]
    pub(crate) command: Sub,
}

#[derive(Args, Debug, Default)]
pub(crate) struct Act {
    /// Answer once the tree has been unchanged for some frames, with the tree diff.
    #[arg(long)]
    pub(crate) settle: bool,
    /// Unchanged frames that count as settled (with --settle).
    #[arg(long, value_name = "K", requires = "settle")]
    pub(crate) frames: Option<u32>,
}

#[derive(Subcommand, Debug)]
pub(crate) enum Sub {
    /// Show the handshake and the app's runtime status.
    Status,
    /// List the app's windows: id, title, size, scale factor, focus.
    Windows,
    /// Send a raw protocol command line, e.g. `send 'click @e3 --settle'`.
    Send {
        /// The command line; several arguments are joined with spaces.
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true, value_name = "LINE")]
        line: Vec<String>,
    },
    /// Print the tree with refs.
    Snapshot {
        /// Interactive projection: actionable nodes, one short line each (ref, role, name and
        /// only the state that is not the default); --bounds and --actions add those fields.
        #[arg(short = 'i', long, conflicts_with = "raw")]
        interactive: bool,
        /// The whole tree, nothing hidden.
        #[arg(long)]
        raw: bool,
        /// Levels below the scope to show.
        #[arg(long, value_name = "N")]
        depth: Option<u32>,
        /// Only this subtree.
        #[arg(long, value_name = "TARGET")]
        scope: Option<String>,
        /// Print the tree even if it is unchanged since the last snapshot of the same view.
        #[arg(long)]
        force: bool,
        /// Print changes against the last snapshot of the same projection (regular, -i or --raw),
        /// depth and scope node; the whole tree when there is none yet.
        #[arg(long)]
        diff: bool,
        /// With -i: print each node's bounds (the other projections always do).
        #[arg(long)]
        bounds: bool,
        /// With -i: print each node's actions (the other projections always do).
        #[arg(long)]
        actions: bool,
        /// The frame this client last saw (a snapshot's `frame=`): "unchanged since frame N" when
        /// nothing changed after it, else the tree (with --diff, the changes since that frame).
        /// Unlike the default, the answer does not depend on what other clients asked.
        #[arg(long, value_name = "FRAME")]
        since: Option<u64>,
    },
    /// Print the refs of all nodes matching a selector.
    Find {
        /// Selector terms.
        #[arg(required = true, num_args = 1.., value_name = "SELECTOR")]
        selector: Vec<String>,
    },
    /// Print every field of one node.
    Get {
        /// The node.
        #[arg(required = true, num_args = 1.., value_name = "TARGET")]
        target: Vec<String>,
    },
    /// Wait until a selector matches (or, with --gone, matches nothing).
    ///
    /// An app that has not started yet is waited for too (it says so on stderr); the time spent
    /// on that comes off the same --timeout.
    Wait {
        /// Selector terms.
        #[arg(required = true, num_args = 1.., value_name = "SELECTOR")]
        selector: Vec<String>,
        /// Wait for no match instead.
        #[arg(long)]
        gone: bool,
    },
    /// Click a target.
    Click {
        /// What to click.
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "TARGET")]
        target: Vec<String>,
        /// Double click.
        #[arg(long)]
        double: bool,
        /// Right button.
        #[arg(long, conflicts_with = "middle")]
        right: bool,
        /// Middle button.
        #[arg(long)]
        middle: bool,
        #[command(flatten)]
        act: Act,
    },
    /// Type text into the focused node. Refused (no_focus) when the app's tree says nothing is
    /// focused: focus a text field first (focus TARGET, click it, or use fill).
    Type {
        /// The text, exactly as given.
        #[arg(allow_hyphen_values = true)]
        text: String,
        #[command(flatten)]
        act: Act,
    },
    /// Focus a target, select all and replace its text.
    Fill {
        /// The target, then the text as the last argument.
        #[arg(required = true, num_args = 2.., allow_negative_numbers = true, value_name = "TARGET... TEXT")]
        args: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Press key chords such as Enter, ctrl+a, shift+Tab, to the focused node (or the window).
    /// Chords that only type or delete text (a, Space, Backspace, Delete) are refused (no_focus)
    /// when the app's tree says nothing is focused.
    Key {
        /// One or more chords, pressed in order.
        #[arg(required = true, num_args = 1.., value_name = "CHORD")]
        chords: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Scroll at a target by DX, DY logical pixels (positive DY shows what is below).
    Scroll {
        /// The target, then DX and DY.
        #[arg(required = true, num_args = 3.., allow_negative_numbers = true, value_name = "TARGET... DX DY")]
        args: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Move the pointer over a target.
    Hover {
        /// The target.
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "TARGET")]
        target: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Drag from one target to another: `drag @e1 @e2`, `drag role=slider to 200,40`.
    Drag {
        /// FROM [to] TO; `to` is needed when FROM is a selector.
        #[arg(required = true, num_args = 2.., allow_negative_numbers = true, value_name = "FROM [to] TO")]
        args: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Request an AccessKit action on a target, e.g. `action @e5 increment`, `action @e7 set_value
    /// 100`.
    ///
    /// As in the protocol, VALUE follows the action name: `action TARGET NAME [VALUE]`.
    /// `--value V` does the same (give the value one way only). A VALUE that starts with - other
    /// than a number goes after `--`: `action @e3 set_value -- -x`.
    Action {
        /// The target, then the action name (click, focus, increment, set_value, ...), then its
        /// VALUE if it takes one (set_value, replace_selected_text, custom_action, scroll_to_point,
        /// set_scroll_offset).
        #[arg(required = true, num_args = 2.., allow_negative_numbers = true, value_name = "TARGET... NAME [VALUE]")]
        args: Vec<String>,
        /// The action's value, the same as VALUE after the name.
        #[arg(long, allow_hyphen_values = true)]
        value: Option<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Give a target the keyboard focus.
    Focus {
        /// The target.
        #[arg(required = true, num_args = 1.., allow_negative_numbers = true, value_name = "TARGET")]
        target: Vec<String>,
        #[command(flatten)]
        act: Act,
    },
    /// Resize the window to WIDTH x HEIGHT logical pixels.
    Resize {
        /// Width.
        width: u32,
        /// Height.
        height: u32,
        #[command(flatten)]
        act: Act,
    },
    /// Capture the exact frame to screenshot-LABEL.png in the directory.
    Screenshot {
        /// The label: [A-Za-z0-9._-], 64 characters at most.
        #[arg(default_value = "latest")]
        label: String,
        /// Crop to a node's bounds.
        #[arg(long = "ref", value_name = "TARGET")]
        crop: Option<String>,
        /// Copy the PNG here afterwards (the app itself never writes outside its directory).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Wait until the tree has been unchanged for some frames.
    Settle {
        /// Unchanged frames that count as settled.
        #[arg(long, value_name = "K")]
        frames: Option<u32>,
    },
    /// List the app's screenshots (screenshot-LABEL.png) and remove all but the N newest.
    #[command(after_help = CLEAN_HELP)]
    Clean {
        /// How many of the newest screenshots to keep.
        #[arg(long, value_name = "N", default_value_t = 0)]
        keep: u32,
        /// Only say what would be removed.
        #[arg(long)]
        dry_run: bool,
    },
    /// Print the commands the app answered (any client's), oldest first: the last 1,024 it keeps.
    #[command(after_help = JOURNAL_HELP)]
    Journal {
        /// Only the entries with an index above N (the `next` of an earlier answer).
        #[arg(long, value_name = "N")]
        after: Option<u64>,
        /// Long poll: with no entry after N yet, wait up to MS milliseconds for one (an empty
        /// answer at the end is no error). The client waits MS and 2 s more than --timeout.
        #[arg(long, value_name = "MS")]
        wait: Option<u64>,
    },
    /// Ask the app to exit.
    Quit,
    /// Compare two PNG screenshots, as egui_kittest compares a snapshot with its reference. Local:
    /// needs no app and no directory.
    ///
    /// A pixel fails when its colours differ by more than --threshold (dify's per-pixel YIQ
    /// distance, the measure egui_kittest uses, and its default 0.6; 0 lets no difference pass)
    /// and it is not anti-aliasing. The images match when at most --max-failed pixels fail. Images
    /// of different sizes never match.
    #[command(after_help = COMPARE_HELP)]
    Compare {
        /// The expected image (the reference).
        #[arg(value_name = "EXPECTED.png")]
        expected: PathBuf,
        /// The actual image.
        #[arg(value_name = "ACTUAL.png")]
        actual: PathBuf,
        /// The largest per-pixel difference that does not count: dify's weighted squared YIQ
        /// distance, as egui_kittest's `SnapshotOptions::threshold` (about 35215 between black and
        /// white).
        #[arg(long, value_name = "T", default_value_t = 0.6)]
        #[arg(value_parser = threshold, allow_negative_numbers = true)]
        threshold: f32,
        /// How many pixels may fail while the images still match (egui_kittest's
        /// `failed_pixel_count_threshold`).
        #[arg(long, value_name = "N", default_value_t = 0)]
        max_failed: u64,
        /// Write the diff image here (failed pixels red, anti-aliased ones yellow, the rest
        /// transparent) when any pixel failed. When none did (identical images, or differences all
        /// within the threshold), nothing is written and the output says so.
        #[arg(long, value_name = "OUT.png")]
        diff: Option<PathBuf>,
    },
    /// Replay a script of protocol lines and `expect` lines against the app, stopping at the first
    /// failure (docs/scripts.md).
    ///
    /// The whole file is parsed first: a bad line is a usage error (exit 2) and nothing is sent.
    /// Each command's answer must be ok; `expect SELECTOR [value=V] [STATE...]` waits (5 s, or
    /// --timeout MS on the line) until a node matches with those fields; `expect gone SELECTOR`
    /// until none does; `expect screenshot FILE [--threshold T] [--max-failed N] [--ref TARGET]`
    /// compares a screenshot with FILE (relative to the script), as `compare` does.
    #[command(after_help = RUN_HELP)]
    Run {
        /// The script.
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Write the screenshot references instead of comparing with them (as UPDATE_SNAPSHOTS=1).
        #[arg(long)]
        update: bool,
        /// Print only a failure, nothing on success.
        #[arg(long, short)]
        quiet: bool,
    },
    /// Record the commands any client sends to the app into a script, until Ctrl-C or until the
    /// app exits (docs/scripts.md).
    ///
    /// Ref targets are written as the selectors the app resolved them to, so the script replays
    /// against a fresh app; refused commands become comments; after each group of actions, once
    /// the tree settles, `expect` lines say what changed in the regular snapshot (labels too). Every line
    /// is flushed as it is written.
    Record {
        /// The script to write (replaced if it exists).
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Also record the commands the app answered before the recorder started (it keeps the
        /// last 1,024).
        #[arg(long)]
        from_start: bool,
        /// Write only the commands, no `expect` lines.
        #[arg(long)]
        no_expect: bool,
    },
    /// Serve the verbs as MCP tools over stdin and stdout, for agent hosts (feature `mcp`). Every
    /// tool takes an optional `dir`: one session can drive several apps.
    #[cfg(feature = "mcp")]
    Mcp,
}
