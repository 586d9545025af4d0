//! Error codes of the wire protocol and the parse error every rejected input gets.

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

/// Why a command line was rejected: a code, a lowercase message and a hint on how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// The typed code.
    pub code: ErrorCode,
    /// What is wrong, in lowercase.
    pub message: String,
    /// How to fix the input.
    pub hint: String,
}

impl ParseError {
    /// A parse error with its code, message and hint.
    pub fn new(code: ErrorCode, message: impl Into<String>, hint: impl Into<String>) -> Self {
        ParseError {
            code,
            message: message.into(),
            hint: hint.into(),
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} (hint: {})", self.code, self.message, self.hint)
    }
}

impl std::error::Error for ParseError {}

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
}
