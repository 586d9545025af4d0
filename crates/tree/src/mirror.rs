//! The mirror: one `accesskit_consumer::Tree` per window, fed with every update the app produced.
//!
//! Runs on the service thread. An invalid update (one `accesskit_consumer` rejects by panicking) is
//! caught: the window's mirror is dropped and marked with the error until the app sends a full
//! update again, and the service thread keeps running.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};

use accesskit::{Node, NodeId, Rect, Role, Toggled, TreeId, TreeInfo, TreeUpdate};
use accesskit_consumer::{NodeRef, Tree, TreeChangeHandler as ChangeHandler};

use crate::change_log::{ChangeLog, Changed, What};
use crate::found::Found;
use winit_automation_protocol::{ErrorCode, Failure};

use winit_automation_link::SceneChange;
use winit_automation_link::Widget;
use winit_automation_link::{GpuInfo, Layers, SurfaceInfo, WindowState};

/// Where a window's tree comes from; it decides the unit of its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// AccessKit updates: bounds in physical pixels.
    AccessKit,
    /// Widget records: bounds in logical pixels.
    Widgets,
}

/// One window's mirror.
pub struct WindowTree {
    pub(crate) state: Option<WindowState>,
    pub(crate) surface: Option<SurfaceInfo>,
    pub(crate) tree: Option<Tree>,
    /// The app's layers, empty until it hands them over.
    pub(crate) layers: Layers,
    pub(crate) source: Source,
    /// Why the last update was rejected, until a valid one arrives.
    pub(crate) error: Option<String>,
    /// Widget records dropped from the last set (parent cycles).
    pub(crate) dropped_widgets: usize,
    /// The app said the window is animating (it wants frames with no input).
    pub(crate) animating: bool,
    widget_ids: HashMap<String, NodeId>,
    next_widget_id: u64,
}

/// The synthetic root of a widget-record tree.
const WIDGET_ROOT: NodeId = NodeId(0);

impl WindowTree {
    fn new() -> WindowTree {
        WindowTree {
            state: None,
            surface: None,
            tree: None,
            layers: Layers::default(),
            source: Source::AccessKit,
            error: None,
            dropped_widgets: 0,
            animating: false,
            widget_ids: HashMap::new(),
            next_widget_id: 1,
        }
    }

    /// The window's tree, once the app sent a full one (AccessKit) or widget records.
    pub fn tree(&self) -> Option<&Tree> {
        self.tree.as_ref()
    }

    /// The window's size, scale and focus, once the app reported them.
    pub fn state(&self) -> Option<&WindowState> {
        self.state.as_ref()
    }

    /// The app's layers, empty until it hands them over.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    /// Where the tree comes from, which decides the unit of its bounds.
    pub fn source(&self) -> Source {
        self.source
    }

    /// The scale factor (1 until the app reports one).
    pub fn scale(&self) -> f64 {
        self.state
            .as_ref()
            .map_or(1.0, |s| s.scale_factor)
            .max(f64::MIN_POSITIVE)
    }

    /// How many tree units make one logical pixel.
    pub fn units_per_logical(&self) -> f64 {
        match self.source {
            Source::AccessKit => self.scale(),
            Source::Widgets => 1.0,
        }
    }

    /// The window's content rectangle in tree units, if its size is known.
    pub fn viewport(&self) -> Option<Rect> {
        let s = self.state.as_ref()?;
        let k = self.units_per_logical();
        Some(Rect::new(0.0, 0.0, s.width * k, s.height * k))
    }

