//! What the regular and interactive projections leave out (docs/protocol.md section 6.2, "Left
//! out"): text children that only repeat their parent's text, and decoration. `--raw` leaves out
//! nothing. These are pure questions about one node and its children; the walk in `format.rs`
//! acts on the answers.

use accesskit::Role;
use accesskit_consumer::NodeRef as Node;

use super::geometry::clips;
use super::node::name_of;
use winit_automation_protocol::ACTIONS;

/// Whether the node's line would carry nothing but its role, name, value, bounds and perhaps
/// `disabled`: no action, no other state, not a text input (an empty text input is still a place
/// to type).
fn is_quiet_but_disabled(node: &Node) -> bool {
    !node.is_text_input()
        && !node.is_focused()
        && node.toggled().is_none()
        && node.is_selected() != Some(true)
        && node.data().is_expanded().is_none()
        && node.numeric_value().is_none()
        && !ACTIONS.iter().any(|(a, _)| node.data().supports_action(*a))
}

/// [`is_quiet_but_disabled`], and not disabled either.
fn is_quiet(node: &Node) -> bool {
    is_quiet_but_disabled(node) && !node.is_disabled()
}

/// Decoration: no name, no value, no action, no state (a resize handle, a separator, a frame).
pub fn is_decoration(node: &Node) -> bool {
    is_quiet(node) && node.value().is_none_or(|v| v.is_empty()) && name_of(node).is_empty()
}

/// Left out as a leaf: decoration with no children at all.
pub fn is_empty_decoration(node: &Node) -> bool {
    node.children().len() == 0 && is_decoration(node)
}

/// A pure wrapper: decoration of no particular role (`unknown`, AccessKit's `GenericContainer`)
/// around exactly one child, clipping nothing. Its child takes its place (and indentation).
pub fn is_wrapper(node: &Node) -> bool {
    matches!(node.role(), Role::Unknown | Role::GenericContainer)
        && node.children().len() == 1
        && !clips(node)
        && is_decoration(node)
}

/// The text without whitespace: folding compares texts this way, so a line break or a space
/// where a label wraps does not keep a repeated text apart.
fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

fn is_text_role(node: &Node) -> bool {
    matches!(node.role(), Role::Label | Role::TextRun)
}

/// The text of a text leaf (role `Label` or `TextRun`, no children, no action or state, not
/// disabled unless `parent` is): its value or its name. `None` when the node is not one, or when
/// its name and value are both set and differ (its line says more than one text).
fn leaf_text(node: &Node, parent: &Node) -> Option<String> {
    if !is_text_role(node) || node.children().len() != 0 {
        return None;
    }
    if !is_quiet_but_disabled(node) || (node.is_disabled() && !parent.is_disabled()) {
        return None;
    }
    let name = squeezed(&name_of(node));
    let value = node.value().map(|v| squeezed(&v)).unwrap_or_default();
    match (name.is_empty(), value.is_empty()) {
        (true, true) => None,
        (false, true) => Some(name),
        (true, false) => Some(value),
        (false, false) if name == value => Some(name),
        (false, false) => None,
    }
}

/// Which of `parent`'s children (in order) are folded into it: text leaves that repeat its name or
/// value. When the text leaves together, in order, spell the parent's name or value (a wrapped
/// label's text runs, one per row), all of them are folded; otherwise each one whose own text is
/// the parent's name or value. `None` when none is.
pub fn folded_children(parent: &Node) -> Option<Vec<bool>> {
    let children = parent.children();
    // A cheap test first, allocating nothing: most parents have no text leaf at all.
    if !parent
        .children()
        .any(|c| is_text_role(&c) && c.children().len() == 0)
    {
        return None;
    }
    let own: Vec<String> = [Some(name_of(parent)), parent.value()]
        .into_iter()
        .flatten()
        .map(|t| squeezed(&t))
        .filter(|t| !t.is_empty())
        .collect();
    if own.is_empty() {
        return None;
    }
    let texts: Vec<Option<String>> = children.map(|c| leaf_text(&c, parent)).collect();
    let together: String = texts.iter().flatten().map(String::as_str).collect();
    let folded: Vec<bool> = if own.contains(&together) {
        texts.iter().map(Option::is_some).collect()
    } else {
        texts
            .iter()
            .map(|t| t.as_ref().is_some_and(|t| own.contains(t)))
            .collect()
    };
    folded.contains(&true).then_some(folded)
}
