//! The commands' input as Bevy would get it from winit: each step becomes the message bevy_winit
//! writes for the same winit event (and its `WindowEvent`, which bevy_picking reads), so
//! `ButtonInput`, bevy_picking, `Interaction` and the widgets all see it. Positions arrive in
//! logical pixels, as Bevy's messages carry them. A [`Headless`] window's pointer goes to
//! bevy_picking as a pointer over its image.

use bevy::camera::NormalizedRenderTarget;
use bevy::input::ButtonState;
use bevy::input::keyboard::{Key, KeyCode, KeyboardInput};
use bevy::input::mouse::{MouseButton, MouseButtonInput, MouseScrollUnit, MouseWheel};
use bevy::input::touch::{TouchInput, TouchPhase as BevyTouchPhase};
use bevy::math::DVec2;
use bevy::picking::pointer::{Location, PointerAction, PointerButton, PointerId, PointerInput};
use bevy::prelude::*;
use bevy::window::{CursorMoved, WindowEvent};

use winit_automation_link::{Injected, Step, TouchPhase};
use winit_automation_protocol::{Button, ErrorCode, Failure, Modifiers, NamedKey};

use crate::Headless;

/// What the input delivered in a frame left behind.
#[derive(Default)]
pub(crate) struct Delivered {
    /// The windows a press was delivered to this frame (their hover data is reported in `PreUpdate`).
    pub(crate) pressed: Vec<Entity>,
    /// The modifier keys held, as the last `Modifiers` step said.
    modifiers: Modifiers,
}

/// Delivers one piece of the frame's input.
pub(crate) fn deliver(world: &mut World, delivered: &mut Delivered, injected: Injected) {
    let (window, step) = match injected {
        Injected::Step { window, step, .. } => (window, step),
        Injected::AppCommand(request) => {
            let verb = request.command().verb();
            request.reply(Err(Failure::new(
                ErrorCode::Unsupported,
                format!("the Bevy plugin does not answer {verb} itself"),
                "screenshots go through Bevy's screenshot path; other verbs are carried out as input",
            )));
            return;
        }
    };
    let Some(window) = Entity::try_from_bits(window) else {
        return;
    };
    match step {
        Step::Move { x, y } => move_pointer(world, window, x, y),
        Step::Button { button, pressed } => {
            if pressed {
                delivered.pressed.push(window);
            }
            let input = MouseButtonInput {
                button: mouse_button(button),
                state: state(pressed),
                window,
            };
            let (pointer_button, at) = (pointer_button(button), cursor(world, window));
            let action = if pressed {
                PointerAction::Press(pointer_button)
            } else {
                PointerAction::Release(pointer_button)
            };
            match headless(world, window) {
                Some(image) => pointer(world, image, at, action, input),
                None => write(world, input, WindowEvent::MouseButtonInput(input)),
            }
        }
        Step::Wheel { dx, dy } => {
            // winit's positive delta shows what is above; the step's positive `dy`, below.
            let wheel = MouseWheel {
                unit: MouseScrollUnit::Pixel,
                x: -dx as f32,
                y: -dy as f32,
                window,
                phase: BevyTouchPhase::Moved,
            };
            let action = PointerAction::Scroll {
                unit: wheel.unit,
                x: wheel.x,
                y: wheel.y,
                phase: wheel.phase,
            };
            match headless(world, window) {
                Some(image) => pointer(world, image, cursor(world, window), action, wheel),
                None => write(world, wheel, WindowEvent::MouseWheel(wheel)),
            }
        }
        Step::Modifiers(modifiers) => {
            let was = std::mem::replace(&mut delivered.modifiers, modifiers);
            for (key, logical, before, now) in [
                (KeyCode::ControlLeft, Key::Control, was.ctrl, modifiers.ctrl),
                (KeyCode::ShiftLeft, Key::Shift, was.shift, modifiers.shift),
                (KeyCode::AltLeft, Key::Alt, was.alt, modifiers.alt),
                (KeyCode::SuperLeft, Key::Super, was.meta, modifiers.meta),
            ] {
                if before != now {
                    key_input(world, window, key, logical, now, None);
                }
            }
        }
        Step::Key { chord, pressed } => {
            let (code, logical, text) = key(chord.key, chord.modifiers);
            key_input(
                world,
                window,
                code,
                logical,
                pressed,
                text.filter(|_| pressed),
            );
        }
        Step::Text(text) => {
            for c in text.chars() {
                let mut buf = [0; 4];
                let s: &str = c.encode_utf8(&mut buf);
                for pressed in [true, false] {
                    let logical = Key::Character(s.into());
                    let text = pressed.then_some(s);
                    key_input(world, window, code_of(c), logical, pressed, text);
                }
            }
        }
        Step::Action {
            node, action, data, ..
        } => crate::actions::act(world, node, action, data),
        Step::Resize { width, height } => {
            if let Some(mut w) = world.get_mut::<Window>(window) {
                w.resolution.set(width as f32, height as f32);
            }
        }
        Step::Quit => {
            world.write_message(AppExit::Success);
        }
        Step::Touch {
            finger,
            phase,
            x,
            y,
        } => touch(world, window, finger, phase, (x, y)),
        // The clock moved at the frame's start; captures are taken in `Last`.
        Step::Clock(_) | Step::Capture { .. } => {}
    }
}

