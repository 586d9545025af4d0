//! Responses: the text of `response-<seq>.txt`.
//!
//! ```text
//! ok <seq> <verb>
//! <body lines>
//! ```
//! ```text
//! error <seq> <verb> <code> "<message>"
//! hint "<hint>"
//! <body lines>
//! ```
//! `<verb>` is `-` when the command had no recognisable verb. Every line ends with `\n`.

use super::lexer::{quote_into, tokenize};
use super::{ErrorCode, Failure, ParseError, Verb};

/// The verb field of a response to a command with no recognisable verb.
pub const NO_VERB: &str = "-";

/// What a command came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It succeeded; the body holds its answer (may be empty).
    Ok {
        /// Zero or more lines, each ending in `\n`.
        body: String,
    },
    /// It failed: the wire form of a [`Failure`] (see [`Response::failure`]).
    Error {
        /// The typed code, as text (a newer app may send codes this version does not know).
        code: String,
        /// What went wrong.
        message: String,
        /// How to fix it.
        hint: String,
        /// Extra lines, such as the candidates of an ambiguous selector.
        body: String,
    },
}

/// A parsed or to-be-written response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The seq of the command it answers.
    pub seq: u64,
    /// The verb it answers, or `-`.
    pub verb: String,
    /// The outcome.
    pub outcome: Outcome,
}

impl Response {
    /// A success.
    pub fn ok(seq: u64, verb: Option<Verb>, body: impl Into<String>) -> Response {
        let mut body = body.into();
        if !body.is_empty() && !body.ends_with('\n') {
            body.push('\n');
        }
        Response {
            seq,
            verb: verb.map_or(NO_VERB, Verb::as_str).to_owned(),
            outcome: Outcome::Ok { body },
        }
    }

    /// A failure.
    pub fn error(seq: u64, verb: Option<Verb>, failure: Failure) -> Response {
        Response {
            seq,
            verb: verb.map_or(NO_VERB, Verb::as_str).to_owned(),
            outcome: Outcome::Error {
                code: failure.code.as_str().to_owned(),
                message: failure.message,
                hint: failure.hint,
                body: failure.body,
            },
        }
    }

    /// Whether it is `ok`.
    pub fn is_ok(&self) -> bool {
        matches!(self.outcome, Outcome::Ok { .. })
    }

    /// The body: the answer of an `ok`, the extra lines of an `error`.
    pub fn body(&self) -> &str {
        match &self.outcome {
            Outcome::Ok { body } | Outcome::Error { body, .. } => body,
        }
    }

    /// The frame the answer names (its `frame N` line: an action's, a screenshot's, `status`'s,
    /// a `wait`'s), if it names one.
    pub fn frame(&self) -> Option<u64> {
        self.body()
            .lines()
            .find_map(|l| l.strip_prefix("frame ")?.parse().ok())
    }

    /// The error code, if it is an error with a code this version knows.
    pub fn error_code(&self) -> Option<ErrorCode> {
        match &self.outcome {
            Outcome::Error { code, .. } => ErrorCode::parse(code),
            Outcome::Ok { .. } => None,
        }
    }

    /// The failure, if it is an error with a code this version knows: the inverse of
    /// [`Response::error`]. An error with a code from a newer app is `None` here; its text is still
    /// in [`Response::outcome`].
    pub fn failure(&self) -> Option<Failure> {
        match &self.outcome {
            Outcome::Error {
                code,
                message,
                hint,
                body,
            } => Some(Failure {
                code: ErrorCode::parse(code)?,
                message: message.clone(),
                hint: hint.clone(),
                body: body.clone(),
            }),
            Outcome::Ok { .. } => None,
        }
    }

    /// An error answer as the MCP server and the harness show it to people: `error CODE: MESSAGE`,
    /// `hint: HINT`, then the extra lines (the CLI writes the same lines as `error: CODE: ...`).
    /// `None` for an `ok`.
    pub fn error_text(&self) -> Option<String> {
        let Outcome::Error {
            code,
            message,
            hint,
            body,
        } = &self.outcome
        else {
            return None;
        };
        let mut out = format!("error {code}: {message}\n");
        if !hint.is_empty() {
            out.push_str(&format!("hint: {hint}\n"));
        }
        out.push_str(body);
        Some(out)
    }

