//! The tree, every frame, whether or not an assistive technology is connected: the UI's nodes
//! that carry an `AccessibilityNode` (buttons, labels, images, the widgets) or a `Text`, and the
//! entities marked [`Automated`], under one window node. Node ids are entity bits, so a ref stays
//! with its entity. Bounds are physical pixels of the window (the service divides by the scale
//! factor): a UI node's from its computed layout, a game object's projected through the camera.
//! Only the nodes that changed since the last frame are sent.

use std::collections::{HashMap, HashSet};

use bevy::a11y::AccessibilityNode;
use bevy::camera::primitives::Aabb;
use bevy::ecs::system::SystemParam;
use bevy::input_focus::InputFocus;
use bevy::picking::hover::HoverMap;
use bevy::picking::pointer::PointerId;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, ComputedStackIndex, UiGlobalTransform};
use bevy::window::PrimaryWindow;

use accesskit::{Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};

use crate::Automated;
use crate::plugin::{Link, window_id};

/// What was sent last: each node as the service has it.
#[derive(Default)]
pub(crate) struct Sent {
    nodes: HashMap<NodeId, Node>,
    focus: Option<NodeId>,
    /// The window the tree belongs to (the primary window).
    window: Option<Entity>,
}

/// A node of this frame's tree with where it goes: its entity, its paint order (game objects
/// below the UI, by depth; UI nodes by their stack index) and its node.
struct Entry {
    entity: Entity,
    order: (u8, f32, u64),
    node: Node,
}

/// A UI node's components the tree reads.
type UiItem = (
    Entity,
    Option<&'static AccessibilityNode>,
    &'static ComputedNode,
    &'static UiGlobalTransform,
    Option<&'static ComputedStackIndex>,
    Option<&'static Text>,
    Option<&'static InheritedVisibility>,
    Has<bevy::ui::prelude::AccessibleLabel>,
);

/// The UI nodes in the tree: those with an accessibility node or a text; marked entities apart.
type UiFilter = (
    Without<Automated>,
    Or<(With<AccessibilityNode>, With<Text>)>,
);

/// A marked game object's components the tree reads.
type MarkedItem = (
    Entity,
    Option<&'static Name>,
    &'static GlobalTransform,
    Option<&'static Aabb>,
    Option<&'static AccessibilityNode>,
    Option<&'static InheritedVisibility>,
);

