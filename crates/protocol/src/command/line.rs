//! A command's canonical one-line form, both ways: parsing (`from_args` maps each verb's parts to
//! its variant) and writing (`to_parts`, its inverse, and `Display`), side by side.

use std::fmt;

use super::{ActOptions, Button, Command, Projection, SnapshotOptions, TraceCommand};
use crate::actions::{action_name, action_names, parse_action};
use crate::args::Args;
use crate::envelope::file_line;
use crate::key::KeyChord;
use crate::lexer::{Token, quote, tokenize, word};
use crate::names::Label;
use crate::target::Target;
use crate::verbs::dashed;
use crate::{ErrorCode, ParseError, Verb};

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
        let args = Args::split(verb, tokens)?;
        let command = Self::from_args(&args)?;
        args.check_rules()?;
        Ok(command)
    }

    /// Maps the parts of a command line to its variant.
    pub(crate) fn from_args(a: &Args) -> Result<Command, ParseError> {
        let act = || -> Result<ActOptions, ParseError> {
            Ok(ActOptions {
                settle: a.has("settle"),
                frames: a.number("frames")?,
                timeout_ms: a.number("timeout")?,
                wait_ms: a.number("wait")?,
                no_scroll: a.has("no-scroll"),
            })
        };
        let target_only = || -> Result<Target, ParseError> {
            let (target, used) = a.target_at(0, "a target")?;
            a.done(used)?;
            Ok(target)
        };
        Ok(match a.verb {
            Verb::Status => a.done(0).map(|()| Command::Status)?,
            Verb::Windows => a.done(0).map(|()| Command::Windows)?,
            Verb::Quit => a.done(0).map(|()| Command::Quit)?,
            Verb::Snapshot => {
                a.done(0)?;
                Command::Snapshot(SnapshotOptions {
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
                })
            }
            Verb::Find => Command::Find {
                selector: a.selector()?,
            },
            Verb::Get => Command::Get {
                target: target_only()?,
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
                target: target_only()?,
                button: if a.has("right") {
                    Button::Right
                } else if a.has("middle") {
                    Button::Middle
                } else {
                    Button::Left
                },
                double: a.has("double"),
                opts: act()?,
            },
            Verb::Hover => Command::Hover {
                target: target_only()?,
                opts: act()?,
            },
            Verb::Focus => Command::Focus {
                target: target_only()?,
                opts: act()?,
            },
            Verb::Drag => {
                let (from, mut at) = a.target_at(0, "a start target")?;
                if a.positional
                    .get(at)
                    .is_some_and(|t| t.quoted.is_none() && t.bare == "to")
                {
                    at += 1;
                }
                let (to, used) = a.target_at(at, "an end target")?;
                a.done(used)?;
                Command::Drag {
                    from,
                    to,
                    opts: act()?,
                }
            }
            Verb::Scroll => {
                let (target, at) = a.target_at(0, "a target")?;
                let dx = a.float_at(at, "DX")?;
                let dy = a.float_at(at + 1, "DY")?;
                a.done(at + 2)?;
                Command::Scroll {
                    target,
                    dx,
                    dy,
                    opts: act()?,
                }
            }
            Verb::Type => {
                let text = a.text_at(0, "the text to type")?;
                a.done(1)?;
                Command::Type { text, opts: act()? }
            }
            Verb::Fill => {
                let (target, at) = a.target_at(0, "a target")?;
                let text = a.text_at(at, "the text to fill in")?;
                a.done(at + 1)?;
                Command::Fill {
                    target,
                    text,
                    opts: act()?,
                }
            }
            Verb::Key => {
                if a.positional.is_empty() {
                    return Err(a.missing("a key chord"));
                }
                let chords = a
                    .positional
                    .iter()
                    .map(|t| KeyChord::parse(&t.text()))
                    .collect::<Result<_, _>>()?;
                Command::Key {
                    chords,
                    opts: act()?,
                }
            }
            Verb::Action => {
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
                Command::Action {
                    target,
                    action,
                    value,
                    opts: act()?,
                }
            }
            Verb::Resize => {
                let width = a.size_at(0, "WIDTH")?;
                let height = a.size_at(1, "HEIGHT")?;
                a.done(2)?;
                Command::Resize {
                    width,
                    height,
                    opts: act()?,
                }
            }
            Verb::Screenshot => {
                let label = match a.positional.first() {
                    Some(t) => Label::new(&t.text())?,
                    None => Label::default(),
                };
                a.done(1)?;
                Command::Screenshot {
                    label,
                    crop: a.target_flag("ref", "\"role=dialog\"")?,
                    refs: a.has("refs"),
                }
            }
            Verb::Trace => Command::Trace(trace_from_args(a)?),
        })
    }
    /// The canonical command line, without its newline. It parses back to an equal command.
    pub fn to_line(&self) -> String {
        self.to_string()
    }

    /// The inverse of `from_args`: the positional words (quoted where they need it) and the value
    /// of each flag that is set, by canonical name.
    fn to_parts(&self) -> (Vec<String>, Flags) {
        let mut flags = Flags::default();
        let positional = match self {
            Command::Status | Command::Windows | Command::Quit => vec![],
            Command::Snapshot(o) => {
                flags.switch("i", o.projection == Projection::Interactive);
                flags.switch("raw", o.projection == Projection::Raw);
                flags.value("depth", o.depth);
                flags.value("scope", o.scope.as_ref().map(target_word));
                flags.switch("force", o.force);
                flags.switch("diff", o.diff);
                flags.switch("bounds", o.bounds);
                flags.switch("actions", o.actions);
                flags.value("since", o.since);
                vec![]
            }
            Command::Find { selector } => vec![selector.to_string()],
            Command::Get { target } => vec![target.to_string()],
            Command::Wait {
                selector,
                gone,
                timeout_ms,
            } => {
                flags.switch("gone", *gone);
                flags.value("timeout", *timeout_ms);
                vec![selector.to_string()]
            }
            Command::Settle { frames, timeout_ms } => {
                flags.value("frames", *frames);
                flags.value("timeout", *timeout_ms);
                vec![]
            }
            Command::Clean { keep, dry_run } => {
                flags.value("keep", *keep);
                flags.switch("dry-run", *dry_run);
                vec![]
            }
            Command::Journal { after, timeout_ms } => {
                flags.value("after", *after);
                flags.value("wait", *timeout_ms);
                vec![]
            }
            Command::Click {
                target,
                button,
                double,
                opts,
            } => {
                flags.switch("double", *double);
                flags.switch("right", *button == Button::Right);
                flags.switch("middle", *button == Button::Middle);
                flags.act(opts);
                vec![target.to_string()]
            }
            Command::Hover { target, opts } | Command::Focus { target, opts } => {
                flags.act(opts);
                vec![target.to_string()]
            }
            Command::Drag { from, to, opts } => {
                flags.act(opts);
                vec![from.to_string(), "to".into(), to.to_string()]
            }
            Command::Scroll {
                target,
                dx,
                dy,
                opts,
            } => {
                flags.act(opts);
                vec![target.to_string(), dx.to_string(), dy.to_string()]
            }
            Command::Type { text, opts } => {
                flags.act(opts);
                vec![quote(text)]
            }
            Command::Fill { target, text, opts } => {
                flags.act(opts);
                vec![target.to_string(), quote(text)]
            }
            Command::Key { chords, opts } => {
                flags.act(opts);
                chords.iter().map(|c| word(&c.to_string())).collect()
            }
            Command::Action {
                target,
                action,
                value,
                opts,
            } => {
                flags.act(opts);
                let mut words = vec![target.to_string(), action_name(*action).to_owned()];
                words.extend(value.as_deref().map(quote));
                words
            }
            Command::Resize {
                width,
                height,
                opts,
            } => {
                flags.act(opts);
                vec![width.to_string(), height.to_string()]
            }
            Command::Screenshot { label, crop, refs } => {
                flags.value("ref", crop.as_ref().map(target_word));
                flags.switch("refs", *refs);
                vec![label.to_string()]
            }
            Command::Trace(TraceCommand::Start {
                screenshots,
                replaceable,
            }) => {
                flags.switch("screenshots", *screenshots);
                flags.switch("replaceable", *replaceable);
                vec!["start".into()]
            }
            Command::Trace(TraceCommand::Save { file }) => {
                vec!["save".into(), quote(&file.to_string_lossy())]
            }
            Command::Trace(TraceCommand::Stop { file }) => {
                vec!["stop".into(), quote(&file.to_string_lossy())]
            }
        };
        (positional, flags)
    }
}

