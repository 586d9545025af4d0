//! The label a toolkit placed right before an unnamed control (docs/protocol.md section 6.2,
//! "Labels"): `ui.label("Snap to grid:"); ui.checkbox(&mut snap, "")` in an egui grid or
//! form row publishes a text node and then a checkbox with no name, and the text is what a person
//! reads as the checkbox's name. Snapshots print it as `label="..."`, apart from the node's own
//! name, and `label=` / `label~=` selectors match it.
//!
//! Pure: a question about one node, its preceding siblings and their bounds.

use accesskit::{Rect, Role};
use accesskit_consumer::NodeRef as Node;

use super::geometry::bounds;
use super::node::{is_interactive, name_of};
use super::omit::is_empty_decoration;

/// The longest text taken as a label, in characters: a form's label is a few words; a paragraph
/// or a code block before a control is not its label.
pub const MAX_LABEL_CHARS: usize = 64;

/// How many containers the search climbs: a control alone in a cell (`ui.horizontal`) sits
/// one container below the row that holds its label.
const MAX_CLIMB: usize = 2;

/// The label of an unnamed interactive node: the text of the nearest node placed before it in
/// the same row. That is the nearest preceding sibling that is not empty decoration, or, when the
/// node comes first among its siblings, its container's (up to [`MAX_CLIMB`] unnamed,
/// non-interactive containers up); it must be a text node (role `Label` or `TextRun`) whose text
/// (its value, else its name) is one line of at most [`MAX_LABEL_CHARS`] characters, and lie to
/// the left of the node on the same row: each one's vertical centre within the other's height.
/// `None` for a named node, one that takes no input, a text node (egui lets text take clicks:
/// one run of text is not the label of the next), or one with no such neighbour.
pub fn label_of(node: &Node) -> Option<String> {
    if !is_interactive(node)
        || !name_of(node).is_empty()
        || matches!(node.role(), Role::Label | Role::TextRun)
    {
        return None;
    }
    let own = bounds(node)?;
    let mut at = *node;
    for _ in 0..=MAX_CLIMB {
        let before = at
            .preceding_siblings()
            .find(|s| !s.is_hidden() && !is_empty_decoration(s));
        if let Some(before) = before {
            return text_before(&before, own);
        }
        let parent = at.parent()?;
        if is_interactive(&parent) || !name_of(&parent).is_empty() {
            return None;
        }
        at = parent;
    }
    None
}

/// The text of `before` when it is a one-line label left of `own` on the same row.
fn text_before(before: &Node, own: Rect) -> Option<String> {
    if !matches!(before.role(), Role::Label | Role::TextRun) {
        return None;
    }
    let text = before
        .value()
        .filter(|v| !v.trim().is_empty())
        .unwrap_or_else(|| name_of(before));
    let text = text.trim();
    if text.is_empty() || text.contains('\n') || text.chars().count() > MAX_LABEL_CHARS {
        return None;
    }
    let theirs = bounds(before)?;
    let middle = |r: Rect| (r.y0 + r.y1) / 2.0;
    let within = |y: f64, r: Rect| r.y0 <= y && y <= r.y1;
    let same_row = within(middle(theirs), own) || within(middle(own), theirs);
    (same_row && theirs.x0 < own.x0).then(|| text.to_owned())
}
