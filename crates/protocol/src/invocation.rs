//! A command as a front end assembles it: the CLI from its arguments, the MCP server from a tool's JSON
//! arguments. Both end in the same parser as a command line (`command.rs`), so a front end can only send
//! what a command line could say, and refuses what a command line would refuse, with the same
//! error and hint.
//!
//! The one rule for targets: an argument in a target position is protocol text, read with the
//! protocol's lexer, and holds one ref, one point, or selector terms only. `role=button
//! "name=Save as"` (one argument, shell quotes gone) is refused with the hint `quote a value with
//! spaces: role=button name="Save as"`, never sent as some other selector. An argument in a text
//! position (fill's TEXT, type's TEXT, action's VALUE) is taken exactly as given.
//!
//! ```
//! use winit_automation_protocol::{Invocation, Verb};
//!
//! let args = ["role=textbox", "name=\"E-mail\"", "ada@example.com"].map(String::from);
//! let command = Invocation::from_argv(Verb::Fill, &args, &[]).unwrap().command().unwrap();
//! assert_eq!(command.to_line(), r#"fill role=textbox name="E-mail" "ada@example.com""#);
//!
//! let args = ["role=button name~=Open Save".to_owned()];
//! let e = Invocation::from_argv(Verb::Find, &args, &[]).unwrap_err();
//! assert_eq!(e.hint, r#"quote a value with spaces: role=button name~="Open Save""#);
//! ```

use super::args::Args;
use super::lexer::{Token, quote, tokenize};
use super::target::{is_term, is_word, unquoted_value};
use super::verbs::{ArgKind, Arity, ValueKind, Verb, dashed};
use super::{Command, ErrorCode, ParseError};

/// A command being assembled by a front end, argument by argument.
#[derive(Debug)]
pub struct Invocation {
    verb: Verb,
    positional: Vec<Token>,
    flags: Vec<(&'static str, Option<Token>)>,
}

fn verbatim(text: &str) -> Token {
    Token {
        bare: String::new(),
        quoted: Some(text.to_owned()),
        offset: 0,
    }
}

fn bare(text: &str) -> Token {
    Token {
        bare: text.to_owned(),
        quoted: None,
        offset: 0,
    }
}

/// One target argument's tokens: one ref or point, or selector terms only.
fn target_tokens(text: &str) -> Result<Vec<Token>, ParseError> {
    let tokens = tokenize(text)?;
    if tokens.len() > 1 && !tokens.iter().all(is_term) {
        let at = tokens.iter().position(|t| !is_term(t)).unwrap_or(0);
        if at > 0 && is_word(&tokens[at]) {
            return Err(unquoted_value(&tokens, at));
        }
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("{} is not one target", quote(text)),
            "a target is one ref (@e12), one point (120,48) or selector terms only; give the other arguments apart",
        ));
    }
    Ok(tokens)
}

/// Whether an argument continues a selector: it starts with a selector term (the rest of it must
/// be terms too, which [`Invocation::target`] checks).
fn starts_with_term(text: &str) -> bool {
    tokenize(text).is_ok_and(|t| t.first().is_some_and(is_term))
}

impl Invocation {
    /// An invocation of `verb` with no arguments yet.
    pub fn new(verb: Verb) -> Invocation {
        Invocation {
            verb,
            positional: Vec::new(),
            flags: Vec::new(),
        }
    }

    /// The verb.
    pub fn verb(&self) -> Verb {
        self.verb
    }

    /// Adds an argument in a target position: protocol text holding one ref, one point or
    /// selector terms only.
    pub fn target(&mut self, text: &str) -> Result<&mut Invocation, ParseError> {
        self.positional.extend(target_tokens(text)?);
        Ok(self)
    }

    /// Adds one argument of a position that takes several targets (`stroke`'s points) as one
    /// token: a ref, a point, or selector terms quoted together.
    pub fn one_target(&mut self, text: &str) -> Result<&mut Invocation, ParseError> {
        let mut tokens = target_tokens(text)?;
        self.positional.push(match tokens.len() {
            1 => tokens.remove(0),
            _ => verbatim(text),
        });
        Ok(self)
    }

    /// Adds free text, exactly as given.
    pub fn text(&mut self, text: &str) -> &mut Invocation {
        self.positional.push(verbatim(text));
        self
    }

    /// Adds one word (an action name, a key chord, a label, a number), as given.
    pub fn word(&mut self, word: &str) -> &mut Invocation {
        self.positional.push(bare(word));
        self
    }

