//! The command line: the global options, one subcommand per protocol verb built from the verb table
//! (`protocol::Verb::spec`: its help, positional arguments and flags), and the local subcommands
//! (`send`, `compare`, `run`, `record`, `mcp`). The verb subcommands restate no rule: clap only
//! gathers the arguments and flags, and `protocol::Invocation` checks them as a command line would
//! be checked.

use std::path::PathBuf;

use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Subcommand};
use winit_automation_protocol::{Flag, Invocation, ParseError, Verb, usage};

pub(crate) const AFTER_HELP: &str = "\
TARGETS:
  @e12                     a ref from a snapshot
  120,48                   a point in logical pixels
  role=button name=Save    a selector: terms ANDed (role=, name=, name~= for contains, text=,
                           text~= for the name or text value, label=, label~= for an
                           unnamed control's label, id=, nth=N)
  A target argument is protocol text: one ref, one point, or selector terms, one argument in all
  ('role=button name=\"Save as\"') or one argument per term (role=button 'name=\"Save as\"').
  A value with spaces is quoted inside the argument: 'name~=Open Save' is refused with the hint
  name~=\"Open Save\", never sent as another selector. Text arguments (fill's and type's TEXT,
  action's VALUE) are taken as they are. Put flags before `--` and text that starts with - after
  it: fill @e3 --settle -- '-5 degrees'.

EXIT CODES (by the error's code; `error: CODE: MESSAGE` and `hint: HINT` on stderr):
  0  the app answered ok
  1  the app answered an error (any code), or the screenshot could not be copied to --out
     (copy_failed)
  2  usage error: bad flags or a malformed command (empty_command, bad_syntax, unknown_verb,
     unknown_flag, missing_argument, unexpected_argument, bad_argument), nothing was sent
  3  no answer: no live app (not_running, app_exited), protocol mismatch (version_mismatch), an
     unsafe directory (bad_dir), a full queue (queue_full, enqueue_failed), an unreadable answer
     (malformed, io), or no answer before --timeout (client_timeout); then the message says
     whether the command was withdrawn (never carried out), expired in the app, or was taken by
     the app and may still be carried out

The directory is --dir, else $WINIT_AUTOMATION_DIR, else target/winit-automation.";

const TEST_HELP: &str = "\
EXAMPLES:
  winit-automation test tests/scripts --app 'target/debug/examples/demo --headless'
  winit-automation test tests/scripts --app 'my-app --headless' --jobs 4 --retries 1 \\
      --shard 2/3 --junit target/junit.xml --artifacts target/script-artifacts

Each script's app is its own: a fresh process and drop-box per attempt, so scripts never see one
another's state. Windowed apps need a display: run the suite under xvfb-run (the apps share its
one virtual display), or give the app its --headless flag.";

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
With --wait MS and no entry after N yet, the app answers once there is one, or with no entry at
the end of MS (no error); the client waits MS longer than --timeout.

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

/// The global options.
#[derive(Args, Debug)]
pub(crate) struct Globals {
    /// The app's drop-box directory.
    #[arg(long, global = true, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
    /// How long to wait for the answer, in milliseconds; also the app's own --timeout for wait,
    /// settle and actions with --settle.
    #[arg(long, global = true, value_name = "MS", default_value_t = 10_000)]
    pub(crate) timeout: u64,
    /// Print one JSON object per answer instead of text.
    #[arg(long, global = true)]
    pub(crate) json: bool,
}

/// The subcommands that are not protocol verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum Local {
    /// Send a raw protocol command line, e.g. `send 'click @e3 --settle'`.
    Send {
        /// The command line; several arguments are joined with spaces.
        #[arg(required = true, num_args = 1.., allow_hyphen_values = true, value_name = "LINE")]
        line: Vec<String>,
    },
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
        /// Record a trace of the run, with the frame after each action, and write it to FILE
        /// (one HTML file to open in a browser), pass or fail.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
    },
    /// Run scripts as a suite, each against its own instance of the app: several at once,
    /// retried, sharded across machines, reported as JUnit XML (docs/ci.md).
    ///
    /// Every script is parsed first (a bad line is a usage error, exit 2, and no app starts).
    /// Each attempt starts the app from --app with a private drop-box in WINIT_AUTOMATION_DIR,
    /// waits for its first tree, replays the script as `run` does (secrets from the environment
    /// too) and ends the app (quit, then kill). A line per script as it ends (PASS, FLAKY, FAIL),
    /// then a summary. Exit code 0 when every script passed (flaky ones too), 1 when one failed,
    /// 2 for bad arguments. --timeout is each command's wait, as for `run`.
    #[command(after_help = TEST_HELP)]
    Test(crate::suite::TestArgs),
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
        /// Write a Rust test on the harness instead of a script: a `#[test]` that starts the app
        /// as it was started (`Spawn`), each command as a query and an action (`click`, `fill`,
        /// ...), each expectation as `wait_for` and `assert!`s. The file is written whole after
        /// each line, so it compiles whenever the recording stops.
        #[arg(long)]
        rust: bool,
    },
    /// Serve the verbs as MCP tools over stdin and stdout, for agent hosts (feature `mcp`). Every
    /// verb's tool takes an optional `dir`: one session can drive several apps.
    ///
    /// It lists the core group's tools (look, act, wait), `apps` and `help`; --caps adds groups. A
    /// tool's description is one sentence: the `help` tool gives its details, and with no topic
    /// the groups and their tools.
    #[cfg(feature = "mcp")]
    Mcp(crate::mcp::McpArgs),
}

