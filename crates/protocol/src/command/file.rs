//! The one line of a command file: what is checked of the bytes before the line is parsed, by a
//! command file (`Command::parse_bytes`) and an envelope (`Envelope::parse_bytes`) alike.

use crate::{ErrorCode, ParseError};

/// The one line of a command file, split: the UTF-8 check, the size cap and the one-line rule.
pub(crate) fn file_line(bytes: &[u8], max_bytes: usize) -> Result<&str, ParseError> {
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
    Ok(line)
}