    /// The node a resolved target names, still in this window's tree; `line` names it in the
    /// refusal when it is gone.
    pub fn live_node(&self, found: Found, line: &str) -> Result<NodeRef<'_>, Failure> {
        self.tree
            .as_ref()
            .and_then(|t| t.state().node_by_id(found.node))
            .ok_or_else(|| {
                Failure::new(
                    ErrorCode::NotFound,
                    format!("{line} is gone"),
                    "take a fresh snapshot",
                )
            })
    }

    /// Whether the tree is missing or holds only its root.
    pub fn is_sparse(&self) -> bool {
        match &self.tree {
            None => true,
            Some(t) => t.state().root().children().len() == 0,
        }
    }

    /// Applies an update of window `id`, recording what it changed in `change_log`; returns whether
    /// anything changed.
    fn apply(&mut self, id: u64, update: TreeUpdate, change_log: &mut ChangeLog) -> bool {
        let result = catch_unwind(AssertUnwindSafe(|| match self.tree.as_mut() {
            Some(tree) => {
                let mut counter = Changes {
                    count: 0,
                    window: id,
                    change_log: &mut *change_log,
                };
                tree.update_and_process_changes(update, &mut counter);
                Ok(counter.count > 0)
            }
            None if update.tree.is_some() => {
                self.tree = Some(Tree::new(update, true));
                Ok(true)
            }
            None => Err(
                "the first update of a window must be a full one (TreeUpdate::tree set)".to_owned(),
            ),
        }));
        match result {
            Ok(Ok(changed)) => {
                self.error = None;
                changed
            }
            Ok(Err(why)) => {
                self.error = Some(why);
                false
            }
            Err(panic) => {
                let why = winit_automation_protocol::panic_message(&*panic);
                self.tree = None;
                self.error = Some(format!(
                    "the app sent an invalid TreeUpdate ({why}); waiting for a full update"
                ));
                true
            }
        }
    }

    fn widget_node_id(&mut self, id: &str) -> NodeId {
        if let Some(&n) = self.widget_ids.get(id) {
            return n;
        }
        let n = NodeId(self.next_widget_id);
        self.next_widget_id += 1;
        self.widget_ids.insert(id.to_owned(), n);
        n
    }

    /// Turns a full set of widget records into a full AccessKit update.
    fn widgets_update(&mut self, widgets: Vec<Widget>) -> TreeUpdate {
        let ids: Vec<NodeId> = widgets.iter().map(|w| self.widget_node_id(&w.id)).collect();
        let index: HashMap<&str, usize> = widgets
            .iter()
            .enumerate()
            .map(|(i, w)| (w.id.as_str(), i))
            .collect();
        // Children lists in record order; unknown parents make a widget top-level.
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); widgets.len()];
        let mut top = Vec::new();
        for (i, w) in widgets.iter().enumerate() {
            match w.parent.as_deref().and_then(|p| index.get(p)) {
                Some(&p) if p != i => children[p].push(i),
                _ => top.push(i),
            }
        }
        // Only what the root reaches is kept: records in a parent cycle are dropped.
        let mut reached = vec![false; widgets.len()];
        let mut stack = top.clone();
        while let Some(i) = stack.pop() {
            if !std::mem::replace(&mut reached[i], true) {
                stack.extend(children[i].iter().copied());
            }
        }
        self.dropped_widgets = reached.iter().filter(|r| !**r).count();
        let mut focus = WIDGET_ROOT;
        let mut nodes = Vec::with_capacity(widgets.len() + 1);
        let mut root = Node::new(Role::Window);
        if let Some(title) = self.state.as_ref().map(|s| s.title.clone()) {
            root.set_label(title);
        }
        root.set_children(top.iter().map(|&i| ids[i]).collect::<Vec<_>>());
        nodes.push((WIDGET_ROOT, root));
        for (i, w) in widgets.into_iter().enumerate() {
            if !reached[i] {
                continue;
            }
            let mut node = Node::new(w.role);
            if !w.name.is_empty() {
                node.set_label(w.name);
            }
            node.set_author_id(w.id);
            if let Some(b) = w.bounds {
                node.set_bounds(Rect::new(
                    b.x,
                    b.y,
                    b.x + b.width.max(0.0),
                    b.y + b.height.max(0.0),
                ));
            }
            if let Some(v) = w.value {
                node.set_value(v);
            }
            let s = w.states;
            if s.focused {
                focus = ids[i];
            }
            if s.disabled {
                node.set_disabled();
            }
            if s.hidden {
                node.set_hidden();
            }
            if s.clips_children {
                node.set_clips_children();
            }
            if let Some(c) = s.checked {
                node.set_toggled(if c { Toggled::True } else { Toggled::False });
            }
            if let Some(sel) = s.selected {
                node.set_selected(sel);
            }
            if let Some(e) = s.expanded {
                node.set_expanded(e);
            }
            for a in w.actions {
                node.add_action(a);
            }
            node.set_children(children[i].iter().map(|&c| ids[c]).collect::<Vec<_>>());
            nodes.push((ids[i], node));
        }
        TreeUpdate {
            nodes,
            tree: Some(TreeInfo::new(WIDGET_ROOT)),
            tree_id: TreeId::ROOT,
            focus,
        }
    }
}

/// Counts what an update of `window` changed, and records each node's change.
struct Changes<'a> {
    count: usize,
    window: u64,
    change_log: &'a mut ChangeLog,
}

impl Changes<'_> {
    fn record(&mut self, node: &NodeRef, what: What) {
        self.change_log.push(Changed {
            window: self.window,
            node: Some(node.id()),
            what,
        });
    }
}

