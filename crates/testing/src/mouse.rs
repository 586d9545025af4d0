//! The mouse as a test holds it: [`App::mouse`] gives a [`Mouse`] that presses a button and
//! leaves it down, moves with it down, and lets go (the protocol's `down`, `move` and `up`), for
//! the gestures the actions on a [`Node`](super::Node) do not name.

use super::app::App;
use super::node::DragTo;
use winit_automation_protocol::{ActOptions, Button, Command, Modifiers, Target};

/// The app's mouse ([`App::mouse`]): `down`, `move_to` and `up` send the protocol's `down`,
/// `move` and `up` (docs/protocol.md section 4.6), one command each, so a test can look at the
/// app between them (a drag's preview, a drop target lit while the button is down).
///
/// The app keeps the button's state between the commands: a second `down` before the `up` is
/// refused `pointer_state`, and so is an `up` with no `down` before it; either fails the test.
/// Where to press or move is a node ([`&Node`](super::Node), aimed at as a click is) or a point
/// in logical pixels of its window (`(x, y)`), as for [`Node::drag_to`](super::Node::drag_to).
/// Each command waits for its target to be actionable and settles before it returns, as the node
/// actions do.
///
/// ```no_run
/// use winit_automation_testing::{Modifiers, Spawn};
///
/// let app = Spawn::example("demo").headless(800, 600).start();
/// let volume = app.get_by_role_and_name("slider", "Volume");
/// let mouse = app.mouse();
/// mouse.down(&volume);
/// mouse.move_to((300.0, 120.0));
/// // The button is still down: the test can look at the app mid-gesture.
/// mouse.up();
/// // The same with shift held from the press to the release.
/// mouse.down_with(&volume, Modifiers::SHIFT);
/// mouse.up();
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Mouse<'a> {
    app: &'a App,
}

impl App {
    /// The mouse, for gestures made of parts: press ([`Mouse::down`]), move with the button
    /// down ([`Mouse::move_to`]) and let go ([`Mouse::up`]).
    pub fn mouse(&self) -> Mouse<'_> {
        Mouse { app: self }
    }
}

impl Mouse<'_> {
    /// Moves the pointer to a node or a point and presses the left button, leaving it down
    /// (`down`); the answer's body. The press is checked as a click's is.
    #[track_caller]
    pub fn down<'b>(&self, at: impl Into<DragTo<'b>>) -> String {
        self.down_with(at, Modifiers::NONE)
    }

    /// [`Mouse::down`] with modifier keys held from the press until [`Mouse::up`] (`down
    /// --modifiers`): a shift-drag, a ctrl-drag.
    #[track_caller]
    pub fn down_with<'b>(&self, at: impl Into<DragTo<'b>>, modifiers: Modifiers) -> String {
        self.app.ok_command(&Command::Down {
            target: target(at.into()),
            button: Button::Left,
            modifiers,
            opts: self.app.act_options(),
        })
    }

    /// Moves the pointer to a node or a point, with the button `down` left pressed (`move`).
    /// With the button down, a node is not checked for what lies on top of it: a person lets go
    /// over a drop target whatever covers it.
    #[track_caller]
    pub fn move_to<'b>(&self, to: impl Into<DragTo<'b>>) -> String {
        self.app.ok_command(&Command::Move {
            target: target(to.into()),
            steps: None,
            opts: self.app.act_options(),
        })
    }

    /// Lets go of the left button where the pointer is (`up`), and of the modifiers
    /// [`Mouse::down_with`] held.
    #[track_caller]
    pub fn up(&self) -> String {
        self.app.ok_command(&Command::Up {
            button: Button::Left,
            opts: self.options(),
        })
    }

    /// The actions' options without `--wait`: `up` has no target to wait for.
    fn options(&self) -> ActOptions {
        ActOptions {
            wait_ms: None,
            ..self.app.act_options()
        }
    }
}

/// A node (by its ref) or a point, as the protocol's target.
fn target(at: DragTo<'_>) -> Target {
    match at {
        DragTo::Node(node) => Target::Ref(node.r#ref()),
        DragTo::Point(point) => Target::Point(point),
    }
}
