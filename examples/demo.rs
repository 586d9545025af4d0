//! The custom demo's frames (in a window and headless) and flags. The demo: a small but real UI
//! on winit + wgpu with the automation plugin, a form (text field, checkbox, slider, buttons), a
//! scrollable list of 50 items and a modal dialog, drawn with the WGSL rounded-rectangle shader in
//! `shaders/ui.wgsl` and glyphon text in a font compiled in.
//!
//! It builds its own AccessKit tree, keeps `accesskit_winit` beside the plugin (the shell creates
//! the window hidden, then the adapter, then shows it), and takes input from three places through
//! the same handlers: the window, the plugin ([`winit_automation::Input`]) and assistive
//! technologies (AccessKit action requests). This file is the demo's frame and flags; the UI is
//! in examples/demo/ (ui.rs, tree.rs, draw.rs, gfx.rs), the window, GPU and event loop in
//! examples/shared/shell.rs.
//!
//! ```text
//! cargo run --features automation --example demo -- --dir /tmp/demo-box
//! winit-automation --dir /tmp/demo-box snapshot -i
//! winit-automation --dir /tmp/demo-box click 'role=checkbox name=Subscribe' --settle
//! winit-automation --dir /tmp/demo-box fill role=textbox "Ada Lovelace"
//! ```
#![allow(clippy::print_stderr)]

#[path = "demo/draw.rs"]
mod draw;
#[path = "demo/gfx.rs"]
mod gfx;
#[path = "demo/painter.rs"]
mod painter;
#[path = "shared/setup.rs"]
mod setup;
#[path = "shared/shell.rs"]
mod shell;
#[path = "demo/tree.rs"]
mod tree;
#[path = "demo/ui.rs"]
mod ui;

use std::sync::Arc;
use std::time::{Duration, Instant};

use gfx::{Fonts, Gfx};
use painter::Painter;
use shell::{Cx, Gpu, Spec, UserEvent};
use ui::{Effect, Ui};
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoopProxy};
use winit::keyboard::ModifiersState;
use winit::window::{Window, WindowId};
use winit_automation::{Automation, FrameTarget, WindowState, WindowSurface};

const USAGE: &str =
    "usage: demo [--dir DIR] [--continuous] [--headless [--size WxH]] [--submit-label TEXT]
            [--queue-capacity N]

  --dir DIR      the automation drop-box (default: $WINIT_AUTOMATION_DIR or target/winit-automation)
  --continuous   redraw at 60 Hz even when nothing changes (default: only when needed)
  --headless     no window and no display: draw into an offscreen texture, one frame per command
  --size WxH     the headless frame size in pixels (default 800x600)
  --queue-capacity N  how many commands may wait in the drop-box (default 256)
  --submit-label TEXT  the Submit button's label (default Submit): a changed UI for the tests
                 that replay a recorded script against it";

const SPEC: Spec = Spec { name: "demo", title: "winit-automation demo", size: (800, 600) };

/// A frame at 60 Hz, drawing continuously.
const FRAME: Duration = Duration::from_micros(16_667);

/// The demo in the shell's window. The event loop takes input and builds, publishes and lays out
/// each frame; a thread of its own draws it (examples/demo/painter.rs).
struct Windowed {
    automation: Arc<Automation>,
    ui: Ui,
    /// Measures text for the layout (the painter's thread has its own).
    fonts: Fonts,
    continuous: bool,
    modifiers: ModifiersState,
    /// Drawing continuously, when the next frame is due.
    next_frame: Instant,
    /// A resize the window took at once (Wayland), for the shell to handle as `Resized`.
    applied: Option<PhysicalSize<u32>>,
}

impl shell::App for Windowed {
    type Access = accesskit_winit::Adapter;
    type Renderer = Painter;
    const SRGB: bool = true;

    fn access(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: &Arc<Window>,
        proxy: EventLoopProxy<UserEvent>,
    ) -> Self::Access {
        let size = window.inner_size().to_logical::<f32>(window.scale_factor());
        self.ui.size = (size.width, size.height);
        self.ui.changed = true;
        accesskit_winit::Adapter::with_event_loop_proxy(event_loop, window, proxy)
    }

    fn renderer(gpu: &Gpu, screen: WindowSurface) -> Painter {
        Painter::new(gpu, screen, draw::BG)
    }

