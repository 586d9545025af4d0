//! Widget records: the tree of an app that has no AccessKit tree (a game, an immediate-mode HUD).
//!
//! The app hands over every frame's widgets as plain records; the service thread turns them into an
//! AccessKit tree, so snapshots, refs, selectors and actions work exactly as for an AccessKit app.
//! Plain data: building records costs the app what it already knows, and the render thread only
//! moves the `Vec` into a channel.

use accesskit::{Action, Role};

/// A rectangle in logical pixels of the window's content area.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width (at least 0).
    pub width: f64,
    /// Height (at least 0).
    pub height: f64,
}

impl Bounds {
    /// A rectangle from its top-left corner and size.
    pub const fn new(x: f64, y: f64, width: f64, height: f64) -> Bounds {
        Bounds {
            x,
            y,
            width,
            height,
        }
    }

    /// Whether the point lies inside (left and top edges included, right and bottom excluded).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && y >= self.y && x < self.x + self.width && y < self.y + self.height
    }
}

/// One widget.
///
/// Rules the caller keeps: `id` is unique within the window and stable for the widget's lifetime
/// (it becomes the AccessKit node and the `id=` selector); `parent` names another record of the
/// same call or is `None` for a top-level widget. Records whose parent is unknown become top-level;
/// records in a parent cycle are dropped (and counted in the snapshot's warnings).
#[derive(Debug, Clone, PartialEq)]
pub struct Widget {
    /// The author id, unique in the window and stable across frames.
    pub id: String,
    /// The parent's id, `None` for a top-level widget.
    pub parent: Option<String>,
    /// The role, such as `Role::Button`.
    pub role: Role,
    /// The accessible name (the visible text of a button or label).
    pub name: String,
    /// Where it is, in logical pixels; `None` for a pure grouping node.
    pub bounds: Option<Bounds>,
    /// The current value (a text field's text, a slider's number as text).
    pub value: Option<String>,
    /// States.
    pub states: WidgetStates,
    /// The actions it supports, such as `Action::Click`.
    pub actions: Vec<Action>,
}

/// The states of a widget; the defaults are "not in that state".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WidgetStates {
    /// It has the keyboard focus (at most one per window).
    pub focused: bool,
    /// It is disabled.
    pub disabled: bool,
    /// It is hidden: it and its children are not shown.
    pub hidden: bool,
    /// A checkbox or switch: checked or not; `None` for widgets that cannot be checked.
    pub checked: Option<bool>,
    /// Selected or not; `None` for widgets that cannot be selected.
    pub selected: Option<bool>,
    /// Expanded or collapsed; `None` for widgets that do not expand.
    pub expanded: Option<bool>,
    /// It clips its children to its bounds (a scroll area): children outside are hidden hints.
    pub clips_children: bool,
}

impl Widget {
    /// A widget with a role and a name and nothing else.
    pub fn new(id: impl Into<String>, role: Role, name: impl Into<String>) -> Widget {
        Widget {
            id: id.into(),
            parent: None,
            role,
            name: name.into(),
            bounds: None,
            value: None,
            states: WidgetStates::default(),
            actions: Vec::new(),
        }
    }

    /// Sets the parent.
    pub fn parent(mut self, parent: impl Into<String>) -> Widget {
        self.parent = Some(parent.into());
        self
    }

    /// Sets the bounds.
    pub fn bounds(mut self, bounds: Bounds) -> Widget {
        self.bounds = Some(bounds);
        self
    }

    /// Sets the value.
    pub fn value(mut self, value: impl Into<String>) -> Widget {
        self.value = Some(value.into());
        self
    }

    /// Sets the states.
    pub fn states(mut self, states: WidgetStates) -> Widget {
        self.states = states;
        self
    }

    /// Adds a supported action.
    pub fn action(mut self, action: Action) -> Widget {
        self.actions.push(action);
        self
    }
}
