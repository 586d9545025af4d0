//! From a parsed subcommand to the protocol command it sends, checked with the same parser the app
//! uses (a malformed command is a usage error and is never sent).

use accesskit::Action;
use winit_automation::protocol::{
    ActOptions, Button, Command, ErrorCode, KeyChord, Label, ParseError, Projection, Selector,
    SnapshotOptions, Target, parse_action, quote,
};

use super::args::{Act, Sub};

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
pub(crate) enum Outgoing {
    Command(Command),
    Raw(String),
}

pub(crate) fn build(sub: &Sub, timeout_ms: u64) -> Result<Outgoing, ParseError> {
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
            bounds,
            actions,
            since,
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
            bounds: *bounds,
            actions: *actions,
            since: *since,
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
        // `--wait` is the protocol's `--timeout`: the global --timeout stays the client's.
        Sub::Journal { after, wait } => Command::Journal {
            after: *after,
            timeout_ms: *wait,
        },
        Sub::Quit => Command::Quit,
        Sub::Run { .. } | Sub::Record { .. } => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                "run and record drive the app themselves, they are not commands to send",
                "run `winit-automation run FILE` or `winit-automation record FILE`",
            ));
        }
        Sub::Compare { .. } => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                "compare runs locally, it is not a command to send",
                "run `winit-automation compare EXPECTED.png ACTUAL.png`",
            ));
        }
        #[cfg(feature = "mcp")]
        Sub::Mcp => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                "mcp is a server, not a command to send",
                "run `winit-automation mcp` from an agent host's configuration",
            ));
        }
    }))
}
