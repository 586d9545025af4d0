//! Verbs, commands and their canonical one-line form.
//!
//! `Command::parse` accepts what docs/protocol.md describes; `Command::to_line` writes the canonical
//! form, which parses back to an equal command.

use std::fmt::{self, Write};

use super::key::KeyChord;
use super::lexer::{Token, quote, tokenize, word};
use super::names::Label;
use super::target::{Selector, Target, is_term, parse_number, parse_selector, parse_target};
use super::{ErrorCode, ParseError};

macro_rules! verbs {
    ($($variant:ident => $name:literal, $side:ident;)*) => {
        /// The verb of a command.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        #[allow(missing_docs)]
        pub enum Verb { $($variant,)* }

        impl Verb {
            /// Every verb of this protocol version, in documentation order.
            pub const ALL: &'static [Verb] = &[$(Verb::$variant,)*];

            /// The verb as written on the wire.
            pub fn as_str(self) -> &'static str {
                match self { $(Verb::$variant => $name,)* }
            }

            /// Which side carries the verb out.
            pub fn side(self) -> Side {
                match self { $(Verb::$variant => Side::$side,)* }
            }
        }
    };
}

verbs! {
    Status => "status", Service;
    Windows => "windows", Service;
    Snapshot => "snapshot", Service;
    Find => "find", Service;
    Get => "get", Service;
    Wait => "wait", Service;
    Settle => "settle", Service;
    Click => "click", App;
    Hover => "hover", App;
    Drag => "drag", App;
    Scroll => "scroll", App;
    Type => "type", App;
    Fill => "fill", App;
    Key => "key", App;
    Action => "action", App;
    Focus => "focus", App;
    Resize => "resize", App;
    Screenshot => "screenshot", App;
    Quit => "quit", App;
}

impl Verb {
    /// Parses a verb.
    pub fn parse(s: &str) -> Option<Verb> {
        Verb::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

impl fmt::Display for Verb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Who answers a verb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The service thread, from its mirror of the latest published frame, without waiting for a frame.
    Service,
    /// The render thread, at a frame boundary; answered after that frame is published.
    App,
}

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

macro_rules! actions {
    ($($variant:ident => $name:literal,)*) => {
        /// The AccessKit actions `action` can request, by their snake_case names.
        const ACTIONS: &[(accesskit::Action, &str)] = &[$((accesskit::Action::$variant, $name),)*];
    };
}

actions! {
    Click => "click",
    Focus => "focus",
    Blur => "blur",
    Collapse => "collapse",
    Expand => "expand",
    CustomAction => "custom_action",
    Decrement => "decrement",
    Increment => "increment",
    HideTooltip => "hide_tooltip",
    ShowTooltip => "show_tooltip",
    ReplaceSelectedText => "replace_selected_text",
    ScrollDown => "scroll_down",
    ScrollLeft => "scroll_left",
    ScrollRight => "scroll_right",
    ScrollUp => "scroll_up",
    ScrollIntoView => "scroll_into_view",
    ScrollToPoint => "scroll_to_point",
    SetScrollOffset => "set_scroll_offset",
    SetTextSelection => "set_text_selection",
    SetSequentialFocusNavigationStartingPoint => "set_sequential_focus_navigation_starting_point",
    SetValue => "set_value",
    ShowContextMenu => "show_context_menu",
}

/// The snake_case protocol name of an AccessKit action.
pub fn action_name(action: accesskit::Action) -> &'static str {
    ACTIONS
        .iter()
        .find(|(a, _)| *a == action)
        .map(|(_, n)| *n)
        .unwrap_or("unknown")
}

/// The AccessKit action with this protocol name.
pub fn parse_action(name: &str) -> Option<accesskit::Action> {
    ACTIONS.iter().find(|(_, n)| *n == name).map(|(a, _)| *a)
}

/// The names of every action `action` accepts.
pub fn action_names() -> impl Iterator<Item = &'static str> {
    ACTIONS.iter().map(|(_, n)| *n)
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

/// The flags a verb takes: name, whether it takes a value.
fn flag_spec(verb: Verb) -> &'static [(&'static str, bool)] {
    const ACT: &[(&str, bool)] = &[("settle", false), ("frames", true), ("timeout", true)];
    const CLICK: &[(&str, bool)] = &[
        ("settle", false),
        ("frames", true),
        ("timeout", true),
        ("double", false),
        ("right", false),
        ("middle", false),
    ];
    match verb {
        Verb::Status | Verb::Windows | Verb::Find | Verb::Get | Verb::Quit => &[],
        Verb::Snapshot => &[
            ("i", false),
            ("interactive", false),
            ("raw", false),
            ("depth", true),
            ("scope", true),
            ("force", false),
            ("diff", false),
        ],
        Verb::Wait => &[("gone", false), ("timeout", true)],
        Verb::Settle => &[("frames", true), ("timeout", true)],
        Verb::Screenshot => &[("ref", true)],
        Verb::Click => CLICK,
        _ => ACT,
    }
}

