//! The tree, every frame, whether or not an assistive technology is connected: the UI's nodes
//! that carry an `AccessibilityNode` (buttons, labels, images, the widgets) or a `Text`, and the
//! entities marked [`Automated`], under one window node. Node ids are entity bits, so a ref stays
//! with its entity. Bounds are physical pixels of the window (the service divides by the scale
//! factor): a UI node's from its computed layout, a game object's projected through the camera.
//!
//! Built from Bevy's change detection: a frame in which nothing the tree reads changed costs a
//! few queries that find nothing and allocates nothing; one in which nodes changed rebuilds and
//! sends those nodes alone; one in which the tree's shape changed (a node added, removed, shown,
//! hidden, moved in the hierarchy or in paint order) rebuilds the whole tree and sends what
//! differs from what was sent.

use std::collections::{HashMap, HashSet};

use bevy::a11y::AccessibilityNode;
use bevy::camera::primitives::Aabb;
use bevy::ecs::entity::EntityHashMap;
use bevy::ecs::system::SystemParam;
use bevy::input_focus::InputFocus;
use bevy::picking::backend::HitData;
use bevy::prelude::*;
use bevy::ui::prelude::AccessibleLabel;
use bevy::ui::{ComputedNode, ComputedStackIndex, UiGlobalTransform};
use bevy::window::PrimaryWindow;

use accesskit::{Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};

use crate::Automated;
use crate::nodes::{Around, MarkedItem, Order, UiFilter, UiItem, marked_node, ui_node};
use crate::window_id;
use winit_automation_link::RenderEnd;

/// What was sent last: each node as the service has it, and its place.
#[derive(Default)]
pub(crate) struct Sent {
    nodes: HashMap<Entity, Kept>,
    /// The window's node as sent.
    root: Option<Node>,
    focus: Option<NodeId>,
    /// The window the tree belongs to (the primary window).
    window: Option<Entity>,
    /// The scale factor the game objects' bounds were projected with.
    scale: f32,
    /// The entities a frame looks at again (kept, so that a frame allocates nothing for it).
    dirty: Vec<Entity>,
}

/// A node as sent, with its place among its siblings: a node whose order changes changes its
/// parent's children.
struct Kept {
    node: Node,
    order: Order,
}

/// The queries the tree reads.
#[derive(SystemParam)]
pub(crate) struct Scene<'w, 's> {
    ui: Query<'w, 's, UiItem, UiFilter>,
    marked: Query<'w, 's, MarkedItem, With<Automated>>,
    parents: Query<'w, 's, &'static ChildOf>,
    children: Query<'w, 's, &'static Children>,
    texts: Query<'w, 's, &'static Text>,
    spans: Query<'w, 's, &'static TextSpan>,
    roles: Query<'w, 's, &'static AccessibilityNode>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    window: Query<'w, 's, (Entity, &'static Window), With<PrimaryWindow>>,
    focus: Option<Res<'w, InputFocus>>,
}

impl Scene<'_, '_> {
    fn around(&self) -> Around<'_, '_, '_> {
        Around {
            parents: &self.parents,
            children: &self.children,
            texts: &self.texts,
            spans: &self.spans,
            roles: &self.roles,
        }
    }

    /// The first active camera, by order: game objects are projected through it.
    fn camera(&self) -> Option<(&Camera, &GlobalTransform)> {
        self.cameras
            .iter()
            .filter(|(c, _)| c.is_active)
            .min_by_key(|(c, _)| c.order)
    }
}

/// What changes an accessibility node's node or place (`Changed` includes `Added`: a new node is
/// one of them). Its layout is among them: bevy_ui (its `AccessibilityPlugin`, part of
/// `UiPlugin`) writes a node's bounds and transform into its `AccessibilityNode` whenever its
/// `ComputedNode` or `UiGlobalTransform` changes, in `PostUpdate`. Fewer columns to read: the
/// change ticks of every UI node are read every frame, and this is most of an idle frame's cost.
type A11yChanged = (
    Without<Automated>,
    With<AccessibilityNode>,
    Or<(
        Changed<AccessibilityNode>,
        Changed<Text>,
        Changed<ComputedStackIndex>,
        Changed<InheritedVisibility>,
    )>,
);

