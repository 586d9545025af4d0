//! The input the plugin hands to the app each frame ([`crate::Frame::input`]).
//!
//! Each kind comes by its own path, and the answer to the command names the path that ran:
//! - pointer input (`click`, `hover`, `drag`, `scroll`) as real winit [`WindowEvent`]s with
//!   [`DeviceId::dummy`](winit::event::DeviceId::dummy), in physical pixels, aimed at the centre of the visible part of the target;
//! - text (`type`, `fill`) as a string to insert at the focus (what an IME commit carries);
//! - keys (`key`, the select-all of `fill`) as the crate's own [`KeyInput`], because winit 0.30's
//!   `KeyEvent` cannot be built outside winit; it converts to winit's logical key and modifiers;
//! - AccessKit actions (`action`, `focus`, the focus step of `fill`) as an [`ActionRequest`] for the
//!   app's action handler;
//! - window requests (`resize`, `quit`).
//!
//! Feed pointer events to the same handler as the window's own events, text and keys to the code
//! that handles keyboard input, and action requests to the handler `accesskit_winit` calls.

use accesskit::ActionRequest;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, Ime, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey as WinitNamed, SmolStr};
use winit::window::WindowId;

use winit::dpi::PhysicalPosition;
use winit::event::{DeviceId, MouseButton, MouseScrollDelta, TouchPhase};
use winit_automation_link::{Injected, Request, Step};

use crate::protocol::{self, Button, KeyChord};

/// One piece of injected input, in the order the commands were sent.
#[derive(Debug)]
#[non_exhaustive]
pub enum Input {
    /// A pointer event (cursor moved, button, wheel) for `window`, in physical pixels, as winit
    /// delivers the window's own events. Feed it to the window-event handler.
    Pointer {
        /// The window.
        window: WindowId,
        /// The event.
        event: WindowEvent,
    },
    /// Text to insert at the focused node, as an IME commit would. [`Input::text_event`] makes the
    /// `WindowEvent::Ime(Ime::Commit(..))` for toolkits that read text that way.
    Text {
        /// The window.
        window: WindowId,
        /// The text.
        text: String,
    },
    /// A key press or release.
    Key {
        /// The window.
        window: WindowId,
        /// The key.
        key: KeyInput,
    },
    /// An AccessKit action request, for the same handler `accesskit_winit` calls.
    Action {
        /// The window whose tree holds the target.
        window: WindowId,
        /// The request.
        request: ActionRequest,
        /// The target's widget-record id (or AccessKit author id), for apps that publish widget
        /// records and know their widgets by id rather than by `NodeId`.
        widget: Option<String>,
    },
    /// The app should resize the window's content to this logical size (for a window,
    /// `Window::request_inner_size`; headless, the offscreen target).
    Resize {
        /// The window.
        window: WindowId,
        /// The new content size in logical pixels.
        size: LogicalSize<f64>,
    },
    /// The app should exit; the command is answered before the plugin stops.
    Quit,
    /// A command the plugin does not carry out itself (`screenshot` with
    /// [`Builder::app_screenshots`](crate::Builder::app_screenshots)): the app answers it.
    Request(Request),
}

impl Input {
    /// The window the input is for, if it names one.
    pub fn window(&self) -> Option<WindowId> {
        match self {
            Input::Pointer { window, .. }
            | Input::Text { window, .. }
            | Input::Key { window, .. }
            | Input::Action { window, .. }
            | Input::Resize { window, .. } => Some(*window),
            Input::Quit | Input::Request(_) => None,
        }
    }

    /// For [`Input::Text`]: the same text as the `WindowEvent::Ime(Ime::Commit(..))` winit would
    /// deliver, for toolkits that take text that way.
    pub fn text_event(&self) -> Option<WindowEvent> {
        match self {
            Input::Text { text, .. } => Some(WindowEvent::Ime(Ime::Commit(text.clone()))),
            _ => None,
        }
    }
}

impl Input {
    /// What the app is handed for a piece of injected input: a step becomes the winit event (in
    /// physical pixels), key, text, action request or window request it stands for.
    pub(crate) fn from_injected(injected: Injected) -> Input {
        let (window, scale, step) = match injected {
            Injected::Request(request) => return Input::Request(request),
            Injected::Step {
                window,
                scale,
                step,
            } => (WindowId::from(window), scale, step),
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
            Step::Button { button: b, pressed } => pointer(WindowEvent::MouseInput {
                device_id,
                state: state(pressed),
                button: button(b),
            }),
            // winit: positive deltas move the content right and down (revealing what is above);
            // the protocol's positive dy reveals what is below.
            Step::Wheel { dx, dy } => pointer(WindowEvent::MouseWheel {
                device_id,
                delta: MouseScrollDelta::PixelDelta(PhysicalPosition::new(
                    -dx * scale,
                    -dy * scale,
                )),
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
            // The render end keeps captures for the frame's texture: none reaches the app.
            Step::Capture { .. } => Input::Quit,
        }
    }
}

/// A key press or release, the crate's own type: winit 0.30's `KeyEvent` has a private field and
/// cannot be built outside winit. It carries what toolkits read from a `KeyEvent` (the logical key,
/// the text it produces, the modifiers held) and converts to winit's types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyInput {
    /// The chord as the command named it (`ctrl+a`, `Enter`).
    pub chord: KeyChord,
    /// Pressed or released.
    pub state: ElementState,
}

impl KeyInput {
    /// Whether this is the press.
    pub fn is_pressed(&self) -> bool {
        self.state == ElementState::Pressed
    }