/// Tokens of one command after flags were taken out.
struct Args {
    verb: Verb,
    positional: Vec<Token>,
    flags: Vec<(String, Option<Token>)>,
}

impl Args {
    fn split(verb: Verb, tokens: Vec<Token>) -> Result<Args, ParseError> {
        let spec = flag_spec(verb);
        let mut positional = Vec::new();
        let mut flags: Vec<(String, Option<Token>)> = Vec::new();
        let mut iter = tokens.into_iter();
        while let Some(token) = iter.next() {
            let Some(name) = token.flag_name() else {
                positional.push(token);
                continue;
            };
            let name = name.to_owned();
            let Some(&(_, takes_value)) = spec.iter().find(|(n, _)| *n == name) else {
                let known: Vec<String> = spec.iter().map(|(n, _)| flag_text(n)).collect();
                return Err(ParseError::new(
                    ErrorCode::UnknownFlag,
                    format!("{verb} does not take {}", token.bare),
                    if known.is_empty() {
                        format!("{verb} takes no flags; quote text that starts with -")
                    } else {
                        format!(
                            "{verb} takes {}; quote text that starts with -",
                            known.join(" ")
                        )
                    },
                ));
            };
            if flags.iter().any(|(n, _)| *n == name) {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("{} given twice", token.bare),
                    "give each flag once",
                ));
            }
            let value = if takes_value {
                Some(iter.next().ok_or_else(|| {
                    ParseError::new(
                        ErrorCode::MissingArgument,
                        format!("{} needs a value", token.bare),
                        format!("write {} VALUE", token.bare),
                    )
                })?)
            } else {
                None
            };
            flags.push((name, value));
        }
        Ok(Args {
            verb,
            positional,
            flags,
        })
    }

    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&Token> {
        self.flags
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_ref())
    }

    fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, ParseError> {
        let Some(token) = self.value(name) else {
            return Ok(None);
        };
        let text = token.text();
        let valid = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        match text.parse() {
            Ok(v) if valid => Ok(Some(v)),
            _ => Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("--{name} {} is not a whole number", quote(&text)),
                format!("write --{name} N with N a whole number, e.g. --{name} 5"),
            )),
        }
    }

    fn act_options(&self) -> Result<ActOptions, ParseError> {
        let opts = ActOptions {
            settle: self.has("settle"),
            frames: self.number("frames")?,
            timeout_ms: self.number("timeout")?,
        };
        if opts.frames.is_some() && !opts.settle {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                "--frames only applies with --settle",
                "add --settle, or drop --frames",
            ));
        }
        Ok(opts)
    }

    fn missing(&self, what: &str) -> ParseError {
        ParseError::new(
            ErrorCode::MissingArgument,
            format!("{} needs {what}", self.verb),
            format!("usage: {}", usage(self.verb)),
        )
    }

    fn unexpected(&self, token: &Token) -> ParseError {
        ParseError::new(
            ErrorCode::UnexpectedArgument,
            format!(
                "unexpected argument {} to {}",
                quote(&token.text()),
                self.verb
            ),
            format!(
                "usage: {}; quote text that contains spaces",
                usage(self.verb)
            ),
        )
    }

    /// Fails if positional tokens remain from `used` on.
    fn done(&self, used: usize) -> Result<(), ParseError> {
        match self.positional.get(used) {
            Some(extra) => Err(self.unexpected(extra)),
            None => Ok(()),
        }
    }

    fn target_at(&self, at: usize, what: &str) -> Result<(Target, usize), ParseError> {
        if at >= self.positional.len() {
            return Err(self.missing(what));
        }
        let (target, used) = parse_target(&self.positional[at..])?;
        Ok((target, at + used))
    }

    fn text_at(&self, at: usize, what: &str) -> Result<String, ParseError> {
        self.positional
            .get(at)
            .map(Token::text)
            .ok_or_else(|| self.missing(what))
    }

    fn float_at(&self, at: usize, what: &str) -> Result<f64, ParseError> {
        let text = self.text_at(at, what)?;
        parse_number(&text).ok_or_else(|| {
            ParseError::new(
                ErrorCode::BadArgument,
                format!("{what} {} is not a number", quote(&text)),
                format!("usage: {}", usage(self.verb)),
            )
        })
    }

    fn size_at(&self, at: usize, what: &str) -> Result<u32, ParseError> {
        let text = self.text_at(at, what)?;
        match text.parse::<u32>() {
            Ok(v) if v > 0 && text.bytes().all(|b| b.is_ascii_digit()) => Ok(v),
            _ => Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("{what} {} is not a positive whole number", quote(&text)),
                format!("usage: {}", usage(self.verb)),
            )),
        }
    }

    fn selector(&self) -> Result<Selector, ParseError> {
        let used = self.positional.iter().take_while(|t| is_term(t)).count();
        if used == 0 {
            return match self.positional.first() {
                Some(t) => Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("{} is not a selector", quote(&t.text())),
                    "selectors are terms such as role=button name=\"Save\" (refs and points are not selectors)",
                )),
                None => Err(self.missing("a selector")),
            };
        }
        let selector = parse_selector(&self.positional[..used])?;
        self.done(used)?;
        Ok(selector)
    }
}

