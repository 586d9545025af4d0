//! Queries in egui_kittest's style: one filter builder ([`By`]); the nodes it finds
//! ([`Node`](super::Node)) are read from the app's `find` answers as
//! [`NodeLine`](winit_automation_protocol::NodeLine)s.

use std::fmt;

use winit_automation_protocol::{Selector, Term};

/// What a query looks for: selector terms, ANDed. Build one with [`By::role`], [`By::name`], ...
/// and chain more terms; [`crate::App::get`] and its siblings take it.
///
/// ```
/// use winit_automation_testing::By;
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

    /// Unnamed controls labelled exactly this: the text placed before them in their row.
    pub fn label(label: &str) -> By {
        By::default().and_label(label)
    }

    /// Unnamed controls whose label contains this, ignoring case.
    pub fn label_contains(label: &str) -> By {
        By::default().and_label_contains(label)
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
    pub fn and_name_contains(mut self, name: &str) -> By {
        self.terms.push(Term::NameContains(name.to_owned()));
        self
    }

    /// And whose name contains this: the old name of [`By::and_name_contains`].
    #[deprecated(note = "chained terms are and_*: use and_name_contains")]
    pub fn name_contains(self, name: &str) -> By {
        self.and_name_contains(name)
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

    /// And labelled exactly this: an unnamed control's label, the text placed before it in its
    /// row (snapshots print it as `label=`).
    pub fn and_label(mut self, label: &str) -> By {
        self.terms.push(Term::Label(label.to_owned()));
        self
    }

    /// And whose label contains this, ignoring case.
    pub fn and_label_contains(mut self, label: &str) -> By {
        self.terms.push(Term::LabelContains(label.to_owned()));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn by_prints_the_protocol_selector() {
        let by = By::role("button").and_name("Save as").nth(1);
        assert_eq!(by.to_string(), r#"role=button name="Save as" nth=1"#);
        assert_eq!(By::default().selector(), None);
        let parsed = Selector::parse(&by.to_string()).unwrap();
        assert_eq!(By::from(parsed), by);
    }
}
