//! A test harness for apps that run the plugin (a dev-dependency): spawn an app headless in a
//! private drop-box, find nodes and act on them in egui_kittest's style, pin trees with `insta`,
//! compare screenshots with reference PNGs, and replay scripts.
//!
//! ```no_run
//! use winit_automation_testing::Spawn;
//!
//! let app = Spawn::example("demo").headless(800, 600).start();
//! app.get_by_role_and_name("textbox", "Name").fill("Ada");
//! app.get_by_role_and_name("button", "Submit").click();
//! app.wait_for(&winit_automation_testing::By::text_contains("Submitted: Ada"));
//! app.screenshot().assert_matches("tests/snapshots/form.png");
//! ```
//!
//! - [`Spawn`] / [`App`]: the app, killed with what it started and its directory removed when
//!   the [`App`] is dropped, also while a test panics. Tests that each spawn their own app run in
//!   parallel with no cross-talk: every app has its own directory.
//! - [`By`] / [`Node`]: queries (`get_*`, `query_*`, `get_all_*`) and actions on what they find.
//!   A failed query or a refused action fails the test (`#[track_caller]`) with the selector, the
//!   app's answer and the interactive snapshot.
//! - Gestures: on a [`Node`], `click_with(Modifiers)`, `long_press(ms)`, `drag(to)` shaped with
//!   `steps`, `hold`, `dwell` and `modifiers` ([`Drag`]), `stroke(points)` and `pinch(scale)`;
//!   [`App::mouse`] ([`Mouse`]) presses, moves and lets go in separate commands:
//!
//!   ```no_run
//!   use winit_automation_testing::{Modifiers, Spawn};
//!
//!   let app = Spawn::example("demo").headless(800, 600).start();
//!   let volume = app.get_by_role_and_name("slider", "Volume");
//!   volume.drag((300.0, 110.0)).steps(20).dwell(0).perform();
//!   app.get_by_role_and_name("checkbox", "Subscribe").click_with(Modifiers::SHIFT);
//!   let mouse = app.mouse();
//!   mouse.down(&volume); // the button stays down
//!   mouse.move_to((120.0, 110.0));
//!   mouse.up();
//!   ```
//! - [`Audit`]: the accessibility audit ([`App::audit`], [`Node::audit`]): the typed
//!   [`AuditAnswer`], and [`Audit::assert_clean`] with an allow-list ([`Allow`]).
//! - [`compare`]: screenshot comparison with a per-pixel threshold and a budget of failed pixels,
//!   the measure egui_kittest uses (through `dify`).
//! - [`script`]: replayable scripts of protocol lines and `expect` lines (the CLI's `run` and
//!   `record`; the format is in docs/scripts.md).
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
pub mod script;
mod secret;
mod spawn;
mod tree_text;

pub use app::App;
pub use audit::{Allow, Audit};
pub use clock::Clock;
pub use compare::Tolerance;
pub use has::Has;
pub use mouse::Mouse;
pub use node::{Drag, DragTo, Node};
pub use query::By;
pub use screenshot::Screenshot;
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
