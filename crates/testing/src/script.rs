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

mod audit;
mod parse;
mod run;

pub use parse::{DEFAULT_EXPECT_TIMEOUT, Expect, STATES, Script, ScriptError, Step, StepKind};
pub(crate) use run::check;
pub use run::{RunFailure, RunOptions, RunSummary, is_replayed};