impl ChangeHandler for Changes<'_> {
    fn node_added(&mut self, node: &NodeRef) {
        self.count += 1;
        self.record(node, What::Added);
    }
    fn node_updated(&mut self, old: &NodeRef, new: &NodeRef) {
        self.count += 1;
        if let Some(what) = What::of(old, new) {
            self.record(new, what);
        }
    }
    fn focus_moved(&mut self, _: Option<&NodeRef>, _: Option<&NodeRef>) {
        self.count += 1;
    }
    fn node_removed(&mut self, node: &NodeRef) {
        self.count += 1;
        self.record(node, What::Removed);
    }
}

/// Every window's mirror.
#[derive(Default)]
pub struct WindowTrees {
    pub(crate) windows: BTreeMap<u64, WindowTree>,
    /// The adapter, once the app reported it.
    pub(crate) gpu: Option<GpuInfo>,
    /// Layers and animation said of a window the app has not shown yet (no tree, widgets, state
    /// or surface): kept for it, so such a call does not make an empty window appear.
    early: BTreeMap<u64, (Option<Layers>, Option<bool>)>,
    /// What the last changes were, for a settle that times out to name.
    pub(crate) change_log: ChangeLog,
}

impl WindowTrees {
    /// Every window's mirror, by window id.
    pub fn windows(&self) -> &BTreeMap<u64, WindowTree> {
        &self.windows
    }

    /// The node `f` names, when its window's tree still holds it.
    pub fn node(&self, f: Found) -> Option<NodeRef<'_>> {
        self.windows
            .get(&f.window)?
            .tree
            .as_ref()?
            .state()
            .node_by_id(f.node)
    }

    /// The window a command without a target goes to: the focused one, else the first known.
    pub fn default_window(&self) -> Result<u64, Failure> {
        let windows = &self.windows;
        windows
            .iter()
            .find(|(_, w)| w.state.as_ref().is_some_and(|s| s.focused))
            .or_else(|| windows.iter().next())
            .map(|(&id, _)| id)
            .ok_or_else(|| {
                Failure::new(
                    ErrorCode::NotFound,
                    "the app has not told the plugin about any window",
                    "the app must call Automation::window_state for each window",
                )
            })
    }

    /// The mirror of window `id`, created (with what was said of it early) when new.
    fn window(&mut self, id: u64) -> &mut WindowTree {
        let early = &mut self.early;
        self.windows.entry(id).or_insert_with(|| {
            let mut w = WindowTree::new();
            if let Some((layers, animating)) = early.remove(&id) {
                w.layers = layers.unwrap_or_default();
                w.animating = animating.unwrap_or(false);
            }
            w
        })
    }

    /// Applies one change the render side sent; returns whether anything changed.
    pub fn apply(&mut self, msg: SceneChange) -> bool {
        let mut change_log = std::mem::take(&mut self.change_log);
        let changed = self.apply_recording(msg, &mut change_log);
        self.change_log = change_log;
        changed
    }

    /// [`WindowTrees::apply`], recording what changed in `change_log`.
    fn apply_recording(&mut self, msg: SceneChange, change_log: &mut ChangeLog) -> bool {
        let mut window_changed = |id, what| {
            change_log.push(Changed {
                window: id,
                node: None,
                what,
            })
        };
        match msg {
            SceneChange::Update(id, update) => {
                let w = self.window(id);
                if w.source != Source::AccessKit {
                    w.source = Source::AccessKit;
                    w.tree = None;
                }
                w.apply(id, update, change_log)
            }
            SceneChange::Widgets(id, widgets) => {
                let w = self.window(id);
                if w.source != Source::Widgets {
                    w.source = Source::Widgets;
                    w.tree = None;
                }
                let update = w.widgets_update(widgets);
                w.apply(id, update, change_log)
            }
            SceneChange::State(id, state) => {
                let w = self.window(id);
                let changed = w.state.as_ref() != Some(&state);
                if changed {
                    window_changed(id, What::of_window(w.state.as_ref(), &state));
                }
                w.state = Some(state);
                changed
            }
            SceneChange::Layers(id, layers) => match self.windows.get_mut(&id) {
                Some(w) => {
                    let changed = w.layers != layers;
                    if changed {
                        window_changed(id, What::Window("layers"));
                    }
                    w.layers = layers;
                    changed
                }
                None => {
                    self.early.entry(id).or_default().0 = Some(layers);
                    false
                }
            },
            SceneChange::Surface(id, surface) => {
                let w = self.window(id);
                let changed = w.surface.as_ref() != Some(&surface);
                if changed {
                    window_changed(id, What::Window("surface"));
                }
                w.surface = Some(surface);
                changed
            }
            SceneChange::Gpu(gpu) => {
                let changed = self.gpu.as_ref() != Some(&gpu);
                self.gpu = Some(gpu);
                changed
            }
            SceneChange::Animating(id, on) => match self.windows.get_mut(&id) {
                Some(w) => {
                    let changed = w.animating != on;
                    w.animating = on;
                    changed
                }
                None => {
                    self.early.entry(id).or_default().1 = Some(on);
                    false
                }
            },
            SceneChange::Closed(id) => {
                self.early.remove(&id);
                self.windows.remove(&id).is_some()
            }
        }
    }
}

