//! What the render end hands over becomes winit input: a planned step becomes the winit event,
//! the crate's own key, text, AccessKit request or window request it stands for. Written once:
//! without the `automation` feature nothing is ever injected ([`feature::split`] of an
//! uninhabited type), and none of this runs.

use accesskit::ActionRequest;
use winit::dpi::{LogicalSize, PhysicalPosition};
use winit::event::{
    DeviceId, ElementState, Modifiers as WinitModifiers, MouseButton, MouseScrollDelta, Touch,
    TouchPhase, WindowEvent,
};
use winit::window::WindowId;
use winit_automation_link::{Step, TouchPhase as Phase};

use super::{Input, KeyInput, Request, modifiers_state};
use crate::feature::{self, Injected};
use crate::protocol::Button;

/// What the app is handed for a piece of injected input: a step becomes the winit event (in
/// physical pixels), key, text, action request or window request it stands for.
pub(crate) fn from_injected(injected: Injected) -> Input {
    let (window, scale, step) = match feature::split(injected) {
        feature::Split::AppCommand(inner) => return Input::Request(Request { inner }),
        feature::Split::Step(window, scale, step) => (WindowId::from(window), scale, step),
    };
    let device_id = DeviceId::dummy();
    let button = |b: Button| match b {
        Button::Left => MouseButton::Left,
        Button::Right => MouseButton::Right,
        Button::Middle => MouseButton::Middle,
    };
    let state = |pressed: bool| {
        if pressed {
            ElementState::Pressed
        } else {
            ElementState::Released
        }
    };
    let pointer = |event| Input::Pointer { window, event };
    match step {
        Step::Move { x, y } => pointer(WindowEvent::CursorMoved {
            device_id,
            position: PhysicalPosition::new(x * scale, y * scale),
        }),
        Step::Modifiers(m) => pointer(WindowEvent::ModifiersChanged(WinitModifiers::from(
            modifiers_state(m),
        ))),
        Step::Touch {
            finger,
            phase,
            x,
            y,
        } => pointer(WindowEvent::Touch(Touch {
            device_id,
            phase: match phase {
                Phase::Start => TouchPhase::Started,
                Phase::Move => TouchPhase::Moved,
                Phase::End => TouchPhase::Ended,
            },
            location: PhysicalPosition::new(x * scale, y * scale),
            force: None,
            id: finger,
        })),
        Step::Button { button: b, pressed } => pointer(WindowEvent::MouseInput {
            device_id,
            state: state(pressed),
            button: button(b),
        }),
        // winit: positive deltas move the content right and down (revealing what is above);
        // the protocol's positive dy reveals what is below.
        Step::Wheel { dx, dy } => pointer(WindowEvent::MouseWheel {
            device_id,
            delta: MouseScrollDelta::PixelDelta(PhysicalPosition::new(-dx * scale, -dy * scale)),
            phase: TouchPhase::Moved,
        }),
        Step::Text(text) => Input::Text { window, text },
        Step::Key { chord, pressed } => Input::Key {
            window,
            key: KeyInput {
                chord,
                state: state(pressed),
            },
        },
        Step::Action {
            node,
            tree,
            action,
            data,
            widget,
        } => Input::Action {
            window,
            request: ActionRequest {
                action,
                target_tree: tree,
                target_node: node,
                data,
            },
            widget,
        },
        Step::Resize { width, height } => Input::Resize {
            window,
            size: LogicalSize::new(f64::from(width), f64::from(height)),
        },
        Step::Quit => Input::Quit,
        // The render end keeps captures for the frame's texture and carries clock changes out
        // itself: neither reaches the app.
        Step::Capture { .. } | Step::Clock(_) => Input::Quit,
    }
}