    /// Sets a flag by its name or alias, without dashes; `value` for a flag that takes one.
    pub fn flag(&mut self, name: &str, value: Option<&str>) -> Result<&mut Invocation, ParseError> {
        let verb = self.verb;
        let flag = verb.flag(name).ok_or_else(|| {
            ParseError::new(
                ErrorCode::UnknownFlag,
                format!("{verb} does not take {}", dashed(name)),
                format!("usage: {}", super::usage(verb)),
            )
        })?;
        if self.flags.iter().any(|(n, _)| *n == flag.name) {
            return Err(ParseError::new(
                ErrorCode::BadArgument,
                format!("{} given twice", dashed(flag.name)),
                "give each flag once",
            ));
        }
        let token = match (flag.value, value) {
            (None, None) => None,
            (Some((_, ValueKind::Count | ValueKind::Word)), Some(v)) => Some(bare(v)),
            (Some((_, ValueKind::Target)), Some(v)) => {
                target_tokens(v)?;
                Some(verbatim(v))
            }
            (Some((placeholder, _)), None) => {
                return Err(ParseError::new(
                    ErrorCode::MissingArgument,
                    format!("{} needs a value", dashed(flag.name)),
                    format!("write {} {placeholder}", dashed(flag.name)),
                ));
            }
            (None, Some(_)) => {
                return Err(ParseError::new(
                    ErrorCode::BadArgument,
                    format!("{} takes no value", dashed(flag.name)),
                    format!("write {} alone", dashed(flag.name)),
                ));
            }
        };
        self.flags.push((flag.name, token));
        Ok(self)
    }

    /// Sets `--timeout` to a front end's own timeout where the app holds the command (a `wait`, a
    /// `settle`, an action with `--settle`) and the front end's caller gave none: the app then answers
    /// `timeout` or `not_settled` before the front end stops waiting.
    pub fn default_timeout(&mut self, ms: u64) -> &mut Invocation {
        let has = |name: &str| self.flags.iter().any(|(n, _)| *n == name);
        let held = self.verb.flag("settle").is_none() || has("settle");
        if self.verb.flag("timeout").is_some() && held && !has("timeout") {
            self.flags.push(("timeout", Some(bare(&ms.to_string()))));
        }
        self
    }

    /// The positional arguments of a command line as a shell hands them over: `args` before a
    /// `--`, `after` the ones after it, which are always text.
    ///
    /// Each argument goes to the verb's next positional (the table's order). A target position
    /// takes its first argument and then every argument that starts with a selector term, as long
    /// as the positions after it still get theirs (`fill role=textbox name=Email a=b` fills in
    /// `a=b`); its arguments are read with the lexer ([`Invocation::target`]). Every other
    /// position takes one argument as it is; a repeated one (`key`'s chords) takes the rest.
    pub fn from_argv(
        verb: Verb,
        args: &[String],
        after: &[String],
    ) -> Result<Invocation, ParseError> {
        let mut inv = Invocation::new(verb);
        let slots = verb.spec().args;
        let mut i = 0;
        for (k, slot) in slots.iter().enumerate() {
            // Arguments the later positions need.
            let needed = slots[k + 1..]
                .iter()
                .filter(|a| a.arity != Arity::Optional)
                .count();
            let Some(first) = args.get(i) else { break };
            match (slot.kind, slot.arity) {
                (ArgKind::Target, Arity::Many) => {
                    for text in &args[i..] {
                        inv.one_target(text)?;
                    }
                    i = args.len();
                }
                (ArgKind::Target | ArgKind::Selector, _) => {
                    let tokens = target_tokens(first)?;
                    let single = tokens.len() == 1 && !is_term(&tokens[0]);
                    inv.positional.extend(tokens);
                    i += 1;
                    while !single && args.len() - i > needed && starts_with_term(&args[i]) {
                        inv.target(&args[i])?;
                        i += 1;
                    }
                }
                (ArgKind::Keyword, _) => {
                    if first == slot.name {
                        inv.word(first);
                        i += 1;
                    }
                }
                (_, Arity::Many) => {
                    for word in &args[i..] {
                        inv.word(word);
                    }
                    i = args.len();
                }
                (ArgKind::Text | ArgKind::Path, _) => {
                    inv.text(first);
                    i += 1;
                }
                _ => {
                    inv.word(first);
                    i += 1;
                }
            }
        }
        // Left over: the parser names the first as unexpected (a plain word right after a
        // selector as the rest of an unquoted value, with the quoted form).
        for extra in &args[i..] {
            match tokenize(extra).as_deref() {
                Ok([word]) if is_word(word) => inv.word(extra),
                _ => inv.text(extra),
            };
        }
        for text in after {
            inv.text(text);
        }
        Ok(inv)
    }

