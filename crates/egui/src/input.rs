//! The adapter that turns injected [`Input`]s into egui events: [`EguiInput`].

use egui::{
    Event, Modifiers, MouseWheelSource, MouseWheelUnit, PointerButton, Pos2, RawInput,
    TouchDeviceId, TouchId, TouchPhase, Vec2,
};
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::keyboard::ModifiersState;

use winit_automation::{Input, KeyInput};

/// Turns [`Input`]s into egui events. Keep one per window, across frames.
#[derive(Debug, Default)]
pub struct EguiInput {
    pos: Pos2,
    modifiers: Modifiers,
    /// The modifiers a pointer gesture holds (`--modifiers`), from its `ModifiersChanged` until
    /// the one that lets them go, over as many frames as the gesture takes: a key chord sent
    /// meanwhile keeps them.
    held: Modifiers,
}

/// egui's modifiers for winit's (egui's `command` is ctrl, or cmd on macOS).
fn egui_modifiers(state: ModifiersState) -> Modifiers {
    let mac = cfg!(target_os = "macos");
    Modifiers {
        alt: state.alt_key(),
        ctrl: state.control_key(),
        shift: state.shift_key(),
        mac_cmd: mac && state.super_key(),
        command: if mac {
            state.super_key()
        } else {
            state.control_key()
        },
    }
}

impl EguiInput {
    /// A new adapter with the pointer at the top left.
    pub fn new() -> EguiInput {
        EguiInput::default()
    }

    /// Pushes the egui events for `input` onto `raw`; returns whether egui takes this kind of
    /// input (pointer, text, keys, AccessKit actions). `pixels_per_point` converts physical pixels
    /// to egui points (`Context::pixels_per_point`).
    pub fn push(&mut self, input: &Input, pixels_per_point: f32, raw: &mut RawInput) -> bool {
        let ppp = pixels_per_point.max(f32::MIN_POSITIVE);
        match input {
            Input::Pointer { event, .. } => {
                self.pointer(event, ppp, raw);
                true
            }
            Input::Text { text, .. } => {
                raw.events.push(Event::Text(text.clone()));
                true
            }
            Input::Key { key, .. } => {
                self.key(key, raw);
                true
            }
            Input::Action { request, .. } => {
                raw.events
                    .push(Event::AccessKitActionRequest(request.clone()));
                true
            }
            _ => false,
        }
    }

    fn pointer(&mut self, event: &WindowEvent, ppp: f32, raw: &mut RawInput) {
        let pos =
            |p: &winit::dpi::PhysicalPosition<f64>| Pos2::new(p.x as f32 / ppp, p.y as f32 / ppp);
        match event {
            WindowEvent::ModifiersChanged(m) => {
                self.held = egui_modifiers(m.state());
                self.modifiers = self.held;
                // egui keeps them from frame to frame until the next change.
                raw.events.push(Event::ModifiersChanged(self.held));
            }
            WindowEvent::Touch(touch) => {
                raw.events.push(Event::Touch {
                    device_id: TouchDeviceId(0),
                    id: TouchId(touch.id),
                    phase: match touch.phase {
                        winit::event::TouchPhase::Started => TouchPhase::Start,
                        winit::event::TouchPhase::Moved => TouchPhase::Move,
                        winit::event::TouchPhase::Ended => TouchPhase::End,
                        winit::event::TouchPhase::Cancelled => TouchPhase::Cancel,
                    },
                    pos: pos(&touch.location),
                    force: None,
                });
            }
            WindowEvent::CursorMoved { position, .. } => {
                self.pos = pos(position);
                raw.events.push(Event::PointerMoved(self.pos));
            }
            WindowEvent::MouseInput { state, button, .. } => {
                let button = match button {
                    MouseButton::Left => PointerButton::Primary,
                    MouseButton::Right => PointerButton::Secondary,
                    MouseButton::Middle => PointerButton::Middle,
                    MouseButton::Back => PointerButton::Extra1,
                    MouseButton::Forward | MouseButton::Other(_) => PointerButton::Extra2,
                };
                raw.events.push(Event::PointerButton {
                    pos: self.pos,
                    button,
                    pressed: *state == ElementState::Pressed,
                    modifiers: self.modifiers,
                });
            }
            WindowEvent::MouseWheel { delta, .. } => {
                // Same sign as winit: positive moves the content right and down.
                let (unit, delta) = match delta {
                    MouseScrollDelta::PixelDelta(p) => (
                        MouseWheelUnit::Point,
                        Vec2::new(p.x as f32 / ppp, p.y as f32 / ppp),
                    ),
                    MouseScrollDelta::LineDelta(x, y) => (MouseWheelUnit::Line, Vec2::new(*x, *y)),
                };
                raw.events.push(Event::MouseWheel {
                    unit,
                    delta,
                    phase: TouchPhase::Move,
                    source: MouseWheelSource::Unknown,
                    modifiers: self.modifiers,
                });
            }
            _ => {}
        }
    }

