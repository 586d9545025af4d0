//! Error codes of the wire protocol and [`Failure`], the one error shape (code, message, hint,
//! extra lines) that every rejected input and failed command gets.

use std::fmt;

/// The typed code of an `error` response. The text form (`as_str`) is part of the protocol and
/// never changes meaning; new codes may be added.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// The command line was empty or white space only.
    EmptyCommand,
    /// The command file is larger than the size cap.
    TooLong,
    /// The command file is not valid UTF-8.
    InvalidUtf8,
    /// The command file holds more than one line.
    MultipleLines,
    /// Broken quoting, a bad escape or a raw control character.
    BadSyntax,
    /// The first token is not a verb of this protocol version.
    UnknownVerb,
    /// A flag the verb does not take.
    UnknownFlag,
    /// A required argument is missing.
    MissingArgument,
    /// More arguments than the verb takes.
    UnexpectedArgument,
    /// An argument of the wrong shape: a number, a target, a label, a key chord.
    BadArgument,
    /// The command file never got its final newline and its writer stopped writing.
    Incomplete,
    /// The command was left in the directory by a previous run of the app.
    StaleCommand,
    /// The command entry is not a regular file (a symlink, a FIFO, a directory).
    BadEntry,
    /// The verb is valid but this app or crate version does not carry it out.
    Unsupported,
    /// The app received the command and dropped it without answering.
    NotHandled,
    /// The app was handed the input and did not apply it (a `resize` the window never took).
    NotApplied,
    /// The app is shutting down and will not carry the command out.
    ShuttingDown,
    /// The app tried and failed; the message says why.
    AppError,
    /// No node matches the target.
    NotFound,
    /// A selector matched several nodes where one is needed.
    Ambiguous,
    /// A ref whose node is gone or changed role or name.
    StaleRef,
    /// The command's own timeout elapsed (a `wait`, a `settle`).
    Timeout,
    /// The tree did not stay unchanged long enough before the timeout.
    NotSettled,
    /// The target lies outside the window or is scrolled out of its container's view.
    Offscreen,
    /// The target has no area to aim at (no bounds, or zero width or height).
    ZeroSize,
    /// The target is disabled.
    Disabled,
    /// Another node lies on top of the target where the pointer would land (or a modal dialog
    /// blocks it).
    Covered,
    /// The target does not list the AccessKit action asked for.
    ActionNotSupported,
    /// `type` with nothing focused: the window's tree says no node has the keyboard focus, so the
    /// text would go nowhere.
    NoFocus,
    /// A pointer press was delivered, and the app reported that another node took it (neither the
    /// target nor inside it): the input went to the wrong widget.
    Missed,
    /// The command's deadline (`--deadline`, its client's timeout) passed before it was carried
    /// out: it was not carried out, or, when the message says so, only partly.
    Expired,
    /// `trace stop` with no trace running.
    NotTracing,
    /// `trace start` while a trace is running.
    AlreadyTracing,
    /// The pointer's buttons do not allow the command: `up` with that button not down, `down`
    /// with it down already.
    PointerState,
    /// The clock is not in the state the command needs: `clock run` on the real clock.
    ClockState,
}

