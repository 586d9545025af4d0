//! Naming a resolved node by a selector, for the journal (docs/protocol.md, section 6.5): a ref
//! (`@e5`) or a point (`120,48`) means something only in this run and this layout, a selector
//! that names the same node can be replayed in another.
//!
//! The selector is `role=R name="N"` (the terms that are not empty; for a node with no name,
//! `label="L"` when it has a label (`label.rs`), else `text="V"` when it has a text value, as
//! egui labels do), then `nth=K` when those
//! terms alone match several nodes (K its index among the matches, as `find` lists them). When
//! they do and the node's `author_id` names it alone, `id=ID` is the selector instead. A text
//! child folded into its parent (one `find` does not list on its own: it only repeats the parent's
//! text) is named by that parent, which snapshots print in its place.
//!
//! Pure: it reads the mirror and the ref table as they are when the command is resolved.

use accesskit_consumer::NodeRef as Node;

use super::found::Found;
use super::hit::node_at;
use super::label::label_of;
use super::mirror::WindowTrees;
use super::node::name_of;
use super::refs::Refs;
use super::resolve::find_all;
use winit_automation_protocol::role_name;
use winit_automation_protocol::{Command, DragEnd, JournalTarget, Point, Selector, Target, Term};

/// A selector naming `found` alone in `mirror`, or `None` when the node is not in it.
pub fn selector_for(mirror: &WindowTrees, found: Found) -> Option<Selector> {
    let tree = mirror.windows.get(&found.window)?.tree.as_ref()?;
    let mut node = tree.state().node_by_id(found.node)?;
    loop {
        if let Some(selector) = naming(mirror, found.window, &node) {
            return Some(selector);
        }
        // Folded into its parent: no selector lists it on its own.
        node = node.parent()?;
    }
}

/// The terms that describe a node: its role, then its name, else its label (an unnamed
/// control's, which stays while its value changes), else its text value.
fn terms_of(node: &Node) -> Vec<Term> {
    let mut terms = vec![Term::Role(role_name(node.role()).into_owned())];
    let name = name_of(node);
    if !name.is_empty() {
        terms.push(Term::Name(name));
    } else if let Some(label) = label_of(node) {
        terms.push(Term::Label(label));
    } else if let Some(value) = node
        .value()
        .filter(|v| !v.is_empty() && node.role() != accesskit::Role::PasswordInput)
    {
        // A password field is never named by its value.
        terms.push(Term::Text(value));
    }
    terms
}

/// The selector of `node` when the matches of its terms list it, else `None`.
fn naming(mirror: &WindowTrees, window: u64, node: &Node) -> Option<Selector> {
    let me = Found {
        window,
        node: node.id(),
    };
    let plain = Selector {
        terms: terms_of(node),
        nth: None,
    };
    let matches = find_all(mirror, &plain);
    let k = matches.iter().position(|f| *f == me)?;
    if matches.len() == 1 {
        return Some(plain);
    }
    if let Some(id) = node.author_id() {
        let by_id = Selector {
            terms: vec![Term::Id(id.to_owned())],
            nth: None,
        };
        if find_all(mirror, &by_id) == [me] {
            return Some(by_id);
        }
    }
    Some(Selector {
        nth: Some(k),
        ..plain
    })
}

/// The targets of `command` given as a ref or a point, named by selectors ([`Names::targets`]).
pub fn named_targets(mirror: &WindowTrees, refs: &Refs, command: &Command) -> Vec<JournalTarget> {
    Names { mirror, refs }.targets(command)
}

/// What naming reads: the mirror, and the refs a target may give.
struct Names<'a> {
    mirror: &'a WindowTrees,
    refs: &'a Refs,
}

