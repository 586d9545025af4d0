//! Make a running winit + wgpu application inspectable and drivable from outside its process.
//!
//! See the README for the integration sketch and docs/protocol.md for the wire format.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod automation;
#[cfg(feature = "automation")]
mod capture;
#[cfg(feature = "client")]
pub mod client;
#[cfg(any(feature = "automation", feature = "client"))]
pub mod dropbox;
#[cfg(feature = "egui")]
pub mod egui;
mod frame;
#[cfg(feature = "automation")]
mod idle;
mod imp;
#[cfg(feature = "automation")]
mod link;
pub mod protocol;
#[cfg(feature = "automation")]
mod readback;
#[cfg(feature = "automation")]
mod render;
mod reply;
#[cfg(feature = "automation")]
mod service;
#[cfg(feature = "testing")]
pub mod testing;
#[cfg(feature = "automation")]
#[doc(hidden)]
pub mod tree;
mod widget;
mod window;

pub mod input;
mod later;
mod present;

pub use automation::{
    Automation, Builder, DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, DEFAULT_RESPONSE_TTL, ENABLED,
    HEADLESS_IDLE, StartError,
};
pub use frame::{Building, Frame, Inputs, Published, Stage};
pub use input::{Input, KeyInput, Request};
pub use later::LaterCapture;
pub use present::{CapturePath, FrameTarget, WindowSurface};
pub use widget::{Bounds, Widget, WidgetStates};
pub use window::{GpuInfo, Layers, SurfaceInfo, WindowState};
