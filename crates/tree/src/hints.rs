//! The hints of the regular and interactive projections (docs/protocol.md section 6.2, "Hints"):
//! the children a walk leaves out because a container clips them or a higher layer covers them,
//! counted per container (a clipping node, or the window) and printed once after its last node,
//! naming it by a ref, not once per row.

use accesskit::Rect;
use accesskit_consumer::{FullNodeId, NodeRef as Node};

use super::geometry::{direction, overlaps};
use super::mirror::WindowTree;
use super::node::name_of;
use super::paint_order::Cover;
use super::refs::Refs;
use winit_automation_protocol::{quote, role_name};

/// A container that clips what it holds (or the window), where the walk counts the children
/// left out inside it: one hint per direction and per covering layer, printed once after the
/// last of its nodes, not one per row (docs/protocol.md section 6.2, "Hints").
pub struct Scope {
    /// The clipping node; `None`: the window.
    pub owner: Option<FullNodeId>,
    /// The rectangle it clips to (its own, not narrowed by the clips around it).
    pub rect: Rect,
    /// The scope around it.
    pub outer: Option<usize>,
    /// Children cut off, per direction (below, above, right, left).
    pub cut: [usize; 4],
    /// Per covering layer root (its index in `covers`), how many children lie wholly under it.
    pub under: Vec<(usize, usize)>,
}

impl Scope {
    pub fn new(owner: Option<FullNodeId>, rect: Rect, outer: Option<usize>) -> Scope {
        Scope {
            owner,
            rect,
            outer,
            cut: [0; 4],
            under: Vec::new(),
        }
    }
}

/// The scope a child with bounds `b`, cut off by the clip in force in `scope`, counts in: the
/// outermost clipping node whose own rectangle it lies wholly outside of (toolkits pass a scroll
/// area's clip down to the containers inside it, egui to every row's `Ui`: the outermost is the
/// one that scrolls), else the window when it cuts the child off, and the direction it lies in
/// from there (from `clip`, the narrowed clip, when no single rectangle leaves it out).
pub fn cut_by(scopes: &[Scope], scope: usize, b: Rect, clip: Rect) -> (usize, usize) {
    let (mut node, mut window) = (None, None);
    let mut at = Some(scope);
    while let Some(i) = at {
        if !overlaps(b, scopes[i].rect) {
            match scopes[i].owner {
                Some(_) => node = Some(i),
                None => window = window.or(Some(i)),
            }
        }
        at = scopes[i].outer;
    }
    match node.or(window) {
        Some(i) => (i, direction(b, scopes[i].rect)),
        None => (scope, direction(b, clip)),
    }
}

/// The outermost scope around `scope`: the window's, where what the window cuts off counts.
pub fn outermost(scopes: &[Scope], scope: usize) -> usize {
    let mut at = scope;
    while let Some(outer) = scopes[at].outer {
        at = outer;
    }
    at
}

/// `[3 items below in @e5 group]`: the count, what it says of the items, and the container (a
/// node with its ref, whether or not the view prints it, so an agent can scroll it).
fn hint(indent: usize, count: usize, what: &str) -> String {
    format!(
        "{}[{count} {} {what}]\n",
        "  ".repeat(indent),
        if count == 1 { "item" } else { "items" }
    )
}

/// `@eK role "name"`, the short form a hint names a node by.
pub fn hint_node(refs: &mut Refs, window: u64, node: &Node) -> String {
    let r = refs.mint(window, node);
    let role = role_name(node.role());
    let name = name_of(node);
    if name.is_empty() {
        format!("{r} {role}")
    } else {
        format!("{r} {role} {}", quote(&name))
    }
}

/// The hint lines of one scope: cut-off children per direction, then those under each covering
/// layer root, highest layer first.
pub fn scope_hints(
    refs: &mut Refs,
    window: u64,
    w: &WindowTree,
    scope: &mut Scope,
    covers: &[Cover],
    indent: usize,
) -> String {
    let mut hints = String::new();
    let node = |id| w.tree.as_ref().and_then(|t| t.state().node_by_id(id));
    let container = match scope.owner.and_then(node) {
        Some(n) => format!("in {}", hint_node(refs, window, &n)),
        None => "the window".to_owned(),
    };
    for (d, way) in ["below", "above", "right", "left"].iter().enumerate() {
        if scope.cut[d] > 0 {
            hints.push_str(&hint(indent, scope.cut[d], &format!("{way} {container}")));
        }
    }
    // Highest layer first, as `covers` lists them.
    scope.under.sort_unstable();
    for &(c, count) in &scope.under {
        if let Some(root) = node(covers[c].id) {
            let place = if covers[c].modal {
                "blocked by the modal"
            } else {
                "under"
            };
            let what = format!("{place} {}", hint_node(refs, window, &root));
            hints.push_str(&hint(indent, count, &what));
        }
    }
    hints
}
