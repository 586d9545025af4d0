//! `winit-automation`: the command-line client of the drop-box protocol.
//!
//! Each subcommand builds one protocol command, checks it locally (a malformed command is a usage
//! error, exit 2, and never reaches the app), sends it, waits for the response and prints it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use accesskit::Action;
use clap::{Args, Parser, Subcommand};
use winit_automation::client::{Client, ClientError};
use winit_automation::protocol::{
    ActOptions, Button, Command, ErrorCode, KeyChord, Label, Outcome, ParseError, Projection,
    Response, Selector, SnapshotOptions, Target, parse_action, quote,
};

const EXIT_OK: u8 = 0;
const EXIT_APP_ERROR: u8 = 1;
const EXIT_USAGE: u8 = 2;
const EXIT_NO_APP: u8 = 3;

const AFTER_HELP: &str = "\
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

/// Inspect and drive a running winit + wgpu app through its drop-box directory.
#[derive(Parser, Debug)]
#[command(name = "winit-automation", version, after_help = AFTER_HELP)]
struct Cli {
    /// The app's drop-box directory.
    #[arg(long, global = true, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// How long to wait for the answer, in milliseconds; also the timeout of wait and settle.
    #[arg(long, global = true, value_name = "MS", default_value_t = 10_000)]
    timeout: u64,
    /// Print one JSON object per answer instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Sub,
}

#[derive(Args, Debug, Default)]
struct Act {
    /// Answer once the tree has been unchanged for some frames, with the tree diff.
    #[arg(long)]
    settle: bool,
    /// Unchanged frames that count as settled (with --settle).
    #[arg(long, value_name = "K", requires = "settle")]
    frames: Option<u32>,
}

#[derive(Subcommand, Debug)]
enum Sub {
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
        /// Interactive projection: actionable nodes and their labels.
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
    /// Press key chords such as Enter, ctrl+a, shift+Tab.
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
    /// Ask the app to exit.
    Quit,
}

/// Turns CLI arguments into one target: each argument is a whole target expression, or one selector
/// term whose value may contain spaces (`name=Save as`).
fn target_from(args: &[String]) -> Result<Target, ParseError> {
    let parts: Vec<String> = args
        .iter()
        .map(|arg| {
            if Target::parse(arg).is_ok() {
                return arg.clone();
            }
            match arg.split_once('=') {
                Some((key, value)) if !key.is_empty() && !key.contains([' ', '"']) => {
                    format!("{key}={}", quote(value))
                }
                _ => quote(arg),
            }
        })
        .collect();
    Target::parse(&parts.join(" "))
}

fn selector_from(args: &[String]) -> Result<Selector, ParseError> {
    match target_from(args)? {
        Target::Selector(s) => Ok(s),
        other => Selector::parse(&other.to_string()),
    }
}

fn act(a: &Act, timeout_ms: Option<u64>) -> ActOptions {
    ActOptions {
        settle: a.settle,
        frames: a.frames,
        timeout_ms: if a.settle { timeout_ms } else { None },
    }
}

