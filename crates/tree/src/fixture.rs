//! The tree fixtures of every test, in one place: the service's own unit tests and the root
//! package's (`fixtures` feature, for tests only; not part of the crate's API). Named ids: a form
//! with a scrollable list, as an AccessKit app would send it, wide and deep trees, egui's noise;
//! nodes and trees built in one call, and the one-window `AppTree` the unit tests start from.
//! Bounds are physical pixels at the given scale, the way toolkits report them.
#![allow(dead_code, missing_docs, clippy::missing_panics_doc)]

use accesskit::{Action, Node, NodeId, Rect, Role, Toggled, TreeId, TreeInfo, TreeUpdate};
use winit_automation_link::{SceneChange, WindowState};

use crate::AppTree;

pub const ROOT: NodeId = NodeId(1);
pub const EMAIL: NodeId = NodeId(2);
pub const REMEMBER: NodeId = NodeId(3);
pub const VOLUME: NodeId = NodeId(4);
pub const SAVE: NodeId = NodeId(5);
pub const FILES: NodeId = NodeId(6);
pub const DIALOG: NodeId = NodeId(7);
pub const HOSTILE: NodeId = NodeId(8);
/// List items are `ITEM0 + i`.
pub const ITEM0: u64 = 100;
pub const ITEMS: u64 = 50;

/// What the form shows; tests change fields and send the tree again.
#[derive(Clone)]
pub struct Form {
    pub scale: f64,
    pub email: String,
    pub remember: bool,
    pub volume: f64,
    pub save_label: String,
    /// Logical pixels the list is scrolled by.
    pub scroll: f64,
    pub dialog_open: bool,
    pub hostile: String,
}

impl Default for Form {
    fn default() -> Self {
        Form {
            scale: 1.0,
            email: "ada@example.com".into(),
            remember: false,
            volume: 40.0,
            save_label: "Save".into(),
            scroll: 0.0,
            dialog_open: false,
            hostile: "line one\nline \"two\"\t\u{7}end".into(),
        }
    }
}

impl Form {
    fn rect(&self, x: f64, y: f64, w: f64, h: f64) -> Rect {
        let k = self.scale;
        Rect::new(x * k, y * k, (x + w) * k, (y + h) * k)
    }

    /// The full tree.
    pub fn update(&self) -> TreeUpdate {
        let mut nodes = Vec::new();
        let mut root = Node::new(Role::Window);
        root.set_label("Demo");
        root.set_bounds(self.rect(0.0, 0.0, 800.0, 600.0));
        let mut children = vec![EMAIL, REMEMBER, VOLUME, SAVE, FILES, HOSTILE];
        if self.dialog_open {
            children.push(DIALOG);
        }
        root.set_children(children);
        nodes.push((ROOT, root));

        let mut email = Node::new(Role::TextInput);
        email.set_label("Email");
        email.set_value(self.email.clone());
        email.set_bounds(self.rect(20.0, 20.0, 300.0, 30.0));
        email.add_action(Action::Focus);
        email.add_action(Action::SetValue);
        nodes.push((EMAIL, email));

        let mut remember = Node::new(Role::CheckBox);
        remember.set_label("Remember me");
        remember.set_toggled(if self.remember {
            Toggled::True
        } else {
            Toggled::False
        });
        remember.set_bounds(self.rect(20.0, 60.0, 150.0, 24.0));
        remember.add_action(Action::Click);
        nodes.push((REMEMBER, remember));

        let mut volume = Node::new(Role::Slider);
        volume.set_label("Volume");
        volume.set_numeric_value(self.volume);
        volume.set_bounds(self.rect(20.0, 100.0, 200.0, 20.0));
        volume.add_action(Action::Increment);
        volume.add_action(Action::Decrement);
        nodes.push((VOLUME, volume));

        let mut save = Node::new(Role::Button);
        save.set_label(self.save_label.clone());
        save.set_bounds(self.rect(20.0, 140.0, 80.0, 30.0));
        save.add_action(Action::Click);
        nodes.push((SAVE, save));

        // A list 100 logical pixels tall showing 20-pixel items: 5 visible at a time.
        let mut files = Node::new(Role::List);
        files.set_label("Files");
        files.set_bounds(self.rect(400.0, 20.0, 300.0, 100.0));
        files.set_clips_children();
        files.set_scroll_y(self.scroll * self.scale);
        files.add_action(Action::ScrollDown);
        files.add_action(Action::ScrollUp);
        files.set_children((0..ITEMS).map(|i| NodeId(ITEM0 + i)).collect::<Vec<_>>());
        nodes.push((FILES, files));
        for i in 0..ITEMS {
            let mut item = Node::new(Role::ListItem);
            item.set_label(format!("file-{i:02}.txt"));
            item.set_bounds(self.rect(400.0, 20.0 + 20.0 * i as f64 - self.scroll, 300.0, 20.0));
            item.add_action(Action::Click);
            nodes.push((NodeId(ITEM0 + i), item));
        }

        let mut hostile = Node::new(Role::Label);
        hostile.set_value(self.hostile.clone());
        hostile.set_bounds(self.rect(20.0, 200.0, 300.0, 20.0));
        nodes.push((HOSTILE, hostile));

        if self.dialog_open {
            let mut dialog = Node::new(Role::Dialog);
            dialog.set_label("Confirm");
            dialog.set_bounds(self.rect(200.0, 200.0, 400.0, 200.0));
            nodes.push((DIALOG, dialog));
        }
        TreeUpdate {
            nodes,
            tree: Some(TreeInfo::new(ROOT)),
            tree_id: TreeId::ROOT,
            focus: EMAIL,
        }
    }
}

