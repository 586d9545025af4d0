//! Secret text: whether the text of a `type` or `fill` is a secret, never to be written down.
//! It is when the command says so (`--secret`), or when it goes to a password field (AccessKit's
//! `PasswordInput`, which a widget record gets from its role): `fill`'s target, `type`'s focus.
//! The answer then says `typed secret`, and the journal keeps the command with
//! [`SECRET_PLACEHOLDER`](winit_automation_protocol::SECRET_PLACEHOLDER) for its text.

use accesskit::Role;

use crate::planner::Planner;
use winit_automation_protocol::{Command, Target};

impl Planner<'_> {
    /// Whether the text `command` sends is a secret: `Some(false)` for commands that send none,
    /// `None` when it cannot be told (a `fill` whose target resolves to no node).
    pub fn secret_text(&mut self, command: &Command) -> Option<bool> {
        match command {
            Command::Fill { secret: true, .. } | Command::Type { secret: true, .. } => Some(true),
            Command::Fill { target, .. } => self.is_password_field(target),
            Command::Type { .. } => Some(self.focus_is_password_field()),
            _ => Some(false),
        }
    }

    /// Whether `target` resolves to a password field now; `None` when it resolves to no node.
    fn is_password_field(&mut self, target: &Target) -> Option<bool> {
        let found = self.resolve(target).ok()?;
        let w = self.mirror().windows().get(&found.window)?;
        let node = w.tree()?.state().node_by_id(found.node)?;
        Some(node.role() == Role::PasswordInput)
    }

    /// Whether the keyboard focus of the window text goes to is a password field.
    fn focus_is_password_field(&self) -> bool {
        let Ok(window) = self.mirror().default_window() else {
            return false;
        };
        self.mirror().windows().get(&window).is_some_and(|w| {
            w.tree()
                .and_then(|t| t.state().focus())
                .is_some_and(|n| n.role() == Role::PasswordInput)
        })
    }
}