impl Names<'_> {
    /// The targets of `command` given as a ref or a point that resolve to a node now, each named
    /// by a selector ([`selector_for`]). A selector target needs no naming; a stale ref, or a
    /// point over no node, resolves to nothing and is left out. A point names the topmost node at
    /// it (the hit test's), in the window a pointer verb would aim in: the focused one, else the
    /// first; a drag's end point in the window where the drag starts.
    fn targets(&self, command: &Command) -> Vec<JournalTarget> {
        let one = |target: Option<&Target>| -> Vec<JournalTarget> {
            target
                .and_then(|t| self.named(t, None))
                .map(|selector| JournalTarget {
                    end: None,
                    selector,
                })
                .into_iter()
                .collect()
        };
        match command {
            Command::Get { target }
            | Command::Click { target, .. }
            | Command::Hover { target, .. }
            | Command::Scroll { target, .. }
            | Command::Fill { target, .. }
            | Command::Action { target, .. }
            | Command::Focus { target, .. }
            | Command::Down { target, .. }
            | Command::Move { target, .. }
            | Command::Pinch { target, .. } => one(Some(target)),
            Command::Snapshot(o) => one(o.scope.as_ref()),
            Command::Screenshot { crop, .. } => one(crop.as_ref()),
            Command::Audit { scope, .. } => one(scope.as_ref()),
            Command::Drag { from, to, .. } => {
                let start = self.found(from, None);
                // Where the drag starts, as planning finds it.
                let window = match (from, start) {
                    (_, Some(f)) => Some(f.window),
                    (Target::Point(_), None) => self.mirror.default_window().ok(),
                    (Target::Selector(s), None) => self.selected(s).map(|f| f.window),
                    (Target::Ref(_), None) => None,
                };
                let start = start.and_then(|f| selector_for(self.mirror, f));
                let end = match (to, window) {
                    (Target::Point(p), Some(w)) => self.at_point(w, *p),
                    _ => self.found(to, None),
                }
                .and_then(|f| selector_for(self.mirror, f));
                let named = |end, selector| JournalTarget {
                    end: Some(end),
                    selector,
                };
                let mut out = Vec::new();
                out.extend(start.map(|s| named(DragEnd::From, s)));
                out.extend(end.map(|s| named(DragEnd::To, s)));
                out
            }
            _ => Vec::new(),
        }
    }

    fn named(&self, target: &Target, window: Option<u64>) -> Option<Selector> {
        selector_for(self.mirror, self.found(target, window)?)
    }

    /// The node a ref or a point resolves to now (a point in `window`, else the default window);
    /// `None` for a selector.
    fn found(&self, target: &Target, window: Option<u64>) -> Option<Found> {
        match target {
            Target::Ref(r) => self.refs.resolve(self.mirror, *r).ok(),
            Target::Point(p) => {
                let window = match window {
                    Some(w) => w,
                    None => self.mirror.default_window().ok()?,
                };
                self.at_point(window, *p)
            }
            Target::Selector(_) => None,
        }
    }

    /// The one node a selector picks now, if it picks one.
    fn selected(&self, selector: &Selector) -> Option<Found> {
        let all = find_all(self.mirror, selector);
        match selector.nth {
            Some(n) => all.get(n).copied(),
            None if all.len() == 1 => all.first().copied(),
            None => None,
        }
    }

    fn at_point(&self, window: u64, p: Point) -> Option<Found> {
        let w = self.mirror.windows.get(&window)?;
        let k = w.units_per_logical();
        let node = node_at(w, accesskit::Point::new(p.x * k, p.y * k))?;
        Some(Found {
            window,
            node: node.id(),
        })
    }
}

