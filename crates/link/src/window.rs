//! What the app tells the plugin about its windows besides their trees: each window's state
//! (title, size, scale factor, focus), its surface, its layers (paint order, the modal layer,
//! clips), and the GPU adapter. Plain data: the render thread moves it into a channel, the
//! service thread's mirror keeps it.

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

impl WindowState {
    /// A headless app's one "window": its title and size in logical pixels, scale 1, focused.
    pub fn headless(title: impl Into<String>, width: f64, height: f64) -> WindowState {
        WindowState {
            title: title.into(),
            width,
            height,
            scale_factor: 1.0,
            focused: true,
        }
    }
}

/// What an AccessKit tree cannot say about a window and the hit test needs: the paint order of
/// its top-level layers, which one is modal, and which containers clip their children
/// (winit-automation's `Frame::layers`).
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