    /// The command, checked by the same parser as a command line.
    pub fn command(self) -> Result<Command, ParseError> {
        let args = Args {
            verb: self.verb,
            positional: self.positional,
            flags: self.flags,
        };
        let command = Command::from_args(&args)?;
        args.check_rules()?;
        Ok(command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(verb: Verb, args: &[&str]) -> Result<String, ParseError> {
        let args: Vec<String> = args.iter().map(|s| (*s).to_owned()).collect();
        Ok(Invocation::from_argv(verb, &args, &[])?
            .command()?
            .to_line())
    }

    #[test]
    fn a_selector_may_be_one_argument_or_one_argument_per_term() {
        assert_eq!(
            argv(Verb::Find, &["role=button name=\"Save as\""]).unwrap(),
            "find role=button name=\"Save as\""
        );
        assert_eq!(
            argv(Verb::Find, &["role=button", "name=\"Save as\""]).unwrap(),
            "find role=button name=\"Save as\""
        );
    }

    #[test]
    fn an_unquoted_value_with_spaces_is_refused_with_the_quoted_form_as_a_line_would_be() {
        let cli = argv(Verb::Find, &["role=button name~=Open Save"]).unwrap_err();
        let line = Command::parse("find role=button name~=Open Save").unwrap_err();
        assert_eq!(cli, line);
        assert_eq!(cli.code, ErrorCode::BadArgument);
        assert_eq!(
            cli.message,
            "\"Save\" after name~=Open is not a selector term"
        );
        assert_eq!(
            cli.hint,
            "quote a value with spaces: role=button name~=\"Open Save\""
        );
        // One argument per term, the value's space kept by the shell: the same refusal.
        let e = argv(Verb::Click, &["role=button", "name=Save as"]).unwrap_err();
        assert_eq!(e.hint, "quote a value with spaces: name=\"Save as\"");
        // Single quotes are not the grammar's: the hint quotes what they enclose, not them.
        let e = argv(Verb::Click, &["role=button name='Organize windows'"]).unwrap_err();
        assert_eq!(
            e.hint,
            "quote a value with spaces: role=button name=\"Organize windows\""
        );
        // Each word its own argument, as a shell splits an unquoted value: the same refusal.
        let e = argv(
            Verb::Click,
            &["role=combobox", "name~=Take", "your", "pick"],
        )
        .unwrap_err();
        assert_eq!(
            e.hint,
            "quote a value with spaces: role=combobox name~=\"Take your pick\""
        );
        // A fill whose target argument holds a stray word is refused, not typed into a field.
        let e = argv(Verb::Fill, &["role=textbox name~=Open Save"]).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadArgument);
    }

    #[test]
    fn text_positions_take_their_argument_as_it_is() {
        assert_eq!(
            argv(Verb::Fill, &["role=textbox", "name=Email", "a b=c"]).unwrap(),
            "fill role=textbox name=\"Email\" \"a b=c\""
        );
        assert_eq!(
            argv(Verb::Fill, &["@e3", "role=x"]).unwrap(),
            "fill @e3 \"role=x\""
        );
        assert_eq!(
            argv(Verb::Action, &["role=textbox", "set_value", "focus"]).unwrap(),
            "action role=textbox set_value \"focus\""
        );
        assert_eq!(
            argv(Verb::Type, &["x=1 \"y\""]).unwrap(),
            "type \"x=1 \\\"y\\\"\""
        );
        assert_eq!(
            argv(Verb::Scroll, &["role=list", "0", "-120"]).unwrap(),
            "scroll role=list 0 -120"
        );
        assert_eq!(
            argv(Verb::Drag, &["role=slider", "to", "200,40"]).unwrap(),
            "drag role=slider to 200,40"
        );
        assert_eq!(
            argv(Verb::Key, &["ctrl+a", "Backspace"]).unwrap(),
            "key ctrl+a Backspace"
        );
        let after = ["-x".to_owned()];
        let args = ["role=textbox".to_owned(), "set_value".to_owned()];
        let line = Invocation::from_argv(Verb::Action, &args, &after)
            .unwrap()
            .command()
            .unwrap()
            .to_line();
        assert_eq!(line, "action role=textbox set_value \"-x\"");
    }

    #[test]
    fn flags_are_checked_against_the_table() {
        let mut inv = Invocation::new(Verb::Click);
        inv.target("@e1").unwrap();
        inv.flag("settle", None).unwrap();
        inv.flag("frames", Some("3")).unwrap();
        assert_eq!(
            inv.command().unwrap().to_line(),
            "click @e1 --settle --frames 3"
        );
        let mut inv = Invocation::new(Verb::Click);
        assert_eq!(
            inv.flag("gone", None).unwrap_err().code,
            ErrorCode::UnknownFlag
        );
        let mut inv = Invocation::new(Verb::Click);
        inv.target("@e1").unwrap();
        inv.flag("frames", Some("3")).unwrap();
        assert_eq!(inv.command().unwrap_err().code, ErrorCode::BadArgument);
        let mut inv = Invocation::new(Verb::Snapshot);
        inv.flag("interactive", None).unwrap();
        inv.flag("scope", Some("role=list name=\"Files\"")).unwrap();
        assert_eq!(
            inv.command().unwrap().to_line(),
            "snapshot -i --scope \"role=list name=\\\"Files\\\"\""
        );
    }

    #[test]
    fn an_unknown_role_is_refused_in_every_form() {
        let line = Command::parse("find role=buton").unwrap_err();
        let cli = argv(Verb::Find, &["role=buton"]).unwrap_err();
        assert_eq!(line, cli);
        assert!(line.hint.contains("role=button"), "{}", line.hint);
    }
}
