//! A command line taken apart by the verb table: the verb, its positional tokens and its flags.
//!
//! Everything here is generic over verbs: which flags exist, which take a value, which exclude
//! each other and which need another come from `verbs.rs`; `command.rs` maps the parts of each verb
//! to its `Command` variant and back.

use super::lexer::{Token, quote, tokenize};
use super::target::{
    Selector, Target, is_term, is_word, parse_number, parse_selector, parse_target, unquoted_value,
};
use super::verbs::{FlagRule, Verb, dashed, usage};
use super::{ErrorCode, ParseError};

/// Tokens of one command after its flags were taken out.
pub(super) struct Args {
    pub(super) verb: Verb,
    pub(super) positional: Vec<Token>,
    /// Each flag by its canonical name (an alias is stored under the flag's name).
    pub(super) flags: Vec<(&'static str, Option<Token>)>,
}

/// A token as it was written: its bare part and its quoted part, quoted again.
fn written(t: &Token) -> String {
    format!(
        "{}{}",
        t.bare,
        t.quoted.as_deref().map(quote).unwrap_or_default()
    )
}

/// One token as one target: a ref, a point, or a selector (quoted when it has several terms).
/// `what` names the place in the refusal, `example` shows a quoted selector there.
fn token_target(token: &Token, what: &str, example: &str) -> Result<Target, ParseError> {
    let tokens = tokenize(&token.text())?;
    let (target, used) = parse_target(&tokens)?;
    if used != tokens.len() {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("{what} takes one target"),
            format!("quote a multi-term selector: {example}"),
        ));
    }
    Ok(target)
}

impl Args {
    /// Takes the flags out of `tokens`, checking each against the verb's row of the table.
    pub(super) fn split(verb: Verb, tokens: Vec<Token>) -> Result<Args, ParseError> {
        let mut positional = Vec::new();
        let mut flags: Vec<(&'static str, Option<Token>)> = Vec::new();
        let mut iter = tokens.into_iter();
        while let Some(token) = iter.next() {
            let Some(name) = token.flag_name() else {
                positional.push(token);
                continue;
            };
            let Some(flag) = verb.flag(name) else {
                let known: Vec<String> = verb
                    .flags()
                    .flat_map(|f| [Some(f.name), f.alias])
                    .flatten()
                    .map(dashed)
                    .collect();
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
            if flags.iter().any(|(n, _)| *n == flag.name) {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("{} given twice", token.bare),
                    "give each flag once",
                ));
            }
            let value = match flag.value {
                None => None,
                Some((placeholder, _)) => Some(iter.next().ok_or_else(|| {
                    ParseError::new(
                        ErrorCode::MissingArgument,
                        format!("{} needs a value", token.bare),
                        format!("write {} {placeholder}", token.bare),
                    )
                })?),
            };
            flags.push((flag.name, value));
        }
        Ok(Args {
            verb,
            positional,
            flags,
        })
    }

    /// Checks the table's rules between flags: pairs that exclude each other, flags that need
    /// another.
    pub(super) fn check_rules(&self) -> Result<(), ParseError> {
        for rule in self.verb.spec().flags {
            match *rule {
                FlagRule::Free(_) => {}
                FlagRule::Either(a, b, hint) => {
                    if self.has(a.name) && self.has(b.name) {
                        return Err(ParseError::new(
                            ErrorCode::BadArgument,
                            format!(
                                "{} and {} exclude each other",
                                dashed(a.name),
                                dashed(b.name)
                            ),
                            hint,
                        ));
                    }
                }
                FlagRule::Needs(a, b) => {
                    if self.has(b.name) && !self.has(a.name) {
                        return Err(ParseError::new(
                            ErrorCode::BadArgument,
                            format!("{} only applies with {}", dashed(b.name), dashed(a.name)),
                            format!("add {}, or drop {}", dashed(a.name), dashed(b.name)),
                        ));
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| *n == name)
    }

    pub(super) fn value(&self, name: &str) -> Option<&Token> {
        self.flags
            .iter()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_ref())
    }

    /// The value of `--modifiers`: none held when it is absent.
    pub(super) fn modifiers(&self) -> Result<crate::key::Modifiers, ParseError> {
        self.value("modifiers")
            .map_or(Ok(crate::key::Modifiers::default()), |t| {
                crate::key::Modifiers::parse(&t.text())
            })
    }

    /// The value of flag `name` as a whole number.
    pub(super) fn number<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, ParseError> {
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

    /// The value of flag `name` as one target (`--scope`, `--ref`); `example` shows how to quote a
    /// selector of several terms.
    pub(super) fn target_flag(
        &self,
        name: &str,
        example: &str,
    ) -> Result<Option<Target>, ParseError> {
        let Some(token) = self.value(name) else {
            return Ok(None);
        };
        token_target(token, &format!("--{name}"), &format!("--{name} {example}")).map(Some)
    }

    /// Every positional token as one target each (`stroke`'s points). Two selector terms side by
    /// side are refused: one selector of two terms, or two selectors? Quoting says which.
    pub(super) fn token_targets(&self) -> Result<Vec<Target>, ParseError> {
        let example = format!("{} \"role=button name=OK\" 120,48", self.verb);
        let what = format!("each of {}'s arguments", self.verb);
        // A term with a quoted value (`name="OK"`) is a term too; a token quoted whole is not.
        let bare_term = |t: &Token| is_term(t);
        if let Some(pair) = self
            .positional
            .windows(2)
            .find(|w| bare_term(&w[0]) && bare_term(&w[1]))
        {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                format!(
                    "{} {} could be one selector or two points",
                    written(&pair[0]),
                    written(&pair[1])
                ),
                format!("quote each selector point whole: {example}"),
            ));
        }
        self.positional
            .iter()
            .map(|t| token_target(t, &what, &example))
            .collect()
    }

    pub(super) fn missing(&self, what: &str) -> ParseError {
        ParseError::new(
            ErrorCode::MissingArgument,
            format!("{} needs {what}", self.verb),
            format!("usage: {}", usage(self.verb)),
        )
    }

    fn unexpected(&self, at: usize) -> ParseError {
        let token = &self.positional[at];
        if at > 0 && is_term(&self.positional[at - 1]) && is_word(token) {
            return unquoted_value(&self.positional, at);
        }
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
    pub(super) fn done(&self, used: usize) -> Result<(), ParseError> {
        match self.positional.get(used) {
            Some(_) => Err(self.unexpected(used)),
            None => Ok(()),
        }
    }

    pub(super) fn target_at(&self, at: usize, what: &str) -> Result<(Target, usize), ParseError> {
        if at >= self.positional.len() {
            return Err(self.missing(what));
        }
        let (target, used) = parse_target(&self.positional[at..])?;
        Ok((target, at + used))
    }

    pub(super) fn text_at(&self, at: usize, what: &str) -> Result<String, ParseError> {
        self.positional
            .get(at)
            .map(Token::text)
            .ok_or_else(|| self.missing(what))
    }

    pub(super) fn float_at(&self, at: usize, what: &str) -> Result<f64, ParseError> {
        let text = self.text_at(at, what)?;
        parse_number(&text).ok_or_else(|| {
            ParseError::new(
                ErrorCode::BadArgument,
                format!("{what} {} is not a number", quote(&text)),
                format!("usage: {}", usage(self.verb)),
            )
        })
    }

    pub(super) fn size_at(&self, at: usize, what: &str) -> Result<u32, ParseError> {
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

    /// The positional tokens as one selector, and nothing after it.
    pub(super) fn selector(&self) -> Result<Selector, ParseError> {
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
