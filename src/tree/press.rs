//! Verified hits: which nodes may take a pointer press for it to have reached its target, and the
//! answer once the app has reported (`Automation::pointer_hit`) which node took it.
//!
//! The accepted nodes are fixed when the input is planned, against the tree it was aimed at: the
//! target and its descendants, and, when the target is not itself interactive (a label inside a
//! button), its ancestors too, since an enclosing widget takes the press for it. An interactive
//! target whose ancestor took the press missed: something kept the press from it. The render side
//! only compares ids; the service formats the answer.

use accesskit::{NodeId, TreeId};

use super::Trees;
use super::format::{self, num};
use super::hit::Aim;
use super::refs::Found;
use crate::protocol::{ErrorCode, Failure};

/// What the render side needs to tell whether a press reached its target, and what the service
/// needs to say so.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PressCheck {
    /// The window the press goes to.
    pub window: u64,
    /// The stage of the plan that holds the press.
    pub stage: usize,
    /// Where it lands, in logical pixels.
    pub at: (f64, f64),
    /// The target's line; `None` for a point target (nothing to verify).
    pub target: Option<String>,
    /// The ids (of the window's root tree) that may take the press, sorted.
    pub accept: Vec<NodeId>,
}

impl PressCheck {
    /// Whether a reported node (`None`: no node took the press) is one the target accepts.
    pub fn accepts(&self, node: Option<NodeId>) -> bool {
        node.is_some_and(|n| self.accept.binary_search(&n).is_ok())
    }

    /// Records a report: the first one the target does not accept stays, else the latest counts.
    pub fn record(&self, reported: &mut Option<Option<NodeId>>, node: Option<NodeId>) {
        if !reported.is_some_and(|r| !self.accepts(r)) {
            *reported = Some(node);
        }
    }
}

impl Trees {
    /// The check of a press aimed by `aim`, delivered in plan stage `stage`.
    pub(super) fn press_check(&self, aim: &Aim, stage: usize) -> PressCheck {
        let mut accept = Vec::new();
        let node = aim.found.and_then(|f| {
            let tree = self.mirror.windows.get(&f.window)?.tree.as_ref()?;
            tree.state().node_by_id(f.node)
        });
        if let Some(node) = node {
            let mut below = vec![node];
            while let Some(n) = below.pop() {
                accept.push(n.locate().0);
                below.extend(n.children());
            }
            if !format::is_interactive(&node) {
                let mut up = node.parent();
                while let Some(p) = up {
                    accept.push(p.locate().0);
                    up = p.parent();
                }
            }
        }
        accept.sort_unstable();
        accept.dedup();
        PressCheck {
            window: aim.window,
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
        let full = self.mirror.windows.get(&window).and_then(|w| {
            let state = w.tree.as_ref()?.state();
            Some(state.node_by_tree_local_id(id, TreeId::ROOT)?.id())
        });
        match full {
            Some(node) => self.node_line(Found { window, node }),
            None => format!("node {} (no longer in the tree)", id.0),
        }
    }

    /// The answer to a delivered pointer action whose plan held a press: its body with a `hit`
    /// line, or `missed` (with that body) when the app reported another node.
    pub(crate) fn press_answer(
        &mut self,
        check: &PressCheck,
        reported: Option<Option<NodeId>>,
        body: String,
    ) -> Result<String, Failure> {
        let Some(node) = reported else {
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
            "something the tree does not show took it (an overlay, a popup, a grab); take a \
             snapshot, or act on the target with `action TARGET click`",
        )
        .with_body(body))
    }
}

#[cfg(test)]
mod tests {
    use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};

    use super::super::{SceneChange, Trees};
    use crate::protocol::{Command, ErrorCode};
    use crate::widget::WindowState;

    /// A window: button "ok" (1) holding its text (2), button "other" (3), and a clickable card
    /// (4) holding a plain label (5).
    fn trees() -> Trees {
        let mut t = Trees::default();
        t.apply(SceneChange::State(
            1,
            WindowState {
                title: "t".into(),
                width: 400.0,
                height: 300.0,
                scale_factor: 1.0,
                focused: true,
            },
        ));
        let node = |role, label: &str, r: [f64; 4], children: &[u64]| {
            let mut n = Node::new(role);
            n.set_label(label);
            n.set_bounds(Rect::new(r[0], r[1], r[2], r[3]));
            n.set_children(children.iter().map(|&c| NodeId(c)).collect::<Vec<_>>());
            if role == Role::Button {
                n.add_action(Action::Click);
            }
            n
        };
        t.apply(SceneChange::Update(
            1,
            TreeUpdate {
                nodes: vec![
                    (
                        NodeId(0),
                        node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 3, 4]),
                    ),
                    (
                        NodeId(1),
                        node(Role::Button, "ok", [10.0, 10.0, 90.0, 40.0], &[2]),
                    ),
                    (
                        NodeId(2),
                        node(Role::Label, "OK", [20.0, 15.0, 80.0, 35.0], &[]),
                    ),
                    (
                        NodeId(3),
                        node(Role::Button, "other", [100.0, 10.0, 180.0, 40.0], &[]),
                    ),
                    (
                        NodeId(4),
                        node(Role::Button, "card", [10.0, 100.0, 300.0, 200.0], &[5]),
                    ),
                    (
                        NodeId(5),
                        node(Role::Label, "caption", [20.0, 110.0, 120.0, 130.0], &[]),
                    ),
                ],
                tree: Some(TreeInfo::new(NodeId(0))),
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            },
        ));
        t
    }

    fn plan(t: &mut Trees, line: &str) -> super::super::plan::Plan {
        t.plan(&Command::parse(line).unwrap()).unwrap().unwrap()
    }

    #[test]
    fn an_interactive_target_accepts_itself_and_its_descendants_only() {
        let mut t = trees();
        let check = plan(&mut t, "click name=ok").press.unwrap();
        assert_eq!(check.accept, [NodeId(1), NodeId(2)]);
        assert_eq!((check.stage, check.at), (1, (50.0, 25.0)));
        // A plain label accepts the widgets around it too: the card takes its press.
        let check = plan(&mut t, "click name=caption").press.unwrap();
        assert_eq!(check.accept, [NodeId(0), NodeId(4), NodeId(5)]);
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
        let answer = |t: &mut Trees, r| t.press_answer(&check, r, "path pointer\n".into());
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
        let body = t
            .press_answer(&check, Some(Some(NodeId(1))), String::new())
            .unwrap();
        assert!(
            body.starts_with("hit @e") && body.contains("button \"ok\""),
            "{body}"
        );
        let body = t.press_answer(&check, Some(None), String::new()).unwrap();
        assert_eq!(body, "hit none\n");
    }
}
