//! A command's canonical one-line form, both ways, side by side: parsing (`from_args` maps each
//! verb's parts to its variant, through one function per verb that takes more than a target) and
//! writing (`positional_words` and `set_flags`, its inverse, and `Display`).

use std::fmt;

use super::file::file_line;
use super::{ActOptions, Button, Command, Press, Projection, SnapshotOptions, TraceCommand};
use crate::actions::{action_name, action_names, parse_action};
use crate::args::Args;
use crate::key::KeyChord;
use crate::lexer::{Token, quote, tokenize, word};
use crate::names::Label;
use crate::target::Target;
use crate::verbs::dashed;
use crate::{ErrorCode, ParseError, Verb};

mod audit_flags;
mod clock;
mod pointer;
mod trace;

use audit_flags::{audit_flags, audit_from_args};
use clock::{clock_from_args, clock_step, clock_words};
use pointer::{
    button_from_args, drag_from_args, pinch_from_args, scroll_from_args, steps_from_args,
    stroke_from_args,
};
use trace::{trace_from_args, trace_words};

impl Command {
    /// The default size cap of a command file, in bytes, final newline included.
    pub const DEFAULT_MAX_BYTES: usize = 64 * 1024;

    /// Parses the raw bytes of a command file: one UTF-8 line ending in `\n` (a `\r\n` ending is
    /// accepted), at most `max_bytes` long. A `--deadline` is refused here: read files with
    /// [`Envelope::parse_bytes`](crate::Envelope::parse_bytes).
    pub fn parse_bytes(bytes: &[u8], max_bytes: usize) -> Result<Command, ParseError> {
        Command::parse(file_line(bytes, max_bytes)?)
    }

