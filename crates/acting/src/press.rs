//! Verified hits: which nodes may take a pointer press for it to have reached its target, and the
//! answer once the app has reported (`Frame::pointer_hit`) which node took it.
//!
//! The accepted nodes are fixed when the input is planned, against the tree it was aimed at: the
//! target and its descendants, except descendants that are listed layer roots (a popup parented
//! under its opener) and, for an interactive target, interactive descendants (a check box inside a
//! clickable row). When the target is not itself interactive (a label inside a button), its
//! ancestors up to the nearest interactive one count too, since that widget takes the press for it;
//! with no interactive ancestor, none do. A target pressed through its input proxy (`via`, see
//! `aim/cover.rs`) is reached through the proxy too. An interactive target whose ancestor took the press
//! missed: something kept the press from it. Widget-record windows cannot be verified (their node
//! ids are the plugin's, not the app's): their presses are `hit unverified`. The render side
//! only compares ids (`PressCheck` is `link`'s, with the comparison); [`press_answer`](crate::press_answer)
//! formats the answer.

use accesskit::{NodeId, TreeId};
use accesskit_consumer::NodeRef as Node;

use super::aim::Aim;
use crate::planner::Planner;
use winit_automation_link::wiring::PressCheck;
use winit_automation_protocol::{ErrorCode, Failure};
use winit_automation_tree::Found;
use winit_automation_tree::PaintOrder;
use winit_automation_tree::Source;
use winit_automation_tree::node::{is_interactive, num};

/// Pushes the ids of `node`'s own subtree: not another layer rooted in it (a popup parented under
/// its opener is not the opener) nor, for a node that takes the pointer, a separate interactive
/// node inside it (a check box inside a clickable row is not the row).
fn own_subtree(stack: &PaintOrder, node: Node<'_>, accept: &mut Vec<NodeId>) {
    let interactive = is_interactive(&node);
    let mut below = vec![node];
    while let Some(n) = below.pop() {
        accept.push(n.locate().0);
        below.extend(
            n.children().filter(|c| {
                stack.root_rank(c.id()).is_none() && !(interactive && is_interactive(c))
            }),
        );
    }
}

/// Pushes the ids from `node`'s parent up to the nearest node that takes the pointer, if there is
/// one below `node`'s layer root: the widget that takes a press for a label inside it.
fn enclosing_taker(stack: &PaintOrder, node: Node<'_>, accept: &mut Vec<NodeId>) {
    let mut up = node.parent();
    let mut chain = Vec::new();
    while let Some(p) = up {
        chain.push(p.locate().0);
        if is_interactive(&p) {
            accept.append(&mut chain);
            return;
        }
        // Not past its own layer: a label in a popup is not reached through the widget that
        // opened the popup.
        if stack.root_rank(p.id()).is_some() {
            return;
        }
        up = p.parent();
    }
}

impl Planner<'_> {
    /// The check of a press aimed by `aim`, delivered in plan stage `stage`.
    pub fn press_check(&self, aim: &Aim, stage: usize) -> PressCheck {
        let mut accept = Vec::new();
        let window = aim
            .found
            .and_then(|f| self.mirror().windows().get(&f.window));
        // Widget records get their node ids from the plugin, not the app: an app's report cannot
        // be compared with them.
        let verifiable = window.is_none_or(|w| w.source() == Source::AccessKit);
        let in_tree = |f: Found| window?.tree()?.state().node_by_id(f.node);
        if let Some(w) = window {
            let stack = PaintOrder::new(w);
            if let Some(node) = aim.found.and_then(in_tree) {
                own_subtree(&stack, node, &mut accept);
                // A target that does not take the pointer itself (a label) is reached through
                // the nearest enclosing node that does; with none, only its own subtree counts.
                if !is_interactive(&node) {
                    enclosing_taker(&stack, node, &mut accept);
                }
            }
            // The target's input proxy takes the press for it (`via`), with what it holds.
            if let Some(proxy) = aim.via.as_ref().and_then(|(p, _)| in_tree(*p)) {
                own_subtree(&stack, proxy, &mut accept);
            }
        }
        accept.sort_unstable();
        accept.dedup();
        PressCheck {
            window: aim.window,
            verifiable,
            stage,
            at: (aim.x, aim.y),
            target: aim.found.and(aim.line.clone()),
            accept,
        }
    }

    /// The line naming a reported node: its node line, or its id when the tree no longer holds it.
    fn reported_line(&mut self, window: u64, node: Option<NodeId>) -> String {
        let Some(id) = node else {
            return "no node".to_owned();
        };
        let full = self.mirror().windows().get(&window).and_then(|w| {
            let state = w.tree()?.state();
            Some(state.node_by_tree_local_id(id, TreeId::ROOT)?.id())
        });
        match full {
            Some(node) => self.node_line(Found { window, node }),
            None => format!("node {} (no longer in the tree)", id.0),
        }
    }

    /// The answer to a delivered pointer action whose plan held a press: its body with a `hit`
    /// line, or `missed` (with that body) when the app reported another node.
    pub fn press_answer(
        &mut self,
        check: &PressCheck,
        reported: Option<Option<NodeId>>,
        body: String,
    ) -> Result<String, Failure> {
        let Some(node) = reported.filter(|_| check.verifiable) else {
            return Ok(format!("{body}hit unverified\n"));
        };
        let Some(target) = &check.target else {
            // A point target: nothing to verify; the answer names what took the press.
            let line = match node {
                Some(_) => self.reported_line(check.window, node),
                None => "none".to_owned(),
            };
            return Ok(format!("{body}hit {line}\n"));
        };
        if check.accepts(node) {
            return Ok(format!("{body}hit verified\n"));
        }
        let line = self.reported_line(check.window, node);
        let (x, y) = check.at;
        Err(Failure::new(
            ErrorCode::Missed,
            format!(
                "the press at {},{} was taken by {line}, not by {target}",
                num(x),
                num(y)
            ),
            "the UI changed under the pointer: an earlier action's effect (a dialog, a popup) \
             showed after its answer, or something the tree does not show took it (an overlay, a \
             grab); give actions --settle, or this one --wait MS, take a snapshot, or act on the \
             target with `action TARGET click`",
        )
        .with_body(body))
    }
}