/// A full AccessKit update with a root and the given children, for tests and examples.
#[cfg(test)]
pub fn sample_update(children: &[(u64, Role, &str)]) -> TreeUpdate {
    let mut root = Node::new(Role::Window);
    root.set_children(children.iter().map(|c| NodeId(c.0)).collect::<Vec<_>>());
    let mut nodes = vec![(NodeId(0), root)];
    for &(id, role, name) in children {
        let mut n = Node::new(role);
        n.set_label(name);
        nodes.push((NodeId(id), n));
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use winit_automation_link::{Bounds, WidgetStates};

    #[test]
    fn what_is_said_of_a_window_before_it_shows_waits_for_it() {
        let mut mirror = WindowTrees::default();
        assert!(!mirror.apply(SceneChange::Animating(7, true)));
        assert!(!mirror.apply(SceneChange::Layers(7, Layers::default())));
        assert!(mirror.windows.is_empty(), "no empty window appears");
        mirror.apply(SceneChange::Update(
            7,
            sample_update(&[(1, Role::Button, "OK")]),
        ));
        assert!(mirror.windows[&7].animating);
        // Closed: nothing of it is kept for a later window with the same id.
        mirror.apply(SceneChange::Closed(7));
        mirror.apply(SceneChange::Animating(7, true));
        mirror.apply(SceneChange::Closed(7));
        mirror.apply(SceneChange::Update(
            7,
            sample_update(&[(1, Role::Button, "OK")]),
        ));
        assert!(!mirror.windows[&7].animating);
    }

    #[test]
    fn an_invalid_update_is_caught_and_reported_not_a_panic() {
        let mut mirror = WindowTrees::default();
        mirror.apply(SceneChange::Update(
            1,
            sample_update(&[(1, Role::Button, "OK")]),
        ));
        // A child that does not exist.
        let mut root = Node::new(Role::Window);
        root.set_children(vec![NodeId(99)]);
        let bad = TreeUpdate {
            nodes: vec![(NodeId(0), root)],
            tree: None,
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        };
        mirror.apply(SceneChange::Update(1, bad));
        let w = &mirror.windows[&1];
        assert!(w.tree.is_none());
        assert!(w.error.as_deref().unwrap().contains("invalid TreeUpdate"));
        // A full update brings it back.
        mirror.apply(SceneChange::Update(
            1,
            sample_update(&[(1, Role::Button, "OK")]),
        ));
        assert!(mirror.windows[&1].tree.is_some() && mirror.windows[&1].error.is_none());
    }

    #[test]
    fn an_unchanged_update_is_not_a_change() {
        let mut mirror = WindowTrees::default();
        assert!(mirror.apply(SceneChange::Update(
            1,
            sample_update(&[(1, Role::Button, "OK")])
        )));
        assert!(!mirror.apply(SceneChange::Update(
            1,
            sample_update(&[(1, Role::Button, "OK")])
        )));
        assert!(mirror.apply(SceneChange::Update(
            1,
            sample_update(&[(1, Role::Button, "Go")])
        )));
    }

    #[test]
    fn widget_records_become_a_tree_and_cycles_are_dropped() {
        let mut mirror = WindowTrees::default();
        let widgets = vec![
            Widget::new("menu", Role::Group, "Menu").bounds(Bounds::new(0.0, 0.0, 100.0, 50.0)),
            Widget::new("start", Role::Button, "Start")
                .parent("menu")
                .states(WidgetStates {
                    focused: true,
                    ..Default::default()
                }),
            Widget::new("a", Role::Label, "A").parent("b"),
            Widget::new("b", Role::Label, "B").parent("a"),
            Widget::new("orphan", Role::Label, "O").parent("nobody"),
        ];
        mirror.apply(SceneChange::Widgets(7, widgets));
        let w = &mirror.windows[&7];
        assert_eq!(w.dropped_widgets, 2);
        let state = w.tree.as_ref().unwrap().state();
        let top: Vec<_> = state.root().children().map(|c| c.label()).collect();
        assert_eq!(top, [Some("Menu".to_owned()), Some("O".to_owned())]);
        assert_eq!(state.focus().unwrap().label().as_deref(), Some("Start"));
        assert_eq!(state.focus().unwrap().author_id(), Some("start"));
    }
}
