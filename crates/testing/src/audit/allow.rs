//! What an audit assertion lets pass: [`Allow`], a rule, the nodes a selector finds, or a rule on
//! those nodes; written as a script's `--allow` writes it.

use std::fmt;

use super::super::query::By;
use winit_automation_protocol::{Rule, Selector, Token};

/// A finding (or a rule that did not run) that [`Audit::assert_clean`](super::Audit::assert_clean)
/// and a script's `expect audit clean --allow ..` let pass:
///
/// - [`Allow::rule`]: every finding of the rule, and the rule not running (`--allow target-size`);
/// - [`Allow::node`]: every finding on the nodes a query finds, of any rule
///   (`--allow role=button name="×"`);
/// - [`Allow::rule`] then [`Allow::on`]: that rule's findings on those nodes only
///   (`--allow contrast role=text name~="hint"`).
///
/// The nodes are the ones the app's `find` gives for the selector when the audit is judged, so a
/// selector means what it means in every query; one that finds nothing allows nothing.
///
/// ```
/// use winit_automation_testing::{Allow, By, Rule};
/// let allow = Allow::rule(Rule::Contrast).on(&By::role("text").and_name_contains("hint"));
/// assert_eq!(allow.to_string(), r#"contrast role=text name~="hint""#);
/// assert_eq!(Allow::parse(&allow.to_string()), Ok(allow));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[must_use]
pub struct Allow {
    rule: Option<Rule>,
    node: Option<Selector>,
}

const SAY: &str = "say which nodes with at least one term: By::role(..), By::name(..), ...";

impl Allow {
    /// Every finding of `rule`, and `rule` not running.
    pub fn rule(rule: Rule) -> Allow {
        Allow {
            rule: Some(rule),
            node: None,
        }
    }

    /// Every finding, of any rule, on the nodes `by` finds.
    #[track_caller]
    pub fn node(by: &By) -> Allow {
        Allow {
            rule: None,
            node: None,
        }
        .on(by)
    }

    /// Only on the nodes `by` finds: `Allow::rule(Rule::TargetSize).on(&By::name("×"))`. A rule
    /// allowed on some nodes still fails the assertion when it does not run.
    #[track_caller]
    pub fn on(mut self, by: &By) -> Allow {
        match by.selector() {
            Some(selector) => self.node = Some(selector),
            None => panic!("Allow::node and Allow::on: {SAY}"),
        }
        self
    }

    /// The rule it allows; `None`: any rule (on its nodes).
    pub fn allowed_rule(&self) -> Option<Rule> {
        self.rule
    }

    /// The selector of the nodes it allows findings on; `None`: every node.
    pub fn selector(&self) -> Option<&Selector> {
        self.node.as_ref()
    }

    /// Whether it allows `rule` not running: a rule allowed on every node.
    pub(crate) fn allows_not_run(&self, rule: Rule) -> bool {
        self.rule == Some(rule) && self.node.is_none()
    }

    /// Reads the script's form: `RULE`, `SELECTOR` or `RULE SELECTOR` (`contrast role=text
    /// name~="hint"`). The error says what is wrong.
    pub fn parse(text: &str) -> Result<Allow, String> {
        let tokens = winit_automation_protocol::tokenize(text).map_err(|e| e.message)?;
        Allow::from_tokens(&tokens)
    }

    /// [`Allow::parse`] of tokens already split.
    pub(crate) fn from_tokens(tokens: &[Token]) -> Result<Allow, String> {
        let (rule, terms) = match tokens.split_first() {
            None => return Err(format!("--allow takes a rule or selector terms: {RULES}")),
            Some((first, rest)) if first.quoted.is_none() && !first.bare.contains('=') => {
                let rule = Rule::parse(&first.bare)
                    .ok_or_else(|| format!("{:?} is not a rule: {RULES}", first.bare))?;
                (Some(rule), rest)
            }
            Some(_) => (None, tokens),
        };
        let node = if terms.is_empty() {
            None
        } else {
            let written: Vec<String> = terms.iter().map(Token::written).collect();
            Some(Selector::parse(&written.join(" ")).map_err(|e| e.message)?)
        };
        Ok(Allow { rule, node })
    }
}

/// The rules' words, for messages.
const RULES: &str = "the rules are name, target-size, contrast, image-name, keyboard, focus-order";

impl fmt::Display for Allow {
    /// As a script's `--allow` writes it: `RULE`, `SELECTOR` or `RULE SELECTOR`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.rule, &self.node) {
            (Some(rule), Some(node)) => write!(f, "{rule} {node}"),
            (Some(rule), None) => write!(f, "{rule}"),
            (None, Some(node)) => write!(f, "{node}"),
            (None, None) => f.write_str("(nothing)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allow_is_a_rule_a_selector_or_both_and_reads_back_from_its_script_form() {
        let cases = [
            (Allow::rule(Rule::TargetSize), "target-size"),
            (
                Allow::node(&By::role("button").and_name("×")),
                r#"role=button name="×""#,
            ),
            (
                Allow::rule(Rule::Contrast).on(&By::text_contains("hint").nth(1)),
                r#"contrast text~="hint" nth=1"#,
            ),
        ];
        for (allow, text) in cases {
            assert_eq!(allow.to_string(), text);
            assert_eq!(Allow::parse(text), Ok(allow));
        }
        let both = Allow::parse(r#"focus-order role=textbox label="Age""#).unwrap();
        assert_eq!(both.allowed_rule(), Some(Rule::FocusOrder));
        assert_eq!(
            both.selector().map(ToString::to_string).as_deref(),
            Some(r#"role=textbox label="Age""#)
        );
        assert!(!both.allows_not_run(Rule::FocusOrder));
        assert!(Allow::rule(Rule::Contrast).allows_not_run(Rule::Contrast));
        assert!(!Allow::rule(Rule::Contrast).allows_not_run(Rule::Name));
    }

    #[test]
    fn what_is_neither_a_rule_nor_a_selector_is_refused_with_the_rules() {
        for (text, says) in [
            ("", "takes a rule"),
            ("targetsize", "not a rule: the rules are name, target-size"),
            ("contrast role=buton", "unknown role"),
            ("contrast @e3", "not a selector"),
            ("name contrast", "\"contrast\" is not a target"),
        ] {
            let e = Allow::parse(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
    }

    #[test]
    #[should_panic(expected = "at least one term")]
    fn allowing_nodes_needs_a_term() {
        let _ = Allow::node(&By::default());
    }
}
