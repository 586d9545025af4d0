//! Bringing a target scrolled out of view into it, one step at a time (docs/protocol.md section
//! 4.6, "Scrolling into view"): the target's own `scroll_into_view` action where it lists one,
//! else a wheel turn over the container that cuts it off, by the distance that brings it in. The
//! service takes a step, lets the app draw, and plans again (the crate's `scroll_in.rs`); this only
//! says what the next step is, against the tree as it is now.

use accesskit::{Action, Rect};
use accesskit_consumer::NodeRef as Node;

use crate::planner::Planner;
use winit_automation_link::wiring::Plan;
use winit_automation_link::{Stage, Step};
use winit_automation_protocol::{NodeRef, Target};
use winit_automation_tree::PaintOrder;
use winit_automation_tree::geometry::{self, intersect, is_empty, overlaps};
use winit_automation_tree::node::num;
use winit_automation_tree::{Found, WindowTree};

/// A margin, in logical pixels, between a target brought into view and its container's edge: a
/// row is not left half a pixel inside.
const MARGIN: f64 = 8.0;

/// One step towards showing a target.
#[derive(Debug)]
pub struct ScrollIn {
    /// The input: a wheel turn over the container, or the target's `scroll_into_view` action.
    pub plan: Plan,
    /// What the step does, for the answer: `scrolled @e5 scrollview "Files" by 0,240`.
    pub line: String,
    /// The target's line, bounds included, before the step: whether the step moved it.
    pub target: String,
}

impl Planner<'_> {
    /// The next step towards showing `target`, a node outside the visible part of a container
    /// that clips it; `Err` says why nothing can bring it in (it is hidden, the window itself
    /// cuts it off, it has no bounds). `hover_frame`: the pointer moves in a frame of its own;
    /// `wheel_only`: a wheel turn even where the target lists `scroll_into_view` (the app did
    /// nothing with it).
    pub fn scroll_in(
        &mut self,
        target: &Target,
        hover_frame: bool,
        wheel_only: bool,
    ) -> Result<ScrollIn, String> {
        if matches!(target, Target::Point(_)) {
            return Err("a point is where it is".to_owned());
        }
        let found = self.resolve(target).map_err(|f| f.message)?;
        let line = self.node_line(found);
        let w = &self.mirror().windows()[&found.window];
        let node = w.live_node(found, &line).map_err(|f| f.message)?;
        let mut up = Some(node);
        while let Some(n) = up {
            if n.is_hidden() {
                return Err("it is hidden, which no scrolling changes".to_owned());
            }
            up = n.parent();
        }
        if !wheel_only
            && node.supports_action(Action::ScrollIntoView, &|_| {
                accesskit_consumer::FilterResult::Include
            })
        {
            return Ok(by_action(found.window, &node, line));
        }
        let Some(bounds) = geometry::bounds(&node).filter(|b| !is_empty(*b)) else {
            return Err("it has no area to bring in".to_owned());
        };
        let (container, bounds, rect) = cutting_container(w, &node, bounds)?;
        let k = w.units_per_logical();
        let dx = distance(bounds.x0, bounds.x1, rect.x0, rect.x1, MARGIN * k) / k;
        let dy = distance(bounds.y0, bounds.y1, rect.y0, rect.y1, MARGIN * k) / k;
        let container = Found {
            window: found.window,
            node: container.id(),
        };
        let (container, what) = self
            .hinted_ref(container)
            .expect("the container is in the tree");
        let stages = self.wheel_over(container, (dx, dy), hover_frame)?;
        Ok(ScrollIn {
            plan: Plan {
                window: found.window,
                stages,
                summary: String::new(),
                press: None,
            },
            line: format!("scrolled {what} by {},{}", num(dx), num(dy)),
            target: line,
        })
    }

    /// The stages of a wheel turn by `(dx, dy)` over a container.
    fn wheel_over(
        &mut self,
        container: NodeRef,
        (dx, dy): (f64, f64),
        hover_frame: bool,
    ) -> Result<Vec<Stage>, String> {
        // The wheel turns where a pointer aimed at the container lands, by the pointer verbs'
        // own rule (`aim.rs`): its visible part, stepping around what lies on top of it.
        let aim = self
            .aim(&Target::Ref(container), true)
            .map_err(|f| format!("its container cannot take the wheel: {}", f.message))?;
        let to = Step::Move { x: aim.x, y: aim.y };
        let wheel = Step::Wheel { dx, dy };
        Ok(if hover_frame {
            vec![vec![to].into(), vec![wheel].into()]
        } else {
            vec![vec![to, wheel].into()]
        })
    }
}

