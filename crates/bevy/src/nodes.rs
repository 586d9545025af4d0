//! One entity as a node of the tree: a UI node from its accessibility node or text and its
//! computed layout, a marked game object from its name and its bounds through the camera, and
//! the actions the plugin can carry out on it (`actions.rs` carries them out).

use bevy::a11y::AccessibilityNode;
use bevy::camera::primitives::Aabb;
use bevy::ecs::query::QueryData;
use bevy::prelude::*;
use bevy::ui::prelude::AccessibleLabel;
use bevy::ui::{ComputedNode, ComputedStackIndex, UiGlobalTransform};
use bevy::ui_widgets::{Button as WidgetButton, Checkbox, Slider};

use accesskit::{Action, Node, Rect, Role};

use crate::Automated;

/// A node's place among its siblings: game objects below the UI (by depth), UI nodes by their
/// stack index, then by entity.
pub(crate) type Order = (u8, f32, u64);

/// A UI node's components the tree reads.
#[derive(QueryData)]
pub(crate) struct UiItem {
    pub(crate) entity: Entity,
    a11y: Option<&'static AccessibilityNode>,
    computed: &'static ComputedNode,
    transform: &'static UiGlobalTransform,
    stack: Option<&'static ComputedStackIndex>,
    text: Option<&'static Text>,
    visible: Option<&'static InheritedVisibility>,
    labelled: Has<AccessibleLabel>,
    widget: Widget,
}

/// The bevy_ui_widgets controls the plugin can act on.
#[derive(QueryData)]
pub(crate) struct Widget {
    button: Has<WidgetButton>,
    checkbox: Has<Checkbox>,
    slider: Has<Slider>,
}

/// The UI nodes in the tree: those with an accessibility node or a text; marked entities apart.
pub(crate) type UiFilter = (
    Without<Automated>,
    Or<(With<AccessibilityNode>, With<Text>)>,
);

/// A marked game object's components the tree reads.
#[derive(QueryData)]
pub(crate) struct MarkedItem {
    pub(crate) entity: Entity,
    name: Option<&'static Name>,
    transform: &'static GlobalTransform,
    aabb: Option<&'static Aabb>,
    a11y: Option<&'static AccessibilityNode>,
    visible: Option<&'static InheritedVisibility>,
}

/// What building a UI node needs besides its own components.
pub(crate) struct Around<'a, 'w, 's> {
    pub(crate) parents: &'a Query<'w, 's, &'static ChildOf>,
    pub(crate) children: &'a Query<'w, 's, &'static Children>,
    pub(crate) texts: &'a Query<'w, 's, &'static Text>,
    pub(crate) spans: &'a Query<'w, 's, &'static TextSpan>,
    pub(crate) roles: &'a Query<'w, 's, &'static AccessibilityNode>,
}

/// A UI node as the tree shows it, without children, and its order; `None` when it is not in
/// the tree (hidden, or a caption that names its button).
pub(crate) fn ui_node(around: &Around, item: &UiItemItem) -> Option<(Node, Order)> {
    if item.visible.is_some_and(|v| !v.get()) {
        return None;
    }
    let mut node = match item.a11y {
        Some(a) => crate::convert::node(a),
        None => {
            // A button's caption names the button rather than standing beside it.
            let names_parent = around.parents.get(item.entity).is_ok_and(|p| {
                around
                    .roles
                    .get(p.parent())
                    .is_ok_and(|a| a.role() == accesskit_bevy::Role::Button)
            });
            if names_parent {
                return None;
            }
            Node::new(Role::Label)
        }
    };
    if let Some(text) = item.text {
        // The text as it is now, its spans included (Bevy's label is the text when the `Label`
        // was added).
        node.set_label(whole_text(around, item.entity, text));
        node.clear_value();
    } else if node.role() == Role::Button
        && !item.labelled
        && let Some(caption) = child_text(around, item.entity)
    {
        node.set_label(caption);
    }
    declare_actions(&mut node, &item.widget);
    let center = item.transform.translation;
    let half = item.computed.size * 0.5;
    node.set_bounds(Rect::new(
        f64::from(center.x - half.x),
        f64::from(center.y - half.y),
        f64::from(center.x + half.x),
        f64::from(center.y + half.y),
    ));
    let stack = item.stack.map_or(0, |s| s.0);
    Some((node, (1, stack as f32, item.entity.to_bits())))
}