impl ErrorCode {
    /// Every code, in documentation order.
    pub const ALL: &'static [ErrorCode] = &[
        Self::EmptyCommand,
        Self::TooLong,
        Self::InvalidUtf8,
        Self::MultipleLines,
        Self::BadSyntax,
        Self::UnknownVerb,
        Self::UnknownFlag,
        Self::MissingArgument,
        Self::UnexpectedArgument,
        Self::BadArgument,
        Self::Incomplete,
        Self::StaleCommand,
        Self::BadEntry,
        Self::Unsupported,
        Self::NotHandled,
        Self::NotApplied,
        Self::ShuttingDown,
        Self::AppError,
        Self::NotFound,
        Self::Ambiguous,
        Self::StaleRef,
        Self::Timeout,
        Self::NotSettled,
        Self::Offscreen,
        Self::ZeroSize,
        Self::Disabled,
        Self::Covered,
        Self::ActionNotSupported,
        Self::NoFocus,
        Self::Missed,
        Self::Expired,
        Self::NotTracing,
        Self::AlreadyTracing,
        Self::PointerState,
        Self::ClockState,
    ];

    /// The code as written in responses.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::EmptyCommand => "empty_command",
            Self::TooLong => "too_long",
            Self::InvalidUtf8 => "invalid_utf8",
            Self::MultipleLines => "multiple_lines",
            Self::BadSyntax => "bad_syntax",
            Self::UnknownVerb => "unknown_verb",
            Self::UnknownFlag => "unknown_flag",
            Self::MissingArgument => "missing_argument",
            Self::UnexpectedArgument => "unexpected_argument",
            Self::BadArgument => "bad_argument",
            Self::Incomplete => "incomplete",
            Self::StaleCommand => "stale_command",
            Self::BadEntry => "bad_entry",
            Self::Unsupported => "unsupported",
            Self::NotHandled => "not_handled",
            Self::NotApplied => "not_applied",
            Self::ShuttingDown => "shutting_down",
            Self::AppError => "app_error",
            Self::NotFound => "not_found",
            Self::Ambiguous => "ambiguous",
            Self::StaleRef => "stale_ref",
            Self::Timeout => "timeout",
            Self::NotSettled => "not_settled",
            Self::Offscreen => "offscreen",
            Self::ZeroSize => "zero_size",
            Self::Disabled => "disabled",
            Self::Covered => "covered",
            Self::ActionNotSupported => "action_not_supported",
            Self::NoFocus => "no_focus",
            Self::Missed => "missed",
            Self::Expired => "expired",
            Self::NotTracing => "not_tracing",
            Self::AlreadyTracing => "already_tracing",
            Self::PointerState => "pointer_state",
            Self::ClockState => "clock_state",
        }
    }

    /// Parses the text form; `None` for a code this version does not know.
    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == s)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The code of a failure found on the client's side: before a command was sent, while waiting for
/// its answer, or in a local command (`compare`, `run`). These never appear in a response file;
/// their text forms never clash with an [`ErrorCode`]'s (the client's time-out is
/// `client_timeout`, the protocol's `timeout` is a command's own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ClientCode {
    /// No app has published a handshake in the directory.
    NotRunning,
    /// The handshake names a process that no longer exists.
    AppExited,
    /// The app speaks another protocol version.
    VersionMismatch,
    /// No answer before the client's own timeout.
    ClientTimeout,
    /// The app's queue is full.
    QueueFull,
    /// The command could not be written to the queue.
    EnqueueFailed,
    /// The directory is unsafe, missing or not a drop-box.
    BadDir,
    /// A handshake or response file could not be parsed.
    Malformed,
    /// An I/O error in the client.
    Io,
    /// A screenshot could not be copied to `--out`.
    CopyFailed,
    /// A local file could not be read.
    ReadFailed,
    /// A file is not a PNG image.
    NotPng,
    /// A local file could not be written.
    WriteFailed,
    /// The app to test could not be started, or stopped before it was ready.
    SpawnFailed,
    /// A script line failed: a refused command or an unmet expectation.
    ScriptFailed,
    /// Screenshots that should match differ.
    Mismatch,
    /// A front end's argument has the wrong type (an MCP tool's `"settle": "maybe"`).
    BadToolArgument,
    /// An MCP tool of a capability group the server does not list (`mcp --caps`).
    NotListed,
}

