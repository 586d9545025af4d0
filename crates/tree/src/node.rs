//! Plain questions about one node that every part of the tree layer asks: its name as snapshots
//! show it, whether it takes input, and numbers in logical pixels as node lines write them.
//!
//! A leaf: it names no other module of the tree layer.

use accesskit::Action;
use accesskit_consumer::NodeRef as Node;

use winit_automation_protocol::write_logical;

/// The node's name as snapshots show it.
pub fn name_of(node: &Node) -> String {
    node.label().unwrap_or_default()
}

/// Actions that make a node interactive.
const INTERACTIVE: &[Action] = &[
    Action::Click,
    Action::Focus,
    Action::SetValue,
    Action::Increment,
    Action::Decrement,
    Action::Expand,
    Action::Collapse,
    Action::ReplaceSelectedText,
    Action::ShowContextMenu,
    Action::CustomAction,
    Action::ScrollUp,
    Action::ScrollDown,
    Action::ScrollLeft,
    Action::ScrollRight,
    Action::SetScrollOffset,
];

/// Whether a node takes input: a text input, or a node supporting an interactive action.
pub fn is_interactive(node: &Node) -> bool {
    node.is_text_input() || INTERACTIVE.iter().any(|a| node.data().supports_action(*a))
}

/// A number in logical pixels, as node lines write it ([`write_logical`]).
pub fn num(v: f64) -> String {
    let mut out = String::new();
    write_logical(&mut out, v);
    out
}
