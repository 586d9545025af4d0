//! Scripts: a file of protocol lines and `expect` lines, replayed against a running app (the
//! CLI's `run`; `record` writes them). The format is documented in docs/scripts.md.
//!
//! ```text
//! # fill and submit the form
//! fill role=textbox name="Name" "Ada"
//! click role=button name="Submit"
//! expect role=text text~="Submitted: Ada"
//! expect role=textbox name="Name" value="Ada"
//! expect gone role=dialog name="Confirm"
//! expect screenshot form.png --threshold 0.6 --max-failed 0
//! expect audit clean --allow target-size --allow contrast role=text name~="hint"
//! ```
//!
//! A script is checked whole before anything is sent: a line that does not parse is an error
//! with its line number, and nothing reaches the app.

use std::path::Path;

mod parse;
mod run;

pub use parse::{DEFAULT_EXPECT_TIMEOUT, Expect, STATES, Script, ScriptError, Step, StepKind};
pub(crate) use run::check;
pub use run::{RunFailure, RunOptions, RunSummary, is_replayed};

impl crate::App {
    /// Replays a script (docs/scripts.md; what `winit-automation record` writes) against the
    /// app; a line that does not parse or does not pass fails the test with its line number, the
    /// reason and the interactive snapshot. Screenshot references are relative to the script.
    #[track_caller]
    pub fn run_script(&self, path: impl AsRef<Path>) -> RunSummary {
        let path = path.as_ref();
        let script = match Script::read(path) {
            Ok(script) => script,
            Err(e) => panic!("{}: {e}\nhint: {}", path.display(), e.hint),
        };
        let options = RunOptions {
            base: path.parent().map(Path::to_owned).unwrap_or_default(),
            update: false,
            deadline: None,
        };
        match script.run(self.client(), &options, |_, _| {}) {
            Ok(summary) => summary,
            Err(failure) => panic!("{}: {failure}", path.display()),
        }
    }
}