    fn resize<'a>(
        painter: &'a mut Painter,
        _: &Gpu,
        window: &Window,
    ) -> &'a wgpu::SurfaceConfiguration {
        painter.resize(window)
    }

    fn event(&mut self, cx: Cx<'_, Self>, event: &WindowEvent) -> bool {
        cx.access.process_event(cx.window, event);
        let scale = cx.window.scale_factor();
        match event {
            WindowEvent::Resized(size) => {
                let logical = size.to_logical::<f32>(scale);
                self.ui.size = (logical.width, logical.height);
                self.ui.changed = true;
            }
            WindowEvent::ModifiersChanged(m) => self.modifiers = m.state(),
            WindowEvent::KeyboardInput { event, .. } if event.state.is_pressed() => {
                let text = event.text.as_ref().map(|t| t.to_string());
                self.ui.key(&event.logical_key, self.modifiers, text.as_deref());
            }
            WindowEvent::CursorMoved { .. }
            | WindowEvent::CursorLeft { .. }
            | WindowEvent::MouseInput { .. }
            | WindowEvent::MouseWheel { .. } => self.ui.pointer(event, scale),
            _ => return false,
        }
        true
    }

    fn accesskit(&mut self, _: Cx<'_, Self>, event: accesskit_winit::WindowEvent) {
        match event {
            accesskit_winit::WindowEvent::InitialTreeRequested => self.ui.changed = true,
            accesskit_winit::WindowEvent::ActionRequested(request) => self.ui.action(&request),
            accesskit_winit::WindowEvent::AccessibilityDeactivated => {}
        }
    }

    /// One frame: the plugin's input, the tree, `publish` (the answers go out before any
    /// drawing), then the frame goes to the painter's thread with its layers, and the event loop
    /// is free for the next command while it is drawn. Drawing on demand, a frame the next queued
    /// command draws over (`Frame::superseded`, a burst) is not even laid out.
    fn frame(&mut self, cx: Cx<'_, Self>) -> bool {
        let Cx { window, id, access, renderer: painter, .. } = cx;
        self.next_frame = Instant::now() + FRAME;
        let scale = window.scale_factor();
        let mut frame = self.automation.frame();
        let mut quit = false;
        for input in frame.input() {
            match self.ui.input(input, scale) {
                Some(Effect::Resize(size)) => self.applied = window.request_inner_size(size),
                Some(Effect::Quit) => quit = true,
                None => {}
            }
        }
        // Drawing continuously, every frame is drawn.
        let superseded = !self.continuous && frame.superseded();
        if std::mem::take(&mut self.ui.changed) {
            let update = self.ui.tree(scale);
            access.update_if_active(|| update.clone());
            frame.tree_update(id, update);
            // Keep drawing until the changed state is on screen (superseded: the next command's
            // frame draws it, and the plugin wakes the app if that command never comes).
            if !superseded {
                window.request_redraw();
            }
        }
        // The tree is complete: the answers of this frame's actions are written now.
        let frame = frame.publish();
        if !superseded {
            painter.draw(frame, id, self.ui.layers(&mut self.fonts), scale);
        }
        !quit
    }

    fn next_frame(&self) -> Option<Instant> {
        self.continuous.then_some(self.next_frame)
    }

    fn applied_size(&mut self) -> Option<PhysicalSize<u32>> {
        self.applied.take()
    }
}

/// The demo with no window and no display: the same UI drawn into an offscreen texture. A frame
/// runs whenever the plugin brings work (`Automation::run_headless`); it draws only when a
/// screenshot waits for it (`Frame::wants_capture`).
fn headless(args: &setup::Args, submit_label: &str) {
    let automation = setup::automation(SPEC.name, Automation::builder(), args);
    let (gpu, _) = Gpu::new(SPEC.name, &automation, None);
    let (width, height) = args.size;
    let mut texture = FrameTarget::offscreen(&gpu.device, width, height);
    let mut gfx = Gfx::new(&gpu.device, &gpu.queue, texture.format());
    let window = WindowId::from(1); // headless: any stable id
    let title = format!("{} (headless)", SPEC.title);
    let state = |w: u32, h: u32| WindowState::headless(&title, f64::from(w), f64::from(h));
    automation.window_state(window, state(width, height));
    let mut ui = Ui::new(submit_label);
    ui.size = (width as f32, height as f32);
    automation.run_headless(|mut frame| {
        let mut quit = false;
        for input in frame.input() {
            match ui.input(input, 1.0) {
                Some(Effect::Resize(size)) => {
                    let (w, h) = (size.width.round() as u32, size.height.round() as u32);
                    texture = FrameTarget::offscreen(&gpu.device, w, h);
                    ui.size = (w as f32, h as f32);
                    ui.changed = true;
                    automation.window_state(window, state(w, h));
                }
                Some(Effect::Quit) => quit = true,
                None => {}
            }
        }
        if std::mem::take(&mut ui.changed) {
            frame.tree_update(window, ui.tree(1.0));
        }
        // The tree is complete: the answers of this frame's actions are written now.
        let mut frame = frame.publish();
        // Nobody sees a headless frame: it is drawn only when a screenshot waits for it.
        if frame.wants_capture(window) {
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let view = texture.create_view(&Default::default());
            let layers = ui.layers(gfx.fonts());
            let size = (texture.width(), texture.height());
            gfx.render(&gpu.device, &gpu.queue, &mut encoder, &view, size, 1.0, draw::BG, &layers);
            frame.capture(window, &gpu.device, &mut encoder, &texture);
            frame.submit(&gpu.queue, [encoder.finish()]);
        }
        !quit
    });
}

fn main() {
    let (mut continuous, mut submit_label) = (false, "Submit".to_owned());
    let args = setup::Args::parse(SPEC.name, USAGE, SPEC.size, |flag, rest| match flag {
        "--continuous" => {
            continuous = true;
            Ok(true)
        }
        "--submit-label" => match rest.next() {
            Some(label) if !label.is_empty() => {
                submit_label = label;
                Ok(true)
            }
            _ => Err("--submit-label needs the button's text".to_owned()),
        },
        _ => Ok(false),
    });
    if args.headless {
        return headless(&args, &submit_label);
    }
    shell::run(SPEC, &args, |automation| Windowed {
        automation: Arc::clone(automation),
        ui: Ui::new(&submit_label),
        fonts: Fonts::new(),
        continuous,
        modifiers: ModifiersState::empty(),
        next_frame: Instant::now(),
        applied: None,
    });
}
