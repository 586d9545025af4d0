//! Commands and their canonical one-line form.
//!
//! `Command::parse` accepts what docs/protocol.md describes; `Command::to_line` (and `Display`)
//! writes the canonical form, which parses back to an equal command. Which flags a verb takes, how
//! they relate and the order they are written in come from the verb table (`verbs.rs`); this file
//! only maps each verb's positional arguments and flag values to its variant and back.
//!
//! It is one piece (over 600 lines with its tests) on purpose: the two directions of each verb,
//! `from_args` and `to_parts`, sit side by side, so a change to one is seen next to the other.

use std::fmt;

use super::actions::{action_name, action_names, parse_action};
use super::args::Args;
use super::envelope::file_line;
use super::key::KeyChord;
use super::lexer::{Token, quote, tokenize, word};
use super::names::Label;
use super::target::{Selector, Target};
use super::verbs::dashed;
use super::{ErrorCode, ParseError, Verb};

/// How long a `wait`, a `settle` or an action's `--settle` waits without a `--timeout`, in
/// milliseconds.
pub const DEFAULT_WAIT_MS: u64 = 5_000;

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
    /// `click TARGET [--double] [--right|--middle]`
    Click {
        target: Target,
        button: Button,
        double: bool,
        opts: ActOptions,
    },
    /// `hover TARGET`
    Hover { target: Target, opts: ActOptions },
    /// `drag FROM [to] TO`
    Drag {
        from: Target,
        to: Target,
        opts: ActOptions,
    },
    /// `scroll TARGET DX DY` (logical pixels; positive DY scrolls content up, showing what is below)
    Scroll {
        target: Target,
        dx: f64,
        dy: f64,
        opts: ActOptions,
    },
    /// `type TEXT`
    Type { text: String, opts: ActOptions },
    /// `fill TARGET TEXT`
    Fill {
        target: Target,
        text: String,
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
    Screenshot { label: Label, crop: Option<Target> },
    /// `quit`
    Quit,
}

impl Command {
    /// The default size cap of a command file, in bytes, final newline included.
    pub const DEFAULT_MAX_BYTES: usize = 64 * 1024;

    /// Parses the raw bytes of a command file: one UTF-8 line ending in `\n` (a `\r\n` ending is
    /// accepted), at most `max_bytes` long. A `--deadline` is refused here: read files with
    /// [`Envelope::parse_bytes`](super::Envelope::parse_bytes).
    pub fn parse_bytes(bytes: &[u8], max_bytes: usize) -> Result<Command, ParseError> {
        Command::parse(file_line(bytes, max_bytes)?)
    }

    /// Parses one command line (without its newline).
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        Command::parse_tokens(tokenize(line)?)
    }

    pub(super) fn parse_tokens(mut tokens: Vec<Token>) -> Result<Command, ParseError> {
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
    pub(super) fn from_args(a: &Args) -> Result<Command, ParseError> {
        let act = || -> Result<ActOptions, ParseError> {
            Ok(ActOptions {
                settle: a.has("settle"),
                frames: a.number("frames")?,
                timeout_ms: a.number("timeout")?,
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
                }
            }
        })
    }

    /// The action options, for verbs that take them.
    pub fn act_options(&self) -> Option<ActOptions> {
        match self {
            Command::Click { opts, .. }
            | Command::Hover { opts, .. }
            | Command::Drag { opts, .. }
            | Command::Scroll { opts, .. }
            | Command::Type { opts, .. }
            | Command::Fill { opts, .. }
            | Command::Key { opts, .. }
            | Command::Action { opts, .. }
            | Command::Focus { opts, .. }
            | Command::Resize { opts, .. } => Some(*opts),
            _ => None,
        }
    }

    /// How long the app may hold this command before it answers, on top of carrying it out: a
    /// `wait`'s or `settle`'s `--timeout`, an action's `--timeout` with `--settle`, a `journal`'s
    /// `--wait`. A client waits at least this long (and a margin for the answer to arrive).
    pub fn held_in_app_ms(&self) -> Option<u64> {
        match self {
            Command::Wait { timeout_ms, .. } | Command::Settle { timeout_ms, .. } => {
                Some(timeout_ms.unwrap_or(DEFAULT_WAIT_MS))
            }
            Command::Journal { timeout_ms, .. } => *timeout_ms,
            _ => self
                .act_options()
                .filter(|o| o.settle)
                .map(|o| o.timeout_ms.unwrap_or(DEFAULT_WAIT_MS)),
        }
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
            Command::Screenshot { label, crop } => {
                flags.value("ref", crop.as_ref().map(target_word));
                vec![label.to_string()]
            }
        };
        (positional, flags)
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

#[cfg(test)]
mod tests {
    use super::super::target::{NodeRef, Point, Term};
    use super::*;

    fn parse(line: &str) -> Command {
        Command::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"))
    }

    fn code(line: &str) -> ErrorCode {
        Command::parse(line).unwrap_err().code
    }