fn flag_text(name: &str) -> String {
    if name.len() == 1 {
        format!("-{name}")
    } else {
        format!("--{name}")
    }
}

/// The usage line of a verb, as docs/protocol.md states it.
pub fn usage(verb: Verb) -> &'static str {
    match verb {
        Verb::Status => "status",
        Verb::Windows => "windows",
        Verb::Snapshot => "snapshot [-i|--raw] [--depth N] [--scope TARGET] [--force] [--diff]",
        Verb::Find => "find SELECTOR",
        Verb::Get => "get TARGET",
        Verb::Wait => "wait SELECTOR [--gone] [--timeout MS]",
        Verb::Settle => "settle [--frames K] [--timeout MS]",
        Verb::Click => {
            "click TARGET [--double] [--right|--middle] [--settle [--frames K]] [--timeout MS]"
        }
        Verb::Hover => "hover TARGET [--settle [--frames K]] [--timeout MS]",
        Verb::Drag => "drag FROM [to] TO [--settle [--frames K]] [--timeout MS]",
        Verb::Scroll => "scroll TARGET DX DY [--settle [--frames K]] [--timeout MS]",
        Verb::Type => "type TEXT [--settle [--frames K]] [--timeout MS]",
        Verb::Fill => "fill TARGET TEXT [--settle [--frames K]] [--timeout MS]",
        Verb::Key => "key CHORD [CHORD...] [--settle [--frames K]] [--timeout MS]",
        Verb::Action => "action TARGET NAME [VALUE] [--settle [--frames K]] [--timeout MS]",
        Verb::Focus => "focus TARGET [--settle [--frames K]] [--timeout MS]",
        Verb::Resize => "resize WIDTH HEIGHT [--settle [--frames K]] [--timeout MS]",
        Verb::Screenshot => "screenshot [LABEL] [--ref TARGET]",
        Verb::Quit => "quit",
    }
}

impl Command {
    /// The default size cap of a command file, in bytes, final newline included.
    pub const DEFAULT_MAX_BYTES: usize = 64 * 1024;

    /// Parses the raw bytes of a command file: one UTF-8 line ending in `\n` (a `\r\n` ending is
    /// accepted), at most `max_bytes` long.
    pub fn parse_bytes(bytes: &[u8], max_bytes: usize) -> Result<Command, ParseError> {
        if bytes.len() > max_bytes {
            return Err(ParseError::new(
                ErrorCode::TooLong,
                format!(
                    "the command is {} bytes, over the cap of {max_bytes}",
                    bytes.len()
                ),
                "shorten the command; the cap is in ready.txt as max_command_bytes",
            ));
        }
        let text = std::str::from_utf8(bytes).map_err(|e| {
            ParseError::new(
                ErrorCode::InvalidUtf8,
                format!("the command is not valid UTF-8 (byte {})", e.valid_up_to()),
                "write commands as UTF-8 text; escape other data as \\uXXXX inside quotes",
            )
        })?;
        let line = text.strip_suffix('\n').unwrap_or(text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.contains('\n') {
            return Err(ParseError::new(
                ErrorCode::MultipleLines,
                "the command file holds more than one line",
                "write one command per file; put line breaks in text as \\n inside quotes",
            ));
        }
        Command::parse(line)
    }

    /// Parses one command line (without its newline).
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let mut tokens = tokenize(line)?;
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
        Self::from_args(&args)
    }