    fn key(&mut self, key: &KeyInput, raw: &mut RawInput) {
        let modifiers = egui_modifiers(key.modifiers());
        let pressed = key.is_pressed();
        let held = if pressed {
            modifiers | self.held
        } else {
            self.held
        };
        if held != self.modifiers {
            self.modifiers = held;
            raw.events.push(Event::ModifiersChanged(held));
        }
        // egui-winit turns the clipboard shortcuts into these events; widgets do not see the key.
        if pressed && modifiers.command && !modifiers.shift && !modifiers.alt {
            match key.chord.key {
                winit_automation::protocol::Key::Char('c') => return raw.events.push(Event::Copy),
                winit_automation::protocol::Key::Char('x') => return raw.events.push(Event::Cut),
                _ => {}
            }
        }
        if let Some(k) = egui::Key::from_name(&key.chord.key.to_string()) {
            raw.events.push(Event::Key {
                key: k,
                physical_key: None,
                pressed,
                repeat: false,
                modifiers,
            });
        }
        // egui inserts text from Text events only, as egui-winit sends them: printable text, not
        // the control characters of Enter or Tab.
        if let Some(text) = key.text().filter(|t| !t.chars().any(char::is_control)) {
            raw.events.push(Event::Text(text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use winit::dpi::PhysicalPosition;
    use winit::event::DeviceId;
    use winit::window::WindowId;
    use winit_automation::protocol::KeyChord;

    #[test]
    fn a_click_becomes_a_move_then_a_press_and_release_at_the_same_point() {
        let window = WindowId::from(1);
        let device_id = DeviceId::dummy();
        let mut adapter = EguiInput::new();
        let mut raw = RawInput::default();
        let inputs = [
            WindowEvent::CursorMoved {
                device_id,
                position: PhysicalPosition::new(200.0, 100.0),
            },
            WindowEvent::MouseInput {
                device_id,
                state: ElementState::Pressed,
                button: MouseButton::Left,
            },
            WindowEvent::MouseInput {
                device_id,
                state: ElementState::Released,
                button: MouseButton::Left,
            },
        ];
        for event in inputs {
            assert!(adapter.push(&Input::Pointer { window, event }, 2.0, &mut raw));
        }
        let at = Pos2::new(100.0, 50.0);
        assert_eq!(raw.events[0], Event::PointerMoved(at));
        assert!(
            matches!(raw.events[1], Event::PointerButton { pos, pressed: true, button: PointerButton::Primary, .. } if pos == at)
        );
        assert!(matches!(
            raw.events[2],
            Event::PointerButton { pressed: false, .. }
        ));
    }

    #[test]
    fn keys_carry_their_modifiers_and_printable_keys_their_text() {
        let window = WindowId::from(1);
        let mut adapter = EguiInput::new();
        let mut raw = RawInput::default();
        let key = |chord: &str| Input::Key {
            window,
            key: KeyInput {
                chord: KeyChord::parse(chord).unwrap(),
                state: ElementState::Pressed,
            },
        };
        adapter.push(&key("ctrl+a"), 1.0, &mut raw);
        adapter.push(&key("x"), 1.0, &mut raw);
        adapter.push(&key("Enter"), 1.0, &mut raw);
        // ctrl goes down, then up again before the next chord.
        assert!(matches!(&raw.events[0], Event::ModifiersChanged(m) if m.ctrl));
        raw.events.remove(0);
        assert!(matches!(&raw.events[1], Event::ModifiersChanged(m) if !m.ctrl));
        raw.events.remove(1);
        assert!(matches!(
            &raw.events[0],
            Event::Key { key: egui::Key::A, pressed: true, modifiers, .. } if modifiers.command && modifiers.ctrl
        ));
        assert!(matches!(
            &raw.events[1],
            Event::Key {
                key: egui::Key::X,
                ..
            }
        ));
        assert_eq!(raw.events[2], Event::Text("x".into()));
        assert!(matches!(
            &raw.events[3],
            Event::Key {
                key: egui::Key::Enter,
                ..
            }
        ));
        assert_eq!(raw.events.len(), 4, "Enter types no text: {:?}", raw.events);
    }

    #[test]
    fn modifiers_hold_across_frames_and_touches_become_egui_touches() {
        let window = WindowId::from(1);
        let mut adapter = EguiInput::new();
        let mut raw = RawInput::default();
        let shift = winit::keyboard::ModifiersState::SHIFT;
        let events = [
            WindowEvent::ModifiersChanged(shift.into()),
            WindowEvent::MouseInput {
                device_id: DeviceId::dummy(),
                state: ElementState::Pressed,
                button: MouseButton::Left,
            },
            WindowEvent::Touch(winit::event::Touch {
                device_id: DeviceId::dummy(),
                phase: winit::event::TouchPhase::Started,
                location: PhysicalPosition::new(20.0, 40.0),
                force: None,
                id: 7,
            }),
        ];
        for event in events {
            assert!(adapter.push(&Input::Pointer { window, event }, 2.0, &mut raw));
        }
        assert!(matches!(&raw.events[0], Event::ModifiersChanged(m) if m.shift && !m.ctrl));
        assert!(
            matches!(&raw.events[1], Event::PointerButton { modifiers, pressed: true, .. } if modifiers.shift),
            "the press carries the modifiers held: {:?}",
            raw.events[1]
        );
        assert!(matches!(
            &raw.events[2],
            Event::Touch { id: TouchId(7), phase: TouchPhase::Start, pos, .. } if *pos == Pos2::new(10.0, 20.0)
        ));
        // A key chord in a later frame keeps the held shift, and lets go of its own ctrl only.
        let mut raw = RawInput::default();
        let key = |pressed| Input::Key {
            window,
            key: KeyInput {
                chord: KeyChord::parse("ctrl+a").unwrap(),
                state: if pressed {
                    ElementState::Pressed
                } else {
                    ElementState::Released
                },
            },
        };
        adapter.push(&key(true), 1.0, &mut raw);
        adapter.push(&key(false), 1.0, &mut raw);
        let changes: Vec<Modifiers> = raw
            .events
            .iter()
            .filter_map(|e| match e {
                Event::ModifiersChanged(m) => Some(*m),
                _ => None,
            })
            .collect();
        assert!(changes[0].shift && changes[0].ctrl, "{changes:?}");
        assert!(changes[1].shift && !changes[1].ctrl, "{changes:?}");
    }
}
