//! Aiming: a resolved target's visible centre, and the checks that the pointer can reach it
//! (shown, enabled, with an area, inside the visible part of the window, not behind a modal
//! dialog, not covered by a node painted on top). Paint order is taken to be tree order.
//!
//! Runs on the service thread when every earlier action has been carried out.

use accesskit::{Point as AkPoint, Role};
use accesskit_consumer::NodeRef as Node;

use super::format::{self, num};
use super::geometry::{self, clip_at, clips, contains, intersect, is_empty};
use super::mirror::WindowMirror;
use super::refs::{self, Found};
use super::{Trees, roles::role_name};
use crate::protocol::{ErrorCode, Failure, Point, Target, quote};

/// What a pointer aims at.
pub(super) struct Aim {
    pub window: u64,
    pub x: f64,
    pub y: f64,
    /// The target's line, or `None` for a point target.
    pub line: Option<String>,
}

/// Whether a node lying on top of a target counts as covering it: something that takes the pointer
/// (an interactive node) or a surface drawn over others (dialogs, windows, menus, tooltips). Layout
/// containers, panes, regions and plain text do not: toolkits give them bounds that overlap their
/// neighbours without drawing over them.
fn can_cover(node: &Node) -> bool {
    format::is_interactive(node)
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

fn is_within(node: &Node, ancestor: accesskit_consumer::FullNodeId) -> bool {
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
/// every clip; and the last modal dialog shown, if any. Paint order is tree order: a later node
/// lies on top of an earlier one, a child on top of its parent.
fn hit<'a>(
    w: &'a WindowMirror,
    root: Node<'a>,
    p: AkPoint,
) -> (Option<Node<'a>>, Option<Node<'a>>) {
    let mut top = None;
    let mut modal = None;
    let mut stack = vec![(root, w.viewport())];
    while let Some((node, clip)) = stack.pop() {
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
        if let Some(v) = visible
            && can_cover(&node)
            && contains(v, p)
        {
            top = Some(node);
        }
        let child_clip = match (clips(&node), bounds) {
            (true, Some(b)) => Some(clip.map_or(b, |c| intersect(c, b))),
            _ => clip,
        };
        let children: Vec<_> = node.children().collect();
        stack.extend(children.into_iter().rev().map(|c| (c, child_clip)));
    }
    (top, modal)
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

pub(super) fn failure(code: ErrorCode, message: String, hint: &str) -> Failure {
    Failure::new(code, message, hint)
}

/// The node a resolved target names, still in its window's tree.
pub(super) fn live_node<'a>(
    w: &'a WindowMirror,
    found: Found,
    line: &str,
) -> Result<Node<'a>, Failure> {
    w.tree
        .as_ref()
        .and_then(|t| t.state().node_by_id(found.node))
        .ok_or_else(|| {
            failure(
                ErrorCode::NotFound,
                format!("{line} is gone"),
                "take a fresh snapshot",
            )
        })
}

/// The window a command without a target goes to: the focused one, else the first known.
pub(super) fn default_window(trees: &Trees) -> Result<u64, Failure> {
    let windows = &trees.mirror.windows;
    windows
        .iter()
        .find(|(_, w)| w.state.as_ref().is_some_and(|s| s.focused))
        .or_else(|| windows.iter().next())
        .map(|(&id, _)| id)
        .ok_or_else(|| {
            Failure::new(
                ErrorCode::NotFound,
                "the app has not told the plugin about any window",
                "the app must call Automation::track_window or window_state for each window",
            )
        })
}

impl Trees {
    pub(super) fn node_line(&mut self, f: Found) -> String {
        format::found_line(&self.mirror, &mut self.refs, f)
    }

