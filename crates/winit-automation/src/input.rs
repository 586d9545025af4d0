//! The input the plugin hands to the app each frame ([`crate::Frame::input`]): [`Input`], the
//! crate's own key type [`KeyInput`], and [`Request`], a command the app answers itself.

use accesskit::ActionRequest;
use winit::dpi::LogicalSize;
use winit::event::{ElementState, Ime, WindowEvent};
use winit::keyboard::{Key, ModifiersState, NamedKey as WinitNamed, SmolStr};
use winit::window::WindowId;

use crate::feature;
use crate::protocol::{self, Command, Failure, KeyChord};

mod injected;
pub(crate) use injected::from_injected;

/// One piece of injected input, in the order the commands were sent.
///
/// Each kind comes by its own path, and the answer to the command names the path that ran:
/// - pointer input (`click`, `hover`, `drag`, `scroll`, `stroke`, `down`, `move`, `up`,
///   `pinch`) as real winit [`WindowEvent`]s with
///   [`DeviceId::dummy`](winit::event::DeviceId::dummy), in physical pixels, aimed at the centre
///   of the visible part of the target: moves, buttons, the wheel, touches (`pinch`), and
///   `ModifiersChanged` before and after them for `--modifiers`;
/// - text (`type`, `fill`) as a string to insert at the focus (what an IME commit carries);
/// - keys (`key`, the select-all of `fill`) as the crate's own [`KeyInput`], because winit 0.30's
///   `KeyEvent` cannot be built outside winit; it converts to winit's logical key and modifiers;
/// - AccessKit actions (`action`, `focus`, the focus step of `fill`) as an [`ActionRequest`] for
///   the app's action handler;
/// - window requests (`resize`, `quit`), and commands the app answers itself ([`Request`]).
///
/// Feed pointer events to the same handler as the window's own events, text and keys to the code
/// that handles keyboard input, and action requests to the handler `accesskit_winit` calls.
#[derive(Debug)]
#[non_exhaustive]
pub enum Input {
    /// A pointer event (cursor moved, button, wheel, touch, and the `ModifiersChanged` around
    /// them for `--modifiers`) for `window`, in physical pixels, as winit delivers the window's
    /// own events. Feed it to the window-event handler.
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

/// A command the app answers itself (see [`Input::Request`]): `screenshot` with
/// [`Builder::app_screenshots`](crate::Builder::app_screenshots). Answer it with
/// [`Request::reply`]; dropping it unanswered answers `not_handled`, so every command gets exactly
/// one response. With the feature off no request is ever made.
pub struct Request {
    pub(crate) inner: feature::AppCommand,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&self.inner, f)
    }
}

impl Request {
    /// The seq of the command entry.
    pub fn seq(&self) -> u64 {
        self.inner.seq()
    }

    /// The command.
    pub fn command(&self) -> &Command {
        self.inner.command()
    }

    /// Answers it: `Ok(body)` with the answer's lines (may be empty), or `Err(failure)`. The
    /// response is written once the current frame is published (when its
    /// [`Frame`](crate::Frame) is published or ends).
    pub fn reply(self, result: Result<String, Failure>) {
        self.inner.reply(result);
    }
}

/// winit's modifier state for the protocol's modifiers (`meta` is winit's `SUPER`).
pub(crate) fn modifiers_state(m: protocol::Modifiers) -> ModifiersState {
    let mut state = ModifiersState::empty();
    state.set(ModifiersState::CONTROL, m.ctrl);
    state.set(ModifiersState::ALT, m.alt);
    state.set(ModifiersState::SHIFT, m.shift);
    state.set(ModifiersState::SUPER, m.meta);
    state
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
        modifiers_state(self.chord.modifiers)
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
