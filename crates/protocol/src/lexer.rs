//! Tokens of a command line, and the quoting every published string goes through.
//!
//! A line is a sequence of tokens separated by spaces or tabs. A token is a bare part (any characters
//! but white space, `"` and control characters), optionally followed directly by one double-quoted
//! part with JSON escapes: `hello`, `"hello world"`, `name="Save as"`. Text after a closing quote must
//! be white space or the end of the line.
//!
//! Pure: no I/O, no allocation beyond the tokens themselves.

use super::{ErrorCode, ParseError};

/// One token of a command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// The unquoted part before any quote (may be empty).
    pub bare: String,
    /// The decoded quoted part, if the token had one.
    pub quoted: Option<String>,
    /// Byte offset of the token in the line, for error messages.
    pub offset: usize,
}

impl Token {
    /// The token's text: the bare part followed by the decoded quoted part.
    pub fn text(&self) -> String {
        match &self.quoted {
            Some(q) => format!("{}{}", self.bare, q),
            None => self.bare.clone(),
        }
    }

    /// The token as a line would carry it: the bare part, then the quoted part quoted again
    /// (`name="Save as"` stays `name="Save as"`, where [`Token::text`] gives `nameSave as`).
    pub fn written(&self) -> String {
        match &self.quoted {
            Some(q) => format!("{}{}", self.bare, quote(q)),
            None => self.bare.clone(),
        }
    }

    /// Whether this token is a flag: a bare `--name` or `-x`, never a quoted string or a number.
    pub fn flag_name(&self) -> Option<&str> {
        if self.quoted.is_some() {
            return None;
        }
        let name = self
            .bare
            .strip_prefix("--")
            .or_else(|| self.bare.strip_prefix('-'))?;
        let first = name.chars().next()?;
        first.is_ascii_alphabetic().then_some(name)
    }
}

fn is_separator(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// Splits a line (without its final newline) into tokens.
pub fn tokenize(line: &str) -> Result<Vec<Token>, ParseError> {
    let mut tokens = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(start, c)) = chars.peek() {
        if is_separator(c) {
            chars.next();
            continue;
        }
        let mut bare = String::new();
        let mut quoted = None;
        while let Some(&(at, c)) = chars.peek() {
            if is_separator(c) {
                break;
            }
            if c == '"' {
                chars.next();
                quoted = Some(read_quoted(&mut chars, at)?);
                match chars.peek() {
                    None => {}
                    Some(&(_, c)) if is_separator(c) => {}
                    Some(&(after, c)) => {
                        return Err(ParseError::new(
                            ErrorCode::BadSyntax,
                            format!("unexpected {c:?} right after a closing quote at byte {after}"),
                            "separate tokens with a space, or put the whole text inside the quotes",
                        ));
                    }
                }
                break;
            }
            if c.is_control() {
                return Err(raw_control(c, at));
            }
            bare.push(c);
            chars.next();
        }
        tokens.push(Token {
            bare,
            quoted,
            offset: start,
        });
    }
    Ok(tokens)
}

fn raw_control(c: char, at: usize) -> ParseError {
    ParseError::new(
        ErrorCode::BadSyntax,
        format!("raw control character U+{:04X} at byte {at}", c as u32),
        "write control characters as escapes inside double quotes, e.g. \"line\\nbreak\"",
    )
}

fn read_quoted(
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    open: usize,
) -> Result<String, ParseError> {
    let mut out = String::new();
    loop {
        let Some((at, c)) = chars.next() else {
            return Err(ParseError::new(
                ErrorCode::BadSyntax,
                format!("the quote opened at byte {open} is never closed"),
                "end the quoted text with \"; write a literal quote as \\\"",
            ));
        };
        match c {
            '"' => return Ok(out),
            '\\' => out.push(read_escape(chars, at)?),
            c if c.is_control() => return Err(raw_control(c, at)),
            c => out.push(c),
        }
    }
}