    /// Resolves a target to a node and checks that the pointer can reach its visible centre.
    /// `check_cover` is off for where a drag ends.
    pub(super) fn aim(&mut self, target: &Target, check_cover: bool) -> Result<Aim, Failure> {
        if let Target::Point(p) = target {
            let window = default_window(self)?;
            return self.aim_point(window, *p);
        }
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let Some(tree) = &w.tree else {
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
        let Some(bounds) = geometry::bounds(&node).filter(|b| !is_empty(*b)) else {
            // Name only actions the node lists: a hint must not lead to another refusal.
            let listed: Vec<&str> = crate::protocol::ACTIONS
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
            return Err(no_area(&node, &line, "aim at", &hint));
        };
        let visible = clip_at(w, &node).map_or(bounds, |c| intersect(bounds, c));
        if is_empty(visible) {
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
            return Err(failure(
                ErrorCode::Offscreen,
                format!("{line} is outside the visible area"),
                hint,
            ));
        }
        let centre = AkPoint::new(
            (visible.x0 + visible.x1) / 2.0,
            (visible.y0 + visible.y1) / 2.0,
        );
        if check_cover {
            let (top, modal) = hit(w, state.root(), centre);
            if let Some(d) = modal
                && !is_within(&node, d.id())
            {
                let by = refs::name_of(&d);
                return Err(failure(
                    ErrorCode::Covered,
                    format!(
                        "{line} is behind the modal {} {}",
                        role_name(d.role()),
                        quote(&by)
                    ),
                    "close the dialog first",
                ));
            }
            if let Some(t) = top
                && !is_within(&t, node.id())
                && !is_within(&node, t.id())
            {
                let cover = Found {
                    window: found.window,
                    node: t.id(),
                };
                let by = format::found_line(&self.mirror, &mut self.refs, cover);
                let k = self.mirror.windows[&found.window].units_per_logical();
                return Err(failure(
                    ErrorCode::Covered,
                    format!(
                        "{line} is covered at {},{} by {by}",
                        num(centre.x / k),
                        num(centre.y / k)
                    ),
                    "close or move what lies on top, or act on the target with `action`",
                ));
            }
        }
        let k = self.mirror.windows[&found.window].units_per_logical();
        Ok(Aim {
            window: found.window,
            x: centre.x / k,
            y: centre.y / k,
            line: Some(line),
        })
    }

    /// The visible part of a target's bounds (x, y, width, height, logical pixels), for a cropped
    /// screenshot.
    pub(super) fn visible_rect(&mut self, target: &Target) -> Result<(u64, [f64; 4]), Failure> {
        let found = self.resolve(target)?;
        let line = self.node_line(found);
        let w = &self.mirror.windows[&found.window];
        let node = live_node(w, found, &line)?;
        let Some(bounds) = geometry::bounds(&node).filter(|b| !is_empty(*b)) else {
            return Err(no_area(
                &node,
                &line,
                "crop to",
                "crop to a node with bounds, or take the whole window",
            ));
        };
        let visible = clip_at(w, &node).map_or(bounds, |c| intersect(bounds, c));
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

    pub(super) fn aim_point(&mut self, window: u64, p: Point) -> Result<Aim, Failure> {
        if let Some(s) = &self.mirror.windows[&window].state
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
        })
    }
}

#[cfg(test)]
mod tests {
    //! The hit test and the target checks on small widget-record trees: no thread, no file.

    use accesskit::{Action, Role};

    use super::super::{SceneChange, Trees};
    use crate::protocol::{Command, ErrorCode, Failure};
    use crate::widget::{Bounds, Widget, WidgetStates, WindowState};

    fn trees(widgets: Vec<Widget>) -> Trees {
        let mut trees = Trees::default();
        trees.apply(SceneChange::State(
            1,
            WindowState {
                title: "t".into(),
                width: 400.0,
                height: 300.0,
                scale_factor: 1.0,
                focused: true,
            },
        ));
        trees.apply(SceneChange::Widgets(1, widgets));
        trees
    }

    fn button(id: &str, x: f64, y: f64) -> Widget {
        Widget::new(id, Role::Button, id)
            .bounds(Bounds::new(x, y, 80.0, 30.0))
            .action(Action::Click)
    }

    fn click(trees: &mut Trees, id: &str) -> Result<String, Failure> {
        let plan = trees.plan(&Command::parse(&format!("click id={id}")).unwrap())?;
        Ok(plan.expect("a click is planned").summary)
    }

    #[test]
    fn a_clear_target_is_aimed_at_its_centre() {
        let mut t = trees(vec![button("save", 10.0, 10.0)]);
        let summary = click(&mut t, "save").unwrap();
        assert!(summary.contains("50,25"), "{summary}");
    }