/// A window (800x600 at scale 1) with a button `Under` at 10,10 (100x30) and, published after it
/// (so on top in paint order), an interactive, clipping `table` group whose bounds are infinite, as
/// an `egui_extras` table publishes its cells. The table holds a row with finite bounds at 10,100
/// (200x20), a row with infinite bounds too, and a row below the window.
pub fn unbounded_table() -> TreeUpdate {
    let everywhere = Rect::new(
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::INFINITY,
    );
    let mut root = Node::new(Role::Window);
    root.set_label("Gallery");
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    root.set_children(vec![NodeId(2), NodeId(3)]);
    let mut under = Node::new(Role::Button);
    under.set_label("Under");
    under.set_bounds(Rect::new(10.0, 10.0, 110.0, 40.0));
    under.add_action(Action::Click);
    let mut table = Node::new(Role::Group);
    table.set_label("table");
    table.set_bounds(everywhere);
    table.set_clips_children();
    table.add_action(Action::Click);
    table.set_children(vec![NodeId(4), NodeId(5), NodeId(6)]);
    let row = |name: &str, bounds: Rect| {
        let mut row = Node::new(Role::Row);
        row.set_label(name);
        row.set_bounds(bounds);
        row
    };
    TreeUpdate {
        nodes: vec![
            (NodeId(1), root),
            (NodeId(2), under),
            (NodeId(3), table),
            (
                NodeId(4),
                row("row one", Rect::new(10.0, 100.0, 210.0, 120.0)),
            ),
            (NodeId(5), row("row everywhere", everywhere)),
            (
                NodeId(6),
                row("row below", Rect::new(10.0, 700.0, 210.0, 720.0)),
            ),
        ],
        tree: Some(TreeInfo::new(NodeId(1))),
        tree_id: TreeId::ROOT,
        focus: NodeId(1),
    }
}