    fn from_args(a: &Args) -> Result<Command, ParseError> {
        Ok(match a.verb {
            Verb::Status => {
                a.done(0)?;
                Command::Status
            }
            Verb::Windows => {
                a.done(0)?;
                Command::Windows
            }
            Verb::Quit => {
                a.done(0)?;
                Command::Quit
            }
            Verb::Snapshot => {
                a.done(0)?;
                let interactive = a.has("i") || a.has("interactive");
                let raw = a.has("raw");
                if interactive && raw {
                    return Err(ParseError::new(
                        ErrorCode::BadArgument,
                        "-i and --raw exclude each other",
                        "pick one projection: regular (default), -i or --raw",
                    ));
                }
                let scope = match a.value("scope") {
                    None => None,
                    Some(token) => {
                        let tokens = tokenize(&token.text())?;
                        let (target, used) = parse_target(&tokens)?;
                        if used != tokens.len() {
                            return Err(ParseError::new(
                                ErrorCode::BadArgument,
                                "--scope takes one target",
                                "quote a multi-term selector: --scope \"role=list name=Files\"",
                            ));
                        }
                        Some(target)
                    }
                };
                Command::Snapshot(SnapshotOptions {
                    projection: if interactive {
                        Projection::Interactive
                    } else if raw {
                        Projection::Raw
                    } else {
                        Projection::Regular
                    },
                    depth: a.number("depth")?,
                    scope,
                    force: a.has("force"),
                    diff: a.has("diff"),
                })
            }
            Verb::Find => Command::Find {
                selector: a.selector()?,
            },
            Verb::Get => {
                let (target, used) = a.target_at(0, "a target")?;
                a.done(used)?;
                Command::Get { target }
            }
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
            Verb::Click => {
                let (target, used) = a.target_at(0, "a target")?;
                a.done(used)?;
                if a.has("right") && a.has("middle") {
                    return Err(ParseError::new(
                        ErrorCode::BadArgument,
                        "--right and --middle exclude each other",
                        "pick one button",
                    ));
                }
                Command::Click {
                    target,
                    button: if a.has("right") {
                        Button::Right
                    } else if a.has("middle") {
                        Button::Middle
                    } else {
                        Button::Left
                    },
                    double: a.has("double"),
                    opts: a.act_options()?,
                }
            }
            Verb::Hover => {
                let (target, used) = a.target_at(0, "a target")?;
                a.done(used)?;
                Command::Hover {
                    target,
                    opts: a.act_options()?,
                }
            }
            Verb::Focus => {
                let (target, used) = a.target_at(0, "a target")?;
                a.done(used)?;
                Command::Focus {
                    target,
                    opts: a.act_options()?,
                }
            }
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
                    opts: a.act_options()?,
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
                    opts: a.act_options()?,
                }
            }
            Verb::Type => {
                let text = a.text_at(0, "the text to type")?;
                a.done(1)?;
                Command::Type {
                    text,
                    opts: a.act_options()?,
                }
            }
            Verb::Fill => {
                let (target, at) = a.target_at(0, "a target")?;
                let text = a.text_at(at, "the text to fill in")?;
                a.done(at + 1)?;
                Command::Fill {
                    target,
                    text,
                    opts: a.act_options()?,
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
                    opts: a.act_options()?,
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
                    opts: a.act_options()?,
                }
            }
            Verb::Resize => {
                let width = a.size_at(0, "WIDTH")?;
                let height = a.size_at(1, "HEIGHT")?;
                a.done(2)?;
                Command::Resize {
                    width,
                    height,
                    opts: a.act_options()?,
                }
            }
            Verb::Screenshot => {
                let label = match a.positional.first() {
                    Some(t) => Label::new(&t.text())?,
                    None => Label::default(),
                };
                a.done(1)?;
                let crop = match a.value("ref") {
                    None => None,
                    Some(token) => {
                        let tokens = tokenize(&token.text())?;
                        let (target, used) = parse_target(&tokens)?;
                        if used != tokens.len() {
                            return Err(ParseError::new(
                                ErrorCode::BadArgument,
                                "--ref takes one target",
                                "quote a multi-term selector: --ref \"role=dialog\"",
                            ));
                        }
                        Some(target)
                    }
                };
                Command::Screenshot { label, crop }
            }
        })
    }

    /// The verb of this command.
    pub fn verb(&self) -> Verb {
        match self {
            Command::Status => Verb::Status,
            Command::Windows => Verb::Windows,
            Command::Snapshot(_) => Verb::Snapshot,
            Command::Find { .. } => Verb::Find,
            Command::Get { .. } => Verb::Get,
            Command::Wait { .. } => Verb::Wait,
            Command::Settle { .. } => Verb::Settle,
            Command::Click { .. } => Verb::Click,
            Command::Hover { .. } => Verb::Hover,
            Command::Drag { .. } => Verb::Drag,
            Command::Scroll { .. } => Verb::Scroll,
            Command::Type { .. } => Verb::Type,
            Command::Fill { .. } => Verb::Fill,
            Command::Key { .. } => Verb::Key,
            Command::Action { .. } => Verb::Action,
            Command::Focus { .. } => Verb::Focus,
            Command::Resize { .. } => Verb::Resize,
            Command::Screenshot { .. } => Verb::Screenshot,
            Command::Quit => Verb::Quit,
        }
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

    /// The canonical command line, without its newline. It parses back to an equal command.
    pub fn to_line(&self) -> String {
        self.to_string()
    }
}

