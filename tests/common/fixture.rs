//! Tree fixtures with named ids: a form with a scrollable list, as an AccessKit app would send it.
//! Bounds are physical pixels at the given scale, the way toolkits report them.
#![allow(dead_code)]

use accesskit::{Action, Node, NodeId, Rect, Role, Toggled, TreeId, TreeInfo, TreeUpdate};

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
