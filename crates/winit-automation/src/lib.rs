//! Make a running winit + wgpu application inspectable and drivable from outside its process.
//!
//! This is the app-facing crate: an app enables its `automation` feature and makes a few calls in
//! its frame loop ([`Automation`], [`Frame`]); other processes then drive it through the
//! drop-box directory. With the feature off the same API compiles to no-ops: no thread, no file,
//! no plugin code in the binary.
//!
//! The other crates of the workspace: `winit-automation-egui` (egui and eframe apps in one
//! line), `winit-automation-testing` (the test harness), `winit-automation-client` and
//! `winit-automation-protocol` (clients), `winit-automation-cli` (the `winit-automation` binary
//! and its MCP server). See the README for the integration sketch and docs/protocol.md for the
//! wire format.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod automation;
#[cfg(feature = "automation")]
mod capture;
mod feature;
mod frame;
mod input;
#[cfg(feature = "automation")]
mod readback;
mod surface;
mod toolkit_capture;

/// The wire protocol as the app meets it: the [`Command`](protocol::Command) a [`Request`]
/// carries and the [`Failure`](protocol::Failure) it answers with, the key chord a [`KeyInput`]
/// holds, the directory's refusal a [`StartError`] may carry. The whole protocol (grammar,
/// targets, answer lines) is the `winit-automation-protocol` crate, for clients.
pub mod protocol {
    pub use winit_automation_protocol::{
        Button, Command, DirError, ErrorCode, Failure, Key, KeyChord, Modifiers, NamedKey, Verb,
    };
}

pub use automation::{
    Automation, Builder, DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, DEFAULT_RESPONSE_TTL, ENABLED,
    HEADLESS_IDLE, StartError, window_state_of,
};
pub use frame::{Building, Frame, FrameStage, Inputs, Published};
pub use input::{Input, KeyInput, Request};
pub use surface::{CapturePath, FrameTarget, WindowSurface};
pub use toolkit_capture::ToolkitCapture;
pub use winit_automation_link::{
    Bounds, ClockMode, ClockReading, GpuInfo, Layers, SurfaceInfo, Widget, WidgetStates,
    WindowState,
};
