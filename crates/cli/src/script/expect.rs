//! The recorder's `expect` lines: what an action changed, stated so that it holds when the
//! script or the test replays it, and means something.
//!
//! A changed node is named by its role and its name, else its label, else its text (egui puts a
//! label's text in its value); a node with none of them, or only whitespace, or of a role that
//! only lays others out (a group, a scroll view, a window's resize handle) is left out and
//! counted. A text longer than [`LONG`] characters, or of several lines, is named by a prefix
//! (`text~=`), the shortest that still names this node alone. Each selector is checked with the
//! app's `find` before it is written: an `expect` must select exactly this node, an `expect gone`
//! nothing; one that cannot is left out and counted.

use std::collections::{HashMap, HashSet};

use winit_automation_client::ClientError;
use winit_automation_protocol::{
    Command, FindAnswer, NodeLine, NodeRef, NodeValue, Selector, Term, quote,
};
use winit_automation_testing::script::STATES;

use super::{RecordError, Recorder};

/// At most this many `expect` lines are written for one group of actions.
const MAX_EXPECTS: usize = 8;

/// Texts longer than this many characters (or of several lines) are named by a prefix.
const LONG: usize = 80;

/// A prefix is at least this many characters long, unless the text is shorter...
const MIN_PREFIX: usize = 12;

/// ... and at most this many: a node a longer prefix would be needed for is left out.
const MAX_PREFIX: usize = LONG;

/// Roles that only lay other nodes out, or come and go with the pointer (a window's resize
/// handles): a change to one says nothing a test should hold the app to.
const LAYOUT_ROLES: &[&str] = &[
    "group",
    "scrollview",
    "pane",
    "unknown",
    "splitter",
    "scrollbar",
];

