//! The hit test: the topmost node at a point of a window, by paint order (the app's layer order,
//! `paint_order.rs`, then tree order), honouring hidden subtrees and every clip; and the last modal
//! dialog shown. What a point target names, and what aiming checks a target's centre against.
//!
//! Pure: runs on the service thread, reads the mirror only.

use accesskit::{Point as AkPoint, Role};
use accesskit_consumer::NodeRef as Node;

use super::geometry::{self, contains, intersect};
use super::mirror::WindowTree;
use super::node::is_interactive;
use super::paint_order::PaintOrder;

/// Whether a node lying on top of a target counts as covering it: something that takes the pointer
/// (an interactive node) or a surface drawn over others (dialogs, windows, menus, tooltips). Layout
/// containers, panes, regions and plain text do not: toolkits give them bounds that overlap their
/// neighbours without drawing over them.
fn can_cover(node: &Node) -> bool {
    is_interactive(node)
        || matches!(
            node.role(),
            Role::Dialog
                | Role::AlertDialog
                | Role::Window
                | Role::Menu
                | Role::MenuBar
                | Role::MenuListPopup
                | Role::Tooltip
        )
}

/// Whether `node` is `ancestor` or lies inside it.
pub fn is_within(node: &Node, ancestor: accesskit_consumer::FullNodeId) -> bool {
    let mut current = Some(*node);
    while let Some(n) = current {
        if n.id() == ancestor {
            return true;
        }
        current = n.parent();
    }
    false
}

/// The topmost node at `p` (tree units) that can cover others, honouring hidden subtrees and
/// every clip; and the last modal dialog shown, if any. Paint order is layer order, then tree
/// order: a later node lies on top of an earlier one of the same layer, a child on top of its
/// parent, and any node of a higher layer on top of every node of a lower one.
pub fn hit<'a>(
    w: &'a WindowTree,
    stack: &PaintOrder,
    root: Node<'a>,
    p: AkPoint,
) -> (Option<Node<'a>>, Option<Node<'a>>) {
    topmost(w, stack, root, p, &|node| {
        can_cover(node) || stack.root_rank(node.id()).is_some()
    })
}

/// The topmost node at `p` (tree units) by the paint order of [`hit`], of any kind: what a point
/// target (`get 120,48`) names. Hidden subtrees and every clip are honoured; a node whose bounds
/// are not finite is never hit.
pub fn node_at<'a>(w: &'a WindowTree, p: AkPoint) -> Option<Node<'a>> {
    let root = w.tree.as_ref()?.state().root();
    topmost(w, &PaintOrder::new(w), root, p, &|_| true).0
}

/// The topmost node at `p` among those `counts` accepts, and the last modal dialog shown.
fn topmost<'a>(
    w: &'a WindowTree,
    stack: &PaintOrder,
    root: Node<'a>,
    p: AkPoint,
    counts: &dyn Fn(&Node) -> bool,
) -> (Option<Node<'a>>, Option<Node<'a>>) {
    let mut top: Option<(Node<'a>, usize)> = None;
    let mut modal = None;
    let rank = stack.root_rank(root.id()).unwrap_or(0);
    let mut pending = vec![(root, w.viewport(), rank)];
    while let Some((node, clip, rank)) = pending.pop() {
        if node.is_hidden() {
            continue;
        }
        if node.is_dialog() && node.is_modal() {
            modal = Some(node);
        }
        let bounds = geometry::bounds(&node);
        let visible = match (bounds, clip) {
            (Some(b), Some(c)) => Some(intersect(b, c)),
            (b, None) => b,
            (None, Some(_)) => None,
        };
        // Tree order: a later node of the same layer replaces an earlier one. A listed layer root
        // covers whatever its role: the app said it is drawn over the layers below.
        if let Some(v) = visible
            && counts(&node)
            && contains(v, p)
            && top.is_none_or(|(_, r)| rank >= r)
        {
            top = Some((node, rank));
        }
        let child_clip = match stack.clip_of(&node, bounds) {
            Some(b) => Some(clip.map_or(b, |c| intersect(c, b))),
            None => clip,
        };
        let children: Vec<_> = node.children().collect();
        pending.extend(children.into_iter().rev().map(|c| {
            // A layer root starts afresh: its tree ancestors neither clip it nor rank it.
            match stack.root_rank(c.id()) {
                Some(r) => (c, w.viewport(), r),
                None => (c, child_clip, rank),
            }
        }));
    }
    (top.map(|(n, _)| n), modal)
}