    /// The logical key, as winit's `KeyEvent::logical_key` would carry it (`Key::Named(Enter)`,
    /// `Key::Character("a")`).
    pub fn logical_key(&self) -> Key {
        match self.chord.key {
            protocol::Key::Char(c) => Key::Character(SmolStr::new(c.encode_utf8(&mut [0; 4]))),
            protocol::Key::Named(n) => Key::Named(named(n)),
        }
    }

    /// The modifiers held, as winit's `ModifiersChanged` would report them.
    pub fn modifiers(&self) -> ModifiersState {
        let m = self.chord.modifiers;
        let mut out = ModifiersState::empty();
        out.set(ModifiersState::CONTROL, m.ctrl);
        out.set(ModifiersState::ALT, m.alt);
        out.set(ModifiersState::SHIFT, m.shift);
        out.set(ModifiersState::SUPER, m.meta);
        out
    }

    /// The text the press produces, as `KeyEvent::text` would: the character (or a space, or a
    /// newline for Enter, a tab for Tab) when no modifier other than shift is held; `None` for a
    /// release, a shortcut or a key that produces no text.
    pub fn text(&self) -> Option<String> {
        let m = self.chord.modifiers;
        if !self.is_pressed() || m.ctrl || m.alt || m.meta {
            return None;
        }
        match self.chord.key {
            protocol::Key::Char(c) => Some(c.to_string()),
            protocol::Key::Named(protocol::NamedKey::Space) => Some(" ".into()),
            protocol::Key::Named(protocol::NamedKey::Enter) => Some("\r".into()),
            protocol::Key::Named(protocol::NamedKey::Tab) => Some("\t".into()),
            protocol::Key::Named(_) => None,
        }
    }
}

fn named(n: protocol::NamedKey) -> WinitNamed {
    use protocol::NamedKey as P;
    match n {
        P::Enter => WinitNamed::Enter,
        P::Tab => WinitNamed::Tab,
        P::Space => WinitNamed::Space,
        P::Backspace => WinitNamed::Backspace,
        P::Delete => WinitNamed::Delete,
        P::Escape => WinitNamed::Escape,
        P::Insert => WinitNamed::Insert,
        P::Home => WinitNamed::Home,
        P::End => WinitNamed::End,
        P::PageUp => WinitNamed::PageUp,
        P::PageDown => WinitNamed::PageDown,
        P::ArrowUp => WinitNamed::ArrowUp,
        P::ArrowDown => WinitNamed::ArrowDown,
        P::ArrowLeft => WinitNamed::ArrowLeft,
        P::ArrowRight => WinitNamed::ArrowRight,
        P::F(k) => [
            WinitNamed::F1,
            WinitNamed::F2,
            WinitNamed::F3,
            WinitNamed::F4,
            WinitNamed::F5,
            WinitNamed::F6,
            WinitNamed::F7,
            WinitNamed::F8,
            WinitNamed::F9,
            WinitNamed::F10,
            WinitNamed::F11,
            WinitNamed::F12,
            WinitNamed::F13,
            WinitNamed::F14,
            WinitNamed::F15,
            WinitNamed::F16,
            WinitNamed::F17,
            WinitNamed::F18,
            WinitNamed::F19,
            WinitNamed::F20,
            WinitNamed::F21,
            WinitNamed::F22,
            WinitNamed::F23,
            WinitNamed::F24,
        ][usize::from(k.clamp(1, 24) - 1)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(chord: &str, state: ElementState) -> KeyInput {
        KeyInput {
            chord: KeyChord::parse(chord).unwrap(),
            state,
        }
    }

    #[test]
    fn chords_become_winit_keys_modifiers_and_text() {
        let a = key("ctrl+a", ElementState::Pressed);
        assert_eq!(a.logical_key(), Key::Character("a".into()));
        assert_eq!(a.modifiers(), ModifiersState::CONTROL);
        assert_eq!(a.text(), None, "a shortcut types nothing");
        let shift_tab = key("shift+Tab", ElementState::Pressed);
        assert_eq!(shift_tab.logical_key(), Key::Named(WinitNamed::Tab));
        assert_eq!(shift_tab.modifiers(), ModifiersState::SHIFT);
        assert_eq!(key("x", ElementState::Pressed).text().as_deref(), Some("x"));
        assert_eq!(key("x", ElementState::Released).text(), None);
        assert_eq!(
            key("F12", ElementState::Pressed).logical_key(),
            Key::Named(WinitNamed::F12)
        );
        assert_eq!(
            key("Enter", ElementState::Pressed).text().as_deref(),
            Some("\r")
        );
    }
}