/// A finger touches, moves or lifts: the `TouchInput` bevy_winit writes (in logical pixels, as
/// the step's), which Bevy's `Touches` and bevy_picking read.
fn touch(world: &mut World, window: Entity, finger: u64, phase: TouchPhase, (x, y): (f64, f64)) {
    let touch = TouchInput {
        phase: match phase {
            TouchPhase::Start => BevyTouchPhase::Started,
            TouchPhase::Move => BevyTouchPhase::Moved,
            TouchPhase::End => BevyTouchPhase::Ended,
        },
        position: Vec2::new(x as f32, y as f32),
        window,
        force: None,
        id: finger,
    };
    write(world, touch, WindowEvent::TouchInput(touch));
}

/// The pointer moves: the window's cursor (`Interaction` reads it) and the messages.
fn move_pointer(world: &mut World, window: Entity, x: f64, y: f64) {
    let Some(mut w) = world.get_mut::<Window>(window) else {
        return;
    };
    let scale = f64::from(w.scale_factor());
    let physical = DVec2::new(x * scale, y * scale);
    let last = w.physical_cursor_position();
    // Not a change winit should apply: the cursor is where the command says, not warped there.
    w.bypass_change_detection()
        .set_physical_cursor_position(Some(physical));
    let position = Vec2::new(x as f32, y as f32);
    let delta = last.map(|l| position - l / scale as f32);
    let moved = CursorMoved {
        window,
        position,
        delta,
    };
    match headless(world, window) {
        Some(image) => {
            let action = PointerAction::Move {
                delta: delta.unwrap_or_default(),
            };
            pointer(world, image, position, action, moved);
        }
        None => write(world, moved.clone(), WindowEvent::CursorMoved(moved)),
    }
}

/// The image a headless window is drawn into ([`Headless`]).
fn headless(world: &World, window: Entity) -> Option<Handle<Image>> {
    world.get::<Headless>(window).map(|h| h.0.clone())
}

/// Where the window's cursor is, in logical pixels.
fn cursor(world: &World, window: Entity) -> Vec2 {
    world
        .get::<Window>(window)
        .and_then(Window::cursor_position)
        .unwrap_or_default()
}

/// A pointer step over a headless window's image: Bevy's input message (`ButtonInput`, the
/// game's readers) without its `WindowEvent`, from which bevy_picking would place the pointer on
/// a window no camera renders to; bevy_picking's own `PointerInput` instead, on the image.
fn pointer<M: Message>(
    world: &mut World,
    image: Handle<Image>,
    position: Vec2,
    action: PointerAction,
    message: M,
) {
    world.write_message(message);
    let location = Location {
        target: NormalizedRenderTarget::Image(image.into()),
        position,
    };
    world.write_message(PointerInput::new(PointerId::Mouse, location, action));
}

fn write<M: Message>(world: &mut World, message: M, event: WindowEvent) {
    world.write_message(message);
    world.write_message(event);
}

fn key_input(
    world: &mut World,
    window: Entity,
    key_code: KeyCode,
    logical_key: Key,
    pressed: bool,
    text: Option<&str>,
) {
    let input = KeyboardInput {
        key_code,
        logical_key,
        state: state(pressed),
        text: text.map(Into::into),
        repeat: false,
        window,
    };
    write(world, input.clone(), WindowEvent::KeyboardInput(input));
}

fn state(pressed: bool) -> ButtonState {
    if pressed {
        ButtonState::Pressed
    } else {
        ButtonState::Released
    }
}

fn pointer_button(button: Button) -> PointerButton {
    match button {
        Button::Left => PointerButton::Primary,
        Button::Right => PointerButton::Secondary,
        Button::Middle => PointerButton::Middle,
    }
}

fn mouse_button(button: Button) -> MouseButton {
    match button {
        Button::Left => MouseButton::Left,
        Button::Right => MouseButton::Right,
        Button::Middle => MouseButton::Middle,
    }
}

