//! Actions on one node a query found: [`Node`] (click, fill, drag, AccessKit actions, ...) and
//! [`DragTo`], where a drag goes.

use super::app::App;
use super::screenshot::Screenshot;
use winit_automation_protocol::{
    Button, Command, DragMotion, Modifiers, NodeLine, NodeRef, NodeValue, Point, Press, Target,
    Toggled,
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
    fn press(&self, button: Button, press: Press, modifiers: Modifiers) -> String {
        self.app.ok_command(&Command::Click {
            target: self.target(),
            button,
            press,
            modifiers,
            opts: self.app.act_options(),
        })
    }

    /// Clicks it: a verified pointer click (the app says the press reached this node, or the
    /// test fails with `missed`).
    #[track_caller]
    pub fn click(&self) -> String {
        self.press(Button::Left, Press::Single, Modifiers::NONE)
    }

    /// Clicks it with modifier keys held (`Modifiers::SHIFT`, `Modifiers::CTRL | Modifiers::SHIFT`):
    /// a range or multi-select in a list.
    #[track_caller]
    pub fn click_with(&self, modifiers: Modifiers) -> String {
        self.press(Button::Left, Press::Single, modifiers)
    }

    /// Double-clicks it.
    #[track_caller]
    pub fn double_click(&self) -> String {
        self.press(Button::Left, Press::Double, Modifiers::NONE)
    }

    /// Right-clicks it.
    #[track_caller]
    pub fn right_click(&self) -> String {
        self.press(Button::Right, Press::Single, Modifiers::NONE)
    }

    /// Presses it and holds the button down for `ms` milliseconds before letting go: a long
    /// press.
    #[track_caller]
    pub fn long_press(&self, ms: u64) -> String {
        self.press(Button::Left, Press::Hold(ms), Modifiers::NONE)
    }

    /// Moves the pointer over it.
    #[track_caller]
    pub fn hover(&self) -> String {
        self.app.ok_command(&Command::Hover {
            target: self.target(),
            opts: self.app.act_options(),
        })
    }

    /// Focuses it and replaces its text with `text`. A password field's text (its line says
    /// `password`) is sent as a secret, as [`Node::fill_secret`] does.
    #[track_caller]
    pub fn fill(&self, text: &str) -> String {
        self.fill_as(text, self.line.password)
    }

    /// Focuses it and replaces its text with a secret (`fill --secret`): the app's answers,
    /// journal and traces, and this harness's failure messages, show a fixed mask instead.
    #[track_caller]
    pub fn fill_secret(&self, secret: &str) -> String {
        self.fill_as(secret, true)
    }

    #[track_caller]
    fn fill_as(&self, text: &str, secret: bool) -> String {
        self.app.ok_command(&Command::Fill {
            target: self.target(),
            text: text.to_owned(),
            secret,
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
            modifiers: Modifiers::NONE,
            opts: self.app.act_options(),
        })
    }

    /// Drags it onto another node (`node.drag_to(&other)`) or to a point in logical pixels of
    /// its window (`node.drag_to((300.0, 40.0))`), as a person drags (the protocol's defaults:
    /// a hold, moves over frames, a dwell until the UI holds still). [`Node::drag`] changes how.
    #[track_caller]
    pub fn drag_to<'b>(&self, to: impl Into<DragTo<'b>>) -> String {
        self.drag(to).perform()
    }

    /// A drag of it to another node or a point, to shape before it is performed:
    /// `node.drag(&other).steps(20).dwell(2000).modifiers(Modifiers::CTRL).perform()`.
    pub fn drag<'b>(&self, to: impl Into<DragTo<'b>>) -> Drag<'_> {
        let to = match to.into() {
            DragTo::Node(node) => node.target(),
            DragTo::Point(point) => Target::Point(point),
        };
        Drag {
            app: self.app,
            from: self.target(),
            to,
            motion: DragMotion::default(),
            modifiers: Modifiers::NONE,
        }
    }

    /// Draws a stroke from its centre through `points` (logical pixels of its window), letting
    /// go at the last: a pen on a canvas.
    #[track_caller]
    pub fn stroke(&self, points: &[(f64, f64)]) -> String {
        let mut all = vec![self.target()];
        all.extend(points.iter().map(|&(x, y)| Target::Point(Point { x, y })));
        self.app.ok_command(&Command::Stroke {
            points: all,
            button: Button::Left,
            modifiers: Modifiers::NONE,
            opts: self.app.act_options(),
        })
    }

    /// Pinches two fingers around its centre: `scale` above 1 spreads them (zoom in), below 1
    /// closes them.
    #[track_caller]
    pub fn pinch(&self, scale: f64) -> String {
        self.app.ok_command(&Command::Pinch {
            target: self.target(),
            scale,
            pan: None,
            opts: self.app.act_options(),
        })
    }

    /// Two fingers on it move together by (dx, dy) logical pixels: a two-finger pan.
    #[track_caller]
    pub fn two_finger_pan(&self, dx: f64, dy: f64) -> String {
        self.app.ok_command(&Command::Pinch {
            target: self.target(),
            scale: 1.0,
            pan: Some(Point { x: dx, y: dy }),
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

/// A drag being shaped ([`Node::drag`]); nothing is sent until [`Drag::perform`].
#[must_use = "a drag is sent by perform()"]
#[derive(Debug)]
pub struct Drag<'a> {
    app: &'a App,
    from: Target,
    to: Target,
    motion: DragMotion,
    modifiers: Modifiers,
}

impl Drag<'_> {
    /// The moves on the way, each in a frame of its own (`--steps`).
    pub fn steps(mut self, steps: u32) -> Self {
        self.motion.steps = Some(steps);
        self
    }

    /// How long the button stays down before the first move, in milliseconds (`--hold`).
    pub fn hold(mut self, ms: u64) -> Self {
        self.motion.hold_ms = Some(ms);
        self
    }

    /// The most time spent at the end, waiting for the UI to hold still, before the release,
    /// in milliseconds (`--dwell`; 0 lets go at once).
    pub fn dwell(mut self, ms: u64) -> Self {
        self.motion.dwell_ms = Some(ms);
        self
    }

    /// Modifier keys held through the drag (`--modifiers`): a copy instead of a move.
    pub fn modifiers(mut self, modifiers: Modifiers) -> Self {
        self.modifiers = modifiers;
        self
    }

    /// Sends the drag; the answer's body, or the test fails with the refusal.
    #[track_caller]
    pub fn perform(self) -> String {
        self.app.ok_command(&Command::Drag {
            from: self.from,
            to: self.to,
            motion: self.motion,
            modifiers: self.modifiers,
            opts: self.app.act_options(),
        })
    }
}
