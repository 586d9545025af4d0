//! Actions on one node a query found: [`Node`] (click, fill, drag, AccessKit actions, ...) and
//! [`DragTo`], where a drag goes.

use super::app::App;
use super::screenshot::Screenshot;
use winit_automation_protocol::{
    Button, Command, NodeLine, NodeRef, NodeValue, Point, Target, Toggled,
};

/// A node a query found: its line as the app printed it, and actions on it by its ref (which
/// never moves to another node: a node that went away is refused `stale_ref`).
#[derive(Debug, Clone)]
pub struct Node<'a> {
    pub(super) app: &'a App,
    pub(super) line: NodeLine,
}

impl Node<'_> {
    /// The node's line, parsed: ref, role, name, value, states, bounds, actions.
    pub fn line(&self) -> &NodeLine {
        &self.line
    }

    /// Its ref, `@e3`.
    pub fn r#ref(&self) -> NodeRef {
        self.line.r#ref
    }

    /// Its short role.
    pub fn role(&self) -> &str {
        &self.line.role
    }

    /// Its accessible name (empty when it has none).
    pub fn name(&self) -> &str {
        &self.line.name
    }

    /// Its value as printed, when it has one.
    pub fn value(&self) -> Option<&str> {
        self.line.value.as_ref().map(NodeValue::as_str)
    }

    /// Whether it is checked.
    pub fn is_checked(&self) -> bool {
        self.line.toggled == Some(Toggled::Checked)
    }

    /// Whether it has the keyboard focus.
    pub fn is_focused(&self) -> bool {
        self.line.focused
    }

    /// Whether it is disabled.
    pub fn is_disabled(&self) -> bool {
        self.line.disabled
    }

    /// The node as it is now (queries return a copy of the line at query time).
    #[track_caller]
    pub fn refresh(&self) -> Self {
        let body = self.app.ok_command(&Command::Get {
            target: self.target(),
        });
        let Some(line) = NodeLine::parse(body.lines().next().unwrap_or_default()) else {
            panic!("`get {}` answered no node line:\n{body}", self.r#ref())
        };
        Node {
            app: self.app,
            line,
        }
    }

    /// It as a target: its ref.
    fn target(&self) -> Target {
        Target::Ref(self.line.r#ref)
    }

    #[track_caller]
    fn click_with(&self, button: Button, double: bool) -> String {
        self.app.ok_command(&Command::Click {
            target: self.target(),
            button,
            double,
            opts: self.app.act_options(),
        })
    }

    /// Clicks it: a verified pointer click (the app says the press reached this node, or the
    /// test fails with `missed`).
    #[track_caller]
    pub fn click(&self) -> String {
        self.click_with(Button::Left, false)
    }

    /// Double-clicks it.
    #[track_caller]
    pub fn double_click(&self) -> String {
        self.click_with(Button::Left, true)
    }

    /// Right-clicks it.
    #[track_caller]
    pub fn right_click(&self) -> String {
        self.click_with(Button::Right, false)
    }

    /// Moves the pointer over it.
    #[track_caller]
    pub fn hover(&self) -> String {
        self.app.ok_command(&Command::Hover {
            target: self.target(),
            opts: self.app.act_options(),
        })
    }

    /// Focuses it and replaces its text with `text`.
    #[track_caller]
    pub fn fill(&self, text: &str) -> String {
        self.app.ok_command(&Command::Fill {
            target: self.target(),
            text: text.to_owned(),
            opts: self.app.act_options(),
        })
    }

    /// Gives it the keyboard focus (AccessKit `focus`).
    #[track_caller]
    pub fn focus(&self) -> String {
        self.app.ok_command(&Command::Focus {
            target: self.target(),
            opts: self.app.act_options(),
        })
    }

    /// Focuses it, then presses key chords.
    #[track_caller]
    pub fn key(&self, chords: &str) -> String {
        self.focus();
        self.app.key(chords)
    }

    /// Focuses it, then types text.
    #[track_caller]
    pub fn type_text(&self, text: &str) -> String {
        self.focus();
        self.app.type_text(text)
    }

    /// Turns the wheel over it by (dx, dy) logical pixels (positive dy shows what is below).
    #[track_caller]
    pub fn scroll(&self, dx: f64, dy: f64) -> String {
        self.app.ok_command(&Command::Scroll {
            target: self.target(),
            dx,
            dy,
            opts: self.app.act_options(),
        })
    }

    /// Drags it onto another node (`node.drag_to(&other)`) or to a point in logical pixels of
    /// its window (`node.drag_to((300.0, 40.0))`).
    #[track_caller]
    pub fn drag_to<'b>(&self, to: impl Into<DragTo<'b>>) -> String {
        let to = match to.into() {
            DragTo::Node(node) => node.target(),
            DragTo::Point(point) => Target::Point(point),
        };
        self.app.ok_command(&Command::Drag {
            from: self.target(),
            to,
            opts: self.app.act_options(),
        })
    }

    /// Requests an AccessKit action by its snake_case name (`"increment"`, `"expand"`), with a
    /// value for the actions that take one (`"set_value"`, `Some("42")`).
    #[track_caller]
    pub fn action(&self, name: &str, value: Option<&str>) -> String {
        let Some(action) = winit_automation_protocol::parse_action(name) else {
            panic!(
                "unknown action {name:?}\nhint: actions are {}",
                winit_automation_protocol::action_names()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        self.app.ok_command(&Command::Action {
            target: self.target(),
            action,
            value: value.map(str::to_owned),
            opts: self.app.act_options(),
        })
    }

    /// A screenshot cropped to this node.
    #[track_caller]
    pub fn screenshot(&self) -> Screenshot {
        self.app.screenshot_of(Some(self.target()))
    }
}

/// Where [`Node::drag_to`] drags to: another node, or a point in logical pixels (`(x, y)` or a
/// [`Point`]).
#[derive(Debug, Clone, Copy)]
pub enum DragTo<'a> {
    /// Onto this node (its centre, as the app aims).
    Node(&'a Node<'a>),
    /// To this point of the window.
    Point(Point),
}

impl<'a> From<&'a Node<'a>> for DragTo<'a> {
    fn from(node: &'a Node<'a>) -> Self {
        DragTo::Node(node)
    }
}

impl From<Point> for DragTo<'_> {
    fn from(point: Point) -> Self {
        DragTo::Point(point)
    }
}

impl From<(f64, f64)> for DragTo<'_> {
    fn from((x, y): (f64, f64)) -> Self {
        DragTo::Point(Point { x, y })
    }
}