fn write_act(f: &mut String, opts: &ActOptions) {
    if opts.settle {
        f.push_str(" --settle");
    }
    if let Some(k) = opts.frames {
        let _ = write!(f, " --frames {k}");
    }
    if let Some(ms) = opts.timeout_ms {
        let _ = write!(f, " --timeout {ms}");
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::from(self.verb().as_str());
        match self {
            Command::Status | Command::Windows | Command::Quit => {}
            Command::Snapshot(o) => {
                match o.projection {
                    Projection::Regular => {}
                    Projection::Interactive => s.push_str(" -i"),
                    Projection::Raw => s.push_str(" --raw"),
                }
                if let Some(d) = o.depth {
                    let _ = write!(s, " --depth {d}");
                }
                if let Some(t) = &o.scope {
                    let _ = write!(s, " --scope {}", target_word(t));
                }
                if o.force {
                    s.push_str(" --force");
                }
                if o.diff {
                    s.push_str(" --diff");
                }
            }
            Command::Find { selector } => {
                let _ = write!(s, " {selector}");
            }
            Command::Get { target } => {
                let _ = write!(s, " {target}");
            }
            Command::Wait {
                selector,
                gone,
                timeout_ms,
            } => {
                let _ = write!(s, " {selector}");
                if *gone {
                    s.push_str(" --gone");
                }
                if let Some(ms) = timeout_ms {
                    let _ = write!(s, " --timeout {ms}");
                }
            }
            Command::Settle { frames, timeout_ms } => {
                if let Some(k) = frames {
                    let _ = write!(s, " --frames {k}");
                }
                if let Some(ms) = timeout_ms {
                    let _ = write!(s, " --timeout {ms}");
                }
            }
            Command::Click {
                target,
                button,
                double,
                opts,
            } => {
                let _ = write!(s, " {target}");
                if *double {
                    s.push_str(" --double");
                }
                match button {
                    Button::Left => {}
                    Button::Right => s.push_str(" --right"),
                    Button::Middle => s.push_str(" --middle"),
                }
                write_act(&mut s, opts);
            }
            Command::Hover { target, opts } | Command::Focus { target, opts } => {
                let _ = write!(s, " {target}");
                write_act(&mut s, opts);
            }
            Command::Drag { from, to, opts } => {
                let _ = write!(s, " {from} to {to}");
                write_act(&mut s, opts);
            }
            Command::Scroll {
                target,
                dx,
                dy,
                opts,
            } => {
                let _ = write!(s, " {target} {dx} {dy}");
                write_act(&mut s, opts);
            }
            Command::Type { text, opts } => {
                let _ = write!(s, " {}", quote(text));
                write_act(&mut s, opts);
            }
            Command::Fill { target, text, opts } => {
                let _ = write!(s, " {target} {}", quote(text));
                write_act(&mut s, opts);
            }
            Command::Key { chords, opts } => {
                for chord in chords {
                    let _ = write!(s, " {}", word(&chord.to_string()));
                }
                write_act(&mut s, opts);
            }
            Command::Action {
                target,
                action,
                value,
                opts,
            } => {
                let _ = write!(s, " {target} {}", action_name(*action));
                if let Some(v) = value {
                    let _ = write!(s, " {}", quote(v));
                }
                write_act(&mut s, opts);
            }
            Command::Resize {
                width,
                height,
                opts,
            } => {
                let _ = write!(s, " {width} {height}");
                write_act(&mut s, opts);
            }
            Command::Screenshot { label, crop } => {
                let _ = write!(s, " {label}");
                if let Some(t) = crop {
                    let _ = write!(s, " --ref {}", target_word(t));
                }
            }
        }
        f.write_str(&s)
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
            "settle --frames 3 --timeout 1000",
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