#[cfg(test)]
mod tests {
    use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeUpdate};

    use winit_automation_link::SceneChange;
    use winit_automation_link::wiring::Plan;
    use winit_automation_protocol::{Command, ErrorCode};
    use winit_automation_tree::AppTree;
    use winit_automation_tree::fixture::{node, one_window, tree};

    /// A window: button "ok" (1) holding its text (2), button "other" (3), and a clickable card
    /// (4) holding a plain label (5).
    fn trees() -> AppTree {
        let update = tree(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 3, 4]),
            ),
            (1, node(Role::Button, "ok", [10.0, 10.0, 90.0, 40.0], &[2])),
            (2, node(Role::Label, "OK", [20.0, 15.0, 80.0, 35.0], &[])),
            (
                3,
                node(Role::Button, "other", [100.0, 10.0, 180.0, 40.0], &[]),
            ),
            (
                4,
                node(Role::Button, "card", [10.0, 100.0, 300.0, 200.0], &[5]),
            ),
            (
                5,
                node(Role::Label, "caption", [20.0, 110.0, 120.0, 130.0], &[]),
            ),
        ]);
        one_window(400.0, 300.0, SceneChange::Update(1, update))
    }

    fn plan(t: &mut AppTree, line: &str) -> Plan {
        planned(t, line, false)
    }

    fn planned(t: &mut AppTree, line: &str, hover_frame: bool) -> Plan {
        crate::plan_of(t, &Command::parse(line).unwrap(), hover_frame)
            .unwrap()
            .unwrap()
    }

    #[test]
    fn an_interactive_target_accepts_itself_and_its_descendants_only() {
        let mut t = trees();
        let check = plan(&mut t, "click name=ok").press.unwrap();
        assert_eq!(check.accept, [NodeId(1), NodeId(2)]);
        // The press is in the click's only stage, after the move.
        assert_eq!((check.stage, check.at), (0, (50.0, 25.0)));
        let hovered = planned(&mut t, "click name=ok", true);
        assert_eq!(
            hovered.stages.len(),
            2,
            "with hover_frame the move has a frame of its own"
        );
        assert_eq!(hovered.press.unwrap().stage, 1);
        // A plain label accepts the nearest widget around it too (the card takes its press), but
        // not the window beyond it.
        let check = plan(&mut t, "click name=caption").press.unwrap();
        assert_eq!(check.accept, [NodeId(4), NodeId(5)]);
        // A drag presses in its second stage; hover and scroll do not press.
        assert_eq!(
            plan(&mut t, "drag name=ok to 200,200").press.unwrap().stage,
            1
        );
        assert!(plan(&mut t, "hover name=ok").press.is_none());
        assert!(plan(&mut t, "scroll name=ok 0 10").press.is_none());
        // A point target has nothing to verify.
        let check = plan(&mut t, "click 50,25").press.unwrap();
        assert!(check.target.is_none() && check.accept.is_empty());
    }

    #[test]
    fn the_answer_says_whether_the_press_reached_the_target() {
        let mut t = trees();
        let check = plan(&mut t, "click name=ok").press.unwrap();
        let answer =
            |t: &mut AppTree, r| crate::press_answer(t, &check, r, "path pointer\n".into());
        assert_eq!(
            answer(&mut t, None).unwrap(),
            "path pointer\nhit unverified\n"
        );
        assert_eq!(
            answer(&mut t, Some(Some(NodeId(2)))).unwrap(),
            "path pointer\nhit verified\n"
        );
        let missed = answer(&mut t, Some(Some(NodeId(3)))).unwrap_err();
        assert_eq!(missed.code, ErrorCode::Missed);
        assert!(
            missed
                .message
                .starts_with("the press at 50,25 was taken by @e")
                && missed.message.contains("button \"other\"")
                && missed.message.contains(", not by @e")
                && missed.message.contains("button \"ok\""),
            "{}",
            missed.message
        );
        assert_eq!(missed.body, "path pointer\n");
        // The window took it; no node did; a node the tree no longer holds.
        let missed = answer(&mut t, Some(Some(NodeId(0)))).unwrap_err();
        assert!(
            missed.message.contains("window \"w\""),
            "{}",
            missed.message
        );
        let missed = answer(&mut t, Some(None)).unwrap_err();
        assert!(
            missed.message.contains("taken by no node"),
            "{}",
            missed.message
        );
        let missed = answer(&mut t, Some(Some(NodeId(77)))).unwrap_err();
        assert!(
            missed.message.contains("node 77 (no longer"),
            "{}",
            missed.message
        );
        // The first miss of a double click stays.
        let mut reported = None;
        check.record(&mut reported, Some(NodeId(3)));
        check.record(&mut reported, Some(NodeId(1)));
        assert_eq!(reported, Some(Some(NodeId(3))));
        check.record(&mut reported, None);
        assert_eq!(reported, Some(Some(NodeId(3))));
        // A point target's answer names what took the press.
        let check = plan(&mut t, "click 50,25").press.unwrap();
        let body =
            crate::press_answer(&mut t, &check, Some(Some(NodeId(1))), String::new()).unwrap();
        assert!(
            body.starts_with("hit @e") && body.contains("button \"ok\""),
            "{body}"
        );
        let body = crate::press_answer(&mut t, &check, Some(None), String::new()).unwrap();
        assert_eq!(body, "hit none\n");
    }

    #[test]
    fn another_layer_or_widget_inside_the_target_is_not_the_target() {
        let mut t = trees();
        // The card (4) now holds a check box (6) and a popup (7) listed as its own layer.
        let node = |role, label: &str, r: [f64; 4], children: &[u64]| {
            let mut n = Node::new(role);
            n.set_label(label);
            n.set_bounds(Rect::new(r[0], r[1], r[2], r[3]));
            n.set_children(children.iter().map(|&c| NodeId(c)).collect::<Vec<_>>());
            if role != Role::Label && role != Role::Window && role != Role::Group {
                n.add_action(Action::Click);
            }
            n
        };
        t.apply(SceneChange::Update(
            1,
            TreeUpdate {
                nodes: vec![
                    (
                        NodeId(4),
                        node(
                            Role::Button,
                            "card",
                            [10.0, 100.0, 300.0, 200.0],
                            &[5, 6, 7],
                        ),
                    ),
                    (
                        NodeId(6),
                        node(Role::CheckBox, "pick", [200.0, 110.0, 220.0, 130.0], &[]),
                    ),
                    (
                        NodeId(7),
                        node(Role::Group, "popup", [310.0, 150.0, 390.0, 250.0], &[8]),
                    ),
                    (
                        NodeId(8),
                        node(Role::Label, "in popup", [320.0, 160.0, 380.0, 180.0], &[]),
                    ),
                ],
                tree: None,
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            },
        ));
        t.apply(SceneChange::Layers(
            1,
            winit_automation_link::Layers {
                order: vec![NodeId(0), NodeId(7)],
                modal: None,
                clips: vec![],
            },
        ));
        let check = plan(&mut t, "click name=card").press.unwrap();
        assert_eq!(check.accept, [NodeId(4), NodeId(5)]);
        // A label with no widget around it: only itself.
        let check = plan(&mut t, "click name=\"in popup\"").press.unwrap();
        assert_eq!(check.accept, [NodeId(8)]);
    }

    #[test]
    fn presses_in_a_widget_record_window_are_never_verified() {
        let mut t = AppTree::default();
        t.apply(SceneChange::Widgets(
            1,
            vec![
                winit_automation_link::Widget::new("save", Role::Button, "Save")
                    .bounds(winit_automation_link::Bounds::new(10.0, 10.0, 70.0, 20.0))
                    .action(Action::Click),
            ],
        ));
        let check = plan(&mut t, "click name=Save").press.unwrap();
        assert!(!check.verifiable);
        let answer =
            crate::press_answer(&mut t, &check, Some(Some(NodeId(12345))), String::new()).unwrap();
        assert_eq!(answer, "hit unverified\n");
    }
}
