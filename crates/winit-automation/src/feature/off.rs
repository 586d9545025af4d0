//! The no-op plugin (feature `automation` off): the same methods as the render side, doing
//! nothing. `start` creates nothing; no input, screenshot, request or start failure can exist,
//! so none of the render end's code is in the binary.

use std::convert::Infallible;
use std::fmt;
use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::protocol::Command;
use crate::protocol::{DirError, Failure};
use winit_automation_link::Options;
use winit_automation_link::{ClockMode, ClockReading, DEFAULT_STEP, Layers, Widget, WindowState};

/// Starts nothing: the options are dropped.
pub(crate) fn start(_: Options) -> Result<Render, StartFailure> {
    Ok(Render {
        start: Instant::now(),
        times: Mutex::new((Duration::ZERO, Duration::ZERO)),
    })
}

/// The render side of a plugin that is not there: frames still carry the wall clock's time.
pub(crate) struct Render {
    start: Instant,
    /// The open frame's time and the one before's.
    times: Mutex<(Duration, Duration)>,
}

impl Render {
    pub fn open_frame(&self) -> bool {
        let mut times = self.times.lock().unwrap_or_else(PoisonError::into_inner);
        *times = (self.start.elapsed(), times.0);
        true
    }
    pub fn frame_time(&self) -> (Duration, Duration) {
        let (now, before) = *self.times.lock().unwrap_or_else(PoisonError::into_inner);
        (now, now.saturating_sub(before))
    }
    pub fn clock(&self) -> ClockReading {
        ClockReading {
            mode: ClockMode::Real,
            paused: false,
            time: self.frame_time().0,
            step: DEFAULT_STEP,
            frames: 0,
        }
    }
    pub fn take_input(&self) -> std::vec::IntoIter<Injected> {
        Vec::new().into_iter()
    }
    pub fn publish(&self, _: bool) -> PublishedFrame {
        PublishedFrame
    }
    pub fn end_frame(&self, _: Option<PublishedFrame>, _: bool) {}
    pub fn tree_update(&self, _: u64, _: accesskit::TreeUpdate) {}
    pub fn widgets(&self, _: u64, _: Vec<Widget>) {}
    pub fn layers(&self, _: u64, _: &Layers) {}
    pub fn pointer_hit(&self, _: u64, _: Option<accesskit::NodeId>) {}
    pub fn window_pass(&self, _: u64) {}
    pub fn animating(&self, _: u64, _: bool) {}
    pub fn frame_number(&self) -> u64 {
        0
    }
    pub fn superseded(&self, _: Option<&PublishedFrame>) -> bool {
        false
    }
    pub fn wants_capture(&self, _: u64, _: Option<&PublishedFrame>) -> bool {
        false
    }
    pub fn capture(
        &self,
        _: u64,
        _: &wgpu::Device,
        _: &mut wgpu::CommandEncoder,
        _: &wgpu::Texture,
        _: Option<&mut PublishedFrame>,
    ) {
    }
    pub fn toolkit_capture(
        &self,
        _: u64,
        _: u64,
        _: Option<&mut PublishedFrame>,
    ) -> Option<ToolkitScreenshots> {
        None
    }
    /// Nothing can wake it: the timeout passes (a loop around it does not spin).
    #[allow(
        clippy::disallowed_methods,
        reason = "the no-op build's idle wait, between frames: nothing else can end it"
    )]
    pub fn wait_for_work(&self, timeout: Duration) {
        std::thread::sleep(timeout);
    }
    pub fn window_state(&self, _: u64, _: WindowState) {}
    pub fn window_event(&self, _: u64, _: &winit::event::WindowEvent) {}
    pub fn window_closed(&self, _: u64) {}
    pub fn adapter(&self, _: &wgpu::AdapterInfo) {}
    pub fn surface(&self, _: u64, _: &wgpu::SurfaceConfiguration) {}
    pub fn dir(&self) -> Option<&Path> {
        None
    }
}

/// No input is ever injected.
pub(crate) enum Injected {}

/// No input is ever injected: there is nothing to split.
pub(crate) fn split(injected: Injected) -> super::Split {
    match injected {}
}

/// No request is ever made.
#[derive(Debug)]
pub(crate) enum AppCommand {}

impl AppCommand {
    pub fn seq(&self) -> u64 {
        match *self {}
    }
    pub fn command(&self) -> &Command {
        match *self {}
    }
    pub fn reply(self, _: Result<String, Failure>) {
        match self {}
    }
}

/// A published frame: it holds nothing.
pub(crate) struct PublishedFrame;

impl PublishedFrame {
    pub fn number(&self) -> u64 {
        0
    }
}

/// No screenshot is ever taken.
pub(crate) enum ToolkitScreenshots {}

impl ToolkitScreenshots {
    pub fn refuse(&mut self, _: &Failure) {
        match *self {}
    }
    pub fn deliver(&mut self, _: u32, _: u32, _: std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>) {
        match *self {}
    }
    pub fn frame(&self) -> u64 {
        match *self {}
    }
    pub fn window(&self) -> u64 {
        match *self {}
    }
    pub fn len(&self) -> usize {
        match *self {}
    }
}

/// The no-op start never fails.
#[derive(Debug)]
pub(crate) struct StartFailure(Infallible);

impl fmt::Display for StartFailure {
    fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {}
    }
}

impl std::error::Error for StartFailure {}

impl StartFailure {
    pub fn hint(&self) -> Option<String> {
        match self.0 {}
    }
    pub fn dir_error(&self) -> Option<&DirError> {
        match self.0 {}
    }
}
