//! The `action` and `focus` verbs on Bevy's UI. Bevy 0.19's widgets do not read AccessKit's
//! `ActionRequest`, so the plugin carries out what the tree declares for them (`nodes.rs`) with
//! the widgets' own events: a click activates a bevy_ui_widgets button (`Activate`, what a
//! pointer click on it triggers) or toggles its check box (`ValueChange<bool>`); `set_value`,
//! `increment` and `decrement` move its slider (`SetSliderValue`, clamped by the widget); a focus
//! moves `InputFocus`. An action the app's own node declares goes to the app as an
//! `ActionRequest`, with its data.

use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::input_focus::{FocusCause, InputFocus};
use bevy::prelude::*;
use bevy::ui::Checked;
use bevy::ui_widgets::{
    Activate, Button as WidgetButton, Checkbox, SetSliderValue, Slider, SliderValueChange,
    ValueChange,
};

use accesskit::{Action, ActionData, NodeId};

/// Carries out `action` on the entity behind `node`, in `First` (the widgets' observers run now;
/// the commands they queue apply before `Update`).
pub(crate) fn act(world: &mut World, node: NodeId, action: Action, data: Option<ActionData>) {
    let Some(entity) = Entity::try_from_bits(node.0) else {
        return;
    };
    let Ok(target) = world.get_entity(entity) else {
        return;
    };
    let bevy_action = crate::convert::action(action);
    let app_declares = bevy_action.is_some_and(|a| {
        target
            .get::<AccessibilityNode>()
            .is_some_and(|n| n.supports_action(a))
    });
    let button = target.contains::<WidgetButton>();
    let checkbox = target.contains::<Checkbox>();
    let slider = target.contains::<Slider>();
    let checked = target.contains::<Checked>();
    match action {
        _ if app_declares => request(world, node, bevy_action, data),
        Action::Click if button => world.trigger(Activate { entity }),
        Action::Click if checkbox => world.trigger(ValueChange {
            source: entity,
            value: !checked,
            is_final: true,
        }),
        Action::SetValue if slider => {
            if let Some(value) = number(data.as_ref()) {
                world.trigger(SetSliderValue {
                    entity,
                    change: SliderValueChange::Absolute(value),
                });
            }
        }
        Action::Increment | Action::Decrement if slider => {
            let steps = if action == Action::Increment {
                1.0
            } else {
                -1.0
            };
            world.trigger(SetSliderValue {
                entity,
                change: SliderValueChange::RelativeStep(steps),
            });
        }
        Action::Focus => match world.get_resource_mut::<InputFocus>() {
            Some(mut focus) => focus.set(entity, FocusCause::Navigated),
            None => {
                world.insert_resource(InputFocus::from_entity(entity));
            }
        },
        // Nothing the plugin declares: the service refused it before it got here, unless the
        // tree changed meanwhile; the app may still handle it.
        _ => request(world, node, bevy_action, data),
    }
}

/// A slider's new value: a number (`set_value 30`), or a text that reads as one.
fn number(data: Option<&ActionData>) -> Option<f32> {
    match data? {
        ActionData::NumericValue(v) => Some(*v as f32),
        ActionData::Value(text) => text.trim().parse().ok(),
        _ => None,
    }
}

/// The action as Bevy's `ActionRequest`, for the app's own handler, with the data Bevy's
/// AccessKit has a place for.
fn request(
    world: &mut World,
    node: NodeId,
    action: Option<accesskit_bevy::Action>,
    data: Option<ActionData>,
) {
    let Some(action) = action else {
        return;
    };
    let data = data.and_then(|d| match d {
        ActionData::NumericValue(v) => Some(accesskit_bevy::ActionData::NumericValue(v)),
        ActionData::Value(text) => Some(accesskit_bevy::ActionData::Value(text)),
        _ => None,
    });
    world.write_message(ActionRequest(accesskit_bevy::ActionRequest {
        action,
        target_tree: accesskit_bevy::TreeId::ROOT,
        target_node: accesskit_bevy::NodeId(node.0),
        data,
    }));
}