/// Splits `action`'s arguments into the target, the action and the positional VALUE: the action name
/// is the first argument after a valid target that names an action (a target never holds a bare
/// action name), and at most one argument follows it.
fn split_action(args: &[String]) -> Result<(Target, Action, Option<String>), ParseError> {
    let named = (1..args.len()).find_map(|i| {
        let action = parse_action(&args[i])?;
        let target = target_from(&args[..i]).ok()?;
        Some((i, target, action))
    });
    let Some((at, target, action)) = named else {
        // Name the argument after the longest valid target, or the target's own error.
        let after = (1..args.len())
            .rev()
            .find(|&k| target_from(&args[..k]).is_ok())
            .unwrap_or(1);
        target_from(&args[..after])?;
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("unknown action {}", quote(&args[after])),
            format!(
                "actions are {}",
                winit_automation::protocol::action_names()
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    };
    match &args[at + 1..] {
        [] => Ok((target, action, None)),
        [value] => Ok((target, action, Some(value.clone()))),
        [_, extra, ..] => Err(ParseError::new(
            ErrorCode::UnexpectedArgument,
            format!("unexpected {} after the action's VALUE", quote(extra)),
            "usage: action TARGET NAME [VALUE]; quote a VALUE that holds spaces",
        )),
    }
}

fn split_last(args: &[String], n: usize) -> (&[String], &[String]) {
    args.split_at(args.len().saturating_sub(n))
}

/// What to send: a typed command or a raw line.
enum Outgoing {
    Command(Command),
    Raw(String),
}

fn build(sub: &Sub, timeout_ms: u64) -> Result<Outgoing, ParseError> {
    let t = Some(timeout_ms);
    Ok(Outgoing::Command(match sub {
        Sub::Status => Command::Status,
        Sub::Windows => Command::Windows,
        Sub::Send { line } => return Ok(Outgoing::Raw(line.join(" "))),
        Sub::Snapshot {
            interactive,
            raw,
            depth,
            scope,
            force,
            diff,
        } => Command::Snapshot(SnapshotOptions {
            projection: if *interactive {
                Projection::Interactive
            } else if *raw {
                Projection::Raw
            } else {
                Projection::Regular
            },
            depth: *depth,
            scope: scope.as_deref().map(Target::parse).transpose()?,
            force: *force,
            diff: *diff,
        }),
        Sub::Find { selector } => Command::Find {
            selector: selector_from(selector)?,
        },
        Sub::Get { target } => Command::Get {
            target: target_from(target)?,
        },
        Sub::Wait { selector, gone } => Command::Wait {
            selector: selector_from(selector)?,
            gone: *gone,
            timeout_ms: t,
        },
        Sub::Click {
            target,
            double,
            right,
            middle,
            act: a,
        } => Command::Click {
            target: target_from(target)?,
            button: if *right {
                Button::Right
            } else if *middle {
                Button::Middle
            } else {
                Button::Left
            },
            double: *double,
            opts: act(a, t),
        },
        Sub::Type { text, act: a } => Command::Type {
            text: text.clone(),
            opts: act(a, t),
        },
        Sub::Fill { args, act: a } => {
            let (target, text) = split_last(args, 1);
            Command::Fill {
                target: target_from(target)?,
                text: text[0].clone(),
                opts: act(a, t),
            }
        }
        Sub::Key { chords, act: a } => Command::Key {
            chords: chords
                .iter()
                .map(|c| KeyChord::parse(c))
                .collect::<Result<_, _>>()?,
            opts: act(a, t),
        },
        Sub::Scroll { args, act: a } => {
            let (target, deltas) = split_last(args, 2);
            let number = |s: &String, what: &str| {
                s.parse::<f64>()
                    .ok()
                    .filter(|v| v.is_finite())
                    .ok_or_else(|| {
                        ParseError::new(
                            ErrorCode::BadArgument,
                            format!("{what} {} is not a number", quote(s)),
                            "usage: scroll TARGET DX DY, e.g. scroll @e4 0 120",
                        )
                    })
            };
            Command::Scroll {
                target: target_from(target)?,
                dx: number(&deltas[0], "DX")?,
                dy: number(&deltas[1], "DY")?,
                opts: act(a, t),
            }
        }
        Sub::Hover { target, act: a } => Command::Hover {
            target: target_from(target)?,
            opts: act(a, t),
        },
        Sub::Drag { args, act: a } => {
            let (from, to) = match args.iter().position(|s| s == "to") {
                Some(i) => (&args[..i], &args[i + 1..]),
                None if args.len() == 2 => (&args[..1], &args[1..]),
                None => {
                    return Err(ParseError::new(
                        ErrorCode::BadArgument,
                        "cannot tell where FROM ends and TO starts",
                        "put `to` between the two targets: drag role=slider to 200,40",
                    ));
                }
            };
            Command::Drag {
                from: target_from(from)?,
                to: target_from(to)?,
                opts: act(a, t),
            }
        }
        Sub::Action {
            args,
            value,
            act: a,
        } => {
            let (target, action, positional) = split_action(args)?;
            let value = match (positional, value) {
                (Some(p), Some(v)) => {
                    return Err(ParseError::new(
                        ErrorCode::UnexpectedArgument,
                        format!(
                            "the value is given twice: {} and --value {}",
                            quote(&p),
                            quote(v)
                        ),
                        "give VALUE after the action name or with --value, not both",
                    ));
                }
                (p, v) => p.or_else(|| v.clone()),
            };
            Command::Action {
                target,
                action,
                value,
                opts: act(a, t),
            }
        }
        Sub::Focus { target, act: a } => Command::Focus {
            target: target_from(target)?,
            opts: act(a, t),
        },
        Sub::Resize {
            width,
            height,
            act: a,
        } => {
            if *width == 0 || *height == 0 {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    "width and height must be at least 1",
                    "usage: resize WIDTH HEIGHT, e.g. resize 800 600",
                ));
            }
            Command::Resize {
                width: *width,
                height: *height,
                opts: act(a, t),
            }
        }
        Sub::Screenshot { label, crop, .. } => Command::Screenshot {
            label: Label::new(label)?,
            crop: crop.as_deref().map(Target::parse).transpose()?,
        },
        Sub::Settle { frames } => Command::Settle {
            frames: *frames,
            timeout_ms: t,
        },
        Sub::Clean { keep, dry_run } => Command::Clean {
            keep: (*keep != 0).then_some(*keep),
            dry_run: *dry_run,
        },
        Sub::Quit => Command::Quit,
    }))
}

