//! Aiming: a resolved target's visible centre, and the checks that the pointer can reach it
//! (shown, enabled, with an area, inside the visible part of the window, not behind a modal
//! dialog or modal layer, not covered by a node painted on top, by the tree crate's hit test).
//! The checks for what blocks or covers a shown target are `aim/cover.rs`.
//!
//! Runs on the service thread when every earlier action has been carried out.

use accesskit::{Point as AkPoint, Rect};
use accesskit_consumer::NodeRef as Node;

use crate::planner::Planner;
use winit_automation_protocol::{ErrorCode, Failure, Point, Target};
use winit_automation_tree::Found;
use winit_automation_tree::PaintOrder;
use winit_automation_tree::WindowTree;
use winit_automation_tree::geometry::{self, intersect, is_empty};
use winit_automation_tree::node::num;

mod cover;

use cover::{AimPoint, Sight};

/// What a pointer aims at.
pub struct Aim {
    pub window: u64,
    pub x: f64,
    pub y: f64,
    /// The target's line, or `None` for a point target.
    pub line: Option<String>,
    /// The target, or `None` for a point target.
    pub found: Option<Found>,
    /// How much of the target's area is visible, in percent, when not all of it is (clipped,
    /// off the window's edge or partly covered).
    pub visible: Option<u32>,
    /// The target's own input proxy on top of it, that takes the press for it, and its line.
    pub via: Option<(Found, String)>,
}

/// The `zero_size` refusal of a node with no area: no bounds, bounds that are not finite, or zero
/// width or height. `what` is what the verb would do with the area ("aim at", "crop to").
fn no_area(node: &Node, line: &str, what: &str, hint: &str) -> Failure {
    let why = if geometry::has_non_finite_bounds(node) {
        "has bounds that are not finite (NaN or infinite), so no area"
    } else {
        "has no area"
    };
    failure(ErrorCode::ZeroSize, format!("{line} {why} to {what}"), hint)
}

pub fn failure(code: ErrorCode, message: String, hint: &str) -> Failure {
    Failure::new(code, message, hint)
}

/// The target's node and its tree's root, refused when the window has no tree, the node is
/// gone, it or an ancestor is hidden, or it is disabled.
fn shown_node<'a>(
    w: &'a WindowTree,
    found: Found,
    line: &str,
) -> Result<(Node<'a>, Node<'a>), Failure> {
    let Some(tree) = w.tree() else {
        return Err(failure(
            ErrorCode::NotFound,
            format!("window {} has no tree", found.window),
            "wait for the app to publish its tree",
        ));
    };
    let state = tree.state();
    let Some(node) = state.node_by_id(found.node) else {
        return Err(failure(
            ErrorCode::NotFound,
            format!("{line} is gone"),
            "take a fresh snapshot",
        ));
    };
    let mut hidden = Some(node);
    while let Some(n) = hidden {
        if n.is_hidden() {
            return Err(failure(
                ErrorCode::Offscreen,
                format!("{line} is hidden"),
                "it is not shown now; make it visible first",
            ));
        }
        hidden = n.parent();
    }
    if node.is_disabled() {
        return Err(failure(
            ErrorCode::Disabled,
            format!("{line} is disabled"),
            "wait for it to be enabled (wait, or snapshot again) before acting on it",
        ));
    }
    Ok((node, state.root()))
}

/// The rectangle aimed within: the node's bounds, or the clip the app reported for a container
/// with no bounds of its own; refused as `zero_size` when it has no area.
fn aim_area(stack: &PaintOrder, node: &Node, line: &str) -> Result<Rect, Failure> {
    // A container with no bounds of its own but a clip the app reported (an egui scroll
    // area's contents) is aimed at within that rectangle: hints name it to scroll it.
    let area = geometry::bounds(node).or_else(|| stack.clip_of(node, None));
    if let Some(bounds) = area.filter(|b| !is_empty(*b)) {
        return Ok(bounds);
    }
    // Name only actions the node lists: a hint must not lead to another refusal.
    let listed: Vec<&str> = winit_automation_protocol::ACTIONS
        .iter()
        .filter(|(a, _)| node.data().supports_action(*a))
        .map(|(_, n)| *n)
        .collect();
    let hint = match listed.first() {
        Some(first) => format!(
            "act on it with `action TARGET {first}` instead (it supports: {}), or aim at its parent or a child",
            listed.join(", ")
        ),
        None => "aim at its parent or a child; it lists no action".to_owned(),
    };
    Err(no_area(node, line, "aim at", &hint))
}

