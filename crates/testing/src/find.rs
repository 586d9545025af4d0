//! Finding nodes in the running app: [`App`]'s queries (`get_*`, `query_*`, `get_all_*`) and
//! waits (`wait_for`, `wait_gone`); what they find comes back as [`Node`]s.

use super::app::App;
use super::has::Has;
use super::node::Node;
use super::query::By;
use super::script::{DEFAULT_EXPECT_TIMEOUT, Expect, RunOptions, check};
use winit_automation_protocol::{Command, FindAnswer};

impl App {
    /// Every node that matches, in tree order (none is fine).
    #[track_caller]
    pub fn query_all(&self, by: &By) -> Vec<Node<'_>> {
        let Some(selector) = by.selector() else {
            panic!("a query needs at least one term: By::role(..), By::name(..), ...");
        };
        let body = self.ok_command(&Command::Find { selector });
        let found = match FindAnswer::parse(&body) {
            Ok(found) => found,
            Err(e) => panic!("the answer to `find` does not read: {}\n{body}", e.message),
        };
        found
            .matches
            .into_iter()
            .map(|line| Node { app: self, line })
            .collect()
    }

    /// Every node that matches, at least one.
    #[track_caller]
    pub fn get_all(&self, by: &By) -> Vec<Node<'_>> {
        let all = self.query_all(by);
        if all.is_empty() {
            panic!("no node matches {by}\n{}", self.context());
        }
        all
    }

    /// The node that matches, or `None`; several matches fail the test.
    #[track_caller]
    pub fn query(&self, by: &By) -> Option<Node<'_>> {
        let mut all = self.query_all(by);
        if all.len() > 1 {
            panic!(
                "{} nodes match {by}, one was expected (add a term, or .nth(i)):\n{}\n{}",
                all.len(),
                all.iter()
                    .map(|n| n.line.to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
                self.context()
            );
        }
        all.pop()
    }

    /// The one node that matches; none or several fail the test with the interactive snapshot.
    #[track_caller]
    pub fn get(&self, by: &By) -> Node<'_> {
        match self.query(by) {
            Some(node) => node,
            None => panic!("no node matches {by}\n{}", self.context()),
        }
    }

    /// [`App::get`] by role and exact name: `get_by_role_and_name("button", "Submit")`.
    #[track_caller]
    pub fn get_by_role_and_name(&self, role: &str, name: &str) -> Node<'_> {
        self.get(&By::role(role).and_name(name))
    }

    /// [`App::get`] by exact name (kittest's `get_by_label`).
    #[track_caller]
    pub fn get_by_name(&self, name: &str) -> Node<'_> {
        self.get(&By::name(name))
    }

    /// [`App::get`] by role.
    #[track_caller]
    pub fn get_by_role(&self, role: &str) -> Node<'_> {
        self.get(&By::role(role))
    }

    /// [`App::get`] by name or text value, exactly.
    #[track_caller]
    pub fn get_by_text(&self, text: &str) -> Node<'_> {
        self.get(&By::text(text))
    }

    /// [`App::query`] by role and exact name.
    #[track_caller]
    pub fn query_by_role_and_name(&self, role: &str, name: &str) -> Option<Node<'_>> {
        self.query(&By::role(role).and_name(name))
    }

    /// [`App::query`] by exact name.
    #[track_caller]
    pub fn query_by_name(&self, name: &str) -> Option<Node<'_>> {
        self.query(&By::name(name))
    }

    /// [`App::query`] by name or text value, exactly.
    #[track_caller]
    pub fn query_by_text(&self, text: &str) -> Option<Node<'_>> {
        self.query(&By::text(text))
    }

    /// [`App::get_all`] by role.
    #[track_caller]
    pub fn get_all_by_role(&self, role: &str) -> Vec<Node<'_>> {
        self.get_all(&By::role(role))
    }

    /// [`App::query_all`] by role.
    #[track_caller]
    pub fn query_all_by_role(&self, role: &str) -> Vec<Node<'_>> {
        self.query_all(&By::role(role))
    }

    /// Waits (the app's `wait`, up to 5 s) until exactly one node matches, then returns it.
    #[track_caller]
    pub fn wait_for(&self, by: &By) -> Node<'_> {
        self.wait_line(by, false);
        self.get(by)
    }

    /// Waits (up to 5 s, as a script's `expect` line does) until a node matches `by` with what
    /// `has` says, then returns it: exactly one node must match `by` then.
    /// `app.expect(&By::role("spinbutton").and_name("Age"), &Has::value("43"))`.
    #[track_caller]
    pub fn expect(&self, by: &By, has: &Has) -> Node<'_> {
        let Some(selector) = by.selector() else {
            panic!("a query needs at least one term");
        };
        let expect = Expect::Node {
            selector,
            value: has.value.clone(),
            states: has.states.clone(),
            timeout: DEFAULT_EXPECT_TIMEOUT,
        };
        let options = RunOptions {
            base: Default::default(),
            update: false,
            deadline: None,
        };
        if let Err(stop) = check(self.client(), &expect, &options, 0) {
            panic!("expected {by} {has}: {}\n{}", stop.reason, self.context());
        }
        self.get(by)
    }

    /// Waits (up to 5 s) until no node matches.
    #[track_caller]
    pub fn wait_gone(&self, by: &By) {
        self.wait_line(by, true);
    }

    #[track_caller]
    fn wait_line(&self, by: &By, gone: bool) {
        let Some(selector) = by.selector() else {
            panic!("a query needs at least one term");
        };
        let command = Command::Wait {
            selector,
            gone,
            timeout_ms: None,
        };
        let r = match self.client().send(&command) {
            Ok(r) => r,
            Err(e) => self.fail(&command.to_line(), &e),
        };
        if let Some(refusal) = r.error_text() {
            panic!(
                "{}:\n{refusal}{}",
                if gone {
                    format!("{by} still matches a node after the app's wait (5 s)")
                } else {
                    format!("no node matches {by} after the app's wait (5 s)")
                },
                self.context()
            );
        }
    }
}
