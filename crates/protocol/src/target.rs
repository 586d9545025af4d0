//! What a command aims at: a ref (`@e12`), a point (`x,y`) or a selector (`role=button name="Save"`).
//!
//! This module only parses and formats targets. Resolving them against a tree (and refusing stale
//! refs) belongs to the tree mirror.

use std::fmt;

use super::lexer::{Token, quote, word};
use super::roles::check_role;
use super::{ErrorCode, ParseError};

/// A node ref minted by the app: `@e<N>`, stable for the node's lifetime, never reused in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeRef(pub u64);

impl NodeRef {
    /// Parses `@e<N>` (N a decimal number without leading zeros, at least 1).
    pub fn parse(s: &str) -> Option<NodeRef> {
        let digits = s.strip_prefix("@e")?;
        if digits.is_empty()
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        digits.parse().ok().map(NodeRef)
    }
}

impl fmt::Display for NodeRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "@e{}", self.0)
    }
}

/// A point in logical pixels of a window, origin at the top left of its content area.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    /// Logical x.
    pub x: f64,
    /// Logical y.
    pub y: f64,
}

impl Point {
    /// Parses `x,y` with finite decimal numbers.
    pub fn parse(s: &str) -> Option<Point> {
        let (x, y) = s.split_once(',')?;
        Some(Point {
            x: parse_number(x)?,
            y: parse_number(y)?,
        })
    }
}

/// A finite decimal number: optional sign, digits, optional fraction. No exponents, no `inf`.
pub(crate) fn parse_number(s: &str) -> Option<f64> {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) || (body.contains('.') && frac.is_empty()) {
        return None;
    }
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// One term of a selector. Terms are ANDed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Term {
    /// `role=button`: the node's short role name.
    Role(String),
    /// `name="Save"`: the accessible name, exactly.
    Name(String),
    /// `name~=Sav`: the accessible name contains this text.
    NameContains(String),
    /// `id=save-button`: the author id (AccessKit `author_id`, or a widget record's id).
    Id(String),
    /// `text="Welcome"`: the accessible name or the text value, exactly (toolkits such as egui put
    /// a label's text in its value).
    Text(String),
    /// `text~=Welc`: the accessible name or the text value contains this text.
    TextContains(String),
    /// `label="Snap to grid:"`: the label placed before an unnamed control in its row, exactly
    /// (snapshots print it as `label=`; docs/protocol.md section 6.2, "Labels").
    Label(String),
    /// `label~=grid`: that label contains this text.
    LabelContains(String),
}

/// A set of ANDed terms, with an optional 0-based index among the matches in tree order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    /// The terms, at least one.
    pub terms: Vec<Term>,
    /// `nth=N`: pick the N-th match (0-based) when several nodes match.
    pub nth: Option<usize>,
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for term in &self.terms {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            match term {
                Term::Role(v) => write!(f, "role={}", word(v))?,
                Term::Name(v) => write!(f, "name={}", quote(v))?,
                Term::NameContains(v) => write!(f, "name~={}", quote(v))?,
                Term::Id(v) => write!(f, "id={}", word(v))?,
                Term::Text(v) => write!(f, "text={}", quote(v))?,
                Term::TextContains(v) => write!(f, "text~={}", quote(v))?,
                Term::Label(v) => write!(f, "label={}", quote(v))?,
                Term::LabelContains(v) => write!(f, "label~={}", quote(v))?,
            }
        }
        if let Some(n) = self.nth {
            write!(f, " nth={n}")?;
        }
        Ok(())
    }
}

/// What a command aims at.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// A ref from a snapshot.
    Ref(NodeRef),
    /// Coordinates in logical pixels.
    Point(Point),
    /// A selector.
    Selector(Selector),
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Ref(r) => r.fmt(f),
            Target::Point(p) => p.fmt(f),
            Target::Selector(s) => s.fmt(f),
        }
    }
}

impl Target {
    /// Parses text that holds exactly one target, such as `@e3`, `10,20` or
    /// `role=button name="Save"`.
    pub fn parse(text: &str) -> Result<Target, ParseError> {
        let tokens = super::lexer::tokenize(text)?;
        let (target, used) = parse_target(&tokens)?;
        match tokens.get(used) {
            None => Ok(target),
            Some(extra) => Err(ParseError::new(
                ErrorCode::UnexpectedArgument,
                format!("unexpected {} after the target", quote(&extra.text())),
                "a target is one ref, one point, or selector terms only",
            )),
        }
    }
}

impl Selector {
    /// Parses text that holds only selector terms, such as `role=button name~=Sav`.
    pub fn parse(text: &str) -> Result<Selector, ParseError> {
        match Target::parse(text)? {
            Target::Selector(s) => Ok(s),
            other => Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("{other} is not a selector"),
                "selectors are terms such as role=button name=\"Save\" (refs and points are not selectors)",
            )),
        }
    }
}