    #[test]
    fn a_later_interactive_node_on_top_covers_the_target() {
        let mut t = trees(vec![button("save", 10.0, 10.0), button("over", 20.0, 15.0)]);
        let err = click(&mut t, "save").unwrap_err();
        assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
        assert!(err.message.contains("\"over\""), "{}", err.message);
        // The node on top is itself clear.
        assert!(click(&mut t, "over").is_ok());
    }

    #[test]
    fn a_container_overlapping_the_target_does_not_cover_it() {
        let pane = Widget::new("pane", Role::Pane, "").bounds(Bounds::new(0.0, 0.0, 400.0, 300.0));
        let mut t = trees(vec![button("save", 10.0, 10.0), pane]);
        assert!(click(&mut t, "save").is_ok());
    }

    #[test]
    fn a_modal_dialog_shields_everything_outside_it() {
        use accesskit::{Node, NodeId, Rect, TreeId, TreeInfo, TreeUpdate};
        let update = |modal: bool| {
            let mut root = Node::new(Role::Window);
            root.set_bounds(Rect::new(0.0, 0.0, 400.0, 300.0));
            root.set_children(vec![NodeId(1), NodeId(2)]);
            let mut save = Node::new(Role::Button);
            save.set_label("save");
            save.set_bounds(Rect::new(10.0, 10.0, 90.0, 40.0));
            save.add_action(Action::Click);
            let mut dialog = Node::new(Role::Dialog);
            dialog.set_label("Confirm");
            dialog.set_bounds(Rect::new(200.0, 200.0, 350.0, 280.0));
            if modal {
                dialog.set_modal();
            }
            TreeUpdate {
                nodes: vec![(NodeId(0), root), (NodeId(1), save), (NodeId(2), dialog)],
                tree: Some(TreeInfo::new(NodeId(0))),
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            }
        };
        let click_save = |t: &mut Trees| {
            t.plan(&Command::parse("click role=button name=save").unwrap())
                .map(|_| ())
        };
        let mut t = trees(vec![]);
        t.apply(SceneChange::Update(1, update(false)));
        // Not modal: the button is clear (the dialog lies elsewhere).
        assert!(click_save(&mut t).is_ok());
        t.apply(SceneChange::Update(1, update(true)));
        let err = click_save(&mut t).unwrap_err();
        assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
        assert!(err.message.contains("modal"), "{}", err.message);
    }

    #[test]
    fn content_clipped_by_a_scroll_container_is_offscreen() {
        let list = Widget::new("list", Role::List, "list")
            .bounds(Bounds::new(0.0, 0.0, 200.0, 100.0))
            .states(WidgetStates {
                clips_children: true,
                ..WidgetStates::default()
            });
        let below = button("row9", 10.0, 150.0).parent("list");
        let inside = button("row1", 10.0, 10.0).parent("list");
        let mut t = trees(vec![list, inside, below]);
        assert!(click(&mut t, "row1").is_ok());
        let err = click(&mut t, "row9").unwrap_err();
        assert_eq!(err.code, ErrorCode::Offscreen, "{}", err.message);
    }

    #[test]
    fn a_node_with_bounds_that_are_not_finite_covers_nothing_and_is_not_aimed_at() {
        // An interactive cell published after (so on top of) the button, with infinite bounds
        // (which a transform turns into NaN) and one with NaN bounds outright.
        let infinite = Widget::new("cell", Role::Group, "cell")
            .bounds(Bounds::new(
                f64::NEG_INFINITY,
                f64::NEG_INFINITY,
                f64::INFINITY,
                f64::INFINITY,
            ))
            .action(Action::Click);
        let nan = Widget::new("nan", Role::Button, "nan")
            .bounds(Bounds::new(f64::NAN, 10.0, 80.0, 30.0))
            .action(Action::Click);
        // A clipping container with infinite bounds clips nothing: its child stays reachable.
        let table = Widget::new("table", Role::Table, "table")
            .bounds(Bounds::new(0.0, f64::INFINITY, 400.0, 300.0))
            .states(WidgetStates {
                clips_children: true,
                ..WidgetStates::default()
            });
        let row = button("row", 200.0, 200.0).parent("table");
        let mut t = trees(vec![button("save", 10.0, 10.0), infinite, nan, table, row]);
        let summary = click(&mut t, "save").unwrap();
        assert!(summary.contains("50,25"), "{summary}");
        let summary = click(&mut t, "row").unwrap();
        assert!(summary.contains("240,215"), "{summary}");
        for id in ["cell", "nan"] {
            let err = click(&mut t, id).unwrap_err();
            assert_eq!(err.code, ErrorCode::ZeroSize, "{id}: {}", err.message);
            assert!(err.message.contains("not finite"), "{id}: {}", err.message);
        }
    }