    #[test]
    fn every_verb_has_a_canonical_line_that_parses_back() {
        for line in [
            "status",
            "windows",
            "snapshot",
            "snapshot -i --depth 3 --scope @e4 --force --diff",
            "snapshot --raw --scope \"role=list name=\\\"Files\\\"\"",
            "find role=button name=\"Save\"",
            "get @e12",
            "wait name~=\"Done\" --gone --timeout 500",
            "find text~=\"Welcome\" role=text",
            "click text=\"Save as\" nth=1",
            "settle --frames 3 --timeout 1000",
            "clean",
            "clean --keep 2 --dry-run",
            "journal",
            "journal --after 12 --wait 5000",
            "click @e3 --double --right --settle --frames 2 --timeout 900",
            "hover 10,20.5",
            "drag @e1 to 300,40",
            "scroll @e9 0 -120",
            "type \"hello \\\"world\\\"\\n\"",
            "fill @e2 \"a@b.c\" --settle",
            "key ctrl+a Backspace shift+Tab",
            "action @e5 set_value \"42\"",
            "action role=slider increment",
            "focus id=email",
            "resize 800 600",
            "screenshot home --ref @e3",
            "screenshot latest",
            "quit",
        ] {
            let command = parse(line);
            assert_eq!(command.to_line(), line, "canonical form of {line}");
            assert_eq!(parse(&command.to_line()), command);
        }
    }

    #[test]
    fn flags_may_come_before_positionals_and_aliases_normalise() {
        assert_eq!(parse("click --double @e3").to_line(), "click @e3 --double");
        assert_eq!(parse("snapshot --interactive").to_line(), "snapshot -i");
        assert_eq!(parse("drag @e1 @e2").to_line(), "drag @e1 to @e2");
        assert_eq!(parse("screenshot").to_line(), "screenshot latest");
        assert_eq!(parse("type hello").to_line(), "type \"hello\"");
    }

    #[test]
    fn a_selector_target_ends_at_the_first_token_that_is_not_a_term() {
        let Command::Fill { target, text, .. } = parse("fill role=textbox name=\"E-mail\" x@y.z")
        else {
            panic!()
        };
        assert_eq!(
            target,
            Target::Selector(Selector {
                terms: vec![Term::Role("textbox".into()), Term::Name("E-mail".into())],
                nth: None
            })
        );
        assert_eq!(text, "x@y.z");
        let Command::Drag { from, to, .. } = parse("drag name=A to name=B") else {
            panic!()
        };
        assert_eq!(from.to_string(), "name=\"A\"");
        assert_eq!(to.to_string(), "name=\"B\"");
        let Command::Scroll { target, dx, dy, .. } = parse("scroll 5,5 -1.5 2") else {
            panic!()
        };
        assert_eq!(target, Target::Point(Point { x: 5.0, y: 5.0 }));
        assert_eq!((dx, dy), (-1.5, 2.0));
        assert_eq!(
            parse("get @e7"),
            Command::Get {
                target: Target::Ref(NodeRef(7))
            }
        );
    }

    #[test]
    fn quoted_text_that_looks_like_a_flag_is_text() {
        assert_eq!(
            parse("type \"--settle\""),
            Command::Type {
                text: "--settle".into(),
                opts: ActOptions::default()
            }
        );
    }

    #[test]
    fn each_kind_of_bad_input_gets_its_own_code() {
        assert_eq!(code(""), ErrorCode::EmptyCommand);
        assert_eq!(code("   "), ErrorCode::EmptyCommand);
        assert_eq!(code("jump"), ErrorCode::UnknownVerb);
        assert_eq!(code("\"status\""), ErrorCode::UnknownVerb);
        assert_eq!(code("status --force"), ErrorCode::UnknownFlag);
        assert_eq!(code("click"), ErrorCode::MissingArgument);
        assert_eq!(code("snapshot --depth"), ErrorCode::MissingArgument);
        assert_eq!(code("status now"), ErrorCode::UnexpectedArgument);
        assert_eq!(code("type a b"), ErrorCode::UnexpectedArgument);
        assert_eq!(code("resize 0 10"), ErrorCode::BadArgument);
        assert_eq!(code("resize -5 10"), ErrorCode::BadArgument);
        assert_eq!(code("snapshot --depth -1"), ErrorCode::BadArgument);
        assert_eq!(code("snapshot -i --raw"), ErrorCode::BadArgument);
        assert_eq!(code("click @e1 --frames 2"), ErrorCode::BadArgument);
        assert_eq!(code("click @e1 --settle --settle"), ErrorCode::BadArgument);
        assert_eq!(code("action @e1 fly"), ErrorCode::BadArgument);
        assert_eq!(code("screenshot ../../x"), ErrorCode::BadArgument);
        assert_eq!(code("find @e1"), ErrorCode::BadArgument);
        assert_eq!(code("key hyper+x"), ErrorCode::BadArgument);
        assert_eq!(code("type \"open"), ErrorCode::BadSyntax);
    }

    #[test]
    fn file_bytes_need_utf8_one_line_and_the_size_cap() {
        let max = Command::DEFAULT_MAX_BYTES;
        assert_eq!(Command::parse_bytes(b"status\n", max), Ok(Command::Status));
        assert_eq!(
            Command::parse_bytes(b"status\r\n", max),
            Ok(Command::Status)
        );
        let err = |b: &[u8], max| Command::parse_bytes(b, max).unwrap_err().code;
        assert_eq!(err(b"status\nquit\n", max), ErrorCode::MultipleLines);
        assert_eq!(err(b"type \"\xff\"\n", max), ErrorCode::InvalidUtf8);
        assert_eq!(err(b"status\n", 4), ErrorCode::TooLong);
    }
}