/// What the command line asked for.
pub(crate) enum Parsed {
    /// A protocol verb, its arguments gathered (not yet checked), and `--out` for a screenshot.
    Verb {
        invocation: Result<Invocation, ParseError>,
        out: Option<PathBuf>,
    },
    /// A local subcommand.
    Local(Local),
}

/// The ids of a verb subcommand's positional arguments, before and after `--` (ids no flag of the
/// table can have).
const POSITIONAL: &str = "-positional";
const AFTER_DASHES: &str = "-after-dashes";

/// The verb subcommands' help: each verb's own extra text.
fn verb_help(verb: Verb) -> Option<&'static str> {
    match verb {
        Verb::Clean => Some(CLEAN_HELP),
        Verb::Journal => Some(JOURNAL_HELP),
        _ => None,
    }
}

/// The CLI's own `--timeout` is the protocol's: a verb's table flag `timeout` is not repeated on
/// its subcommand.
fn on_subcommand(flag: &Flag) -> bool {
    flag.name != "timeout"
}

/// A verb's subcommand, from its row of the table.
pub(crate) fn verb_command(verb: Verb) -> clap::Command {
    let spec = verb.spec();
    let mut long = spec.about.to_owned();
    if !spec.details.is_empty() {
        long.push_str("\n\n");
        long.push_str(spec.details);
    }
    let mut after = String::new();
    if !spec.args.is_empty() {
        after.push_str("ARGUMENTS:");
        for arg in spec.args {
            after.push_str(&format!("\n  {:<9} {}", arg.name, arg.help));
        }
        after.push_str("\n  (see TARGETS in `winit-automation --help` for how targets are read)");
    }
    if let Some(extra) = verb_help(verb) {
        if !after.is_empty() {
            after.push_str("\n\n");
        }
        after.push_str(extra);
    }
    let timeout = if verb.flag("timeout").is_some() {
        ""
    } else {
        " [--timeout MS]"
    };
    let mut command = clap::Command::new(spec.name)
        .about(spec.about)
        .long_about(long)
        .override_usage(format!(
            "winit-automation {}{timeout} [--dir DIR] [--json]",
            usage(verb)
        ))
        .arg(
            Arg::new(POSITIONAL)
                .num_args(1..)
                .allow_negative_numbers(true)
                .value_name("ARGS")
                .hide(true),
        )
        .arg(Arg::new(AFTER_DASHES).num_args(1..).last(true).hide(true));
    if !after.is_empty() {
        command = command.after_help(after);
    }
    for flag in verb.flags().filter(on_subcommand) {
        let mut arg = Arg::new(flag.name).help(flag.help);
        arg = match flag.name.chars().next() {
            Some(c) if flag.name.len() == 1 => arg.short(c),
            _ => arg.long(flag.name),
        };
        if let Some(alias) = flag.alias {
            arg = arg.long(alias);
        }
        arg = match flag.value {
            None => arg.action(ArgAction::SetTrue),
            Some((placeholder, _)) => arg.value_name(placeholder).allow_hyphen_values(true),
        };
        command = command.arg(arg);
    }
    if verb == Verb::Screenshot {
        command = command.arg(
            Arg::new("out")
                .long("out")
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help("copy the PNG here afterwards (the app itself never writes outside its directory)"),
        );
    }
    command
}

/// The whole command line: the globals, the verbs in the table's order, then the local
/// subcommands.
pub(crate) fn command() -> clap::Command {
    let root = Globals::augment_args(clap::Command::new("winit-automation"));
    let root = root.subcommands(Verb::ALL.iter().map(|&v| verb_command(v)));
    // After the derives, which would put their own doc comments here.
    Local::augment_subcommands(root)
        .version(env!("CARGO_PKG_VERSION"))
        .about("Inspect and drive a running winit + wgpu app through its drop-box directory.")
        .long_about(None)
        .after_help(AFTER_HELP)
        .subcommand_required(true)
        .arg_required_else_help(true)
}

/// A verb subcommand's arguments and flags, as an invocation; the global `--timeout` becomes the
/// protocol's for the verbs that wait in the app (a `wait`, a `settle`, an action with
/// `--settle`).
fn invocation(verb: Verb, m: &ArgMatches, timeout: u64) -> Result<Invocation, ParseError> {
    let strings = |id: &str| -> Vec<String> {
        m.get_many::<String>(id)
            .map(|v| v.cloned().collect())
            .unwrap_or_default()
    };
    let mut inv = Invocation::from_argv(verb, &strings(POSITIONAL), &strings(AFTER_DASHES))?;
    for flag in verb.flags().filter(on_subcommand) {
        match flag.value {
            None if m.get_flag(flag.name) => {
                inv.flag(flag.name, None)?;
            }
            None => {}
            Some(_) => {
                if let Some(v) = m.get_one::<String>(flag.name) {
                    inv.flag(flag.name, Some(v))?;
                }
            }
        }
    }
    inv.default_timeout(timeout);
    Ok(inv)
}

/// Parses the process's arguments (clap prints help and usage errors and exits, code 2).
pub(crate) fn parse() -> (Globals, Parsed) {
    let matches = command().get_matches();
    let globals = Globals::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let verb = matches
        .subcommand()
        .and_then(|(name, sub)| Some((Verb::parse(name)?, sub)));
    let parsed = match verb {
        Some((verb, sub)) => Parsed::Verb {
            invocation: invocation(verb, sub, globals.timeout),
            out: sub.try_get_one::<PathBuf>("out").ok().flatten().cloned(),
        },
        None => Parsed::Local(Local::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())),
    };
    (globals, parsed)
}