/// A chord's key as Bevy's physical key, logical key and text (what a US layout gives).
fn key(
    key: winit_automation_protocol::Key,
    modifiers: Modifiers,
) -> (KeyCode, Key, Option<&'static str>) {
    use winit_automation_protocol::Key as K;
    let named = |code, logical, text| (code, logical, text);
    match key {
        K::Named(n) => match n {
            NamedKey::Enter => named(KeyCode::Enter, Key::Enter, Some("\r")),
            NamedKey::Tab => named(KeyCode::Tab, Key::Tab, Some("\t")),
            NamedKey::Space => named(KeyCode::Space, Key::Space, Some(" ")),
            NamedKey::Backspace => named(KeyCode::Backspace, Key::Backspace, None),
            NamedKey::Delete => named(KeyCode::Delete, Key::Delete, None),
            NamedKey::Escape => named(KeyCode::Escape, Key::Escape, None),
            NamedKey::Insert => named(KeyCode::Insert, Key::Insert, None),
            NamedKey::Home => named(KeyCode::Home, Key::Home, None),
            NamedKey::End => named(KeyCode::End, Key::End, None),
            NamedKey::PageUp => named(KeyCode::PageUp, Key::PageUp, None),
            NamedKey::PageDown => named(KeyCode::PageDown, Key::PageDown, None),
            NamedKey::ArrowUp => named(KeyCode::ArrowUp, Key::ArrowUp, None),
            NamedKey::ArrowDown => named(KeyCode::ArrowDown, Key::ArrowDown, None),
            NamedKey::ArrowLeft => named(KeyCode::ArrowLeft, Key::ArrowLeft, None),
            NamedKey::ArrowRight => named(KeyCode::ArrowRight, Key::ArrowRight, None),
            NamedKey::F(n) => function_key(n),
        },
        K::Char(c) => {
            // A chord with ctrl, alt or meta types nothing.
            let types = !(modifiers.ctrl || modifiers.alt || modifiers.meta);
            let text = printable(c);
            let logical = match text {
                Some(s) => Key::Character(s.into()),
                None => Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
            };
            (code_of(c), logical, text.filter(|_| types))
        }
    }
}

/// The printable ASCII characters: a key's text is a slice of it (nothing is formatted on the
/// render side).
const PRINTABLE: &str = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";

fn printable(c: char) -> Option<&'static str> {
    let i = PRINTABLE.find(c)?;
    PRINTABLE.get(i..i + c.len_utf8())
}

fn function_key(n: u8) -> (KeyCode, Key, Option<&'static str>) {
    const CODES: [(KeyCode, Key); 12] = [
        (KeyCode::F1, Key::F1),
        (KeyCode::F2, Key::F2),
        (KeyCode::F3, Key::F3),
        (KeyCode::F4, Key::F4),
        (KeyCode::F5, Key::F5),
        (KeyCode::F6, Key::F6),
        (KeyCode::F7, Key::F7),
        (KeyCode::F8, Key::F8),
        (KeyCode::F9, Key::F9),
        (KeyCode::F10, Key::F10),
        (KeyCode::F11, Key::F11),
        (KeyCode::F12, Key::F12),
    ];
    let i = usize::from(n.clamp(1, 12) - 1);
    (CODES[i].0, CODES[i].1.clone(), None)
}

/// The physical key that types `c` on a US layout (`Unidentified` for others).
fn code_of(c: char) -> KeyCode {
    const LETTERS: [KeyCode; 26] = [
        KeyCode::KeyA,
        KeyCode::KeyB,
        KeyCode::KeyC,
        KeyCode::KeyD,
        KeyCode::KeyE,
        KeyCode::KeyF,
        KeyCode::KeyG,
        KeyCode::KeyH,
        KeyCode::KeyI,
        KeyCode::KeyJ,
        KeyCode::KeyK,
        KeyCode::KeyL,
        KeyCode::KeyM,
        KeyCode::KeyN,
        KeyCode::KeyO,
        KeyCode::KeyP,
        KeyCode::KeyQ,
        KeyCode::KeyR,
        KeyCode::KeyS,
        KeyCode::KeyT,
        KeyCode::KeyU,
        KeyCode::KeyV,
        KeyCode::KeyW,
        KeyCode::KeyX,
        KeyCode::KeyY,
        KeyCode::KeyZ,
    ];
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Digit0,
        KeyCode::Digit1,
        KeyCode::Digit2,
        KeyCode::Digit3,
        KeyCode::Digit4,
        KeyCode::Digit5,
        KeyCode::Digit6,
        KeyCode::Digit7,
        KeyCode::Digit8,
        KeyCode::Digit9,
    ];
    let lower = c.to_ascii_lowercase();
    match lower {
        'a'..='z' => LETTERS[(lower as u8 - b'a') as usize],
        '0'..='9' => DIGITS[(lower as u8 - b'0') as usize],
        ' ' => KeyCode::Space,
        '-' => KeyCode::Minus,
        '=' => KeyCode::Equal,
        ',' => KeyCode::Comma,
        '.' => KeyCode::Period,
        '/' => KeyCode::Slash,
        ';' => KeyCode::Semicolon,
        '\'' => KeyCode::Quote,
        '[' => KeyCode::BracketLeft,
        ']' => KeyCode::BracketRight,
        '\\' => KeyCode::Backslash,
        '`' => KeyCode::Backquote,
        _ => KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified),
    }
}