/// What changes a text's node (a text with no accessibility node) or place.
type TextChanged = (
    Without<Automated>,
    Without<AccessibilityNode>,
    With<Text>,
    Or<(
        Changed<Text>,
        Changed<ComputedNode>,
        Changed<UiGlobalTransform>,
        Changed<ComputedStackIndex>,
        Changed<InheritedVisibility>,
    )>,
);

/// A marked game object's components whose change changes its node.
type MarkedChanged = Or<(
    Changed<GlobalTransform>,
    Changed<Name>,
    Changed<AccessibilityNode>,
    Changed<Aabb>,
    Changed<InheritedVisibility>,
    Added<Automated>,
)>;

/// A camera that moved or changed: every game object's bounds change.
type CameraChanged = (
    With<Camera>,
    Or<(Changed<Camera>, Changed<GlobalTransform>)>,
);

/// What changed since the tree was last published (Bevy's change ticks and removals).
#[derive(SystemParam)]
pub(crate) struct Changes<'w, 's> {
    ui: Query<'w, 's, Entity, A11yChanged>,
    /// Texts without a node of their own, and a button's caption (which names the button).
    texts: Query<'w, 's, (Entity, Option<&'static ChildOf>), TextChanged>,
    /// Spans of text, which read as part of the text above them.
    spans: Query<'w, 's, &'static ChildOf, Changed<TextSpan>>,
    marked: Query<'w, 's, Entity, (With<Automated>, MarkedChanged)>,
    cameras: Query<'w, 's, (), CameraChanged>,
    moved: Query<'w, 's, (), Changed<ChildOf>>,
    gone_a11y: RemovedComponents<'w, 's, AccessibilityNode>,
    gone_text: RemovedComponents<'w, 's, Text>,
    gone_span: RemovedComponents<'w, 's, TextSpan>,
    gone_marked: RemovedComponents<'w, 's, Automated>,
    gone_child: RemovedComponents<'w, 's, ChildOf>,
    gone_layout: RemovedComponents<'w, 's, ComputedNode>,
    gone_label: RemovedComponents<'w, 's, AccessibleLabel>,
    gone_name: RemovedComponents<'w, 's, Name>,
}

impl Changes<'_, '_> {
    /// Whether the tree's shape may have changed otherwise than through a changed node (which
    /// `update` finds): a removal, a move in the hierarchy. Reads every removal (each is read
    /// once).
    fn shape_changed(&mut self) -> bool {
        let removed = [
            self.gone_a11y.len(),
            self.gone_text.len(),
            self.gone_span.len(),
            self.gone_marked.len(),
            self.gone_child.len(),
            self.gone_layout.len(),
            self.gone_label.len(),
            self.gone_name.len(),
        ]
        .iter()
        .any(|&n| n > 0);
        self.gone_a11y.clear();
        self.gone_text.clear();
        self.gone_span.clear();
        self.gone_marked.clear();
        self.gone_child.clear();
        self.gone_layout.clear();
        self.gone_label.clear();
        self.gone_name.clear();
        removed || !self.moved.is_empty()
    }
}

/// `Last`: brings the primary window's tree up to date and sends the nodes that changed.
pub(crate) fn publish_tree(end: &RenderEnd, sent: &mut Sent, scene: &Scene, changes: &mut Changes) {
    let shape = changes.shape_changed();
    let Ok((window, win)) = scene.window.single() else {
        return;
    };
    let fresh = sent.window != Some(window);
    let scale = win.scale_factor();
    let mut changed = Vec::new();
    let mut top = None;
    if fresh || shape || !update(sent, scene, changes, scale, &mut changed) {
        top = Some(rebuild(sent, scene, scale, fresh, &mut changed));
    }
    sent.scale = scale;
    let root = NodeId(window.to_bits());
    // A new tree must hold its root, whatever the last one's was.
    let last_root = sent.root.as_ref().filter(|_| !fresh);
    if let Some(node) = root_node(last_root, win, top) {
        changed.push((root, node.clone()));
        sent.root = Some(node);
    }
    let focus = scene
        .focus
        .as_ref()
        .and_then(|f| f.get())
        .filter(|e| sent.nodes.contains_key(e))
        .map_or(root, |e| NodeId(e.to_bits()));
    if changed.is_empty() && sent.focus == Some(focus) && !fresh {
        return;
    }
    sent.focus = Some(focus);
    sent.window = Some(window);
    end.tree_update(
        window_id(window),
        TreeUpdate {
            nodes: changed,
            tree: fresh.then(|| TreeInfo::new(root)),
            tree_id: TreeId::ROOT,
            focus,
        },
    );
}

/// The window's node, when it differs from the one sent: its title, its size in physical
/// pixels, and its children (`top`, when the tree was rebuilt; else those sent).
fn root_node(sent: Option<&Node>, win: &Window, top: Option<Vec<NodeId>>) -> Option<Node> {
    let bounds = Rect::new(
        0.0,
        0.0,
        f64::from(win.physical_width()),
        f64::from(win.physical_height()),
    );
    let same = sent.is_some_and(|n| {
        n.label() == Some(win.title.as_str())
            && n.bounds() == Some(bounds)
            && top.as_deref().is_none_or(|t| n.children() == t)
    });
    if same {
        return None;
    }
    let mut node = Node::new(Role::Window);
    node.set_label(win.title.as_str());
    node.set_bounds(bounds);
    node.set_children(top.unwrap_or_else(|| sent.map_or_else(Vec::new, |n| n.children().to_vec())));
    Some(node)
}

/// Brings the nodes whose components changed up to date, when the tree's shape is as it was:
/// each keeps its children and its place. Returns `false`, changing nothing, when a changed node
/// would join, leave or move in the tree (the tree is then rebuilt).
fn update(
    sent: &mut Sent,
    scene: &Scene,
    changes: &Changes,
    scale: f32,
    changed: &mut Vec<(NodeId, Node)>,
) -> bool {
    let mut dirty = std::mem::take(&mut sent.dirty);
    dirty.clear();
    dirty.extend(changes.ui.iter());
    for (text, parent) in &changes.texts {
        dirty.push(text);
        // A caption's button: it carries the caption as its name.
        if let Some(p) = parent.map(ChildOf::parent)
            && sent.nodes.contains_key(&p)
        {
            dirty.push(p);
        }
    }
    // A span's text, and that text's button when it is a caption.
    for parent in &changes.spans {
        let mut at = parent.parent();
        while scene.texts.get(at).is_err() {
            let Ok(up) = scene.parents.get(at) else {
                break;
            };
            at = up.parent();
        }
        dirty.push(at);
        dirty.extend(scene.parents.get(at).ok().map(ChildOf::parent));
    }
    // A moved camera or a new scale factor moves every game object on screen.
    if !changes.cameras.is_empty() || scale != sent.scale {
        dirty.extend(scene.marked.iter().map(|m| m.entity));
    } else {
        dirty.extend(changes.marked.iter());
    }
    if dirty.is_empty() {
        sent.dirty = dirty;
        return true;
    }
    let around = scene.around();
    let camera = scene.camera();
    let mut built = Vec::with_capacity(dirty.len());
    for &entity in &dirty {
        let node = match (scene.ui.get(entity), scene.marked.get(entity)) {
            (Ok(item), _) => ui_node(&around, &item),
            (_, Ok(item)) => marked_node(&item, camera, scale),
            _ => None,
        };
        match (sent.nodes.get(&entity), node) {
            (None, None) => {}
            (Some(kept), Some((node, order))) if kept.order == order => built.push((entity, node)),
            _ => {
                sent.dirty = dirty;
                return false;
            }
        }
    }
    sent.dirty = dirty;
    for (entity, mut node) in built {
        let Some(kept) = sent.nodes.get_mut(&entity) else {
            continue;
        };
        node.set_children(kept.node.children().to_vec());
        if node != kept.node {
            changed.push((NodeId(entity.to_bits()), node.clone()));
            kept.node = node;
        }
    }
    true
}

/// Builds the whole tree: every node, where it hangs and its children in paint order; the nodes
/// that differ from those sent (all of them when `fresh`) go into `changed`. Returns the
/// window's children.
fn rebuild(
    sent: &mut Sent,
    scene: &Scene,
    scale: f32,
    fresh: bool,
    changed: &mut Vec<(NodeId, Node)>,
) -> Vec<NodeId> {
    let around = scene.around();
    let camera = scene.camera();
    let mut entries: Vec<(Entity, Node, Order)> = Vec::new();
    for item in &scene.ui {
        if let Some((node, order)) = ui_node(&around, &item) {
            entries.push((item.entity, node, order));
        }
    }
    for item in &scene.marked {
        if let Some((node, order)) = marked_node(&item, camera, scale) {
            entries.push((item.entity, node, order));
        }
    }
    entries.sort_by(|a, b| a.2.partial_cmp(&b.2).unwrap_or(std::cmp::Ordering::Equal));
    let included: HashSet<Entity> = entries.iter().map(|e| e.0).collect();
    let mut children: HashMap<Entity, Vec<NodeId>> = HashMap::new();
    let mut top = Vec::new();
    for (entity, _, _) in &entries {
        let id = NodeId(entity.to_bits());
        match parent_in(&scene.parents, *entity, &included) {
            Some(p) => children.entry(p).or_default().push(id),
            None => top.push(id),
        }
    }
    let mut nodes = HashMap::with_capacity(entries.len());
    for (entity, mut node, order) in entries {
        if let Some(c) = children.remove(&entity) {
            node.set_children(c);
        }
        if fresh || sent.nodes.get(&entity).is_none_or(|k| k.node != node) {
            changed.push((NodeId(entity.to_bits()), node.clone()));
        }
        nodes.insert(entity, Kept { node, order });
    }
    sent.nodes = nodes;
    top
}

/// The nearest ancestor of `entity` that is in the tree.
fn parent_in(
    parents: &Query<&ChildOf>,
    entity: Entity,
    included: &HashSet<Entity>,
) -> Option<Entity> {
    let mut at = entity;
    while let Ok(child_of) = parents.get(at) {
        at = child_of.parent();
        if included.contains(&at) {
            return Some(at);
        }
    }
    None
}

/// `PreUpdate`, right after bevy_picking's hover step (before a state transition can despawn
/// what was pressed): for each window a press went to this frame, the node that took it:
/// bevy_picking's topmost hovered entity (the highest UI stack index, else the nearest hit), or
/// its nearest ancestor in the tree last published (the one the press was aimed in); the
/// window's node when the press landed on nothing in the tree.
pub(crate) fn report_hits(
    end: &RenderEnd,
    sent: &Sent,
    pressed: &[Entity],
    hits: Option<&EntityHashMap<HitData>>,
    stack: &Query<&ComputedStackIndex>,
    parents: &Query<&ChildOf>,
) {
    let top = hits.and_then(|hits| {
        let ui = hits
            .keys()
            .filter_map(|e| stack.get(*e).ok().map(|s| (s.0, *e)))
            .max()
            .map(|(_, e)| e);
        ui.or_else(|| {
            hits.iter()
                .min_by(|a, b| a.1.depth.total_cmp(&b.1.depth))
                .map(|(e, _)| *e)
        })
    });
    for &window in pressed {
        let in_tree = |e: &Entity| sent.has(*e);
        let node = top.and_then(|top| {
            if in_tree(&top) {
                return Some(top);
            }
            let mut at = top;
            while let Ok(p) = parents.get(at) {
                at = p.parent();
                if in_tree(&at) {
                    return Some(at);
                }
            }
            None
        });
        let id = node.unwrap_or(window);
        end.pointer_hit(window_id(window), Some(NodeId(id.to_bits())));
    }
}

impl Sent {
    fn has(&self, entity: Entity) -> bool {
        self.nodes.contains_key(&entity)
    }
}
