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

/// A numeric value as the shortest text that reads back as the number in the type it was made
/// in. A value that is exactly an `f32` (egui's and Bevy's widgets hand `f32`s over as `f64`)
/// prints as that `f32` does: `0.12666667`, never `0.12666666507720947`. AccessKit names no
/// display precision (egui's `numeric_value_step` is a drag speed), so none is guessed.
pub(crate) fn numeric(v: f64) -> String {
    // An f64 made from an f32 reads back exactly; its f32 text is the shortest that does.
    if f64::from(v as f32) == v {
        (v as f32).to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::numeric;

    #[test]
    fn a_value_prints_as_the_shortest_text_of_its_own_type() {
        assert_eq!(numeric(f64::from(0.126_666_67_f32)), "0.12666667");
        assert_eq!(numeric(0.1), "0.1");
        assert_eq!(numeric(f64::from(0.1_f32)), "0.1");
        assert_eq!(numeric(100.0), "100");
        assert_eq!(numeric(-3.5), "-3.5");
        assert_eq!(numeric(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(numeric(f64::NAN), "NaN");
    }
}
