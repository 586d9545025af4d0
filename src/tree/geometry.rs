//! Geometry of the tree: rectangles in tree units, clipping by scroll containers and clipping
//! ancestors. Shared by the projections (what is visible) and the hit test (what is on top).
//!
//! Pure: no tree state beyond the nodes it is handed.

use accesskit::{Point as AkPoint, Rect};
use accesskit_consumer::NodeRef as Node;

use super::mirror::WindowMirror;

pub(crate) fn clips(node: &Node) -> bool {
    node.clips_children() || node.scroll_x().is_some() || node.scroll_y().is_some()
}

pub(crate) fn intersect(a: Rect, b: Rect) -> Rect {
    Rect::new(
        a.x0.max(b.x0),
        a.y0.max(b.y0),
        a.x1.min(b.x1),
        a.y1.min(b.y1),
    )
}

pub(crate) fn overlaps(b: Rect, clip: Rect) -> bool {
    if b.x1 <= b.x0 || b.y1 <= b.y0 {
        // A zero-size node is visible where its point is.
        return b.x0 >= clip.x0 && b.x0 <= clip.x1 && b.y0 >= clip.y0 && b.y0 <= clip.y1;
    }
    b.x0 < clip.x1 && b.x1 > clip.x0 && b.y0 < clip.y1 && b.y1 > clip.y0
}

/// Which way a node lies outside a clip.
pub(crate) fn direction(b: Rect, clip: Rect) -> usize {
    if b.y0 >= clip.y1 {
        0 // below
    } else if b.y1 <= clip.y0 {
        1 // above
    } else if b.x0 >= clip.x1 {
        2 // right
    } else {
        3 // left
    }
}

/// The node's fields after its ref, role and name. `bounds` is its bounding box, already computed.
pub(crate) fn is_empty(r: Rect) -> bool {
    r.x1 <= r.x0 || r.y1 <= r.y0
}

pub(crate) fn contains(r: Rect, p: AkPoint) -> bool {
    p.x >= r.x0 && p.x < r.x1 && p.y >= r.y0 && p.y < r.y1
}

/// The clip in force at `node`: the window, narrowed by every clipping ancestor. A walk that
/// starts below the root (`--scope`) starts with it, so it hides what the whole walk would.
pub(crate) fn clip_at(w: &WindowMirror, node: &Node<'_>) -> Option<Rect> {
    let mut ancestors = Vec::new();
    let mut current = node.parent();
    while let Some(p) = current {
        current = p.parent();
        ancestors.push(p);
    }
    let mut clip = w.viewport();
    for a in ancestors.iter().rev() {
        if let (true, Some(b)) = (clips(a), a.bounding_box()) {
            clip = Some(clip.map_or(b, |c| intersect(c, b)));
        }
    }
    clip
}
