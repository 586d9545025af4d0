#![doc = include_str!("../README.md")]

mod aim;
mod clock;
mod gestures;
mod plan;
mod planner;
mod pointer;
mod press;
mod scroll_in;
mod secret;
mod toolkit;

use accesskit::{Action, ActionData, NodeId};
use planner::Planner;
use pointer::Pointer;
use winit_automation_link::Step;
use winit_automation_link::wiring::PressCheck;
use winit_automation_protocol::{Command, Failure, Target};
use winit_automation_tree::{AppTree, Found};

pub use clock::{clock_line, plan_clock};
pub use gestures::Gestures;
pub use plan::{ActionAnswer, Moved, Planned, key_tap};
pub use scroll_in::ScrollIn;
pub use toolkit::Toolkit;

/// The answer to a delivered pointer action whose plan held a press (`press.rs`): its body with a
/// `hit` line, or `missed` (with that body) when the app reported another node.
pub fn press_answer(
    tree: &mut AppTree,
    check: &PressCheck,
    reported: Option<Option<NodeId>>,
    body: String,
) -> Result<String, Failure> {
    Planner::new(tree, Pointer::default()).press_answer(check, reported, body)
}

/// Whether the text of a `type` or `fill` is a secret (`secret.rs`): `--secret`, or a password
/// field gets it; `Some(false)` for a command that sends no text; `None` when it cannot be told.
pub fn secret_text(tree: &mut AppTree, command: &Command) -> Option<bool> {
    Planner::new(tree, Pointer::default()).secret_text(command)
}

/// The visible part of each of `command`'s action targets (logical x, y, width, height, in
/// `Command::action_targets` order), `None` for one that has none, and for a point (it names a
/// place, not the node under it): what a trace draws.
pub fn target_boxes(tree: &mut AppTree, command: &Command) -> Vec<Option<[f64; 4]>> {
    let mut planner = Planner::new(tree, Pointer::default());
    command
        .action_targets()
        .map(|t| match t {
            Target::Point(_) => None,
            _ => planner.visible_rect(t).ok().map(|(_, r)| r),
        })
        .collect()
}

/// The plan of `command` from a pointer at rest, its answer written in: what unit tests check.
#[cfg(test)]
fn plan_of(
    tree: &mut AppTree,
    command: &Command,
    hover_frame: bool,
) -> Result<Option<winit_automation_link::wiring::Plan>, Failure> {
    let toolkit = Toolkit {
        hover_frame,
        ..Toolkit::default()
    };
    let planned = Gestures::new(toolkit).plan(tree, command)?;
    Ok(planned.map(|p| p.into_order(Vec::new()).0))
}

/// The step that requests AccessKit `action` (with `data`) of the node `found`.
pub fn action_step(
    tree: &mut AppTree,
    found: Found,
    action: Action,
    data: Option<ActionData>,
) -> Step {
    Planner::new(tree, Pointer::default()).action_step(found, action, data)
}