/// The step that asks the app to show the node itself: its `scroll_into_view` action.
fn by_action(window: u64, node: &Node<'_>, line: String) -> ScrollIn {
    let (id, tree) = node.locate();
    let step = Step::Action {
        node: id,
        tree,
        action: Action::ScrollIntoView,
        data: None,
        widget: node.author_id().map(str::to_owned),
    };
    ScrollIn {
        plan: Plan {
            window,
            stages: vec![vec![step].into()],
            summary: String::new(),
            press: None,
        },
        line: "scrolled by its scroll_into_view action".to_owned(),
        target: line,
    }
}

/// The container to turn the wheel over, what it brings in (the node's `bounds`, or a container
/// cut off itself) and the container's clip rectangle.
fn cutting_container<'a>(
    w: &'a WindowTree,
    node: &Node<'_>,
    mut bounds: Rect,
) -> Result<(Node<'a>, Rect, Rect), String> {
    // The outermost clipping node whose rectangle leaves the target out (the one that
    // scrolls: `hints.rs`); when that container is cut off itself, the one that cuts it off,
    // with the container as what to bring in.
    let clips = PaintOrder::new(w).clips_above(w, node);
    let mut at = clips.len();
    loop {
        let outside = |r: &Rect| !overlaps(bounds, *r);
        let outermost = clips[..at]
            .iter()
            .position(|(owner, r)| owner.is_some() && outside(r));
        let Some(i) = outermost else {
            return Err(if clips[..at].iter().any(|(_, r)| outside(r)) {
                "the window cuts it off, and the window does not scroll".to_owned()
            } else {
                "no container cuts it off".to_owned()
            });
        };
        let (owner, rect) = clips[i];
        let Some(owner) = owner else {
            return Err("the window cuts it off, and the window does not scroll".to_owned());
        };
        let container = w
            .tree()
            .and_then(|t| t.state().node_by_id(owner))
            .ok_or("its container is gone")?;
        // A container cut off itself is brought in first, by the container around it.
        let outer = clips[..i].iter().map(|(_, r)| *r).reduce(intersect);
        if is_empty(outer.map_or(rect, |o| intersect(rect, o))) {
            bounds = geometry::bounds(&container).unwrap_or(rect);
            at = i;
            continue;
        }
        return Ok((container, bounds, rect));
    }
}

/// How far to scroll along one axis (tree units; positive shows what lies further on) to bring
/// `[lo, hi]` into `[from, to]` with `margin` to spare: its far edge in when it fits, else its
/// near edge; 0 when it overlaps already.
fn distance(lo: f64, hi: f64, from: f64, to: f64, margin: f64) -> f64 {
    let room = (to - from - (hi - lo)).max(0.0);
    let margin = margin.min(room / 2.0);
    if lo >= to {
        // Beyond the far edge: bring the far edge in, unless the near one would pass the start.
        (hi - to + margin).min(lo - from)
    } else if hi <= from {
        (lo - from - margin).max(hi - to)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::distance;

    #[test]
    fn the_distance_brings_the_whole_target_in_with_a_margin_when_it_fits() {
        // A 20-high row at 300 below a 0..100 view: scroll 228 (its bottom 8 above the edge).
        assert_eq!(distance(300.0, 320.0, 0.0, 100.0, 8.0), 228.0);
        // Above: negative, its top 8 below the edge.
        assert_eq!(distance(-50.0, -30.0, 0.0, 100.0, 8.0), -58.0);
        // Taller than the view: its near edge comes to the view's start.
        assert_eq!(distance(300.0, 500.0, 0.0, 100.0, 8.0), 300.0);
        assert_eq!(distance(-500.0, -300.0, 0.0, 100.0, 8.0), -400.0);
        // Overlapping on this axis: nothing to scroll.
        assert_eq!(distance(50.0, 150.0, 0.0, 100.0, 8.0), 0.0);
    }
}