    #[test]
    fn a_point_target_never_hits_a_node_whose_bounds_are_not_finite() {
        use crate::protocol::Target;
        use accesskit::{Node, NodeId, Rect, TreeId, TreeInfo, TreeUpdate};
        let mut root = Node::new(Role::Window);
        root.set_bounds(Rect::new(0.0, 0.0, 400.0, 300.0));
        root.set_children(vec![NodeId(1), NodeId(2)]);
        let mut save = Node::new(Role::Button);
        save.set_label("save");
        save.set_bounds(Rect::new(10.0, 10.0, 90.0, 40.0));
        save.add_action(Action::Click);
        // Its raw rect contains every point; its child, with finite bounds, is still hit.
        let mut cell = Node::new(Role::Group);
        cell.set_label("cell");
        cell.set_bounds(Rect::new(
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        ));
        cell.add_action(Action::Click);
        cell.set_children(vec![NodeId(3)]);
        let mut inner = Node::new(Role::Label);
        inner.set_value("inner");
        inner.set_bounds(Rect::new(200.0, 200.0, 300.0, 220.0));
        let mut t = trees(vec![]);
        t.apply(SceneChange::Update(
            1,
            TreeUpdate {
                nodes: vec![
                    (NodeId(0), root),
                    (NodeId(1), save),
                    (NodeId(2), cell),
                    (NodeId(3), inner),
                ],
                tree: Some(TreeInfo::new(NodeId(0))),
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            },
        ));
        let get = |t: &mut Trees, at: &str| t.get(&Target::parse(at).unwrap());
        let line = get(&mut t, "50,25").unwrap();
        assert!(
            line.starts_with("@e") && line.contains("button \"save\""),
            "{line}"
        );
        let line = get(&mut t, "250,210").unwrap();
        assert!(line.contains("value=\"inner\""), "{line}");
        // Nothing else lies at 350,100: the cell is not hit there, the window root is.
        let line = get(&mut t, "350,100").unwrap();
        assert!(line.contains(" window "), "{line}");
        // The cell itself prints no bounds, and `get` says why.
        let cell = get(&mut t, "role=group").unwrap();
        assert!(!cell.contains("bounds="), "{cell}");
        assert!(cell.contains("\nbounds_not_finite\n"), "{cell}");
        // Clicking on the button is clear: the cell covers nothing.
        assert!(
            t.plan(&Command::parse("click role=button").unwrap())
                .is_ok()
        );
    }

    #[test]
    fn disabled_hidden_and_zero_size_targets_are_refused_with_their_reason() {
        let disabled = button("off", 10.0, 10.0).states(WidgetStates {
            disabled: true,
            ..WidgetStates::default()
        });
        let hidden = button("gone", 10.0, 50.0).states(WidgetStates {
            hidden: true,
            ..WidgetStates::default()
        });
        let flat = Widget::new("flat", Role::Button, "flat")
            .bounds(Bounds::new(10.0, 100.0, 0.0, 0.0))
            .action(Action::Click);
        let mut t = trees(vec![disabled, hidden, flat]);
        assert_eq!(click(&mut t, "off").unwrap_err().code, ErrorCode::Disabled);
        assert_eq!(
            click(&mut t, "gone").unwrap_err().code,
            ErrorCode::Offscreen
        );
        assert_eq!(click(&mut t, "flat").unwrap_err().code, ErrorCode::ZeroSize);
    }
}