/// `trace start [--screenshots]`, `trace save FILE` or `trace stop FILE`.
fn trace_from_args(a: &Args) -> Result<TraceCommand, ParseError> {
    let usage = "write `trace start [--screenshots]`, `trace save FILE` or `trace stop FILE`";
    let what = a.text_at(0, "start, save or stop")?;
    match what.as_str() {
        "start" => {
            a.done(1)?;
            Ok(TraceCommand::Start {
                screenshots: a.has("screenshots"),
                replaceable: a.has("replaceable"),
            })
        }
        "save" | "stop" => {
            let file = a
                .text_at(1, "the file to write the trace to")
                .map_err(|mut e| {
                    e.hint = format!("write `trace {what} FILE`, FILE the HTML file to write");
                    e
                })?;
            if file.is_empty() {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    "the trace's file is empty",
                    "name the HTML file to write: trace stop /tmp/session.html",
                ));
            }
            let file = std::path::PathBuf::from(file);
            a.done(2)?;
            if let Some(flag) = ["screenshots", "replaceable"]
                .into_iter()
                .find(|f| a.has(f))
            {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("--{flag} is for trace start"),
                    format!("give --{flag} when the trace starts: trace start --{flag}"),
                ));
            }
            Ok(if what == "save" {
                TraceCommand::Save { file }
            } else {
                TraceCommand::Stop { file }
            })
        }
        other => Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("trace takes start, save or stop, not {}", quote(other)),
            usage,
        )),
    }
}

/// The flags of a command being written: canonical name and value (`None` for a switch).
#[derive(Default)]
struct Flags(Vec<(&'static str, Option<String>)>);

impl Flags {
    fn switch(&mut self, name: &'static str, on: bool) {
        if on {
            self.0.push((name, None));
        }
    }

    fn value(&mut self, name: &'static str, value: Option<impl ToString>) {
        if let Some(v) = value {
            self.0.push((name, Some(v.to_string())));
        }
    }

    fn act(&mut self, opts: &ActOptions) {
        self.switch("settle", opts.settle);
        self.value("frames", opts.frames);
        self.value("timeout", opts.timeout_ms);
        self.value("wait", opts.wait_ms);
        self.switch("no-scroll", opts.no_scroll);
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
        let (positional, set) = self.to_parts();
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
