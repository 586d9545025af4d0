//! Queries in egui_kittest's style: one filter builder ([`By`]) and the nodes it finds ([`Node`]),
//! read from the app's `find` answers.

use std::fmt;

use crate::protocol::{Selector, Term, quote, tokenize};

/// What a query looks for: selector terms, ANDed. Build one with [`By::role`], [`By::name`], ...
/// and chain more terms; [`crate::testing::App::get`] and its siblings take it.
///
/// ```
/// use winit_automation::testing::By;
/// assert_eq!(By::role("button").and_name("Save as").to_string(), r#"role=button name="Save as""#);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[must_use]
pub struct By {
    terms: Vec<Term>,
    nth: Option<usize>,
}

impl By {
    /// Nodes of this short role (`button`, `textbox`, `checkbox`, `text`, ...: the names
    /// snapshots print).
    pub fn role(role: &str) -> By {
        By::default().and_role(role)
    }

    /// Nodes whose accessible name is exactly this.
    pub fn name(name: &str) -> By {
        By::default().and_name(name)
    }

    /// Nodes whose name or text value is exactly this (egui puts a label's text in its value).
    pub fn text(text: &str) -> By {
        By::default().and_text(text)
    }

    /// Nodes whose name or text value contains this, ignoring case.
    pub fn text_contains(text: &str) -> By {
        By::default().and_text_contains(text)
    }

    /// Nodes with this author id (AccessKit `author_id`, a widget record's id).
    pub fn id(id: &str) -> By {
        By::default().and_id(id)
    }

    /// And of this role.
    pub fn and_role(mut self, role: &str) -> By {
        self.terms.push(Term::Role(role.to_owned()));
        self
    }

    /// And named exactly this (kittest's `label`).
    pub fn and_name(mut self, name: &str) -> By {
        self.terms.push(Term::Name(name.to_owned()));
        self
    }

    /// And whose name contains this, ignoring case.
    pub fn name_contains(mut self, name: &str) -> By {
        self.terms.push(Term::NameContains(name.to_owned()));
        self
    }

    /// And whose name or text value is exactly this.
    pub fn and_text(mut self, text: &str) -> By {
        self.terms.push(Term::Text(text.to_owned()));
        self
    }

    /// And whose name or text value contains this, ignoring case.
    pub fn and_text_contains(mut self, text: &str) -> By {
        self.terms.push(Term::TextContains(text.to_owned()));
        self
    }

    /// And with this author id.
    pub fn and_id(mut self, id: &str) -> By {
        self.terms.push(Term::Id(id.to_owned()));
        self
    }

    /// Only the n-th match (0-based, in tree order).
    pub fn nth(mut self, n: usize) -> By {
        self.nth = Some(n);
        self
    }

    /// The protocol selector. `None` when no term was given.
    pub fn selector(&self) -> Option<Selector> {
        (!self.terms.is_empty()).then(|| Selector {
            terms: self.terms.clone(),
            nth: self.nth,
        })
    }
}

impl fmt::Display for By {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.selector() {
            Some(s) => s.fmt(f),
            None => f.write_str("(no terms)"),
        }
    }
}

impl From<Selector> for By {
    fn from(s: Selector) -> By {
        By {
            terms: s.terms,
            nth: s.nth,
        }
    }
}

/// One node line of a snapshot, `find` or `get` answer, parsed:
/// `@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NodeLine {
    /// The ref, `@e3`.
    pub r#ref: String,
    /// The short role, `textbox`.
    pub role: String,
    /// The accessible name; empty when the line has none.
    pub name: String,
    /// `value=`: the text or number as printed (unquoted); `None` when the line has none.
    pub value: Option<String>,
    /// The state words: `focused`, `disabled`, `checked`, `unchecked`, `mixed`, `selected`,
    /// `expanded`, `collapsed`, `hidden`, `offscreen`.
    pub states: Vec<String>,
    /// `bounds=x,y,wxh` in logical pixels.
    pub bounds: Option<[f64; 4]>,
    /// `actions=`.
    pub actions: Vec<String>,
    /// The line as the app printed it.
    pub text: String,
}