/// The queries the tree reads.
#[derive(SystemParam)]
pub(crate) struct Scene<'w, 's> {
    ui: Query<'w, 's, UiItem, UiFilter>,
    marked: Query<'w, 's, MarkedItem, With<Automated>>,
    parents: Query<'w, 's, &'static ChildOf>,
    children: Query<'w, 's, &'static Children>,
    texts: Query<'w, 's, &'static Text>,
    roles: Query<'w, 's, &'static AccessibilityNode>,
    cameras: Query<'w, 's, (&'static Camera, &'static GlobalTransform)>,
    window: Query<'w, 's, (Entity, &'static Window), With<PrimaryWindow>>,
    focus: Option<Res<'w, InputFocus>>,
}

/// `Last`: builds the primary window's tree and sends the nodes that changed.
pub(crate) fn publish_tree(mut link: ResMut<Link>, scene: Scene) {
    let Ok((window, win)) = scene.window.single() else {
        return;
    };
    let scale = win.scale_factor();
    let mut entries = ui_entries(&scene);
    marked_entries(&scene, scale, &mut entries);
    entries.sort_by(|a, b| {
        a.order
            .partial_cmp(&b.order)
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let included: HashSet<Entity> = entries.iter().map(|e| e.entity).collect();
    let root = NodeId(window.to_bits());
    let mut children: HashMap<Entity, Vec<NodeId>> = HashMap::new();
    let mut top = Vec::new();
    for e in &entries {
        let id = NodeId(e.entity.to_bits());
        match parent_in(&scene.parents, e.entity, &included) {
            Some(p) => children.entry(p).or_default().push(id),
            None => top.push(id),
        }
    }
    let mut nodes: Vec<(NodeId, Node)> = Vec::with_capacity(entries.len() + 1);
    let mut root_node = Node::new(Role::Window);
    root_node.set_label(win.title.as_str());
    root_node.set_bounds(Rect::new(
        0.0,
        0.0,
        f64::from(win.physical_width()),
        f64::from(win.physical_height()),
    ));
    root_node.set_children(top);
    nodes.push((root, root_node));
    for mut e in entries {
        if let Some(c) = children.remove(&e.entity) {
            e.node.set_children(c);
        }
        nodes.push((NodeId(e.entity.to_bits()), e.node));
    }
    let focus = scene
        .focus
        .as_ref()
        .and_then(|f| f.get())
        .filter(|e| included.contains(e))
        .map_or(root, |e| NodeId(e.to_bits()));
    send(&mut link, window, nodes, focus);
}

/// Sends the nodes that differ from those last sent (all of them the first time, or for a new
/// primary window).
fn send(link: &mut Link, window: Entity, nodes: Vec<(NodeId, Node)>, focus: NodeId) {
    let sent = &mut link.tree;
    let fresh = sent.window != Some(window);
    let mut changed = Vec::new();
    let mut now = HashMap::with_capacity(nodes.len());
    for (id, node) in nodes {
        if fresh || sent.nodes.get(&id) != Some(&node) {
            changed.push((id, node.clone()));
        }
        now.insert(id, node);
    }
    if changed.is_empty() && sent.focus == Some(focus) && !fresh {
        sent.nodes = now;
        return;
    }
    sent.nodes = now;
    sent.focus = Some(focus);
    sent.window = Some(window);
    let root = NodeId(window.to_bits());
    link.end.tree_update(
        window_id(window),
        TreeUpdate {
            nodes: changed,
            tree: fresh.then(|| TreeInfo::new(root)),
            tree_id: TreeId::ROOT,
            focus,
        },
    );
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

/// Declares what the pointer does to a control whose node declares no action (Bevy declares
/// none): a click on a button, a check box, a radio button, a link, a tab or a menu item; a
/// focus on a slider. The snapshot's interactive projection and `screenshot --refs` list them.
fn pointer_actions(node: &mut Node) {
    let declares = (0u8..)
        .map_while(accesskit::Action::n)
        .any(|a| node.supports_action(a));
    if declares {
        return;
    }
    match node.role() {
        Role::Button
        | Role::CheckBox
        | Role::RadioButton
        | Role::Switch
        | Role::Link
        | Role::Tab
        | Role::MenuItem
        | Role::MenuItemCheckBox
        | Role::MenuItemRadio => node.add_action(accesskit::Action::Click),
        Role::Slider | Role::SpinButton => node.add_action(accesskit::Action::Focus),
        _ => {}
    }
}

/// The text of an entity's first child that has one (a button's caption).
fn child_text<'a>(scene: &'a Scene, entity: Entity) -> Option<&'a str> {
    let children = scene.children.get(entity).ok()?;
    children
        .iter()
        .find_map(|c| scene.texts.get(c).ok())
        .map(|t| t.as_str())
}

/// The UI's nodes: those with an `AccessibilityNode`, and texts that name no button.
fn ui_entries(scene: &Scene) -> Vec<Entry> {
    let mut entries = Vec::new();
    for (entity, a11y, computed, transform, stack, text, visible, labelled) in &scene.ui {
        if visible.is_some_and(|v| !v.get()) {
            continue;
        }
        let mut node = match a11y {
            Some(a) => crate::convert::node(a),
            None => {
                // A button's caption names the button rather than standing beside it.
                let names_parent = scene.parents.get(entity).is_ok_and(|p| {
                    scene
                        .roles
                        .get(p.parent())
                        .is_ok_and(|a| a.role() == accesskit_bevy::Role::Button)
                });
                if names_parent {
                    continue;
                }
                Node::new(Role::Label)
            }
        };
        if let Some(text) = text {
            // The text as it is now (Bevy's label is the text when the `Label` was added).
            node.set_label(text.as_str());
            node.clear_value();
        } else if node.role() == Role::Button
            && !labelled
            && let Some(caption) = child_text(scene, entity)
        {
            node.set_label(caption);
        }
        pointer_actions(&mut node);
        let center = transform.translation;
        let half = computed.size * 0.5;
        node.set_bounds(Rect::new(
            f64::from(center.x - half.x),
            f64::from(center.y - half.y),
            f64::from(center.x + half.x),
            f64::from(center.y + half.y),
        ));
        let stack = stack.map_or(0, |s| s.0);
        entries.push(Entry {
            entity,
            order: (1, stack as f32, entity.to_bits()),
            node,
        });
    }
    entries
}

/// The game objects marked [`Automated`], their bounds projected through the first active
/// camera (by order).
fn marked_entries(scene: &Scene, scale: f32, entries: &mut Vec<Entry>) {
    let camera = scene
        .cameras
        .iter()
        .filter(|(c, _)| c.is_active)
        .min_by_key(|(c, _)| c.order);
    for (entity, name, transform, aabb, a11y, visible) in &scene.marked {
        if visible.is_some_and(|v| !v.get()) {
            continue;
        }
        let mut node = a11y.map_or_else(|| Node::new(Role::Image), |a| crate::convert::node(a));
        if let Some(name) = name {
            node.set_label(name.as_str());
        }
        let corners: Vec<Vec3> = match aabb {
            Some(b) => [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]
                .iter()
                .map(|&(sx, sy)| {
                    let local =
                        Vec3::from(b.center) + Vec3::from(b.half_extents) * Vec3::new(sx, sy, 0.0);
                    transform.transform_point(local)
                })
                .collect(),
            None => vec![transform.translation()],
        };
        if let Some((cam, cam_transform)) = camera {
            let points: Vec<Vec2> = corners
                .iter()
                .filter_map(|&p| cam.world_to_viewport(cam_transform, p).ok())
                .collect();
            if let Some(first) = points.first() {
                let (min, max) = points
                    .iter()
                    .fold((*first, *first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
                node.set_bounds(Rect::new(
                    f64::from(min.x * scale),
                    f64::from(min.y * scale),
                    f64::from(max.x * scale),
                    f64::from(max.y * scale),
                ));
            }
        }
        entries.push(Entry {
            entity,
            order: (0, -transform.translation().z, entity.to_bits()),
            node,
        });
    }
}

/// `PreUpdate`, right after bevy_picking's hover step (before a state transition can despawn
/// what was pressed): for each window a press went to this frame, the node that took it:
/// bevy_picking's topmost hovered entity (the highest UI stack index, else the nearest hit), or
/// its nearest ancestor in the tree last published (the one the press was aimed in); the
/// window's node when the press landed on nothing in the tree.
pub(crate) fn report_hits(
    link: Res<Link>,
    hover: Option<Res<HoverMap>>,
    stack: Query<&ComputedStackIndex>,
    parents: Query<&ChildOf>,
) {
    if link.pressed.is_empty() {
        return;
    }
    let hits = hover.as_ref().and_then(|h| h.get(&PointerId::Mouse));
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
    for &window in &link.pressed {
        let in_tree = |e: &Entity| link.tree.has(NodeId(e.to_bits()));
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
        link.end
            .pointer_hit(window_id(window), Some(NodeId(id.to_bits())));
    }
}

impl Sent {
    fn has(&self, id: NodeId) -> bool {
        self.nodes.contains_key(&id)
    }
}