fn read_escape(
    chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>,
    at: usize,
) -> Result<char, ParseError> {
    let bad = |what: String| {
        ParseError::new(
            ErrorCode::BadSyntax,
            what,
            "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX (JSON rules)",
        )
    };
    let Some((_, c)) = chars.next() else {
        return Err(bad(format!("the escape at byte {at} ends the line")));
    };
    Ok(match c {
        '"' => '"',
        '\\' => '\\',
        '/' => '/',
        'b' => '\u{8}',
        'f' => '\u{c}',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'u' => {
            let high = read_hex4(chars)
                .ok_or_else(|| bad(format!("\\u at byte {at} needs four hexadecimal digits")))?;
            match high {
                0xD800..=0xDBFF => {
                    let low = match (chars.next(), chars.next()) {
                        (Some((_, '\\')), Some((_, 'u'))) => read_hex4(chars),
                        _ => None,
                    };
                    match low {
                        Some(low @ 0xDC00..=0xDFFF) => {
                            let code = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                            char::from_u32(code).ok_or_else(|| {
                                bad(format!("invalid surrogate pair at byte {at}"))
                            })?
                        }
                        _ => {
                            return Err(bad(format!(
                                "high surrogate \\u{high:04X} at byte {at} is not followed by a low surrogate"
                            )));
                        }
                    }
                }
                0xDC00..=0xDFFF => {
                    return Err(bad(format!(
                        "lone low surrogate \\u{high:04X} at byte {at}"
                    )));
                }
                code => char::from_u32(code)
                    .ok_or_else(|| bad(format!("invalid code point at byte {at}")))?,
            }
        }
        other => return Err(bad(format!("unknown escape \\{other} at byte {at}"))),
    })
}

fn read_hex4(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        let (_, c) = chars.next()?;
        value = value * 16 + c.to_digit(16)?;
    }
    Some(value)
}

/// Writes `s` as a double-quoted string with JSON escapes. The result never contains a raw control
/// character, so it cannot break a one-line-per-record format.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    quote_into(&mut out, s);
    out
}

/// [`quote`] into an existing buffer.
pub fn quote_into(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            // Other control characters, and the Unicode line and paragraph separators, which some
            // readers treat as line breaks.
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Whether `s` can be written bare, as a token that reads back as the same text and is neither a
/// flag, a ref, a point nor a selector term.
pub fn is_plain(s: &str) -> bool {
    let mut chars = s.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    (first.is_ascii_alphanumeric() || first == '_' || first == '.')
        && chars
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-' | ':' | '/' | '+'))
}

/// Writes `s` bare when [`is_plain`], quoted otherwise.
pub fn word(s: &str) -> String {
    if is_plain(s) { s.to_owned() } else { quote(s) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(line: &str) -> Vec<String> {
        tokenize(line).unwrap().iter().map(Token::text).collect()
    }

    #[test]
    fn bare_and_quoted_tokens_split_on_white_space() {
        assert_eq!(texts("type  \"a b\"\tc"), ["type", "a b", "c"]);
    }

    #[test]
    fn a_quoted_suffix_joins_its_bare_prefix() {
        let tokens = tokenize("name=\"Save as\"").unwrap();
        assert_eq!(tokens[0].bare, "name=");
        assert_eq!(tokens[0].quoted.as_deref(), Some("Save as"));
    }

    #[test]
    fn json_escapes_decode_including_surrogate_pairs() {
        assert_eq!(
            texts(r#""q\" b\\ n\n t\t u\u00e9 s\ud83d\ude00 \/""#),
            ["q\" b\\ n\n t\t u\u{e9} s\u{1F600} /"]
        );
    }

    #[test]
    fn broken_quoting_is_a_bad_syntax_error() {
        for line in [
            "\"open",
            "\"bad \\x\"",
            "\"\\u12\"",
            "\"\\ud800\"",
            "\"\\udc00\"",
            "\"a\"b",
            "a\u{7}b",
            "\"tab\there\"",
        ] {
            let err = tokenize(line).unwrap_err();
            assert_eq!(err.code, ErrorCode::BadSyntax, "{line:?}");
        }
    }

    #[test]
    fn quoting_round_trips_hostile_text() {
        let hostile = "line\nbreak \"quoted\" back\\slash \u{0} \u{1b}[31m \u{2028} é 😀";
        let quoted = quote(hostile);
        assert!(!quoted.chars().any(|c| c.is_control()));
        assert_eq!(texts(&quoted), [hostile]);
    }

    #[test]
    fn flags_are_bare_and_start_with_a_letter() {
        let tokens = tokenize("--settle -i -120 \"--settle\" --").unwrap();
        let names: Vec<_> = tokens.iter().map(Token::flag_name).collect();
        assert_eq!(names, [Some("settle"), Some("i"), None, None, None]);
    }

    #[test]
    fn plain_words_stay_bare_and_others_are_quoted() {
        assert_eq!(word("hello"), "hello");
        assert_eq!(word("a b"), "\"a b\"");
        assert_eq!(word("--x"), "\"--x\"");
        assert_eq!(word("@e1"), "\"@e1\"");
        assert_eq!(word("a=b"), "\"a=b\"");
        assert_eq!(word(""), "\"\"");
    }
}