    /// Parses one command line (without its newline).
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        Command::parse_tokens(tokenize(line)?)
    }

    pub(crate) fn parse_tokens(mut tokens: Vec<Token>) -> Result<Command, ParseError> {
        if tokens.is_empty() {
            return Err(ParseError::new(
                ErrorCode::EmptyCommand,
                "the command is empty",
                "write a verb such as status or snapshot",
            ));
        }
        let first = tokens.remove(0);
        let verb = match (&first.quoted, Verb::parse(&first.bare)) {
            (None, Some(v)) => v,
            _ => {
                return Err(ParseError::new(
                    ErrorCode::UnknownVerb,
                    format!("unknown verb {}", quote(&first.text())),
                    format!(
                        "verbs are {}",
                        Verb::ALL
                            .iter()
                            .map(|v| v.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                ));
            }
        };
        // A line that says its text is a secret never has its words quoted back in an error.
        let secret = tokens
            .iter()
            .any(|t| t.quoted.is_none() && t.bare == "--secret");
        let parsed = Args::split(verb, tokens).and_then(|args| {
            let command = Self::from_args(&args)?;
            args.check_rules()?;
            Ok(command)
        });
        parsed.map_err(|e| if secret { secret_refused(verb, e) } else { e })
    }

    /// Maps the parts of a command line to its variant: one arm per verb, the longer ones in the
    /// function they name. A verb reads its positional arguments before its flags' values, so a
    /// line with several faults is refused for the first of them.
    pub(crate) fn from_args(a: &Args) -> Result<Command, ParseError> {
        Ok(match a.verb {
            Verb::Status => a.done(0).map(|()| Command::Status)?,
            Verb::Windows => a.done(0).map(|()| Command::Windows)?,
            Verb::Quit => a.done(0).map(|()| Command::Quit)?,
            Verb::Snapshot => Command::Snapshot(snapshot_from_args(a)?),
            Verb::Find => Command::Find {
                selector: a.selector()?,
            },
            Verb::Get => Command::Get {
                target: sole_target(a)?,
            },
            Verb::Wait => Command::Wait {
                selector: a.selector()?,
                gone: a.has("gone"),
                timeout_ms: a.number("timeout")?,
            },
            Verb::Settle => {
                a.done(0)?;
                Command::Settle {
                    frames: a.number("frames")?,
                    timeout_ms: a.number("timeout")?,
                }
            }
            Verb::Clean => {
                a.done(0)?;
                Command::Clean {
                    keep: a.number("keep")?,
                    dry_run: a.has("dry-run"),
                }
            }
            Verb::Journal => {
                a.done(0)?;
                Command::Journal {
                    after: a.number("after")?,
                    timeout_ms: a.number("wait")?,
                }
            }
            Verb::Click => Command::Click {
                target: sole_target(a)?,
                button: button_from_args(a),
                press: match pointer::gesture_ms(a, "hold")? {
                    Some(ms) => Press::Hold(ms),
                    None if a.has("double") => Press::Double,
                    None => Press::Single,
                },
                modifiers: a.modifiers()?,
                opts: act_from_args(a)?,
            },
            Verb::Down => Command::Down {
                target: sole_target(a)?,
                button: button_from_args(a),
                modifiers: a.modifiers()?,
                opts: act_from_args(a)?,
            },
            Verb::Move => Command::Move {
                target: sole_target(a)?,
                steps: steps_from_args(a)?,
                opts: act_from_args(a)?,
            },
            Verb::Up => {
                a.done(0)?;
                Command::Up {
                    button: button_from_args(a),
                    opts: act_from_args(a)?,
                }
            }
            Verb::Stroke => stroke_from_args(a)?,
            Verb::Pinch => pinch_from_args(a)?,
            Verb::Hover => Command::Hover {
                target: sole_target(a)?,
                opts: act_from_args(a)?,
            },
            Verb::Focus => Command::Focus {
                target: sole_target(a)?,
                opts: act_from_args(a)?,
            },
            Verb::Drag => drag_from_args(a)?,
            Verb::Scroll => scroll_from_args(a)?,
            Verb::Type => type_from_args(a)?,
            Verb::Fill => fill_from_args(a)?,
            Verb::Key => key_from_args(a)?,
            Verb::Action => action_from_args(a)?,
            Verb::Resize => resize_from_args(a)?,
            Verb::Screenshot => screenshot_from_args(a)?,
            Verb::Audit => audit_from_args(a)?,
            Verb::Trace => Command::Trace(trace_from_args(a)?),
            Verb::Clock => Command::Clock(clock_from_args(a)?),
        })
    }

    /// The canonical command line, without its newline. It parses back to an equal command.
    pub fn to_line(&self) -> String {
        self.to_string()
    }

    /// The positional words of the canonical line, quoted where they need it: the inverse of the
    /// positional half of `from_args`.
    fn positional_words(&self) -> Vec<String> {
        match self {
            Command::Status
            | Command::Windows
            | Command::Quit
            | Command::Snapshot(_)
            | Command::Settle { .. }
            | Command::Clean { .. }
            | Command::Journal { .. } => vec![],
            Command::Find { selector } | Command::Wait { selector, .. } => {
                vec![selector.to_string()]
            }
            Command::Get { target }
            | Command::Click { target, .. }
            | Command::Hover { target, .. }
            | Command::Focus { target, .. }
            | Command::Down { target, .. }
            | Command::Move { target, .. } => vec![target.to_string()],
            Command::Up { .. } => vec![],
            Command::Drag { from, to, .. } => vec![from.to_string(), "to".into(), to.to_string()],
            Command::Stroke { points, .. } => points.iter().map(target_word).collect(),
            Command::Pinch { target, scale, .. } => vec![target.to_string(), scale.to_string()],
            Command::Scroll { target, dx, dy, .. } => {
                vec![target.to_string(), dx.to_string(), dy.to_string()]
            }
            Command::Type { text, .. } => vec![quote(text)],
            Command::Fill { target, text, .. } => vec![target.to_string(), quote(text)],
            Command::Key { chords, .. } => chords.iter().map(|c| word(&c.to_string())).collect(),
            Command::Action {
                target,
                action,
                value,
                ..
            } => {
                let mut words = vec![target.to_string(), action_name(*action).to_owned()];
                words.extend(value.as_deref().map(quote));
                words
            }
            Command::Resize { width, height, .. } => vec![width.to_string(), height.to_string()],
            Command::Screenshot { label, .. } => vec![label.to_string()],
            Command::Audit { scope, .. } => scope.iter().map(Target::to_string).collect(),
            Command::Trace(trace) => trace_words(trace),
            Command::Clock(clock) => clock_words(clock),
        }
    }

    /// The flags the canonical line writes and their values, by canonical name: the inverse of the
    /// flag half of `from_args`.
    fn set_flags(&self) -> Flags {
        let mut flags = Flags::default();
        match self {
            Command::Status
            | Command::Windows
            | Command::Quit
            | Command::Find { .. }
            | Command::Get { .. }
            | Command::Trace(TraceCommand::Save { .. } | TraceCommand::Stop { .. }) => {}
            Command::Snapshot(o) => flags.snapshot(o),
            Command::Wait {
                gone, timeout_ms, ..
            } => {
                flags.switch("gone", *gone);
                flags.value("timeout", *timeout_ms);
            }
            Command::Settle { frames, timeout_ms } => {
                flags.value("frames", *frames);
                flags.value("timeout", *timeout_ms);
            }
            Command::Clean { keep, dry_run } => {
                flags.value("keep", *keep);
                flags.switch("dry-run", *dry_run);
            }
            Command::Journal { after, timeout_ms } => {
                flags.value("after", *after);
                flags.value("wait", *timeout_ms);
            }
            Command::Click {
                button,
                press,
                modifiers,
                opts,
                ..
            } => {
                flags.switch("double", *press == Press::Double);
                if let Press::Hold(ms) = press {
                    flags.value("hold", Some(ms));
                }
                flags.button(*button);
                flags.modifiers(*modifiers);
                flags.act(opts);
            }
            Command::Drag {
                motion,
                modifiers,
                opts,
                ..
            } => {
                flags.value("steps", motion.steps);
                flags.value("hold", motion.hold_ms);
                flags.value("dwell", motion.dwell_ms);
                flags.modifiers(*modifiers);
                flags.act(opts);
            }
            Command::Scroll {
                modifiers, opts, ..
            } => {
                flags.modifiers(*modifiers);
                flags.act(opts);
            }
            Command::Stroke {
                button,
                modifiers,
                opts,
                ..
            }
            | Command::Down {
                button,
                modifiers,
                opts,
                ..
            } => {
                flags.button(*button);
                flags.modifiers(*modifiers);
                flags.act(opts);
            }
            Command::Move { steps, opts, .. } => {
                flags.value("steps", *steps);
                flags.act(opts);
            }
            Command::Up { button, opts } => {
                flags.button(*button);
                flags.act(opts);
            }
            Command::Pinch { pan, opts, .. } => {
                flags.value("pan", *pan);
                flags.act(opts);
            }
            Command::Type { secret, opts, .. } | Command::Fill { secret, opts, .. } => {
                flags.switch("secret", *secret);
                flags.act(opts);
            }
            Command::Hover { opts, .. }
            | Command::Focus { opts, .. }
            | Command::Key { opts, .. }
            | Command::Action { opts, .. }
            | Command::Resize { opts, .. } => flags.act(opts),
            Command::Screenshot { crop, refs, .. } => {
                flags.value("ref", crop.as_ref().map(target_word));
                flags.switch("refs", *refs);
            }
            Command::Audit { .. } => audit_flags(self, &mut flags),
            Command::Trace(TraceCommand::Start {
                screenshots,
                replaceable,
            }) => {
                flags.switch("screenshots", *screenshots);
                flags.switch("replaceable", *replaceable);
            }
            Command::Clock(clock) => flags.value("step", clock_step(clock)),
        }
        flags
    }
}

/// The refusal of a `--secret` line that does not parse, with none of its words: its code, a
/// message that says so, and the verb's usage line for a hint.
fn secret_refused(verb: Verb, e: ParseError) -> ParseError {
    ParseError::new(
        e.code,
        format!(
            "this {verb} line does not parse ({}); it says --secret, so its words are not repeated",
            e.code
        ),
        format!("usage: {}", crate::verbs::usage(verb)),
    )
}

/// The options every action takes: `--settle`, `--frames`, `--timeout`, `--wait`, `--no-scroll`.
fn act_from_args(a: &Args) -> Result<ActOptions, ParseError> {
    Ok(ActOptions {
        settle: a.has("settle"),
        frames: a.number("frames")?,
        timeout_ms: a.number("timeout")?,
        wait_ms: a.number("wait")?,
        no_scroll: a.has("no-scroll"),
    })
}

/// The one target of `get`, `click`, `hover` and `focus`, with nothing after it.
fn sole_target(a: &Args) -> Result<Target, ParseError> {
    let (target, used) = a.target_at(0, "a target")?;
    a.done(used)?;
    Ok(target)
}

/// `snapshot`'s options: no positional argument, flags only.
fn snapshot_from_args(a: &Args) -> Result<SnapshotOptions, ParseError> {
    a.done(0)?;
    Ok(SnapshotOptions {
        projection: if a.has("i") {
            Projection::Interactive
        } else if a.has("raw") {
            Projection::Raw
        } else {
            Projection::Regular
        },
        depth: a.number("depth")?,
        scope: a.target_flag("scope", "\"role=list name=Files\"")?,
        force: a.has("force"),
        diff: a.has("diff"),
        bounds: a.has("bounds"),
        actions: a.has("actions"),
        since: a.number("since")?,
        max_bytes: a.number("max-bytes")?,
    })
}

/// `type TEXT`.
fn type_from_args(a: &Args) -> Result<Command, ParseError> {
    let text = a.text_at(0, "the text to type")?;
    a.done(1)?;
    Ok(Command::Type {
        text,
        secret: a.has("secret"),
        opts: act_from_args(a)?,
    })
}

/// `fill TARGET TEXT`.
fn fill_from_args(a: &Args) -> Result<Command, ParseError> {
    let (target, at) = a.target_at(0, "a target")?;
    let text = a.text_at(at, "the text to fill in")?;
    a.done(at + 1)?;
    Ok(Command::Fill {
        target,
        text,
        secret: a.has("secret"),
        opts: act_from_args(a)?,
    })
}

/// `key CHORD...`: one key chord or more.
fn key_from_args(a: &Args) -> Result<Command, ParseError> {
    if a.positional.is_empty() {
        return Err(a.missing("a key chord"));
    }
    let chords = a
        .positional
        .iter()
        .map(|t| KeyChord::parse(&t.text()))
        .collect::<Result<_, _>>()?;
    Ok(Command::Key {
        chords,
        opts: act_from_args(a)?,
    })
}

/// `action TARGET NAME [VALUE]`, the name one of the known actions.
fn action_from_args(a: &Args) -> Result<Command, ParseError> {
    let (target, at) = a.target_at(0, "a target")?;
    let name = a.text_at(at, "an action name")?;
    let action = parse_action(&name).ok_or_else(|| {
        ParseError::new(
            ErrorCode::BadArgument,
            format!("unknown action {}", quote(&name)),
            format!(
                "actions are {}",
                action_names().collect::<Vec<_>>().join(", ")
            ),
        )
    })?;
    let value = a.positional.get(at + 1).map(Token::text);
    a.done(at + 2)?;
    Ok(Command::Action {
        target,
        action,
        value,
        opts: act_from_args(a)?,
    })
}

/// `resize WIDTH HEIGHT`.
fn resize_from_args(a: &Args) -> Result<Command, ParseError> {
    let width = a.size_at(0, "WIDTH")?;
    let height = a.size_at(1, "HEIGHT")?;
    a.done(2)?;
    Ok(Command::Resize {
        width,
        height,
        opts: act_from_args(a)?,
    })
}

/// `screenshot [LABEL]`, the label a valid file-name part.
fn screenshot_from_args(a: &Args) -> Result<Command, ParseError> {
    let label = match a.positional.first() {
        Some(t) => Label::new(&t.text())?,
        None => Label::default(),
    };
    a.done(1)?;
    Ok(Command::Screenshot {
        label,
        crop: a.target_flag("ref", "\"role=dialog\"")?,
        refs: a.has("refs"),
    })
}

/// The flags of a command being written: canonical name and value (`None` for a switch).
#[derive(Default)]
struct Flags(Vec<(&'static str, Option<String>)>);

impl Flags {
    /// A switch, written when it is on.
    fn switch(&mut self, name: &'static str, on: bool) {
        if on {
            self.0.push((name, None));
        }
    }

    /// A flag with a value, written when it has one.
    fn value(&mut self, name: &'static str, value: Option<impl ToString>) {
        if let Some(v) = value {
            self.0.push((name, Some(v.to_string())));
        }
    }

    /// `--right` or `--middle` (`button_from_args`, written back).
    fn button(&mut self, button: Button) {
        self.switch("right", button == Button::Right);
        self.switch("middle", button == Button::Middle);
    }

    /// `--modifiers`, written when any is held.
    fn modifiers(&mut self, modifiers: crate::key::Modifiers) {
        self.value("modifiers", (!modifiers.is_empty()).then_some(modifiers));
    }

    /// The options every action takes (`act_from_args`, written back).
    fn act(&mut self, opts: &ActOptions) {
        self.switch("settle", opts.settle);
        self.value("frames", opts.frames);
        self.value("timeout", opts.timeout_ms);
        self.value("wait", opts.wait_ms);
        self.switch("no-scroll", opts.no_scroll);
    }

    /// `snapshot`'s options (`snapshot_from_args`, written back).
    fn snapshot(&mut self, o: &SnapshotOptions) {
        self.switch("i", o.projection == Projection::Interactive);
        self.switch("raw", o.projection == Projection::Raw);
        self.value("depth", o.depth);
        self.value("scope", o.scope.as_ref().map(target_word));
        self.switch("force", o.force);
        self.switch("diff", o.diff);
        self.switch("bounds", o.bounds);
        self.switch("actions", o.actions);
        self.value("since", o.since);
        self.value("max-bytes", o.max_bytes);
    }
}

/// A target as one token, for flag values (`--scope`, `--ref`).
fn target_word(t: &Target) -> String {
    match t {
        Target::Selector(_) => quote(&t.to_string()),
        _ => t.to_string(),
    }
}

impl fmt::Display for Command {
    /// The canonical line: the verb, its positional words, then its flags in the table's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verb = self.verb();
        f.write_str(verb.as_str())?;
        let (positional, set) = (self.positional_words(), self.set_flags());
        for word in &positional {
            write!(f, " {word}")?;
        }
        for flag in verb.flags() {
            if let Some((_, value)) = set.0.iter().find(|(n, _)| *n == flag.name) {
                write!(f, " {}", dashed(flag.name))?;
                if let Some(v) = value {
                    write!(f, " {v}")?;
                }
            }
        }
        debug_assert!(
            set.0.iter().all(|(n, _)| verb.flag(n).is_some()),
            "{verb} writes a flag its table row does not list"
        );
        Ok(())
    }
}
