//! What the pointer holds between commands, as the plans left it: the buttons `down` pressed and
//! did not let go, the modifiers held with them, where the pointer went last, and the node a drag
//! took hold of ([`Dragged`]). `down`, `move` and
//! `up` read and change it; the other pointer verbs only move it (their own presses are let go
//! within the command).
//!
//! Planning works on a copy (the `Planner`'s), handed back in [`Moved`](crate::Moved): a plan made
//! again (a target waited for, scrolled in) starts from the same state, and
//! [`Gestures`](crate::Gestures) keeps the copy once the order goes out. An order dropped after that (`expired`) leaves it as if the order had
//! been carried out (a later `up` then lets go of a button the app never saw pressed).

use winit_automation_protocol::{Button, ErrorCode, Failure, Modifiers, Target};

use winit_automation_tree::Found;

/// The pointer, as the plans left it.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Pointer {
    /// The window and the point (logical pixels) it went to last.
    pub at: Option<(u64, f64, f64)>,
    /// The buttons `down` pressed, in order.
    pub down: Vec<Button>,
    /// The window the first of them went down in: the others, the moves and the releases go
    /// there, whatever another verb did with the pointer meanwhile.
    pub down_in: Option<u64>,
    /// The modifiers `down` holds until its `up`.
    pub modifiers: Modifiers,
}

/// The node a drag took hold of, for its answer's `ended` line: where it was found, what it
/// was (role, name, value), and the FROM that named it.
#[derive(Debug, Clone)]
pub struct Dragged {
    pub found: Found,
    pub identity: String,
    pub from: Target,
}

impl Pointer {
    /// `down` may press `button`: it is not down already.
    pub fn may_press(&self, button: Button) -> Result<(), Failure> {
        if self.down.contains(&button) {
            return Err(Failure::new(
                ErrorCode::PointerState,
                format!("the {} button is down already", button_name(button)),
                "let go of it first (up), or press another button (--right, --middle)",
            ));
        }
        Ok(())
    }

    /// `up` may let go of `button`: it is down.
    pub fn may_release(&self, button: Button) -> Result<(), Failure> {
        if self.down.contains(&button) {
            return Ok(());
        }
        let down: Vec<&str> = self.down.iter().map(|b| button_name(*b)).collect();
        Err(Failure::new(
            ErrorCode::PointerState,
            format!(
                "the {} button is not down (down: {})",
                button_name(button),
                if down.is_empty() {
                    "none".to_owned()
                } else {
                    down.join(", ")
                }
            ),
            "press it first with down TARGET; up lets go of what down pressed",
        ))
    }

    /// The window a button is down in, if any.
    pub fn pressed_in(&self) -> Option<u64> {
        self.down_in.filter(|_| !self.down.is_empty())
    }
}

/// The name a button has in answers and errors.
pub fn button_name(b: Button) -> &'static str {
    match b {
        Button::Left => "left",
        Button::Right => "right",
        Button::Middle => "middle",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_button_is_pressed_once_and_let_go_once() {
        let mut p = Pointer::default();
        assert!(p.may_press(Button::Left).is_ok());
        let up = p.may_release(Button::Left).unwrap_err();
        assert_eq!(up.code, ErrorCode::PointerState);
        assert_eq!(up.message, "the left button is not down (down: none)");
        p.down.push(Button::Left);
        p.down_in = Some(1);
        p.at = Some((2, 10.0, 20.0));
        assert_eq!(p.pressed_in(), Some(1));
        let again = p.may_press(Button::Left).unwrap_err();
        assert_eq!(again.message, "the left button is down already");
        assert!(p.may_press(Button::Right).is_ok());
        assert!(p.may_release(Button::Left).is_ok());
        assert_eq!(
            p.may_release(Button::Middle).unwrap_err().message,
            "the middle button is not down (down: left)"
        );
    }
}
