//! Whether the pointer reaches a shown target: the modal dialog and the modal layer that block
//! it, and what lies on top of it at the aimed point, stepped around (the aim moves to the
//! centre of the largest part left) until a point is the target's own or nothing is left.
//!
//! Pure reads of one window's mirror; the refusal's lines (which mint refs) are written by
//! [`Planner::blocked`](crate::planner::Planner) once the reads are done.

use std::borrow::Cow;

use accesskit::{Point as AkPoint, Rect};
use accesskit_consumer::{FullNodeId, NodeRef as Node};

use super::{centre_of, failure};
use crate::planner::Planner;
use winit_automation_protocol::{ErrorCode, Failure, quote, role_name};
use winit_automation_tree::Found;
use winit_automation_tree::PaintOrder;
use winit_automation_tree::WindowTree;
use winit_automation_tree::geometry::{self, intersect, is_empty};
use winit_automation_tree::hit::{hit, is_within};
use winit_automation_tree::node::{is_interactive, name_of, num};

/// How many nodes on top of a target the aim steps around before it calls the target covered.
const MAX_COVERS: usize = 8;

/// The smallest visible part aimed at, in logical pixels a side: a thinner sliver is no place a
/// person would click.
const MIN_SIDE: f64 = 2.0;

/// How far (logical pixels) an input proxy's bounds may fall short of its target's and still
/// count as enclosing them: toolkits round a widget's rectangle.
const PROXY_SLACK: f64 = 1.0;

/// Where the pointer goes (device units) and how much of the target's area is left to it.
#[derive(Clone, Copy)]
pub struct AimPoint {
    pub centre: AkPoint,
    pub shown: f64,
    /// The target's own input proxy on top of it at `centre`, that the press goes through.
    pub via: Option<FullNodeId>,
}

impl AimPoint {
    /// The centre of the whole visible part.
    pub fn of(visible: Rect) -> AimPoint {
        AimPoint {
            centre: centre_of(visible),
            shown: visible.width() * visible.height(),
            via: None,
        }
    }
}

/// A shown target with an area, and what the cover checks read: its window, layers and root.
pub struct Sight<'a> {
    pub w: &'a WindowTree,
    pub stack: &'a PaintOrder,
    pub node: Node<'a>,
    pub root: Node<'a>,
    /// The part of the target inside every clip around it.
    pub visible: Rect,
}

/// Why the pointer cannot reach a target that is shown and has an area.
pub enum Blocked {
    /// Outside the tree's modal dialog, named by its role and name.
    ModalDialog {
        role: Cow<'static, str>,
        name: String,
    },
    /// Below the modal layer with this root.
    ModalLayer(FullNodeId),
    /// Covered by `by`, first met at `at` (device units): nothing is left to aim at, or
    /// (`gave_up`) the aim stepped around [`MAX_COVERS`] nodes.
    Covered {
        by: FullNodeId,
        at: AkPoint,
        gave_up: bool,
    },
}

impl<'a> Sight<'a> {
    /// The point the pointer reaches the target at, or why it cannot.
    pub fn reach(&self) -> Result<AimPoint, Blocked> {
        let point = AimPoint::of(self.visible);
        let (top, modal) = hit(self.w, self.stack, self.root, point.centre);
        self.check_modals(modal)?;
        self.step_around(top, point)
    }

    /// Refuses a target outside the tree's modal dialog (`modal`, hit at the centre) or below
    /// the modal layer.
    fn check_modals(&self, modal: Option<Node<'_>>) -> Result<(), Blocked> {
        let rank = self.stack.layer(&self.node).0;
        // The tree's modal dialog blocks what is outside it, unless the app listed the
        // target's layer above the dialog's (a popup opened from the dialog).
        if let Some(d) = modal
            && !is_within(&self.node, d.id())
            && rank <= self.stack.layer(&d).0
        {
            return Err(Blocked::ModalDialog {
                role: role_name(d.role()),
                name: name_of(&d),
            });
        }
        if let Some((m, modal_rank)) = self.stack.modal()
            && rank < modal_rank
        {
            return Err(Blocked::ModalLayer(m));
        }
        Ok(())
    }

    /// Moves the aim off what lies on top (`top`, hit at `point`) to the centre of the largest
    /// part of the target left, until a point is the target's own or nothing is left.
    fn step_around(
        &self,
        mut top: Option<Node<'a>>,
        mut point: AimPoint,
    ) -> Result<AimPoint, Blocked> {
        let k = self.w.units_per_logical();
        let mut covers = Vec::new();
        let mut first = None;
        while let Some(t) = top.filter(|t| !self.is_own(t)) {
            if self.is_proxy(&t) {
                point.via = Some(t.id());
                return Ok(point);
            }
            first.get_or_insert((t.id(), point.centre));
            let free = self.cover_of(&t).and_then(|over| {
                covers.push(over);
                let (free, area) = geometry::largest_free(self.visible, &covers);
                point.shown = area;
                free.filter(|r| r.width() >= MIN_SIDE * k && r.height() >= MIN_SIDE * k)
            });
            match free {
                Some(r) if covers.len() <= MAX_COVERS => {
                    point.centre = centre_of(r);
                    top = hit(self.w, self.stack, self.root, point.centre).0;
                }
                free => {
                    let (by, at) = first.expect("set above");
                    return Err(Blocked::Covered {
                        by,
                        at,
                        gave_up: free.is_some(),
                    });
                }
            }
        }
        Ok(point)
    }

