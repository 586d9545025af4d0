//! The error of a malformed answer line, shared by the line parsers.

use crate::lexer::quote;
use crate::{ErrorCode, ParseError};

/// The error of a line that does not read as `what`: `bad_syntax`, the line quoted.
pub(super) fn malformed(what: &str, line: &str, hint: &str) -> ParseError {
    ParseError::new(
        ErrorCode::BadSyntax,
        format!("malformed {what}: {}", quote(line)),
        hint,
    )
}
