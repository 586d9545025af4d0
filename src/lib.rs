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
#[cfg(feature = "automation")]
mod link;
pub mod protocol;
#[cfg(feature = "automation")]
mod render;
#[cfg(feature = "automation")]
mod service;
#[cfg(feature = "testing")]
pub mod testing;
#[cfg(feature = "automation")]
#[doc(hidden)]
pub mod tree;
mod widget;

pub mod input;
mod later;
mod present;

pub use automation::{
    Automation, Builder, DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, DEFAULT_RESPONSE_TTL, ENABLED,
    Inputs, StartError,
};
pub use input::{Input, KeyInput, Request};
pub use later::LaterCapture;
pub use present::{CapturePath, FrameTarget};
/// The text of a caught panic's payload, for the error that reports it.
#[cfg(feature = "automation")]
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "unknown reason".to_owned())
}

pub use widget::{Bounds, GpuInfo, Layers, SurfaceInfo, Widget, WidgetStates, WindowState};