impl ClientCode {
    /// Every client-side code, in documentation order.
    pub const ALL: &'static [ClientCode] = &[
        Self::NotRunning,
        Self::AppExited,
        Self::VersionMismatch,
        Self::ClientTimeout,
        Self::QueueFull,
        Self::EnqueueFailed,
        Self::BadDir,
        Self::Malformed,
        Self::Io,
        Self::CopyFailed,
        Self::ReadFailed,
        Self::NotPng,
        Self::WriteFailed,
        Self::SpawnFailed,
        Self::ScriptFailed,
        Self::Mismatch,
        Self::BadToolArgument,
        Self::NotListed,
    ];

    /// The code as the CLI, the MCP server and the harness print it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::NotRunning => "not_running",
            Self::AppExited => "app_exited",
            Self::VersionMismatch => "version_mismatch",
            Self::ClientTimeout => "client_timeout",
            Self::QueueFull => "queue_full",
            Self::EnqueueFailed => "enqueue_failed",
            Self::BadDir => "bad_dir",
            Self::Malformed => "malformed",
            Self::Io => "io",
            Self::CopyFailed => "copy_failed",
            Self::ReadFailed => "read_failed",
            Self::NotPng => "not_png",
            Self::WriteFailed => "write_failed",
            Self::SpawnFailed => "spawn_failed",
            Self::ScriptFailed => "script_failed",
            Self::Mismatch => "mismatch",
            Self::BadToolArgument => "bad_tool_argument",
            Self::NotListed => "not_listed",
        }
    }
}

/// Any error code of this crate: an app's (or the protocol parser's) [`ErrorCode`], or a
/// [`ClientCode`]. What the CLI's exit code and the MCP server's error text are derived from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// A protocol code: the app's answer, or a command refused by the parser before sending.
    Protocol(ErrorCode),
    /// A client-side code.
    Client(ClientCode),
}

impl Code {
    /// The text form.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Protocol(c) => c.as_str(),
            Code::Client(c) => c.as_str(),
        }
    }

    /// Whether the code says the input itself is malformed (the command line, a flag, an argument):
    /// it was refused before anything was sent, or would be by any app.
    pub fn is_usage(self) -> bool {
        matches!(
            self,
            Code::Protocol(
                ErrorCode::EmptyCommand
                    | ErrorCode::TooLong
                    | ErrorCode::InvalidUtf8
                    | ErrorCode::MultipleLines
                    | ErrorCode::BadSyntax
                    | ErrorCode::UnknownVerb
                    | ErrorCode::UnknownFlag
                    | ErrorCode::MissingArgument
                    | ErrorCode::UnexpectedArgument
                    | ErrorCode::BadArgument
            ) | Code::Client(ClientCode::BadToolArgument | ClientCode::NotListed)
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<ErrorCode> for Code {
    fn from(c: ErrorCode) -> Code {
        Code::Protocol(c)
    }
}

impl From<ClientCode> for Code {
    fn from(c: ClientCode) -> Code {
        Code::Client(c)
    }
}

/// What every error of this crate says, in every front end: a [`Code`], a message (`Display`, which
/// never holds the hint) and a hint on how to fix it. The CLI prints `error: CODE: MESSAGE` and
/// `hint: HINT` and maps the code to its exit code; the MCP server writes the same lines as a tool
/// error; the harness panics with them.
pub trait Coded: fmt::Display {
    /// The code.
    fn code(&self) -> Code;
    /// How to fix it, when there is a fix to suggest.
    fn hint(&self) -> Option<String>;
    /// What went wrong, without the code: `Display` unless the type's `Display` leads with its
    /// code (as [`Failure`]'s does).
    fn message(&self) -> String {
        self.to_string()
    }
}

/// A failure a front end finds itself, with a [`ClientCode`]: what the CLI and the MCP server report
/// for their own refusals (a screenshot that cannot be copied, a tool argument of the wrong type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientFailure {
    /// The code.
    pub code: ClientCode,
    /// What went wrong, lowercase.
    pub message: String,
    /// How to fix it.
    pub hint: Option<String>,
}

impl ClientFailure {
    /// A failure with its code, message and hint.
    pub fn new(code: ClientCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ClientFailure {
            code,
            message: message.into(),
            hint: Some(hint.into()),
        }
    }
}

impl fmt::Display for ClientFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ClientFailure {}

impl Coded for ClientFailure {
    fn code(&self) -> Code {
        Code::Client(self.code)
    }
    fn hint(&self) -> Option<String> {
        self.hint.clone()
    }
}

impl Coded for Failure {
    fn code(&self) -> Code {
        Code::Protocol(self.code)
    }
    fn message(&self) -> String {
        self.message.clone()
    }
    fn hint(&self) -> Option<String> {
        (!self.hint.is_empty()).then(|| self.hint.clone())
    }
}

/// A failure to report: a typed code, a lowercase message, a hint on how to fix it, and optional
/// extra lines. Every rejected input and every failed command is one of these; the app writes it as
/// an `error` response (see [`Response::error`](super::Response::error)).
///
/// # Display
///
/// One rule holds for every error type of the workspace that carries a hint (this one,
/// [`DirError`](crate::DirError), the drop-box's `EnqueueError`, the client's `ClientError` and
/// winit-automation's `StartError`): `Display` says what went wrong and never holds the hint;
/// the hint is reached with `hint()`, so a front end can print it on its own line (the CLI writes
/// `error: ...` then `hint: ...`). For a `Failure`, `Display` is `code: message`; the body is not
/// shown either.
///
/// ```
/// use winit_automation_protocol::{Command, ErrorCode};
///
/// let e = Command::parse("jump").unwrap_err();
/// assert_eq!(e.code(), ErrorCode::UnknownVerb);
/// assert_eq!(e.to_string(), "unknown_verb: unknown verb \"jump\"");
/// assert!(e.hint().starts_with("verbs are status"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The typed code.
    pub code: ErrorCode,
    /// What went wrong, lowercase.
    pub message: String,
    /// How to fix it.
    pub hint: String,
    /// Extra lines, each ending in `\n` (may be empty), such as the candidates of an ambiguous
    /// selector.
    pub body: String,
}

