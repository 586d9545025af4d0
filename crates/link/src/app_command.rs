//! [`AppCommand`]: a command the app answers itself, and the one answer it owes.

use winit_automation_protocol::{Command, ErrorCode, Failure};

use crate::Replier;

/// A command the app answers itself (an app's frame loop gets it among the frame's input). Answer it with [`AppCommand::reply`];
/// dropping it unanswered answers `not_handled`, so every command gets exactly one response.
pub struct AppCommand {
    seq: u64,
    command: Command,
    /// Taken by the answer; `None` once answered. With the feature off no request is made.
    replier: Option<Replier>,
}

impl std::fmt::Debug for AppCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppCommand")
            .field("seq", &self.seq())
            .field("command", self.command())
            .finish()
    }
}

impl AppCommand {
    /// A request for command `seq`, answered through `replier`.
    pub fn new(seq: u64, command: Command, replier: Replier) -> AppCommand {
        AppCommand {
            seq,
            command,
            replier: Some(replier),
        }
    }

    /// The seq of the command entry.
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The command.
    pub fn command(&self) -> &Command {
        &self.command
    }

    /// Answers it: `Ok(body)` with the answer's lines (may be empty), or `Err(failure)`. The
    /// response is written once the current frame is published.
    pub fn reply(mut self, result: Result<String, Failure>) {
        if let Some(replier) = self.replier.take() {
            replier.send(self.seq, self.command.verb(), result);
        }
    }
}

impl Drop for AppCommand {
    fn drop(&mut self) {
        if let Some(replier) = self.replier.take() {
            let verb = self.command.verb();
            replier.send(
                self.seq,
                verb,
                Err(Failure::new(
                    ErrorCode::NotHandled,
                    format!("the app received {verb} and dropped it without answering"),
                    "the app's frame loop must reply to every automation request; see the README's integration section",
                )),
            );
        }
    }
}
