//! Make a running winit + wgpu application inspectable and drivable from outside its process.
//!
//! See the README for the integration sketch and docs/protocol.md for the wire format.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod automation;
#[cfg(feature = "client")]
pub mod client;
#[cfg(any(feature = "automation", feature = "client"))]
pub mod dropbox;
pub mod protocol;
#[cfg(feature = "automation")]
#[doc(hidden)]
pub mod tree;
mod widget;

pub use automation::{
    Automation, Builder, DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, ENABLED, Request, Requests,
    StartError,
};
pub use widget::{Bounds, GpuInfo, SurfaceInfo, Widget, WidgetStates, WindowState};