/// Why a command line (or a handshake, a response, a CLI argument) was rejected: a [`Failure`]
/// with no extra lines. The parsers build it with [`Failure::new`] and the app answers with it as
/// it is.
pub type ParseError = Failure;

impl Failure {
    /// A failure with its code, message and hint, and no extra lines.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            hint: hint.into(),
            body: String::new(),
        }
    }

    /// Adds extra lines (a trailing newline is added when missing).
    pub fn with_body(mut self, body: impl Into<String>) -> Failure {
        self.body = body.into();
        if !self.body.is_empty() && !self.body.ends_with('\n') {
            self.body.push('\n');
        }
        self
    }

    /// The typed code.
    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// What went wrong, lowercase.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// How to fix it. Not part of `Display`.
    pub fn hint(&self) -> &str {
        &self.hint
    }

    /// The extra lines (may be empty).
    pub fn body(&self) -> &str {
        &self.body
    }
}

impl fmt::Display for Failure {
    /// `code: message`; the hint and the body are left to [`Failure::hint`] and [`Failure::body`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for Failure {}

/// The text of a caught panic's payload, for the error that reports it (an invalid tree update the
/// mirror caught, an internal error of the service thread).
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "unknown reason".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_parses_back_from_its_text() {
        for &code in ErrorCode::ALL {
            assert_eq!(ErrorCode::parse(code.as_str()), Some(code));
        }
        assert_eq!(ErrorCode::parse("no_such_code"), None);
    }

    #[test]
    fn client_codes_never_clash_with_protocol_codes() {
        for &c in ClientCode::ALL {
            assert_eq!(ErrorCode::parse(c.as_str()), None, "{}", c.as_str());
        }
    }

    #[test]
    fn display_is_code_and_message_and_the_hint_is_apart() {
        let f = Failure::new(
            ErrorCode::NotFound,
            "no node matches role=dialog",
            "take a snapshot",
        )
        .with_body("@e1 button \"Save\"");
        assert_eq!(f.to_string(), "not_found: no node matches role=dialog");
        assert_eq!(f.hint(), "take a snapshot");
        assert_eq!(f.body(), "@e1 button \"Save\"\n");
    }
}