const TERMS_HINT: &str = "selector terms are role=..., name=..., name~=..., text=..., text~=..., label=..., label~=..., id=... and nth=N";

const TARGET_HINT: &str = "a target is a ref such as @e12, a point such as 120,48, or a selector such as role=button name=\"Save\"";

/// Whether a token is a selector term: its bare (unquoted) part holds `=`, as in `key=value`,
/// `key~=value` or `key="quoted value"`.
pub(crate) fn is_term(token: &Token) -> bool {
    token.bare.contains('=')
}

/// Whether a token is a bare word: no quotes, no `=`; after a selector term it is most likely the
/// rest of an unquoted value with spaces.
pub(crate) fn is_word(token: &Token) -> bool {
    token.quoted.is_none() && !token.bare.contains('=')
}

/// The error for bare words right after a selector term (`name~=Open Save`): the value was meant
/// to hold a space. The hint shows the selector with that value quoted, so every front end (a command
/// line, a CLI argument, an MCP argument) says the same thing. `tokens[at - 1]` is the term.
pub(crate) fn unquoted_value(tokens: &[Token], at: usize) -> ParseError {
    let first = (0..at)
        .rev()
        .take_while(|&i| is_term(&tokens[i]))
        .last()
        .unwrap_or(at - 1);
    let words: Vec<&str> = tokens[at..]
        .iter()
        .take_while(|t| is_word(t))
        .map(|t| t.bare.as_str())
        .collect();
    let term = &tokens[at - 1];
    let (key, value) = term.bare.split_once('=').unwrap_or((&term.bare, ""));
    let value = format!(
        "{value}{} {}",
        term.quoted.as_deref().unwrap_or(""),
        words.join(" ")
    );
    // Single quotes are no quotes here (`name='Save as'`): the value is what they enclose.
    let value = match value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
        Some(inner) => inner.to_owned(),
        None => value,
    };
    let mut fixed: Vec<String> = tokens[first..at - 1].iter().map(Token::written).collect();
    fixed.push(format!("{key}={}", quote(&value)));
    ParseError::new(
        ErrorCode::BadArgument,
        format!(
            "{} after {} is not a selector term",
            quote(words[0]),
            term.written()
        ),
        format!("quote a value with spaces: {}", fixed.join(" ")),
    )
}

/// Parses a target starting at `tokens[0]`; returns it and how many tokens it used.
pub(crate) fn parse_target(tokens: &[Token]) -> Result<(Target, usize), ParseError> {
    let Some(first) = tokens.first() else {
        return Err(ParseError::new(
            ErrorCode::MissingArgument,
            "missing target",
            TARGET_HINT,
        ));
    };
    if first.quoted.is_none() {
        if first.bare.starts_with('@') {
            return NodeRef::parse(&first.bare)
                .map(|r| (Target::Ref(r), 1))
                .ok_or_else(|| {
                    ParseError::new(
                        ErrorCode::BadArgument,
                        format!("{:?} is not a ref", first.bare),
                        "refs look like @e12; take them from a snapshot",
                    )
                });
        }
        if let Some(p) = Point::parse(&first.bare) {
            return Ok((Target::Point(p), 1));
        }
    }
    if is_term(first) {
        let used = tokens.iter().take_while(|t| is_term(t)).count();
        return Ok((Target::Selector(parse_selector(&tokens[..used])?), used));
    }
    Err(ParseError::new(
        ErrorCode::BadArgument,
        format!("{} is not a target", quote(&first.text())),
        TARGET_HINT,
    ))
}

/// Parses selector terms; every token must be a term.
pub(crate) fn parse_selector(tokens: &[Token]) -> Result<Selector, ParseError> {
    let mut terms = Vec::new();
    let mut nth = None;
    for token in tokens {
        let (key, value, contains) = term_parts(token)?;
        let only_exact = |what: &str| {
            ParseError::new(
                ErrorCode::BadArgument,
                format!("{what} does not take ~="),
                format!("only name~=, text~= and label~= match by substring; write {what}=VALUE"),
            )
        };
        let term = match (key, contains) {
            ("role", false) => {
                check_role(&value)?;
                Term::Role(value)
            }
            ("name", false) => Term::Name(value),
            ("name", true) => Term::NameContains(value),
            ("id", false) => Term::Id(value),
            ("text", false) => Term::Text(value),
            ("text", true) => Term::TextContains(value),
            ("label", false) => Term::Label(value),
            ("label", true) => Term::LabelContains(value),
            ("nth", false) => {
                if nth.is_some() {
                    return Err(ParseError::new(
                        ErrorCode::BadArgument,
                        "nth= given twice",
                        "give one nth=N per selector",
                    ));
                }
                nth = Some(parse_nth(&value)?);
                continue;
            }
            ("role" | "id" | "nth", true) => return Err(only_exact(key)),
            _ => {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("unknown selector key {}", quote(key)),
                    TERMS_HINT,
                ));
            }
        };
        terms.push(term);
    }
    if terms.is_empty() {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            "a selector needs a term besides nth=",
            "add role=..., name=..., name~=..., text=..., text~=..., label=..., label~=... or id=...",
        ));
    }
    Ok(Selector { terms, nth })
}

