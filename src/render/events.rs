//! The render side's conversions: a planned step into what the app is handed, and the answer to
//! an order whose deadline passed.

use winit::dpi::PhysicalPosition;
use winit::event::{
    DeviceId, ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent,
};
use winit::window::WindowId;

use crate::input::{Input, KeyInput};
use crate::link::Step;
use crate::protocol::{Button, ErrorCode, Failure};

/// The answer to an order whose deadline passed after `delivered` of its `total` input stages.
pub(super) fn expired(delivered: usize, total: usize) -> Failure {
    if delivered == 0 {
        Failure::new(
            ErrorCode::Expired,
            "its deadline passed before the app's next frame took it; it was not carried out",
            "its client has given up on it; send it again with a longer --timeout if it is still wanted",
        )
    } else {
        Failure::new(
            ErrorCode::Expired,
            format!(
                "its deadline passed after {delivered} of its {total} input stages were delivered; the rest was dropped (but for the release of anything pressed)"
            ),
            "it was partly carried out: check the app's state before sending it again",
        )
    }
}

pub(super) fn to_input(window: WindowId, scale: f64, step: Step) -> Input {
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
            request: accesskit::ActionRequest {
                action,
                target_tree: tree,
                target_node: node,
                data,
            },
            widget,
        },
        Step::Resize { width, height } => Input::Resize {
            window,
            size: winit::dpi::LogicalSize::new(f64::from(width), f64::from(height)),
        },
        Step::Quit => Input::Quit,
        // Taken out by take_input before it gets here.
        Step::Capture { .. } => Input::Quit,
    }
}