#[cfg(test)]
mod tests {
    use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};

    use super::*;
    use crate::AppTree;
    use winit_automation_link::SceneChange;

    fn node(role: Role, name: &str, value: &str, x: f64, children: &[u64]) -> Node {
        let mut n = Node::new(role);
        if !name.is_empty() {
            n.set_label(name);
        }
        if !value.is_empty() {
            n.set_value(value);
        }
        n.set_bounds(Rect::new(x, 0.0, x + 50.0, 30.0));
        n.set_children(children.iter().map(|&c| NodeId(c)).collect::<Vec<_>>());
        if role == Role::Button {
            n.add_action(Action::Click);
        }
        n
    }

    /// Window 1 (400x300): a root window "Demo" holding the nodes, each 50 pixels wide in a row.
    fn trees(nodes: Vec<(u64, Node)>) -> AppTree {
        let mut root = Node::new(Role::Window);
        root.set_label("Demo");
        root.set_bounds(Rect::new(0.0, 0.0, 400.0, 300.0));
        let top: Vec<NodeId> = nodes
            .iter()
            .map(|(id, _)| NodeId(*id))
            .filter(|id| id.0 < 100)
            .collect();
        root.set_children(top);
        let mut all = vec![(NodeId(1), root)];
        all.extend(nodes.into_iter().map(|(id, n)| (NodeId(id), n)));
        crate::fixture::one_window(
            400.0,
            300.0,
            SceneChange::Update(
                1,
                TreeUpdate {
                    nodes: all,
                    tree: Some(TreeInfo::new(NodeId(1))),
                    tree_id: TreeId::ROOT,
                    focus: NodeId(1),
                },
            ),
        )
    }

    fn name(trees: &AppTree, id: u64) -> String {
        let tree = trees.mirror.windows[&1].tree.as_ref().unwrap();
        let node = tree.state().node_by_id(tree_id(trees, id)).unwrap();
        let found = Found {
            window: 1,
            node: node.id(),
        };
        selector_for(&trees.mirror, found).unwrap().to_string()
    }

    fn tree_id(trees: &AppTree, id: u64) -> accesskit_consumer::FullNodeId {
        let tree = trees.mirror.windows[&1].tree.as_ref().unwrap();
        let root = tree.state().root();
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if n.locate().0 == NodeId(id) {
                return n.id();
            }
            stack.extend(n.children());
        }
        panic!("no node {id}")
    }

    /// The selector resolves back to the node it names, as `find` would.
    fn names_alone(trees: &AppTree, id: u64) {
        let selector = Selector::parse(&name(trees, id)).unwrap();
        let all = find_all(&trees.mirror, &selector);
        let picked = match selector.nth {
            Some(n) => all[n],
            None => {
                assert_eq!(all.len(), 1, "{selector}");
                all[0]
            }
        };
        assert_eq!(picked.node, tree_id(trees, id), "{selector}");
    }

    #[test]
    fn a_unique_role_and_name_is_the_whole_selector() {
        let t = trees(vec![
            (2, node(Role::Button, "Save", "", 0.0, &[])),
            (3, node(Role::Button, "Quit", "", 60.0, &[])),
        ]);
        assert_eq!(name(&t, 2), "role=button name=\"Save\"");
        assert_eq!(name(&t, 1), "role=window name=\"Demo\"");
        names_alone(&t, 2);
    }

    #[test]
    fn an_ambiguous_role_and_name_gets_its_index_among_the_matches() {
        let t = trees(vec![
            (2, node(Role::Button, "OK", "", 0.0, &[])),
            (3, node(Role::Button, "OK", "", 60.0, &[])),
            (4, node(Role::CheckBox, "OK", "", 120.0, &[])),
        ]);
        assert_eq!(name(&t, 2), "role=button name=\"OK\" nth=0");
        assert_eq!(name(&t, 3), "role=button name=\"OK\" nth=1");
        // Another role with the same name is no match.
        assert_eq!(name(&t, 4), "role=checkbox name=\"OK\"");
        names_alone(&t, 3);
    }

    #[test]
    fn a_node_without_a_name_is_named_by_its_text_value() {
        let t = trees(vec![
            (2, node(Role::Label, "", "Welcome \"home\"", 0.0, &[])),
            (3, node(Role::Label, "", "Bye", 60.0, &[])),
        ]);
        assert_eq!(name(&t, 2), "role=text text=\"Welcome \\\"home\\\"\"");
        names_alone(&t, 2);
    }

    #[test]
    fn a_node_without_name_or_value_is_named_by_its_role_and_index() {
        let t = trees(vec![
            (2, node(Role::GenericContainer, "", "", 0.0, &[])),
            (3, node(Role::Group, "", "", 60.0, &[])),
            (4, node(Role::Image, "", "", 120.0, &[])),
        ]);
        // `group` is both GenericContainer and Group.
        assert_eq!(name(&t, 3), "role=group nth=1");
        assert_eq!(name(&t, 4), "role=image");
        names_alone(&t, 3);
    }

    #[test]
    fn a_unique_author_id_stands_in_for_an_index() {
        let mut a = node(Role::Button, "OK", "", 0.0, &[]);
        a.set_author_id("ok-left");
        let mut b = node(Role::Button, "OK", "", 60.0, &[]);
        b.set_author_id("ok-right");
        let mut c = node(Role::Button, "Save", "", 120.0, &[]);
        c.set_author_id("save");
        let t = trees(vec![(2, a), (3, b), (4, c)]);
        assert_eq!(name(&t, 3), "id=ok-right");
        // Role and name alone are unique: no id needed.
        assert_eq!(name(&t, 4), "role=button name=\"Save\"");
    }

    #[test]
    fn a_text_run_folded_into_its_label_is_named_by_the_label() {
        let t = trees(vec![
            (2, node(Role::Label, "", "Welcome", 0.0, &[100])),
            (100, node(Role::TextRun, "", "Welcome", 0.0, &[])),
        ]);
        assert_eq!(name(&t, 100), "role=text text=\"Welcome\"");
        assert_eq!(name(&t, 2), "role=text text=\"Welcome\"");
    }

    #[test]
    fn refs_and_points_are_named_selectors_are_not() {
        let t = trees(vec![
            (2, node(Role::Button, "OK", "", 0.0, &[])),
            (3, node(Role::Button, "OK", "", 60.0, &[])),
        ]);
        // A point over the second button, one over the window only, one outside it.
        let named = |line: &str| -> Vec<String> {
            t.named_targets(&Command::parse(line).unwrap())
                .into_iter()
                .map(|target| target.to_string()["target ".len()..].to_owned())
                .collect()
        };
        assert_eq!(named("click 70,10"), ["role=button name=\"OK\" nth=1"]);
        assert_eq!(named("click 300,200"), ["role=window name=\"Demo\""]);
        assert!(named("click 900,10").is_empty());
        assert!(named("click role=button nth=1").is_empty());
        assert!(named("click @e1").is_empty(), "never handed out");
        assert_eq!(
            named("drag 10,10 to 70,10"),
            [
                "from role=button name=\"OK\" nth=0",
                "to role=button name=\"OK\" nth=1"
            ]
        );
        assert_eq!(
            named("drag name=\"OK\" nth=0 to 70,10"),
            ["to role=button name=\"OK\" nth=1"]
        );
        assert!(named("type hello").is_empty());
    }
}