    /// The file text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        match &self.outcome {
            Outcome::Ok { body } => {
                out.push_str(&format!("ok {} {}\n", self.seq, self.verb));
                out.push_str(body);
            }
            Outcome::Error {
                code,
                message,
                hint,
                body,
            } => {
                out.push_str(&format!("error {} {} {} ", self.seq, self.verb, code));
                quote_into(&mut out, message);
                out.push_str("\nhint ");
                quote_into(&mut out, hint);
                out.push('\n');
                out.push_str(body);
            }
        }
        out
    }

    /// Parses the file text.
    pub fn parse(text: &str) -> Result<Response, ParseError> {
        let bad = |what: &str| {
            ParseError::new(
                ErrorCode::BadSyntax,
                format!("malformed response: {what}"),
                "responses start with `ok <seq> <verb>` or `error <seq> <verb> <code> \"message\"`",
            )
        };
        let (first, rest) = text
            .split_once('\n')
            .ok_or_else(|| bad("no complete first line"))?;
        let tokens = tokenize(first)?;
        let bare = |i: usize| {
            tokens
                .get(i)
                .filter(|t| t.quoted.is_none())
                .map(|t| t.bare.as_str())
        };
        let seq = bare(1)
            .and_then(super::names::parse_seq)
            .ok_or_else(|| bad("no seq"))?;
        let verb = bare(2).ok_or_else(|| bad("no verb"))?.to_owned();
        match bare(0) {
            Some("ok") if tokens.len() == 3 => Ok(Response {
                seq,
                verb,
                outcome: Outcome::Ok {
                    body: rest.to_owned(),
                },
            }),
            Some("error") if tokens.len() == 5 => {
                let code = bare(3).ok_or_else(|| bad("no code"))?.to_owned();
                let message = tokens[4].text();
                let (hint_line, body) = rest.split_once('\n').ok_or_else(|| bad("no hint line"))?;
                let hint_tokens = tokenize(hint_line)?;
                let hint = match hint_tokens.as_slice() {
                    [key, value] if key.bare == "hint" && key.quoted.is_none() => value.text(),
                    _ => return Err(bad("the second line is not `hint \"...\"`")),
                };
                Ok(Response {
                    seq,
                    verb,
                    outcome: Outcome::Error {
                        code,
                        message,
                        hint,
                        body: body.to_owned(),
                    },
                })
            }
            _ => Err(bad("the first line is neither ok nor error")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frame_an_answer_names_is_read_from_its_frame_line() {
        let click = Response::ok(
            3,
            Some(Verb::Click),
            "frame 12\ntarget @e1 button \"frame 9\"\n",
        );
        assert_eq!(click.frame(), Some(12));
        let shot = Response::ok(4, Some(Verb::Screenshot), "file x\nframe 31\n");
        assert_eq!(shot.frame(), Some(31));
        assert_eq!(
            Response::ok(5, Some(Verb::Find), "matches 0\n").frame(),
            None
        );
        assert_eq!(Response::ok(6, None, "frame x\n").frame(), None);
    }

    #[test]
    fn ok_and_error_responses_round_trip() {
        let ok = Response::ok(7, Some(Verb::Status), "frame 3");
        assert_eq!(ok.to_text(), "ok 7 status\nframe 3\n");
        assert_eq!(Response::parse(&ok.to_text()).unwrap(), ok);

        let err = Response::error(
            8,
            None,
            Failure::new(
                ErrorCode::UnknownVerb,
                "unknown verb \"x\ny\"",
                "try status",
            )
            .with_body("candidates"),
        );
        assert_eq!(
            err.to_text(),
            "error 8 - unknown_verb \"unknown verb \\\"x\\ny\\\"\"\nhint \"try status\"\ncandidates\n"
        );
        let parsed = Response::parse(&err.to_text()).unwrap();
        assert_eq!(parsed, err);
        assert_eq!(parsed.error_code(), Some(ErrorCode::UnknownVerb));
        let failure = parsed.failure().unwrap();
        assert_eq!(failure.code(), ErrorCode::UnknownVerb);
        assert_eq!(failure.hint(), "try status");
        assert_eq!(failure.body(), "candidates\n");
        assert_eq!(ok.failure(), None);
    }

    #[test]
    fn an_error_with_a_code_from_a_newer_app_parses_but_is_no_failure() {
        let parsed = Response::parse("error 3 click from_the_future \"m\"\nhint \"h\"\n").unwrap();
        assert!(
            matches!(&parsed.outcome, Outcome::Error { code, .. } if code == "from_the_future")
        );
        assert_eq!(parsed.error_code(), None);
        assert_eq!(parsed.failure(), None);
    }

    #[test]
    fn truncated_or_foreign_text_is_not_a_response() {
        for text in [
            "",
            "ok 1 status",
            "ok x status\n",
            "yes 1 status\n",
            "error 1 click code \"m\"\n",
        ] {
            assert!(Response::parse(text).is_err(), "{text:?}");
        }
    }
}