/// Declares the actions the plugin carries out on a control whose node declares none (Bevy
/// declares none; an app's own declared actions go to it as `ActionRequest`s): on
/// bevy_ui_widgets' button and check box a click (their activation) and on its slider a value
/// set, an increment and a decrement, as the widget's own events; a focus (the `InputFocus`) on
/// every control. A control of another kind declares only the focus, so `action click` on it is
/// refused with the actions it has, and the pointer's `click` is the way to press it.
fn declare_actions(node: &mut Node, widget: &WidgetItem) {
    let declares = (0u8..)
        .map_while(Action::n)
        .any(|a| node.supports_action(a));
    if declares {
        return;
    }
    if widget.button || widget.checkbox {
        node.add_action(Action::Click);
    }
    if widget.slider {
        node.add_action(Action::SetValue);
        node.add_action(Action::Increment);
        node.add_action(Action::Decrement);
    }
    let control = matches!(
        node.role(),
        Role::Button
            | Role::CheckBox
            | Role::RadioButton
            | Role::Switch
            | Role::Link
            | Role::Tab
            | Role::MenuItem
            | Role::MenuItemCheckBox
            | Role::MenuItemRadio
            | Role::Slider
            | Role::SpinButton
            | Role::TextInput
    );
    if control || widget.button || widget.checkbox || widget.slider {
        node.add_action(Action::Focus);
    }
}

/// The text of an entity's first child that has one (a button's caption).
fn child_text(around: &Around, entity: Entity) -> Option<String> {
    let children = around.children.get(entity).ok()?;
    children
        .iter()
        .find_map(|c| Some(whole_text(around, c, around.texts.get(c).ok()?)))
}

/// A text as it reads: its own string, then its `TextSpan` descendants' in order (Bevy draws a
/// text's spans after it, depth first).
fn whole_text(around: &Around, entity: Entity, text: &Text) -> String {
    let mut out = text.as_str().to_owned();
    let mut stack: Vec<Entity> = Vec::new();
    let push_children = |stack: &mut Vec<Entity>, of: Entity| {
        if let Ok(children) = around.children.get(of) {
            stack.extend(children.iter().rev());
        }
    };
    push_children(&mut stack, entity);
    while let Some(e) = stack.pop() {
        if let Ok(span) = around.spans.get(e) {
            out.push_str(span.as_str());
            push_children(&mut stack, e);
        }
    }
    out
}

/// A marked game object as the tree shows it, its bounds projected through `camera`, and its
/// order; `None` when it is hidden.
pub(crate) fn marked_node(
    item: &MarkedItemItem,
    camera: Option<(&Camera, &GlobalTransform)>,
    scale: f32,
) -> Option<(Node, Order)> {
    if item.visible.is_some_and(|v| !v.get()) {
        return None;
    }
    let mut node = item
        .a11y
        .map_or_else(|| Node::new(Role::Image), |a| crate::convert::node(a));
    if let Some(name) = item.name {
        node.set_label(name.as_str());
    }
    let transform = item.transform;
    let corners = |i: usize| match item.aabb {
        Some(b) => {
            let (sx, sy) = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)][i];
            let local = Vec3::from(b.center) + Vec3::from(b.half_extents) * Vec3::new(sx, sy, 0.0);
            transform.transform_point(local)
        }
        None => transform.translation(),
    };
    if let Some((cam, cam_transform)) = camera {
        let count = if item.aabb.is_some() { 4 } else { 1 };
        let mut bounds: Option<(Vec2, Vec2)> = None;
        for p in (0..count).filter_map(|i| cam.world_to_viewport(cam_transform, corners(i)).ok()) {
            bounds = Some(bounds.map_or((p, p), |(lo, hi)| (lo.min(p), hi.max(p))));
        }
        if let Some((min, max)) = bounds {
            node.set_bounds(Rect::new(
                f64::from(min.x * scale),
                f64::from(min.y * scale),
                f64::from(max.x * scale),
                f64::from(max.y * scale),
            ));
        }
    }
    let depth = -transform.translation().z;
    Some((node, (0, depth, item.entity.to_bits())))
}