    /// Whether a node hit on top is the target's own: in its subtree or an ancestor, and painted
    /// in its layer (a popup parented under the widget it covers is not its own).
    fn is_own(&self, t: &Node<'_>) -> bool {
        let same_layer = self.stack.layer(t).1 == self.stack.layer(&self.node).1;
        same_layer && (is_within(t, self.node.id()) || is_within(&self.node, t.id()))
    }

    /// Whether a node on top is the target's own input proxy, the thing a person presses when
    /// they press the target (egui's drag source over its label, a selectable wrapper): it takes
    /// the pointer and is enabled, is painted in the target's layer, and sits beside the target
    /// or one of its ancestors in the tree (its sibling `S`, with no node that takes the pointer
    /// between that parent and the target); its bounds enclose the target's and are those of the
    /// target or of `S` (within a pixel); and the target does not take the pointer itself, or
    /// the two have the same bounds. Anything else on top covers it (a click-catcher over the
    /// window, a canvas, another widget).
    fn is_proxy(&self, t: &Node<'_>) -> bool {
        let (Some(mine), Some(theirs)) = (geometry::bounds(&self.node), geometry::bounds(t)) else {
            return false;
        };
        let slack = PROXY_SLACK * self.w.units_per_logical();
        let encloses = theirs.x0 <= mine.x0 + slack
            && theirs.y0 <= mine.y0 + slack
            && theirs.x1 >= mine.x1 - slack
            && theirs.y1 >= mine.y1 - slack;
        let same_as = |r: Rect| {
            (theirs.x0 - r.x0).abs() <= slack
                && (theirs.y0 - r.y0).abs() <= slack
                && (theirs.x1 - r.x1).abs() <= slack
                && (theirs.y1 - r.y1).abs() <= slack
        };
        let Some(sibling) = t.parent().and_then(|p| self.child_towards_target(p)) else {
            return false;
        };
        let sized = same_as(mine) || geometry::bounds(&sibling).is_some_and(same_as);
        let same_layer = self.stack.layer(t).1 == self.stack.layer(&self.node).1;
        is_interactive(t)
            && !t.is_disabled()
            && same_layer
            && encloses
            && sized
            && (same_as(mine) || !is_interactive(&self.node))
    }

    /// The child of `parent` on the way down to the target (the target itself or an ancestor of
    /// it), when `parent` is an ancestor of the target and no node that takes the pointer lies
    /// between them (such a node would be the target's own, not the proxy's).
    fn child_towards_target(&self, parent: Node<'_>) -> Option<Node<'a>> {
        let mut at = self.node;
        loop {
            let up = at.parent()?;
            if up.id() == parent.id() {
                return Some(at);
            }
            if is_interactive(&up) {
                return None;
            }
            at = up;
        }
    }

    /// The visible part of a node on top, if it has an area.
    fn cover_of(&self, t: &Node<'_>) -> Option<Rect> {
        geometry::bounds(t)
            .map(|b| self.stack.clip_at(self.w, t).map_or(b, |c| intersect(b, c)))
            .filter(|b| !is_empty(*b))
    }
}

impl Planner<'_> {
    /// The `covered` refusal of a target `line` in `window`, naming what blocks it.
    pub fn blocked(&mut self, window: u64, line: &str, blocked: Blocked) -> Failure {
        match blocked {
            Blocked::ModalDialog { role, name } => failure(
                ErrorCode::Covered,
                format!("{line} is behind the modal {} {}", role, quote(&name)),
                "close the dialog first",
            ),
            Blocked::ModalLayer(root) => {
                let by = self.found_line_in(window, root);
                failure(
                    ErrorCode::Covered,
                    format!("{line} is below the modal layer {by}"),
                    "close it first: only the modal layer and those above it take input",
                )
            }
            Blocked::Covered { by, at, gave_up } => {
                let why = if gave_up {
                    format!("and the aim gave up after stepping around {MAX_COVERS} nodes")
                } else {
                    "and no part of it is left to aim at".to_owned()
                };
                let k = self.mirror().windows()[&window].units_per_logical();
                let by = self.found_line_in(window, by);
                failure(
                    ErrorCode::Covered,
                    format!(
                        "{line} is covered at {},{} by {by}, {why}",
                        num(at.x / k),
                        num(at.y / k)
                    ),
                    "close or move what lies on top, or act on the target with `action`",
                )
            }
        }
    }

    /// The line of a node of `window`'s tree.
    fn found_line_in(&mut self, window: u64, node: FullNodeId) -> String {
        self.node_line(Found { window, node })
    }
}