fn print_json_response(r: &Response) {
    match &r.outcome {
        Outcome::Ok { body } => println!(
            "{{\"ok\":true,\"seq\":{},\"verb\":{},\"body\":{}}}",
            r.seq,
            quote(&r.verb),
            quote(body)
        ),
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => println!(
            "{{\"ok\":false,\"seq\":{},\"verb\":{},\"code\":{},\"message\":{},\"hint\":{},\"body\":{}}}",
            r.seq,
            quote(&r.verb),
            quote(code),
            quote(message),
            quote(hint),
            quote(body)
        ),
    }
}

fn local_error(json: bool, code: &str, message: &str, hint: Option<&str>) {
    if json {
        println!(
            "{{\"ok\":false,\"code\":{},\"message\":{},\"hint\":{}}}",
            quote(code),
            quote(message),
            quote(hint.unwrap_or(""))
        );
    } else {
        eprintln!("error: {message}");
        if let Some(hint) = hint {
            eprintln!("hint: {hint}");
        }
    }
}

/// Copies the screenshot a response names to `out`. The name is checked, so an answer can only
/// make the CLI read a `screenshot-<label>.png` inside the directory.
fn copy_screenshot(client: &Client, response: &Response, out: &PathBuf) -> Result<(), String> {
    let name = response
        .body()
        .lines()
        .find_map(|l| l.strip_prefix("file "))
        .map(|n| n.trim().trim_matches('"'))
        .ok_or("the answer names no file")?;
    let label = Label::from_file_name(name)
        .ok_or_else(|| format!("the answer names {name:?}, not a screenshot"))?;
    let from = client.dir().join(label.file_name());
    std::fs::copy(&from, out)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), out.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outgoing = match build(&cli.command, cli.timeout) {
        Ok(o) => o,
        Err(e) => {
            local_error(cli.json, e.code().as_str(), e.message(), Some(e.hint()));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // wait and settle time out inside the app; leave room for their answer to arrive.
    let waits_in_app = matches!(cli.command, Sub::Wait { .. } | Sub::Settle { .. })
        || matches!(&cli.command, Sub::Click { act, .. } | Sub::Type { act, .. } | Sub::Fill { act, .. }
            | Sub::Key { act, .. } | Sub::Scroll { act, .. } | Sub::Hover { act, .. } | Sub::Drag { act, .. }
            | Sub::Action { act, .. } | Sub::Focus { act, .. } | Sub::Resize { act, .. } if act.settle);
    let margin = if waits_in_app { 2_000 } else { 0 };
    // `wait` also waits for an app that has not started yet, within the same --timeout.
    let started = std::time::Instant::now();
    let connected = if matches!(cli.command, Sub::Wait { .. }) {
        Client::connect_waiting(
            cli.dir.as_deref(),
            Duration::from_millis(cli.timeout),
            |why| {
                eprintln!(
                    "waiting up to {} ms for the app to start ({why})",
                    cli.timeout
                )
            },
        )
    } else {
        Client::connect(cli.dir.as_deref())
    };
    let client = match connected {
        Ok(c) => c.with_timeout(Duration::from_millis(cli.timeout.saturating_add(margin))),
        Err(e) => return client_failure(cli.json, &e),
    };
    let outgoing = match (&cli.command, outgoing) {
        // The time spent waiting for the app comes off the wait's own timeout.
        (Sub::Wait { .. }, Outgoing::Command(Command::Wait { selector, gone, .. })) => {
            let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            Outgoing::Command(Command::Wait {
                selector,
                gone,
                timeout_ms: Some(cli.timeout.saturating_sub(spent).max(1)),
            })
        }
        (_, outgoing) => outgoing,
    };
    let result = match &outgoing {
        Outgoing::Command(c) => client.send(c),
        Outgoing::Raw(line) => client.send_line(line),
    };
    let response = match result {
        Ok(r) => r,
        Err(e) => return client_failure(cli.json, &e),
    };
    if let (Sub::Screenshot { out: Some(out), .. }, true) = (&cli.command, response.is_ok())
        && let Err(why) = copy_screenshot(&client, &response, out)
    {
        local_error(cli.json, "copy_failed", &why, None);
        return ExitCode::from(EXIT_APP_ERROR);
    }
    if cli.json {
        print_json_response(&response);
    }
    match &response.outcome {
        Outcome::Ok { body } => {
            if !cli.json {
                if matches!(cli.command, Sub::Status) {
                    println!("dir {}", quote(&client.dir().display().to_string()));
                }
                print!("{body}");
                if body.is_empty() {
                    println!("ok");
                }
            }
            ExitCode::from(EXIT_OK)
        }
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => {
            if !cli.json {
                eprintln!("error: {code}: {message}");
                eprintln!("hint: {hint}");
                eprint!("{body}");
            }
            ExitCode::from(EXIT_APP_ERROR)
        }
    }
}

fn client_failure(json: bool, e: &ClientError) -> ExitCode {
    local_error(json, e.code(), &e.to_string(), e.hint().as_deref());
    ExitCode::from(EXIT_NO_APP)
}
