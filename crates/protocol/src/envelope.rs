//! A command as a client files it: the command with its deadline, and the checks every command
//! file's bytes get (UTF-8, the size cap, one line).

use super::command::file_line;
use super::lexer::{quote, tokenize};
use super::{Command, ErrorCode, ParseError};

/// A command as a client files it: the command, and when the client gives up on it.
///
/// The deadline is written as `--deadline UNIX_MS` anywhere after the verb, on any verb: the Unix
/// time in milliseconds after which the client no longer waits. The app never starts a command
/// after its deadline and answers it `expired` instead (docs/protocol.md, section 4.8).
#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    /// The command.
    pub command: Command,
    /// When its client gives up, in Unix milliseconds.
    pub deadline_unix_ms: Option<u64>,
}

impl Envelope {
    /// The name of the deadline flag, without dashes.
    pub const DEADLINE_FLAG: &'static str = "deadline";

    /// Parses the raw bytes of a command file (see [`Command::parse_bytes`]), with its deadline.
    pub fn parse_bytes(bytes: &[u8], max_bytes: usize) -> Result<Envelope, ParseError> {
        Envelope::parse(file_line(bytes, max_bytes)?)
    }

    /// Parses a command line with an optional `--deadline UNIX_MS`.
    pub fn parse(line: &str) -> Result<Envelope, ParseError> {
        let mut tokens = tokenize(line)?;
        let mut deadline_unix_ms = None;
        let at = tokens
            .iter()
            .skip(1)
            .position(|t| t.flag_name() == Some(Self::DEADLINE_FLAG))
            .map(|i| i + 1);
        if let Some(at) = at {
            let flag = tokens.remove(at);
            if at >= tokens.len() {
                return Err(ParseError::new(
                    ErrorCode::MissingArgument,
                    format!("{} needs a value", flag.bare),
                    "write --deadline UNIX_MS, the Unix time in milliseconds the client gives up at",
                ));
            }
            let text = tokens.remove(at).text();
            match text.parse::<u64>() {
                Ok(ms) if text.bytes().all(|b| b.is_ascii_digit()) => deadline_unix_ms = Some(ms),
                _ => {
                    return Err(ParseError::new(
                        ErrorCode::BadArgument,
                        format!("--deadline {} is not a whole number", quote(&text)),
                        "write --deadline UNIX_MS, the Unix time in milliseconds the client gives up at",
                    ));
                }
            }
            if tokens
                .iter()
                .skip(1)
                .any(|t| t.flag_name() == Some(Self::DEADLINE_FLAG))
            {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    "--deadline given twice",
                    "give each flag once",
                ));
            }
        }
        Ok(Envelope {
            command: Command::parse_tokens(tokens)?,
            deadline_unix_ms,
        })
    }

    /// The canonical line: the command's, then ` --deadline UNIX_MS` when there is one.
    pub fn to_line(&self) -> String {
        match self.deadline_unix_ms {
            Some(ms) => format!("{} --{} {ms}", self.command, Self::DEADLINE_FLAG),
            None => self.command.to_line(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_rides_on_any_verb_and_only_in_an_envelope() {
        let e = Envelope::parse("click --deadline 1700000000123 @e3 --settle").unwrap();
        assert_eq!(e.deadline_unix_ms, Some(1_700_000_000_123));
        assert_eq!(e.command, Command::parse("click @e3 --settle").unwrap());
        assert_eq!(e.to_line(), "click @e3 --settle --deadline 1700000000123");
        assert_eq!(Envelope::parse(&e.to_line()).unwrap(), e);
        assert_eq!(Envelope::parse("status").unwrap().deadline_unix_ms, None);
        // Quoted text is text, not the flag.
        let e = Envelope::parse("type \"--deadline\" --deadline 5").unwrap();
        assert_eq!(e.command, Command::parse("type \"--deadline\"").unwrap());
        assert_eq!(
            Command::parse("status --deadline 5").unwrap_err().code,
            ErrorCode::UnknownFlag
        );
        let env_code = |l: &str| Envelope::parse(l).unwrap_err().code;
        assert_eq!(env_code("status --deadline"), ErrorCode::MissingArgument);
        assert_eq!(env_code("status --deadline soon"), ErrorCode::BadArgument);
        assert_eq!(
            env_code("status --deadline 1 --deadline 2"),
            ErrorCode::BadArgument
        );
        assert_eq!(env_code("--deadline 5"), ErrorCode::UnknownVerb);
    }
}
