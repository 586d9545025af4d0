//! The plugin (feature `automation`): the link crate's render end, which the service crate's
//! `start` returns, with the winit and wgpu glue this crate adds (window events, the adapter and
//! surface, the texture copy), under the names [`crate::feature`] gives them.

use std::path::Path;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use winit::event::WindowEvent;
pub(crate) use winit_automation_link::{AppCommand, Injected, PublishedFrame, ToolkitScreenshots};
use winit_automation_link::{
    ClockReading, GpuInfo, Layers, Options, RenderEnd, SurfaceInfo, Widget, WindowState,
};
pub(crate) use winit_automation_service::StartError as StartFailure;

use super::Split;
use crate::capture::{self, Ring};

/// A piece of injected input: the window, its scale and the step, or a request the app answers.
pub(crate) fn split(injected: Injected) -> Split {
    match injected {
        Injected::AppCommand(request) => Split::AppCommand(request),
        Injected::Step {
            window,
            scale,
            step,
        } => Split::Step(window, scale, step),
    }
}

/// Creates or checks the directory, takes its lock and starts the service thread.
pub(crate) fn start(options: Options) -> Result<Render, StartFailure> {
    let end = winit_automation_service::start(options)?;
    Ok(Render {
        end,
        ring: Mutex::new(Ring::new()),
    })
}

/// The render end, and the staging buffers its captures reuse.
pub(crate) struct Render {
    end: RenderEnd,
    /// Locked only inside a capture that copies (under the render end's own lock).
    ring: Mutex<Ring>,
}

impl Render {
    pub fn open_frame(&self) -> bool {
        self.end.open_frame()
    }
    pub fn frame_time(&self) -> (Duration, Duration) {
        self.end.frame_time()
    }
    pub fn clock(&self) -> ClockReading {
        self.end.clock()
    }
    pub fn take_input(&self) -> std::vec::IntoIter<Injected> {
        self.end.take_input()
    }
    pub fn publish(&self, asked: bool) -> PublishedFrame {
        self.end.publish(asked)
    }
    pub fn end_frame(&self, published: Option<PublishedFrame>, asked: bool) {
        self.end.end_frame(published, asked);
    }
    pub fn tree_update(&self, window: u64, update: accesskit::TreeUpdate) {
        self.end.tree_update(window, update);
    }
    pub fn widgets(&self, window: u64, widgets: Vec<Widget>) {
        self.end.widgets(window, widgets);
    }
    pub fn layers(&self, window: u64, layers: &Layers) {
        self.end.layers(window, layers);
    }
    pub fn pointer_hit(&self, window: u64, node: Option<accesskit::NodeId>) {
        self.end.pointer_hit(window, node);
    }
    pub fn window_pass(&self, window: u64) {
        self.end.window_pass(window);
    }
    pub fn animating(&self, window: u64, on: bool) {
        self.end.animating(window, on);
    }
    pub fn frame_number(&self) -> u64 {
        self.end.frame_number()
    }
    pub fn superseded(&self, published: Option<&PublishedFrame>) -> bool {
        self.end.superseded(published)
    }
    pub fn wants_capture(&self, window: u64, published: Option<&PublishedFrame>) -> bool {
        self.end.wants_capture(window, published)
    }

    /// Encodes a copy of `texture` for each screenshot of `window` waiting for the frame.
    pub fn capture(
        &self,
        window: u64,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
        published: Option<&mut PublishedFrame>,
    ) {
        // Checked once and the ring locked once per frame, however many screenshots wait.
        let mut checked = None;
        let mut ring = None;
        self.end.capture(window, published, &mut |scale| {
            let bgra = checked
                .get_or_insert_with(|| capture::check(texture))
                .clone()?;
            let ring = ring
                .get_or_insert_with(|| self.ring.lock().unwrap_or_else(PoisonError::into_inner));
            Ok(capture::stage(ring, bgra, scale, device, encoder, texture))
        });
    }

    pub fn toolkit_capture(
        &self,
        window: u64,
        frame: u64,
        published: Option<&mut PublishedFrame>,
    ) -> Option<ToolkitScreenshots> {
        self.end.toolkit_capture(window, frame, published)
    }
    pub fn wait_for_work(&self, timeout: Duration) {
        self.end.wait_for_work(timeout);
    }
    pub fn window_state(&self, window: u64, state: WindowState) {
        self.end.window_state(window, state);
    }

    /// What the plugin keeps of a window's own events: its size, scale factor, focus and end.
    pub fn window_event(&self, window: u64, event: &WindowEvent) {
        match event {
            WindowEvent::Resized(size) => self.end.window_resized(window, size.width, size.height),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                self.end.window_rescaled(window, *scale_factor)
            }
            WindowEvent::Focused(focused) => self.end.window_focused(window, *focused),
            WindowEvent::Destroyed => self.end.window_closed(window),
            _ => {}
        }
    }

    pub fn window_closed(&self, window: u64) {
        self.end.window_closed(window);
    }
    pub fn adapter(&self, info: &wgpu::AdapterInfo) {
        self.end.gpu(GpuInfo {
            adapter: info.name.clone(),
            backend: info.backend.to_str().to_owned(),
            device_type: format!("{:?}", info.device_type).to_lowercase(),
        });
    }
    pub fn surface(&self, window: u64, config: &wgpu::SurfaceConfiguration) {
        self.end.surface(
            window,
            SurfaceInfo {
                width: config.width,
                height: config.height,
                format: format!("{:?}", config.format),
            },
        );
    }
    pub fn dir(&self) -> Option<&Path> {
        self.end.dir()
    }
}
