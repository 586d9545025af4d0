//! Geometry of the tree: rectangles in tree units, clipping by scroll containers and clipping
//! ancestors. Shared by the projections (what is visible) and the hit test (what is on top).
//!
//! Pure: no tree state beyond the nodes it is handed.
//!
//! A node whose bounds are not finite after its transforms (NaN or infinite in any coordinate: a
//! toolkit's "unbounded" cell, or infinities that a transform turned into NaN) has no bounds here,
//! for every purpose: [`bounds`] is the only way the tree code reads a node's bounds.

use accesskit::{Point as AkPoint, Rect};
use accesskit_consumer::NodeRef as Node;

/// Whether every coordinate of a rectangle is finite.
pub(crate) fn is_finite(r: Rect) -> bool {
    r.x0.is_finite() && r.y0.is_finite() && r.x1.is_finite() && r.y1.is_finite()
}

/// A rectangle, or `None` when a coordinate is not finite.
pub(crate) fn finite(r: Rect) -> Option<Rect> {
    Some(r).filter(|r| is_finite(*r))
}

/// A node's bounding box in tree units (its bounds through its and its ancestors' transforms), or
/// `None` when it has none or when they are not finite. Such a node never covers another, is never
/// hit, cannot be aimed at, prints no `bounds=`, and does not clip its children.
pub(crate) fn bounds(node: &Node) -> Option<Rect> {
    node.bounding_box().and_then(finite)
}

/// Whether a node has bounds that [`bounds`] drops for not being finite.
pub(crate) fn has_non_finite_bounds(node: &Node) -> bool {
    node.raw_bounds().is_some() && bounds(node).is_none()
}

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

/// Whether a rectangle has no area.
pub(crate) fn is_empty(r: Rect) -> bool {
    r.x1 <= r.x0 || r.y1 <= r.y0
}

pub(crate) fn contains(r: Rect, p: AkPoint) -> bool {
    p.x >= r.x0 && p.x < r.x1 && p.y >= r.y0 && p.y < r.y1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_rectangles_with_every_coordinate_finite_are_kept() {
        let r = Rect::new(1.0, 2.0, 3.0, 4.0);
        assert_eq!(finite(r), Some(r));
        for bad in [
            Rect::new(f64::NAN, 2.0, 3.0, 4.0),
            Rect::new(1.0, f64::NEG_INFINITY, 3.0, 4.0),
            Rect::new(1.0, 2.0, f64::INFINITY, 4.0),
            Rect::new(1.0, 2.0, 3.0, f64::NAN),
        ] {
            assert!(!is_finite(bad), "{bad:?}");
            assert_eq!(finite(bad), None, "{bad:?}");
        }
        // Infinite bounds through the identity transform come out NaN, and stay dropped.
        let through = accesskit::Affine::IDENTITY.transform_rect_bbox(Rect::new(
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        ));
        assert_eq!(finite(through), None, "{through:?}");
    }
}