/// A selector term's key, its value (the quoted part included) and whether it is written `~=`.
fn term_parts(token: &Token) -> Result<(&str, String, bool), ParseError> {
    let (key, rest, contains) = match token.bare.split_once('=') {
        Some((k, rest)) => match k.strip_suffix('~') {
            Some(k) => (k, rest, true),
            None => (k, rest, false),
        },
        None => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("{} is not a selector term", quote(&token.text())),
                TERMS_HINT,
            ));
        }
    };
    let value = match &token.quoted {
        Some(q) => format!("{rest}{q}"),
        None if rest.is_empty() => {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("selector term {key}= has no value"),
                format!("write {key}=\"\" to match an empty value"),
            ));
        }
        None => rest.to_owned(),
    };
    Ok((key, value, contains))
}

/// The N of `nth=N`: a whole number.
fn parse_nth(value: &str) -> Result<usize, ParseError> {
    value.parse().map_err(|_| {
        ParseError::new(
            ErrorCode::BadArgument,
            format!("nth={} is not a whole number", quote(value)),
            "nth=N picks the N-th match (0-based), e.g. nth=0",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    fn target(line: &str) -> Result<(Target, usize), ParseError> {
        parse_target(&tokenize(line).unwrap())
    }

    #[test]
    fn refs_points_and_selectors_parse() {
        assert_eq!(target("@e12").unwrap(), (Target::Ref(NodeRef(12)), 1));
        assert_eq!(
            target("12.5,-3").unwrap(),
            (Target::Point(Point { x: 12.5, y: -3.0 }), 1)
        );
        let (t, used) = target("role=button name=\"Save as\" nth=1 tail").unwrap();
        assert_eq!(used, 3);
        assert_eq!(
            t,
            Target::Selector(Selector {
                terms: vec![Term::Role("button".into()), Term::Name("Save as".into())],
                nth: Some(1),
            })
        );
    }

    #[test]
    fn selectors_format_back_to_what_parses() {
        let line = "role=button name~=\"a \\\"b\\\"\" id=x nth=2";
        let (t, _) = target(line).unwrap();
        let again = target(&t.to_string()).unwrap().0;
        assert_eq!(t, again);
    }

    #[test]
    fn text_terms_parse_and_format_in_canonical_form() {
        let (t, used) = target("text=Welcome text~=\"to egui\" role=text").unwrap();
        assert_eq!(used, 3);
        let Target::Selector(s) = &t else {
            panic!("{t:?} is not a selector")
        };
        assert_eq!(
            s.terms,
            [
                Term::Text("Welcome".into()),
                Term::TextContains("to egui".into()),
                Term::Role("text".into()),
            ]
        );
        // Text values are always quoted in the canonical form, like names.
        assert_eq!(
            t.to_string(),
            "text=\"Welcome\" text~=\"to egui\" role=text"
        );
        assert_eq!(target(&t.to_string()).unwrap().0, t);
        // An empty text is written quoted; a bare empty one is refused like name=.
        let empty = Selector::parse("text=\"\"").unwrap();
        assert_eq!(empty.terms, [Term::Text(String::new())]);
        assert_eq!(empty.to_string(), "text=\"\"");
        for line in ["text=", "text~="] {
            let err = target(line).unwrap_err();
            assert_eq!(err.code, ErrorCode::BadArgument, "{line}");
            assert!(
                err.message.contains("has no value"),
                "{line}: {}",
                err.message
            );
        }
        // The hint for an unknown key lists the text terms.
        let err = target("txt=x").unwrap_err();
        assert!(err.hint.contains("text~="), "{}", err.hint);
    }

    #[test]
    fn malformed_targets_are_bad_arguments() {
        for line in [
            "@e0",
            "@e01",
            "@x",
            "1,",
            "inf,2",
            "foo",
            "role~=x",
            "nth=1",
            "bogus=1",
            "name=",
            "nth=x role=a",
        ] {
            assert_eq!(
                target(line).unwrap_err().code,
                ErrorCode::BadArgument,
                "{line}"
            );
        }
        assert_eq!(target("").unwrap_err().code, ErrorCode::MissingArgument);
    }

    #[test]
    fn numbers_reject_exponents_and_bare_dots() {
        for s in ["1e3", ".5", "5.", "+1", "", "-", "NaN"] {
            assert_eq!(parse_number(s), None, "{s}");
        }
        assert_eq!(parse_number("-0.25"), Some(-0.25));
    }
}
