//! What the render thread tells the service thread about what the app shows.

use accesskit::TreeUpdate;

use crate::widget::Widget;
use crate::window::{GpuInfo, Layers, SurfaceInfo, WindowState};

/// A change of what the app shows, sent by the render thread: a window's AccessKit update or
/// widget records, its state, layers or surface, the GPU adapter, or its closing. The service
/// thread's mirror applies it. A window is named by its number (1, 2, ... in the order the app
/// first reported it: `render/numbers.rs`), never by the app's id for it.
pub enum SceneChange {
    /// An AccessKit update (full or incremental).
    Update(u64, TreeUpdate),
    /// The full set of widget records for this frame.
    Widgets(u64, Vec<Widget>),
    /// The window's title, size, scale factor and focus.
    State(u64, WindowState),
    /// What the tree cannot say: layer order, the modal layer, clips (sent only when changed).
    Layers(u64, Layers),
    /// The window's surface size and format.
    Surface(u64, SurfaceInfo),
    /// The GPU adapter.
    Gpu(GpuInfo),
    /// Whether the window is animating: it wants more frames with no input (a settle waits).
    Animating(u64, bool),
    /// The window is gone.
    Closed(u64),
}