/// The part of `bounds` inside every clip around the node; refused as `offscreen` when none is.
fn visible_part(
    stack: &PaintOrder,
    w: &WindowTree,
    node: &Node,
    bounds: Rect,
    line: &str,
) -> Result<Rect, Failure> {
    let visible = stack
        .clip_at(w, node)
        .map_or(bounds, |c| intersect(bounds, c));
    if !is_empty(visible) {
        return Ok(visible);
    }
    // The hint names `scroll_into_view` only where the node lists it: a hint that leads to
    // `action_not_supported` is no hint.
    let hint = if node
        .data()
        .supports_action(accesskit::Action::ScrollIntoView)
    {
        "scroll it into view first: `action TARGET scroll_into_view`, or `scroll` its list"
    } else {
        "scroll it into view first: `scroll` the list or area that holds it, then snapshot again"
    };
    Err(failure(
        ErrorCode::Offscreen,
        format!("{line} is outside the visible area"),
        hint,
    ))
}

/// The centre of a rectangle.
fn centre_of(r: Rect) -> AkPoint {
    AkPoint::new((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0)
}

impl Planner<'_> {
    /// Resolves a target to a node and checks that the pointer can reach its visible centre.
    /// `check_cover` is off for where a drag ends.
    pub fn aim(&mut self, target: &Target, check_cover: bool) -> Result<Aim, Failure> {
        if let Target::Point(p) = target {
            let window = self.mirror().default_window()?;
            return self.aim_point(window, *p);
        }
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror().windows()[&found.window];
        let (node, root) = shown_node(w, found, &line)?;
        let stack = PaintOrder::new(w);
        let bounds = aim_area(&stack, &node, &line)?;
        let visible = visible_part(&stack, w, &node, bounds, &line)?;
        let mut point = AimPoint::of(visible);
        if check_cover {
            let sight = Sight {
                w,
                stack: &stack,
                node,
                root,
                visible,
            };
            point = match sight.reach() {
                Ok(point) => point,
                Err(blocked) => return Err(self.blocked(found.window, &line, blocked)),
            };
        }
        let k = self.mirror().windows()[&found.window].units_per_logical();
        let whole = bounds.width() * bounds.height();
        let shown = point.shown;
        let visible = (shown < whole).then(|| ((shown / whole * 100.0).floor() as u32).max(1));
        let via = point.via.map(|node| {
            let proxy = Found {
                window: found.window,
                node,
            };
            (proxy, self.node_line(proxy))
        });
        Ok(Aim {
            window: found.window,
            x: point.centre.x / k,
            y: point.centre.y / k,
            line: Some(line),
            found: Some(found),
            visible,
            via,
        })
    }

    /// The visible part of a target's bounds (x, y, width, height, logical pixels), for a cropped
    /// screenshot.
    pub fn visible_rect(&mut self, target: &Target) -> Result<(u64, [f64; 4]), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror().windows()[&found.window];
        let node = w.live_node(found, &line)?;
        let Some(bounds) = geometry::bounds(&node).filter(|b| !is_empty(*b)) else {
            return Err(no_area(
                &node,
                &line,
                "crop to",
                "crop to a node with bounds, or take the whole window",
            ));
        };
        let visible = PaintOrder::new(w)
            .clip_at(w, &node)
            .map_or(bounds, |c| intersect(bounds, c));
        if is_empty(visible) {
            return Err(failure(
                ErrorCode::Offscreen,
                format!("{line} is outside the visible area"),
                "scroll it into view first, or take the whole window",
            ));
        }
        let k = w.units_per_logical();
        Ok((
            found.window,
            [
                visible.x0 / k,
                visible.y0 / k,
                (visible.x1 - visible.x0) / k,
                (visible.y1 - visible.y0) / k,
            ],
        ))
    }

    pub fn aim_point(&mut self, window: u64, p: Point) -> Result<Aim, Failure> {
        if let Some(s) = self.mirror().windows()[&window].state()
            && !(p.x >= 0.0 && p.y >= 0.0 && p.x < s.width && p.y < s.height)
        {
            return Err(failure(
                ErrorCode::Offscreen,
                format!(
                    "{p} is outside the window, which is {}x{}",
                    num(s.width),
                    num(s.height)
                ),
                "points are logical pixels from the window's top left",
            ));
        }
        Ok(Aim {
            window,
            x: p.x,
            y: p.y,
            line: None,
            found: None,
            visible: None,
            via: None,
        })
    }
}

#[cfg(test)]
mod tests;