impl NodeLine {
    /// Parses a node line (leading indentation allowed). `None` when it is not one (a header, a
    /// window line, a hint).
    pub fn parse(line: &str) -> Option<NodeLine> {
        let tokens = tokenize(line.trim_start()).ok()?;
        let mut it = tokens.iter().peekable();
        let first = it.next()?;
        if first.quoted.is_some() || !first.bare.starts_with("@e") {
            return None;
        }
        let role = it.next()?.text();
        let mut node = NodeLine {
            r#ref: first.bare.clone(),
            role,
            text: line.trim().to_owned(),
            ..NodeLine::default()
        };
        if let Some(t) = it.peek()
            && t.bare.is_empty()
            && let Some(q) = &t.quoted
        {
            node.name = q.clone();
            it.next();
        }
        for t in it {
            match t.bare.split_once('=') {
                Some(("value", v)) => {
                    node.value = Some(t.quoted.clone().unwrap_or_else(|| v.to_owned()))
                }
                Some(("bounds", v)) => node.bounds = parse_bounds(v),
                Some(("actions", v)) => node.actions = v.split(',').map(str::to_owned).collect(),
                Some(_) => {}
                None => node.states.push(t.bare.clone()),
            }
        }
        Some(node)
    }

    /// Whether the line carries this state word (`checked`, `focused`, ...).
    pub fn has(&self, state: &str) -> bool {
        self.states.iter().any(|s| s == state)
    }

    /// The node as a selector that names it by role and name (and its value when it has no
    /// name), for messages and scripts.
    pub fn describe(&self) -> String {
        let mut out = format!("{} {}", self.r#ref, self.role);
        if !self.name.is_empty() {
            out.push(' ');
            out.push_str(&quote(&self.name));
        }
        out
    }
}

/// `x,y,wxh` to `[x, y, w, h]`.
fn parse_bounds(v: &str) -> Option<[f64; 4]> {
    let (x, rest) = v.split_once(',')?;
    let (y, size) = rest.split_once(',')?;
    let (w, h) = size.split_once('x')?;
    Some([
        x.parse().ok()?,
        y.parse().ok()?,
        w.parse().ok()?,
        h.parse().ok()?,
    ])
}

/// The node lines of a `find` answer (`matches N` then one line per match).
pub(crate) fn parse_find(body: &str) -> Vec<NodeLine> {
    body.lines().filter_map(NodeLine::parse).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_node_line_is_parsed_field_by_field() {
        let n = NodeLine::parse(
            r#"  @e3 textbox "Name \"x\"" value="Ada Lovelace" focused disabled bounds=120,60.5,300x32 actions=focus,set_value"#,
        )
        .unwrap();
        assert_eq!(n.r#ref, "@e3");
        assert_eq!(n.role, "textbox");
        assert_eq!(n.name, "Name \"x\"");
        assert_eq!(n.value.as_deref(), Some("Ada Lovelace"));
        assert!(n.has("focused") && n.has("disabled") && !n.has("checked"));
        assert_eq!(n.bounds, Some([120.0, 60.5, 300.0, 32.0]));
        assert_eq!(n.actions, ["focus", "set_value"]);
        let slider = NodeLine::parse("@e5 slider \"Volume\" value=50").unwrap();
        assert_eq!(slider.value.as_deref(), Some("50"));
        let unnamed = NodeLine::parse("@e9 list checked").unwrap();
        assert_eq!((unnamed.name.as_str(), unnamed.has("checked")), ("", true));
    }

    #[test]
    fn headers_windows_and_hints_are_not_node_lines() {
        for line in [
            "snapshot frame=7 protocol=1 quality=healthy",
            r#"window 1 "Demo" size=800x600 scale=1 focused"#,
            "    [37 items below]",
            "matches 2",
        ] {
            assert_eq!(NodeLine::parse(line), None, "{line}");
        }
    }

    #[test]
    fn by_prints_the_protocol_selector() {
        let by = By::role("button").and_name("Save as").nth(1);
        assert_eq!(by.to_string(), r#"role=button name="Save as" nth=1"#);
        assert_eq!(By::default().selector(), None);
        let parsed = Selector::parse(&by.to_string()).unwrap();
        assert_eq!(By::from(parsed), by);
    }
}
