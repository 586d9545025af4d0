#![doc = include_str!("../README.md")]

use std::sync::Arc;

use winit_automation_protocol::Failure;

mod app_command;
mod clock;
mod idle;
mod options;
mod pictures;
mod plan;
mod render;
mod scene;
mod widget;
mod window;
#[doc(hidden)]
pub mod wiring;

// The wiring by its short names inside this crate (the render end is built on it).
use plan::{Plan, StageWait};
use wiring::{CaptureJob, Handover, Hit, Order, RenderChannels, Replier, ServiceThread};

pub use app_command::AppCommand;
pub use clock::{ClockChange, ClockMode, ClockReading, ClockShare, DEFAULT_STEP};
pub use idle::Idle;
pub use options::Options;
pub use pictures::{PendingCapture, Pixels, PublishedFrame, ToolkitScreenshots};
pub use plan::{CaptureTo, Stage, Step, Still, TouchPhase};
pub use render::{Injected, RenderEnd};
pub use scene::SceneChange;
pub use widget::{Bounds, Widget, WidgetStates};
pub use window::{GpuInfo, Layers, SurfaceInfo, WindowState};

/// A frame's pixels as the GPU left them in the mapped staging buffer, lent for the time of a
/// call: 8-bit RGBA (or BGRA when `bgra`), sRGB-encoded bytes as the frame held them, rows
/// `stride` bytes apart (padded to wgpu's 256-byte copy alignment).
pub struct FrameImage<'a> {
    /// Width in physical pixels.
    pub width: u32,
    /// Height in physical pixels.
    pub height: u32,
    /// Physical pixels per logical pixel.
    pub scale: f64,
    /// Bytes from the start of one row to the start of the next (at least `width * 4`).
    pub stride: usize,
    /// Whether the bytes are in BGRA order rather than RGBA.
    pub bgra: bool,
    /// The pixels' bytes, row after row, `stride` bytes apart.
    pub bytes: &'a [u8],
}

/// Reads a frame back, on the service thread: waits for the pixels (the GPU's copy, or
/// pixels a toolkit handed over), then lends them to the visitor (no copy of the whole image is made).
pub type Reader =
    Box<dyn FnOnce(&mut dyn FnMut(&FrameImage<'_>)) -> Result<(), Failure> + Send + Sync>;

/// The app's waker: called from the service thread (and from a reply) so an idle loop draws a frame.
pub type Waker = Arc<dyn Fn() + Send + Sync>;
