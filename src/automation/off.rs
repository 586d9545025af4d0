//! The no-op shim (feature `automation` off): nothing is stored, spawned or created.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::protocol::{Command, Failure};

pub(super) struct BuilderInner;

pub(super) fn new_builder() -> BuilderInner {
    BuilderInner
}

pub(super) fn set_name(_: &mut BuilderInner, _: String) {}
pub(super) fn set_dir(_: &mut BuilderInner, _: PathBuf) {}
pub(super) fn set_capacity(_: &mut BuilderInner, _: usize) {}
pub(super) fn set_max_bytes(_: &mut BuilderInner, _: usize) {}
pub(super) fn set_reap_after(_: &mut BuilderInner, _: Duration) {}
pub(super) fn set_app_screenshots(_: &mut BuilderInner, _: bool) {}
pub(super) fn set_waker(_: &mut BuilderInner, _: Arc<dyn Fn() + Send + Sync>) {}

pub(super) struct AutomationInner;

/// Uninhabited: with the feature off the plugin never fails to start.
#[derive(Debug)]
pub(super) enum StartErrorKind {}

pub(super) fn fmt_start_error(kind: &StartErrorKind, _: &mut fmt::Formatter<'_>) -> fmt::Result {
    match *kind {}
}

pub(super) fn start_error_source(
    kind: &StartErrorKind,
) -> Option<&(dyn std::error::Error + 'static)> {
    match *kind {}
}

pub(super) fn start(_: BuilderInner) -> Result<AutomationInner, super::StartError> {
    Ok(AutomationInner)
}

pub(super) type InputsInner = ();

pub(super) fn begin_frame(_: &AutomationInner) -> InputsInner {}

pub(super) fn next_input(_: &mut InputsInner) -> Option<crate::Input> {
    None
}

pub(super) fn wants_capture(_: &AutomationInner, _: u64) -> bool {
    false
}

pub(super) fn capture(
    _: &AutomationInner,
    _: u64,
    _: &wgpu::Device,
    _: &mut wgpu::CommandEncoder,
    _: &wgpu::Texture,
) {
}

pub(super) fn track_window(_: &AutomationInner, _: &winit::window::Window) {}

pub(super) fn window_event(_: &AutomationInner, _: u64, _: &winit::event::WindowEvent) {}

pub(super) fn end_frame(_: &AutomationInner) {}

pub(super) fn tree_update(_: &AutomationInner, _: u64, _: accesskit::TreeUpdate) {}

pub(super) fn widgets(_: &AutomationInner, _: u64, _: Vec<crate::Widget>) {}

pub(super) fn window_state(_: &AutomationInner, _: u64, _: crate::WindowState) {}

pub(super) fn window_closed(_: &AutomationInner, _: u64) {}

pub(super) fn adapter(_: &AutomationInner, _: crate::GpuInfo) {}

pub(super) fn surface(_: &AutomationInner, _: u64, _: crate::SurfaceInfo) {}

pub(super) fn frame(_: &AutomationInner) -> u64 {
    0
}

pub(super) fn dir(_: &AutomationInner) -> Option<&Path> {
    None
}

/// Uninhabited: with the feature off no request is ever made.
pub(super) enum RequestInner {}

pub(super) fn seq(r: &RequestInner) -> u64 {
    match *r {}
}

pub(super) fn command(r: &RequestInner) -> &Command {
    match *r {}
}

pub(super) fn reply(r: RequestInner, _: Result<String, Failure>) {
    match r {}
}
