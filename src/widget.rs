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
    pub fn new(x: f64, y: f64, width: f64, height: f64) -> Bounds {
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

/// The GPU adapter, for the snapshot's metrics line (`Automation::adapter` fills it from
/// `wgpu::AdapterInfo`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GpuInfo {
    /// The adapter's name, such as `llvmpipe (LLVM 15.0.7, 256 bits)`.
    pub adapter: String,
    /// The backend, such as `vulkan` or `gl`.
    pub backend: String,
    /// The device type, such as `cpu` or `discrete_gpu`.
    pub device_type: String,
}

/// A window's surface, for its window line (`Automation::surface` fills it from the
/// `wgpu::SurfaceConfiguration`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SurfaceInfo {
    /// Width in physical pixels.
    pub width: u32,
    /// Height in physical pixels.
    pub height: u32,
    /// The texture format, such as `Bgra8UnormSrgb`.
    pub format: String,
}

/// What the snapshot says about a window besides its tree.
///
/// Rules the caller keeps: `width` and `height` are the content area in logical pixels, and
/// `scale_factor` is winit's `Window::scale_factor()` (physical pixels per logical pixel). AccessKit
/// bounds are taken as physical pixels and divided by it; widget-record bounds are already logical.
#[derive(Debug, Clone, PartialEq)]
pub struct WindowState {
    /// The title.
    pub title: String,
    /// Content width in logical pixels.
    pub width: f64,
    /// Content height in logical pixels.
    pub height: f64,
    /// Physical pixels per logical pixel.
    pub scale_factor: f64,
    /// Whether the window has the keyboard focus.
    pub focused: bool,
}

/// What an AccessKit tree cannot say about a window and the hit test needs: the paint order of
/// its top-level layers, which one is modal, and which containers clip their children
/// ([`Automation::layers`](crate::Automation::layers)).
///
/// Node ids are those of the window's AccessKit tree (`TreeUpdate` node ids of its root tree);
/// ids the tree does not hold are ignored, and so are the layers of a window fed widget records. Rectangles are in the tree's units and coordinates:
/// physical pixels of the window, as node bounds are after their transforms. An empty value (the
/// default) says nothing: the tree-order rules apply as if it had never been handed over.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Layers {
    /// The roots of the window's layers (windows, popups, menus, tooltips), bottom to top. A node
    /// belongs to the layer of its nearest listed ancestor (or itself); nodes under no listed root
    /// lie below every listed layer. A node of a higher layer lies on top of every node of a lower
    /// one, whatever the tree order; within one layer, tree order is paint order. A layer is not
    /// clipped by the ancestors of its root (a popup parented under a scrolled row is not cut off).
    pub order: Vec<accesskit::NodeId>,
    /// The modal layer's root, if one is shown: only it and the layers above it take input; a
    /// target under it is refused `covered`. A root missing from `order` counts as the top layer.
    pub modal: Option<accesskit::NodeId>,
    /// Containers that clip their descendants: to the rectangle given, or to their own bounds
    /// with `None` (a scroll area's viewport). Descendants outside are scrolled out: `offscreen`.
    /// These add to the tree's own clips (`clips_children`, scroll offsets); a node listed twice
    /// keeps its first. A rectangle with no area (left of or below its own start) clips away all.
    pub clips: Vec<(accesskit::NodeId, Option<accesskit::Rect>)>,
}

impl Layers {
    /// Whether it says nothing (no order, no modal layer, no clips).
    pub fn is_empty(&self) -> bool {
        self.order.is_empty() && self.modal.is_none() && self.clips.is_empty()
    }
}