impl Recorder<'_> {
    /// The refs of the nodes `selector` matches now (the app's `find`).
    fn matches(&mut self, selector: &Selector) -> Result<Vec<NodeRef>, ClientError> {
        let find = Command::Find {
            selector: selector.clone(),
        };
        let r = self.send(&find.to_line())?;
        if !r.is_ok() {
            return Ok(Vec::new());
        }
        Ok(FindAnswer::parse(r.body())
            .map(|f| f.matches.iter().map(|n| n.r#ref).collect())
            .unwrap_or_default())
    }

    /// `expect` lines for what changed between the last look and `now`: role, name, value and
    /// state (a node that only moved is no change).
    pub(super) fn expectations(&mut self, now: Vec<NodeLine>) -> Result<(), RecordError> {
        let was: HashMap<NodeRef, NodeLine> =
            self.tree.iter().map(|n| (n.r#ref, n.clone())).collect();
        let is: HashSet<NodeRef> = now.iter().map(|n| n.r#ref).collect();
        let mut left = Left::default();
        let mut lines = Vec::new();
        for node in &now {
            let before = was.get(&node.r#ref);
            if before.is_some_and(|b| same_state(b, node)) {
                continue;
            }
            if !means_something(node) {
                left.unnamed += 1;
                continue;
            }
            if lines.len() == MAX_EXPECTS {
                left.more += 1;
                continue;
            }
            // A prefix that named a node before the actions too says less about what they did: a
            // longer one that only names the new text comes first.
            let (new, seen): (Vec<Selector>, Vec<Selector>) = candidates(node)
                .into_iter()
                .partition(|s| !is_prefix(s) || !self.tree.iter().any(|n| matches_line(n, s)));
            let mut chosen = None;
            for selector in new.into_iter().chain(seen) {
                if self.matches(&selector)? == [node.r#ref] {
                    chosen = Some(selector);
                    break;
                }
            }
            match chosen {
                Some(selector) => lines.push(expect_line(&selector, node, before)),
                None => left.ambiguous += 1,
            }
        }
        let gone: Vec<NodeLine> = self
            .tree
            .iter()
            .filter(|n| !is.contains(&n.r#ref) && means_something(n))
            .cloned()
            .collect();
        for node in gone {
            if lines.len() == MAX_EXPECTS {
                left.more += 1;
                continue;
            }
            // Out of the interactive view is not gone: it may be scrolled away or under a modal.
            let mut chosen = None;
            for selector in candidates(&node) {
                if self.matches(&selector)?.is_empty() {
                    chosen = Some(selector);
                    break;
                }
            }
            if let Some(selector) = chosen {
                lines.push(format!("expect gone {selector}"));
            }
        }
        // One write: a reader that sees one of them sees all (a test waits for one of them).
        lines.extend(left.comments());
        self.write_all(&lines)?;
        self.tree = now;
        Ok(())
    }
}

/// The changes no `expect` line states, counted for the comments after them.
#[derive(Default)]
struct Left {
    more: usize,
    unnamed: usize,
    ambiguous: usize,
}

impl Left {
    fn comments(&self) -> Vec<String> {
        let mut out = Vec::new();
        let nodes = |n: usize| if n == 1 { "node" } else { "nodes" };
        if self.more > 0 {
            out.push(format!(
                "# {} more changed {} not turned into expectations",
                self.more,
                nodes(self.more)
            ));
        }
        if self.ambiguous > 0 {
            out.push(format!(
                "# {} changed {} that no selector names alone",
                self.ambiguous,
                nodes(self.ambiguous)
            ));
        }
        if self.unnamed > 0 {
            out.push(format!(
                "# {} changed {} with no name, label or text, or only laying others out",
                self.unnamed,
                nodes(self.unnamed)
            ));
        }
        out
    }
}

/// The `expect` line for `node`, found by `selector`: its value (unless the selector names it
/// by its text, or it is long) and its states.
fn expect_line(selector: &Selector, node: &NodeLine, before: Option<&NodeLine>) -> String {
    let mut line = format!("expect {selector}");
    let by_text = selector
        .terms
        .iter()
        .any(|t| matches!(t, Term::Text(_) | Term::TextContains(_)));
    if let Some(v) = node
        .value
        .as_ref()
        .filter(|v| !by_text && !is_long(v.as_str()))
    {
        line.push_str(&format!(" value={}", quote(v.as_str())));
    }
    for s in node.states().into_iter().filter(|s| STATES.contains(s)) {
        line.push(' ');
        line.push_str(s);
    }
    for (was, opposite) in [("checked", "unchecked"), ("expanded", "collapsed")] {
        // The regular view prints `unchecked` and `collapsed` itself.
        if before.is_some_and(|b| b.has(was)) && !node.has(was) && !node.has(opposite) {
            line.push(' ');
            line.push_str(opposite);
        }
    }
    line
}

/// Whether a node can be named in an expectation: a role that is not layout, and a name, label
/// or text that is not blank.
fn means_something(node: &NodeLine) -> bool {
    !LAYOUT_ROLES.contains(&node.role.as_str()) && key(node).is_some()
}

/// What names a node besides its role: its name, else its label, else its text, whichever is
/// not blank first.
fn key(node: &NodeLine) -> Option<Key<'_>> {
    let blank = |s: &str| s.trim().is_empty();
    if !blank(&node.name) {
        return Some(Key::Name(&node.name));
    }
    if let Some(label) = node.label.as_deref().filter(|l| !blank(l)) {
        return Some(Key::Label(label));
    }
    node.value
        .as_ref()
        .and_then(NodeValue::as_text)
        .filter(|v| !blank(v))
        .map(Key::Text)
}

#[derive(Debug, Clone, Copy)]
enum Key<'a> {
    Name(&'a str),
    Label(&'a str),
    Text(&'a str),
}

/// The selectors that may name `node`, shortest first: role and its key whole (a short one) or
/// by each prefix; then, for a named node with a short text value, the value as a `text=` term
/// too.
pub(super) fn candidates(node: &NodeLine) -> Vec<Selector> {
    let Some(key) = key(node) else {
        return Vec::new();
    };
    let role = Term::Role(node.role.clone());
    let text = match key {
        Key::Name(t) | Key::Label(t) | Key::Text(t) => t,
    };
    let terms: Vec<Term> = if is_long(text) {
        prefixes(text)
            .into_iter()
            .map(|p| match key {
                Key::Name(_) => Term::NameContains(p),
                Key::Label(_) => Term::LabelContains(p),
                Key::Text(_) => Term::TextContains(p),
            })
            .collect()
    } else {
        vec![match key {
            Key::Name(t) => Term::Name(t.to_owned()),
            Key::Label(t) => Term::Label(t.to_owned()),
            Key::Text(t) => Term::Text(t.to_owned()),
        }]
    };
    let mut out: Vec<Selector> = terms
        .iter()
        .map(|t| Selector {
            terms: vec![role.clone(), t.clone()],
            nth: None,
        })
        .collect();
    let value = node.value.as_ref().and_then(NodeValue::as_text);
    let (Key::Name(_) | Key::Label(_), Some(v)) = (key, value) else {
        return out;
    };
    if v.trim().is_empty() {
        return out;
    }
    // The value as a term too: whole when short (after the plain selectors: `value=` states it
    // then), else by its prefixes, in place of them (the `expect` leaves a long value out).
    let values: Vec<Term> = if is_long(v) {
        out.clear();
        prefixes(v).into_iter().map(Term::TextContains).collect()
    } else {
        vec![Term::Text(v.to_owned())]
    };
    for t in &terms {
        for value in &values {
            out.push(Selector {
                terms: vec![role.clone(), t.clone(), value.clone()],
                nth: None,
            });
        }
    }
    out
}

/// Whether a selector names its node by a prefix.
fn is_prefix(selector: &Selector) -> bool {
    selector.terms.iter().any(|t| {
        matches!(
            t,
            Term::NameContains(_) | Term::LabelContains(_) | Term::TextContains(_)
        )
    })
}

/// Whether a node line matches a selector's terms, as the app's `find` would match its node
/// (`nth` aside).
fn matches_line(node: &NodeLine, selector: &Selector) -> bool {
    let has = |text: &str, part: &str| text.to_lowercase().contains(&part.to_lowercase());
    let value = node.value.as_ref().map(NodeValue::as_str);
    let label = node.label.as_deref();
    selector.terms.iter().all(|term| match term {
        Term::Role(r) => node.role == *r,
        Term::Name(n) => node.name == *n,
        Term::NameContains(n) => has(&node.name, n),
        Term::Text(t) => node.name == *t || value == Some(t.as_str()),
        Term::TextContains(t) => has(&node.name, t) || value.is_some_and(|v| has(v, t)),
        Term::Label(l) => label == Some(l.as_str()),
        Term::LabelContains(l) => label.is_some_and(|own| has(own, l)),
        Term::Id(_) => false,
    })
}

/// Whether a text is named by a prefix rather than whole.
fn is_long(text: &str) -> bool {
    text.chars().count() > LONG || text.contains('\n')
}

/// The prefixes of a long text a selector may name it by, shortest first: ending before a space
/// or line break, from [`MIN_PREFIX`] to [`MAX_PREFIX`] characters (or the first [`LONG`]
/// characters when no word ends in between).
fn prefixes(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (chars, (i, c)) in text.char_indices().enumerate() {
        if chars > MAX_PREFIX {
            break;
        }
        if c.is_whitespace() && chars >= MIN_PREFIX {
            let prefix = text[..i].trim_end();
            if out.last().is_none_or(|last| last != prefix) {
                out.push(prefix.to_owned());
            }
        }
    }
    if out.is_empty() {
        out.push(text.chars().take(LONG).collect());
    }
    out
}

/// Whether two lines of one node say the same but for where it is and what it can do.
fn same_state(a: &NodeLine, b: &NodeLine) -> bool {
    (&a.role, &a.name, &a.value, a.states()) == (&b.role, &b.name, &b.value, b.states())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str) -> NodeLine {
        NodeLine::parse(text).unwrap()
    }

    fn written(text: &str) -> Vec<String> {
        candidates(&line(text))
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn labels_are_named_by_their_text_and_numbers_are_not_text() {
        assert_eq!(
            written("@e3 text value=\"Hello, Ada\""),
            ["role=text text=\"Hello, Ada\""]
        );
        assert_eq!(
            written("@e8 text \"Status\" value=\"Ready\""),
            [
                "role=text name=\"Status\"",
                "role=text name=\"Status\" text=\"Ready\""
            ]
        );
        assert!(written("@e5 slider value=50").is_empty());
        assert!(written("@e61 unknown").is_empty());
    }

    #[test]
    fn blank_texts_nameless_nodes_and_layout_carry_no_expectation() {
        for text in [
            "@e3 text value=\"\\n\"",
            "@e4 text value=\"   \"",
            "@e5 textbox label=\" \" value=\"\"",
            "@e6 group \"Panel\"",
            "@e7 splitter \"Resize window top-right corner\"",
            "@e8 button",
        ] {
            assert!(!means_something(&line(text)), "{text}");
        }
        assert_eq!(
            written("@e5 textbox label=\"Email\" value=\"Ada\""),
            [
                "role=textbox label=\"Email\"",
                "role=textbox label=\"Email\" text=\"Ada\""
            ]
        );
    }

    #[test]
    fn a_long_text_is_named_by_its_prefixes_shortest_first() {
        let names = written(
            "@e91 text value=\"CodeExample {\\n    name: \\\"Ada\\\",\\n    age: 42,\\n}\"",
        );
        assert_eq!(
            names,
            [
                "role=text text~=\"CodeExample {\"",
                "role=text text~=\"CodeExample {\\n    name:\"",
                "role=text text~=\"CodeExample {\\n    name: \\\"Ada\\\",\"",
                "role=text text~=\"CodeExample {\\n    name: \\\"Ada\\\",\\n    age:\"",
                "role=text text~=\"CodeExample {\\n    name: \\\"Ada\\\",\\n    age: 42,\"",
            ]
        );
        let status = format!("Submitted: Ada {}", "and more ".repeat(10));
        let names = written(&format!("@e8 text \"Status\" value={}", quote(&status)));
        assert_eq!(
            names[0], "role=text name=\"Status\" text~=\"Submitted: Ada\"",
            "a long value by its prefixes, after the name: {names:?}"
        );
        let long = "x".repeat(200);
        assert_eq!(prefixes(&long), ["x".repeat(LONG)]);
    }

    #[test]
    fn a_line_matches_a_selector_as_find_does() {
        let node = line("@e91 text value=\"CodeExample {\\n    name: \\\"Ada\\\",\\n}\"");
        let yes = |s: &str| matches_line(&node, &Selector::parse(s).unwrap());
        assert!(yes("role=text text~=\"codeexample {\""));
        assert!(!yes(
            "role=text text~=\"CodeExample {\\n    name: \\\"Arthur\""
        ));
        assert!(!yes("role=button text~=\"CodeExample\""));
    }

    #[test]
    fn an_expect_line_states_value_and_known_states_but_not_a_long_value() {
        let selector = Selector::parse("role=spinbutton name=\"years\"").unwrap();
        let node = line("@e9 spinbutton \"years\" value=\"53 years\" focused offscreen");
        assert_eq!(
            expect_line(&selector, &node, None),
            "expect role=spinbutton name=\"years\" value=\"53 years\" focused"
        );
        let before = line("@e9 checkbox \"On\" checked");
        let node = line("@e9 checkbox \"On\"");
        let selector = Selector::parse("role=checkbox name=On").unwrap();
        assert_eq!(
            expect_line(&selector, &node, Some(&before)),
            "expect role=checkbox name=\"On\" unchecked"
        );
    }
}
