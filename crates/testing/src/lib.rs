#![doc = include_str!("../README.md")]
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod app;
mod artifacts;
mod audit;
mod clock;
pub mod compare;
mod failure;
#[cfg(test)]
mod fake_app;
mod find;
mod has;
mod mouse;
mod node;
mod query;
mod screenshot;
/// Scripts as the CLI's `run` and `record` read and write them: parsing, replaying, the expect
/// grammar. Test authors replay one with [`App::run_script`]; the rest is the CLI's, outside this
/// crate's documented API.
#[doc(hidden)]
pub mod script;
mod secret;
mod spawn;
mod tree_text;
mod watchdog;

pub use app::App;
pub use audit::{Allow, Audit};
pub use clock::Clock;
pub use compare::Tolerance;
pub use has::Has;
pub use mouse::Mouse;
pub use node::{Drag, DragTo, Node};
pub use query::By;
pub use screenshot::Screenshot;
pub use script::RunSummary;
pub use spawn::{DEFAULT_COMMAND_TIMEOUT, DEFAULT_STARTUP, Spawn, SpawnError};
/// How the app's clock stands ([`Clock::now`]): the protocol's type.
pub use winit_automation_protocol::ClockAnswer;
/// Modifier keys held around a pointer gesture ([`Node::click_with`], [`Drag::modifiers`]): the
/// protocol's type.
pub use winit_automation_protocol::Modifiers;
/// A node line of the app's answers: the protocol's type.
pub use winit_automation_protocol::NodeLine;
/// The answer to an audit ([`Audit::run`]) and its parts: the protocol's types.
pub use winit_automation_protocol::{AuditAnswer, Checked, Finding, Impact, NotRun, Rule};
