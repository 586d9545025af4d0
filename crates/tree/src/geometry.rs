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
pub fn is_finite(r: Rect) -> bool {
    r.x0.is_finite() && r.y0.is_finite() && r.x1.is_finite() && r.y1.is_finite()
}

/// A rectangle, or `None` when a coordinate is not finite.
pub fn finite(r: Rect) -> Option<Rect> {
    Some(r).filter(|r| is_finite(*r))
}

/// A node's bounding box in tree units (its bounds through its and its ancestors' transforms), or
/// `None` when it has none or when they are not finite. Such a node never covers another, is never
/// hit, cannot be aimed at, prints no `bounds=`, and does not clip its children.
pub fn bounds(node: &Node) -> Option<Rect> {
    node.bounding_box().and_then(finite)
}

/// Whether a node has bounds that [`bounds`] drops for not being finite.
pub fn has_non_finite_bounds(node: &Node) -> bool {
    node.raw_bounds().is_some() && bounds(node).is_none()
}

/// Whether the node cuts off what lies outside it: it clips its children or scrolls.
pub fn clips(node: &Node) -> bool {
    node.clips_children() || node.scroll_x().is_some() || node.scroll_y().is_some()
}

/// The part two rectangles share (empty, with `x1 < x0` or `y1 < y0`, when none).
pub fn intersect(a: Rect, b: Rect) -> Rect {
    Rect::new(
        a.x0.max(b.x0),
        a.y0.max(b.y0),
        a.x1.min(b.x1),
        a.y1.min(b.y1),
    )
}

/// Whether `b` shows inside `clip`: some of its area, or its point for a zero-size one.
pub fn overlaps(b: Rect, clip: Rect) -> bool {
    if b.x1 <= b.x0 || b.y1 <= b.y0 {
        // A zero-size node is visible where its point is.
        return b.x0 >= clip.x0 && b.x0 <= clip.x1 && b.y0 >= clip.y0 && b.y0 <= clip.y1;
    }
    b.x0 < clip.x1 && b.x1 > clip.x0 && b.y0 < clip.y1 && b.y1 > clip.y0
}

/// Which way a node lies outside a clip.
pub fn direction(b: Rect, clip: Rect) -> usize {
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
pub fn is_empty(r: Rect) -> bool {
    r.x1 <= r.x0 || r.y1 <= r.y0
}

/// Whether `p` lies inside `r` (its left and top edges in, right and bottom out).
pub fn contains(r: Rect, p: AkPoint) -> bool {
    p.x >= r.x0 && p.x < r.x1 && p.y >= r.y0 && p.y < r.y1
}

/// What of `area` the rectangles `covers` leave free: the largest free rectangle (by area; the
/// first found of equal ones), or `None` when nothing is free, and the free area in all.
///
/// The edges of `area` and of the covers cut `area` into cells, each wholly free or wholly
/// covered; every free rectangle is a run of free cells, so the largest is found among them (a
/// few covers: the quadratic scan over cell columns is cheap).
pub fn largest_free(area: Rect, covers: &[Rect]) -> (Option<Rect>, f64) {
    let cut = |lo: f64, hi: f64, edges: &mut dyn Iterator<Item = f64>| -> Vec<f64> {
        let mut v: Vec<f64> = std::iter::once(lo)
            .chain(std::iter::once(hi))
            .chain(edges.filter(|e| *e > lo && *e < hi))
            .collect();
        v.sort_by(f64::total_cmp);
        v.dedup();
        v
    };
    let xs = cut(
        area.x0,
        area.x1,
        &mut covers.iter().flat_map(|c| [c.x0, c.x1]),
    );
    let ys = cut(
        area.y0,
        area.y1,
        &mut covers.iter().flat_map(|c| [c.y0, c.y1]),
    );
    let (nx, ny) = (xs.len() - 1, ys.len() - 1);
    // free[j][i]: the cell of column i and row j is free.
    let free: Vec<Vec<bool>> = (0..ny)
        .map(|j| {
            (0..nx)
                .map(|i| {
                    let centre = AkPoint::new((xs[i] + xs[i + 1]) / 2.0, (ys[j] + ys[j + 1]) / 2.0);
                    !covers.iter().any(|c| contains(*c, centre))
                })
                .collect()
        })
        .collect();
    let mut total = 0.0;
    for (j, row) in free.iter().enumerate() {
        for (i, &f) in row.iter().enumerate() {
            if f {
                total += (xs[i + 1] - xs[i]) * (ys[j + 1] - ys[j]);
            }
        }
    }
    let mut best: Option<(f64, Rect)> = None;
    for i0 in 0..nx {
        for i1 in i0..nx {
            // Runs of rows whose cells i0..=i1 are all free.
            let mut start = None;
            for j in 0..=ny {
                let open = j < ny && free[j][i0..=i1].iter().all(|&f| f);
                match (open, start) {
                    (true, None) => start = Some(j),
                    (false, Some(j0)) => {
                        let r = Rect::new(xs[i0], ys[j0], xs[i1 + 1], ys[j]);
                        let a = r.width() * r.height();
                        if best.is_none_or(|(b, _)| a > b) {
                            best = Some((a, r));
                        }
                        start = None;
                    }
                    _ => {}
                }
            }
        }
    }
    (best.map(|(_, r)| r), total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_free_rectangle_is_what_the_covers_leave() {
        let area = Rect::new(0.0, 0.0, 90.0, 30.0);
        // Nothing on top: the whole area.
        assert_eq!(largest_free(area, &[]), (Some(area), 2700.0));
        // Two thirds covered from the right: the left third.
        let right = Rect::new(30.0, -10.0, 200.0, 50.0);
        assert_eq!(
            largest_free(area, &[right]),
            (Some(Rect::new(0.0, 0.0, 30.0, 30.0)), 900.0)
        );
        // A cover in the middle: the larger side wins, the free area counts both.
        let middle = Rect::new(20.0, 0.0, 40.0, 30.0);
        assert_eq!(
            largest_free(area, &[middle]),
            (Some(Rect::new(40.0, 0.0, 90.0, 30.0)), 2100.0)
        );
        // An L of two covers leaves the corner's strip.
        let top = Rect::new(0.0, 0.0, 90.0, 10.0);
        let left = Rect::new(0.0, 0.0, 60.0, 30.0);
        assert_eq!(
            largest_free(area, &[top, left]),
            (Some(Rect::new(60.0, 10.0, 90.0, 30.0)), 600.0)
        );
        // Wholly covered: nothing free.
        assert_eq!(
            largest_free(area, &[Rect::new(-1.0, -1.0, 91.0, 31.0)]),
            (None, 0.0)
        );
    }

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
