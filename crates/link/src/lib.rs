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

impl FrameImage<'_> {
    /// A copy of the pixels as RGBA rows without padding (`width * 4` bytes a row), whatever
    /// their order and stride: what a reader that keeps or scales the image starts from.
    pub fn to_rgba(&self) -> Vec<u8> {
        let row = self.width as usize * 4;
        let mut rgba = Vec::with_capacity(row * self.height as usize);
        for r in 0..self.height as usize {
            let start = r * self.stride;
            let at = rgba.len();
            rgba.extend_from_slice(&self.bytes[start..start + row]);
            if self.bgra {
                for px in rgba[at..].chunks_exact_mut(4) {
                    px.swap(0, 2);
                }
            }
        }
        rgba
    }
}

/// Reads a frame back, on the service thread: waits for the pixels (the GPU's copy, or
/// pixels a toolkit handed over), then lends them to the visitor (no copy of the whole image is made).
pub type Reader =
    Box<dyn FnOnce(&mut dyn FnMut(&FrameImage<'_>)) -> Result<(), Failure> + Send + Sync>;

/// The app's waker: called from the service thread (and from a reply) so an idle loop draws a frame.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

#[cfg(test)]
mod tests {
    use super::FrameImage;

    #[test]
    fn to_rgba_drops_the_row_padding_and_swaps_bgra() {
        // Two BGRA pixels a row, rows 12 bytes apart (4 bytes of padding).
        let bytes = [
            1, 2, 3, 4, 5, 6, 7, 8, 99, 99, 99, 99, //
            9, 10, 11, 12, 13, 14, 15, 16, 99, 99, 99, 99,
        ];
        let frame = FrameImage {
            width: 2,
            height: 2,
            scale: 1.0,
            stride: 12,
            bgra: true,
            bytes: &bytes,
        };
        assert_eq!(
            frame.to_rgba(),
            [3, 2, 1, 4, 7, 6, 5, 8, 11, 10, 9, 12, 15, 14, 13, 16]
        );
        let rgba = FrameImage {
            bgra: false,
            ..frame
        };
        assert_eq!(
            rgba.to_rgba(),
            [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
        );
    }
}
