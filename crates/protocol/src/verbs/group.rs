//! The capability groups: which verbs belong together, for a front end that shows only some of
//! them (the MCP server lists `core` unless `--caps` adds more). Each verb's row in the table
//! names its group; a group is only a name, a sentence, and the verbs whose rows name it.

use std::fmt;

use super::Verb;

/// A capability group of verbs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Group {
    /// What most tasks need: look, act, wait.
    Core,
    /// Pointer gestures beyond click, drag and scroll.
    Gestures,
    /// The app's windows and state.
    App,
    /// The virtual clock.
    Clock,
    /// The accessibility audit.
    Audit,
    /// Traces and the journal.
    Trace,
}

impl Group {
    /// Every group, `core` first.
    pub const ALL: &'static [Group] = &[
        Group::Core,
        Group::Gestures,
        Group::App,
        Group::Clock,
        Group::Audit,
        Group::Trace,
    ];

    /// The group's name, as `--caps` takes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Group::Core => "core",
            Group::Gestures => "gestures",
            Group::App => "app",
            Group::Clock => "clock",
            Group::Audit => "audit",
            Group::Trace => "trace",
        }
    }

    /// What the group is for, in a few words.
    pub fn about(self) -> &'static str {
        match self {
            Group::Core => "look, act and wait: what most tasks need (always on)",
            Group::Gestures => "pointer gestures beyond click, drag and scroll",
            Group::App => "the app's windows and state",
            Group::Clock => "the virtual clock: repeatable time for animations and delays",
            Group::Audit => "the WCAG accessibility audit",
            Group::Trace => "traces of a session, and the journal of every client's commands",
        }
    }

    /// The group `name` names.
    pub fn parse(name: &str) -> Option<Group> {
        Group::ALL.iter().copied().find(|g| g.as_str() == name)
    }

    /// The group's verbs, in the table's order.
    pub fn verbs(self) -> impl Iterator<Item = Verb> {
        Verb::ALL.iter().copied().filter(move |v| v.group() == self)
    }
}

impl fmt::Display for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