/// A full tree of `n` buttons under the root, each 10 pixels tall in a column.
pub fn wide(n: u64) -> TreeUpdate {
    let mut root = Node::new(Role::Window);
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    root.set_children((1..=n).map(NodeId).collect::<Vec<_>>());
    let mut nodes = vec![(NodeId(0), root)];
    for i in 1..=n {
        let mut b = Node::new(Role::Button);
        b.set_label(format!("button {i}"));
        b.set_bounds(Rect::new(
            0.0,
            (i - 1) as f64 * 10.0,
            100.0,
            i as f64 * 10.0,
        ));
        b.add_action(Action::Click);
        nodes.push((NodeId(i), b));
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

/// A chain `depth` levels deep.
pub fn deep(depth: u64) -> TreeUpdate {
    let mut nodes = Vec::new();
    for i in 0..depth {
        let mut n = Node::new(Role::GenericContainer);
        n.set_label(format!("level {i}"));
        if i + 1 < depth {
            n.set_children(vec![NodeId(i + 1)]);
        }
        nodes.push((NodeId(i), n));
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

/// The noisy nodes an egui window publishes, in one window "Gallery" (800x600 at scale 1):
/// labels whose text is repeated by `TextRun` children (one run per row, as egui writes them),
/// buttons named by a label child, text fields with runs (one empty), an unnamed container of
/// several widgets, an unnamed wrapper of one checkbox, a title bar (`unknown`, unnamed, clickable)
/// and resize handles (`unknown`, no name, no action), one of them right of the window.
pub mod noisy {
    use super::*;

    pub const ROOT: NodeId = NodeId(1);
    pub const HEADING: NodeId = NodeId(2);
    pub const HEADING_RUN: NodeId = NodeId(200);
    pub const PARAGRAPH: NodeId = NodeId(3);
    pub const PANEL: NodeId = NodeId(10);
    pub const SAVE: NodeId = NodeId(11);
    pub const SAVE_LABEL: NodeId = NodeId(110);
    pub const DELETE: NodeId = NodeId(12);
    pub const DELETE_LABEL: NodeId = NodeId(120);
    pub const NAME: NodeId = NodeId(13);
    pub const NAME_RUN: NodeId = NodeId(130);
    pub const EMAIL: NodeId = NodeId(14);
    pub const EMAIL_RUN: NodeId = NodeId(140);
    pub const WRAPPER: NodeId = NodeId(20);
    pub const DARK: NodeId = NodeId(21);
    pub const TITLE_BAR: NodeId = NodeId(30);
    /// Resize handles are `HANDLE0 + i`; the last one lies right of the window.
    pub const HANDLE0: u64 = 40;
    pub const HANDLES: u64 = 5;

    /// What changes between updates.
    #[derive(Clone)]
    pub struct Gallery {
        pub heading: String,
        /// The text of the heading's run; the heading's own when `None`.
        pub heading_run: Option<String>,
        pub name: String,
    }

    impl Default for Gallery {
        fn default() -> Self {
            Gallery {
                heading: "Welcome to the gallery".into(),
                heading_run: None,
                name: "Ada".into(),
            }
        }
    }

    fn rect(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect::new(x, y, x + w, y + h)
    }

    fn node(role: Role, bounds: Rect, children: &[NodeId]) -> Node {
        let mut n = Node::new(role);
        n.set_bounds(bounds);
        if !children.is_empty() {
            n.set_children(children.to_vec());
        }
        n
    }

    fn run(text: &str, bounds: Rect) -> Node {
        let mut n = node(Role::TextRun, bounds, &[]);
        n.set_value(text);
        n
    }

    fn label(text: &str, bounds: Rect, children: &[NodeId]) -> Node {
        let mut n = node(Role::Label, bounds, children);
        n.set_value(text);
        n
    }

    impl Gallery {
        pub fn update(&self) -> TreeUpdate {
            let mut nodes = Vec::new();
            let mut children = vec![HEADING, PARAGRAPH, PANEL, WRAPPER, TITLE_BAR];
            children.extend((0..HANDLES).map(|i| NodeId(HANDLE0 + i)));
            let mut root = node(Role::Window, rect(0.0, 0.0, 800.0, 600.0), &children);
            root.set_label("Gallery");
            nodes.push((ROOT, root));

            // egui's labels are clickable (text selection) and hold their text in `value`.
            let bounds = rect(10.0, 30.0, 200.0, 20.0);
            let mut heading = label(&self.heading, bounds, &[HEADING_RUN]);
            heading.add_action(Action::Click);
            nodes.push((HEADING, heading));
            let heading_run = self.heading_run.as_deref().unwrap_or(&self.heading);
            nodes.push((HEADING_RUN, run(heading_run, bounds)));

            // A label wrapped onto two rows: one run per row, the space kept at the break.
            nodes.push((
                PARAGRAPH,
                label(
                    "A long paragraph that wraps onto a second row",
                    rect(10.0, 60.0, 200.0, 40.0),
                    &[NodeId(300), NodeId(301)],
                ),
            ));
            nodes.push((
                NodeId(300),
                run(
                    "A long paragraph that wraps ",
                    rect(10.0, 60.0, 200.0, 20.0),
                ),
            ));
            nodes.push((
                NodeId(301),
                run("onto a second row", rect(10.0, 80.0, 130.0, 20.0)),
            ));

            nodes.push((
                PANEL,
                node(
                    Role::GenericContainer,
                    rect(10.0, 110.0, 400.0, 200.0),
                    &[SAVE, DELETE, NAME, EMAIL],
                ),
            ));
            // Named by its label child (AccessKit takes a button's name from its labels).
            let mut save = node(Role::Button, rect(10.0, 110.0, 80.0, 30.0), &[SAVE_LABEL]);
            save.add_action(Action::Click);
            nodes.push((SAVE, save));
            nodes.push((
                SAVE_LABEL,
                label("Save", rect(20.0, 115.0, 40.0, 20.0), &[]),
            ));
            // A label that says more than the button's name is not folded.
            let mut delete = node(
                Role::Button,
                rect(100.0, 110.0, 80.0, 30.0),
                &[DELETE_LABEL],
            );
            delete.set_label("Delete");
            delete.add_action(Action::Click);
            nodes.push((DELETE, delete));
            nodes.push((
                DELETE_LABEL,
                label("Delete all files", rect(110.0, 115.0, 60.0, 20.0), &[]),
            ));
            for (id, run_id, name, value, y) in [
                (NAME, NAME_RUN, "Name", self.name.as_str(), 150.0),
                (EMAIL, EMAIL_RUN, "Email", "", 190.0),
            ] {
                let mut field = node(Role::TextInput, rect(10.0, y, 300.0, 30.0), &[run_id]);
                field.set_label(name);
                field.set_value(value);
                field.add_action(Action::Focus);
                field.add_action(Action::SetValue);
                nodes.push((id, field));
                nodes.push((
                    run_id,
                    run(value, rect(15.0, y + 5.0, 8.0 * value.len() as f64, 20.0)),
                ));
            }

            nodes.push((
                WRAPPER,
                node(
                    Role::GenericContainer,
                    rect(10.0, 320.0, 200.0, 30.0),
                    &[DARK],
                ),
            ));
            let mut dark = node(Role::CheckBox, rect(10.0, 320.0, 150.0, 24.0), &[]);
            dark.set_label("Dark mode");
            dark.set_toggled(Toggled::False);
            dark.add_action(Action::Click);
            nodes.push((DARK, dark));

            let mut title_bar = node(Role::Unknown, rect(0.0, 0.0, 800.0, 24.0), &[]);
            title_bar.add_action(Action::Click);
            nodes.push((TITLE_BAR, title_bar));
            for i in 0..HANDLES {
                let x = if i + 1 == HANDLES {
                    900.0
                } else {
                    790.0 * (i % 2) as f64
                };
                let y = 590.0 * (i / 2 % 2) as f64;
                nodes.push((
                    NodeId(HANDLE0 + i),
                    node(Role::Unknown, rect(x, y, 10.0, 10.0), &[]),
                ));
            }
            TreeUpdate {
                nodes,
                tree: Some(TreeInfo::new(ROOT)),
                tree_id: TreeId::ROOT,
                focus: ROOT,
            }
        }
    }
}

/// A node: role, label, bounds (x0, y0, x1, y1, physical pixels at scale 1), children. Buttons
/// and menu items are clickable.
pub fn node(role: Role, label: &str, r: [f64; 4], children: &[u64]) -> Node {
    let mut n = Node::new(role);
    n.set_label(label);
    n.set_bounds(Rect::new(r[0], r[1], r[2], r[3]));
    n.set_children(children.iter().map(|&c| NodeId(c)).collect::<Vec<_>>());
    if matches!(role, Role::Button | Role::MenuItem) {
        n.add_action(Action::Click);
    }
    n
}

/// A full tree of `nodes` (the first is the root), focus on node 0.
pub fn tree(nodes: Vec<(u64, Node)>) -> TreeUpdate {
    TreeUpdate {
        tree: Some(TreeInfo::new(NodeId(nodes[0].0))),
        nodes: nodes.into_iter().map(|(id, n)| (NodeId(id), n)).collect(),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

/// Node ids from numbers.
pub fn ids(ids: &[u64]) -> Vec<NodeId> {
    ids.iter().map(|&id| NodeId(id)).collect()
}

/// The window the unit tests put their trees in: "t", `width` x `height` at scale 1, focused.
pub fn test_window(width: f64, height: f64) -> WindowState {
    WindowState {
        title: "t".into(),
        width,
        height,
        scale_factor: 1.0,
        focused: true,
    }
}

/// AppTree holding window 1 ([`test_window`], `width` x `height`) with `content` applied.
pub fn one_window(width: f64, height: f64, content: SceneChange) -> AppTree {
    let mut trees = AppTree::default();
    trees.apply(SceneChange::State(1, test_window(width, height)));
    trees.apply(content);
    trees
}
