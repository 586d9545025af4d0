//! The frame loop the egui examples share (examples/egui_demo.rs, examples/egui_gallery.rs):
//! egui-winit for the window's own input and its accesskit_winit adapter, egui-wgpu to draw, or
//! headless into an offscreen texture. The plugin does the automation:
//! - `ctx.add_plugin(Plugin::new(automation).app_ends_frames())` once: injected input, egui's
//!   AccessKit tree, its layers, clips, modal layer, pressed widget and animation, and the
//!   window's state, all from egui's own hooks and state;
//! - the app keeps what only it can do: it hands the exact frame to `Automation::capture`
//!   (with `winit_automation::egui::window_id`), calls `end_frame` after its submit, tells the
//!   plugin the surface it configured, and carries out the viewport commands the plugin sends
//!   (`resize` as `InnerSize`, `quit` as `Close`).
//!
//! Included with `#[path = "shared/egui_app.rs"] mod egui_app;` next to `mod setup;`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{ViewportCommand, ViewportId};
use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};
use winit_automation::egui::{Plugin, window_id};
use winit_automation::{Automation, FrameTarget};

use crate::setup::{self, UserEvent};

/// What an example draws each frame.
type Ui = Box<dyn FnMut(&mut egui::Ui)>;

/// An egui example: its name (for messages), window title and default size.
pub struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    /// The window's logical size, and the headless frame's default size in pixels.
    pub size: (u32, u32),
}

struct Gpu {
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    /// The surface texture when it can be copied from, else an intermediate one blitted to it.
    target: FrameTarget,
    renderer: egui_wgpu::Renderer,
}

struct Running {
    window: Arc<Window>,
    gpu: Gpu,
    egui: egui_winit::State,
}

struct App {
    automation: Arc<Automation>,
    proxy: EventLoopProxy<UserEvent>,
    ctx: egui::Context,
    spec: Spec,
    ui: Ui,
    running: Option<Running>,
    /// When egui asked to draw again (a timer: a tooltip's delay, a disabled button's end).
    next: Option<Instant>,
}

/// The plugin on `ctx`, driving `automation`; the app captures and ends its frames.
fn install(ctx: &egui::Context, automation: &Arc<Automation>) {
    ctx.add_plugin(Plugin::new(Arc::clone(automation)).app_ends_frames());
}

/// When egui wants the next frame, from its repaint delay: `None` for never (until an event).
fn repaint_at(output: &egui::ViewportOutput) -> Option<Instant> {
    Instant::now().checked_add(output.repaint_delay)
}

fn start_gpu(name: &str, automation: &Automation, window: Arc<Window>) -> Gpu {
    let (surface, adapter, device, queue) = setup::gpu(name, automation, Some(window.clone()));
    let surface = surface.expect("a surface for the window");
    let size = window.inner_size();
    let mut config = surface
        .get_default_config(&adapter, size.width.max(1), size.height.max(1))
        .expect("the surface works with the adapter");
    // egui-wgpu expects a non-sRGB target (it writes gamma-space colours).
    let caps = surface.get_capabilities(&adapter);
    if let Some(linear) = caps.formats.iter().find(|f| !f.is_srgb()) {
        config.format = *linear;
    }
    let target = FrameTarget::new(&device, &mut config, &caps);
    eprintln!("{name}: capture path {}", target.path().as_str());
    surface.configure(&device, &config);
    automation.surface(window_id(ViewportId::ROOT), &config);
    let renderer = egui_wgpu::Renderer::new(&device, config.format, Default::default());
    Gpu {
        surface,
        device,
        queue,
        config,
        target,
        renderer,
    }
}

/// Draws egui's primitives into `target`; returns the command buffers egui-wgpu needs submitted
/// before the encoder.
fn paint(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    renderer: &mut egui_wgpu::Renderer,
    encoder: &mut wgpu::CommandEncoder,
    target: &wgpu::Texture,
    jobs: &[egui::ClippedPrimitive],
    screen: &egui_wgpu::ScreenDescriptor,
) -> Vec<wgpu::CommandBuffer> {
    let view = target.create_view(&Default::default());
    let extra = renderer.update_buffers(device, queue, encoder, jobs, screen);
    let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("egui"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color {
                    r: 0.1,
                    g: 0.1,
                    b: 0.12,
                    a: 1.0,
                }),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    });
    renderer.render(&mut pass.forget_lifetime(), jobs, screen);
    extra
}

/// The app with no window and no display: egui runs on input the plugin brings, drawn into an
/// offscreen texture; a frame per wake-up, and when egui asks for one (at once while it animates,
/// later for its timers, which keep to the wall clock).
fn run_headless(
    spec: &Spec,
    mut ui: Ui,
    automation: Automation,
    wake: crossbeam_channel::Receiver<()>,
    (w, h): (u32, u32),
) {
    let (_, _, device, queue) = setup::gpu(spec.name, &automation, None);
    // egui-wgpu writes gamma-space colours: a non-sRGB target.
    let format = wgpu::TextureFormat::Rgba8Unorm;
    let make = |w: u32, h: u32| setup::offscreen(&device, (w, h), format);
    let mut texture = make(w, h);
    let mut renderer = egui_wgpu::Renderer::new(&device, format, Default::default());
    let window = window_id(ViewportId::ROOT);
    let automation = Arc::new(automation);
    let ctx = egui::Context::default();
    install(&ctx, &automation);
    let title = format!("{} (headless)", spec.title);
    let start = Instant::now();
    let mut next: Option<Instant> = Some(start);
    loop {
        match next {
            Some(at) => {
                let _ = wake.recv_timeout(at.saturating_duration_since(Instant::now()));
            }
            // The plugin holds the waker (without the feature, setup::automation exits headless).
            None => {
                let _ = wake.recv();
            }
        }
        let frame_start = Instant::now();
        // egui's points: the texture's pixels over egui's scale (its zoom: ctrl++ makes points
        // larger, and fewer fit).
        let ppp = ctx.pixels_per_point();
        let (tw, th) = (texture.width() as f32, texture.height() as f32);
        let mut raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(tw / ppp, th / ppp),
            )),
            time: Some(start.elapsed().as_secs_f64()),
            predicted_dt: 1.0 / 60.0,
            focused: true,
            ..Default::default()
        };
        raw.viewports.insert(
            ViewportId::ROOT,
            egui::ViewportInfo {
                title: Some(title.clone()),
                native_pixels_per_point: Some(1.0),
                focused: Some(true),
                ..Default::default()
            },
        );
        let output = ctx.run_ui(raw, |u| ui(u));
        let egui::FullOutput {
            mut textures_delta,
            shapes,
            pixels_per_point,
            viewport_output,
            ..
        } = output;
        let root = viewport_output.get(&ViewportId::ROOT);
        let mut quit = false;
        for command in root.map_or(&[][..], |v| &v.commands) {
            match command {
                ViewportCommand::InnerSize(size) => {
                    let px = |points: f32| (points * pixels_per_point).round().max(1.0) as u32;
                    texture = make(px(size.x), px(size.y));
                }
                ViewportCommand::Close => quit = true,
                _ => {}
            }
        }
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                renderer.update_texture(&device, &queue, *id, delta);
            }
        }
        // Nobody sees a headless frame: it is drawn only when a screenshot waits for it (the
        // plugin published the frame at the end of egui's pass already).
        if automation.wants_capture(window) {
            let jobs = ctx.tessellate(shapes, pixels_per_point);
            let screen = egui_wgpu::ScreenDescriptor {
                size_in_pixels: [texture.width(), texture.height()],
                pixels_per_point,
            };
            let mut encoder = device.create_command_encoder(&Default::default());
            let extra = paint(
                &device,
                &queue,
                &mut renderer,
                &mut encoder,
                &texture,
                &jobs,
                &screen,
            );
            automation.capture(window, &device, &mut encoder, &texture);
            queue.submit(extra.into_iter().chain([encoder.finish()]));
        }
        for id in &textures_delta.free {
            renderer.free_texture(id);
        }
        textures_delta.clear();
        automation.end_frame();
        if quit {
            break;
        }
        // egui asks for the next frame at once while it animates; headless, where nothing is
        // drawn for anybody, that would spin as fast as the CPU goes. Its animations keep to the
        // wall clock, so frames at 60 Hz show them the same. Commands do not wait for this: the
        // plugin's waker ends the wait above.
        next = root
            .and_then(repaint_at)
            .map(|at| at.max(frame_start + Duration::from_secs_f64(1.0 / 60.0)));
    }
    // egui's plugins let go of the automation handle: the service answers what it owes and stops.
    ctx.on_exit();
}

impl App {
    fn frame(&mut self, event_loop: &ActiveEventLoop) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        let window = running.window.clone();
        let mut raw = running.egui.take_egui_input(&window);
        // winit cannot read a window's title back on X11: tell egui (and so the plugin) the one
        // the window was given.
        if let Some(info) = raw.viewports.get_mut(&ViewportId::ROOT) {
            info.title = Some(self.spec.title.to_owned());
        }
        let ui = &mut self.ui;
        let output = self.ctx.run_ui(raw, |u| ui(u));
        let egui::FullOutput {
            platform_output,
            mut textures_delta,
            shapes,
            pixels_per_point,
            viewport_output,
        } = output;
        running
            .egui
            .handle_platform_output(&window, platform_output);
        let root = viewport_output.get(&ViewportId::ROOT);
        for command in root.map_or(&[][..], |v| &v.commands) {
            match command {
                // `resize`, in egui points.
                ViewportCommand::InnerSize(size) => {
                    let _ = window.request_inner_size(PhysicalSize::new(
                        (size.x * pixels_per_point).round() as u32,
                        (size.y * pixels_per_point).round() as u32,
                    ));
                }
                ViewportCommand::Close => event_loop.exit(),
                _ => {}
            }
        }

        let gpu = &mut running.gpu;
        let jobs = self.ctx.tessellate(shapes, pixels_per_point);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [gpu.config.width, gpu.config.height],
            pixels_per_point,
        };
        for (id, deltas) in &textures_delta.set {
            for delta in deltas {
                gpu.renderer
                    .update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        // egui draws on demand, so nothing is queued for presentation: the swapchain image is
        // taken after the pass, whose end published the frame (the plugin's `publish`), so
        // answers never wait for it.
        let texture = match gpu.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t)
            | wgpu::CurrentSurfaceTexture::Suboptimal(t) => Some(t),
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                gpu.surface.configure(&gpu.device, &gpu.config);
                None
            }
            _ => None,
        };
        if let Some(texture) = texture {
            let frame = gpu.target.texture(&texture.texture);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            let extra = paint(
                &gpu.device,
                &gpu.queue,
                &mut gpu.renderer,
                &mut encoder,
                frame,
                &jobs,
                &screen,
            );
            self.automation.capture(
                window_id(ViewportId::ROOT),
                &gpu.device,
                &mut encoder,
                frame,
            );
            gpu.target
                .finish(&gpu.device, &mut encoder, &texture.texture);
            gpu.queue
                .submit(extra.into_iter().chain([encoder.finish()]));
            window.pre_present_notify();
            gpu.queue.present(texture);
        }
        for id in &textures_delta.free {
            gpu.renderer.free_texture(id);
        }
        // Applied above; egui checks that nothing is dropped unapplied.
        textures_delta.clear();
        self.automation.end_frame();
        self.next = root.and_then(repaint_at);
    }
}

impl ApplicationHandler<UserEvent> for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.running.is_some() {
            return;
        }
        // Hidden first: egui-winit's accesskit_winit adapter must exist before the window is shown.
        let attributes = Window::default_attributes()
            .with_title(self.spec.title)
            .with_inner_size(LogicalSize::new(self.spec.size.0, self.spec.size.1))
            .with_visible(false);
        let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
        let mut egui = egui_winit::State::new(
            self.ctx.clone(),
            ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            None,
        );
        egui.init_accesskit(event_loop, &window, self.proxy.clone());
        window.set_visible(true);
        let gpu = start_gpu(self.spec.name, &self.automation, window.clone());
        window.request_redraw();
        self.running = Some(Running { window, gpu, egui });
    }

    fn user_event(&mut self, _: &ActiveEventLoop, event: UserEvent) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        if let UserEvent::AccessKit(e) = event
            && let accesskit_winit::WindowEvent::ActionRequested(request) = e.window_event
        {
            running.egui.on_accesskit_action_request(request);
        }
        running.window.request_redraw();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _: WindowId, event: WindowEvent) {
        let Some(running) = self.running.as_mut() else {
            return;
        };
        match &event {
            WindowEvent::CloseRequested => {
                event_loop.exit();
                return;
            }
            WindowEvent::RedrawRequested => {
                self.frame(event_loop);
                return;
            }
            WindowEvent::Resized(size) => {
                let gpu = &mut running.gpu;
                gpu.config.width = size.width.max(1);
                gpu.config.height = size.height.max(1);
                gpu.surface.configure(&gpu.device, &gpu.config);
                gpu.target.resize(&gpu.device, &gpu.config);
                self.automation
                    .surface(window_id(ViewportId::ROOT), &gpu.config);
            }
            _ => {}
        }
        if running
            .egui
            .on_window_event(&running.window, &event)
            .repaint
        {
            running.window.request_redraw();
        }
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        // egui's plugins let go of the automation handle: the service answers what it owes and
        // stops.
        self.ctx.on_exit();
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        match self.next {
            Some(at) if at <= Instant::now() => {
                self.next = None;
                if let Some(running) = &self.running {
                    running.window.request_redraw();
                }
                event_loop.set_control_flow(ControlFlow::Wait);
            }
            Some(at) => event_loop.set_control_flow(ControlFlow::WaitUntil(at)),
            None => event_loop.set_control_flow(ControlFlow::Wait),
        }
    }
}

/// Parses `--dir`, `--headless`, `--size` and runs `ui` every frame, in a window or headless.
pub fn main(spec: Spec, ui: impl FnMut(&mut egui::Ui) + 'static) {
    let name = spec.name;
    let usage = format!(
        "usage: {name} [--dir DIR] [--headless [--size WxH]]

  --dir DIR    the automation drop-box (default: $WINIT_AUTOMATION_DIR or target/winit-automation)
  --headless   no window and no display: egui drawn into an offscreen texture
  --size WxH   the headless frame size in pixels (default {}x{})",
        spec.size.0, spec.size.1
    );
    let fail = |why: &str| -> ! {
        eprintln!("{name}: {why}\n{usage}");
        std::process::exit(2);
    };
    let mut dir = None;
    let mut headless = false;
    let mut size = spec.size;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--dir" => {
                dir = Some(
                    args.next()
                        .unwrap_or_else(|| fail("--dir needs a directory")),
                )
            }
            "--headless" => headless = true,
            "--size" => match setup::parse_size(args.next()) {
                Some(s) => size = s,
                None => fail("--size needs WIDTHxHEIGHT, e.g. --size 1920x1080"),
            },
            "--help" | "-h" => {
                eprintln!("{usage}");
                return;
            }
            other => fail(&format!("unknown argument {other:?}")),
        }
    }
    let ui: Ui = Box::new(ui);
    if headless {
        let (wake_tx, wake) = crossbeam_channel::bounded::<()>(1);
        let automation = setup::automation(name, dir, true, move || {
            let _ = wake_tx.try_send(());
        });
        run_headless(&spec, ui, automation, wake, size);
        return;
    }
    let event_loop = EventLoop::<UserEvent>::with_user_event()
        .build()
        .unwrap_or_else(|e| {
            eprintln!("{name}: cannot open a window ({e}); is DISPLAY set? (try xvfb-run -a)");
            std::process::exit(1);
        });
    let proxy = event_loop.create_proxy();
    let wake = proxy.clone();
    let automation = setup::automation(name, dir, false, move || {
        let _ = wake.send_event(UserEvent::Wake);
    });
    let automation = Arc::new(automation);
    let ctx = egui::Context::default();
    install(&ctx, &automation);
    let mut app = App {
        automation,
        proxy,
        ctx,
        spec,
        ui,
        running: None,
        next: None,
    };
    if let Err(e) = event_loop.run_app(&mut app) {
        eprintln!("{name}: the event loop failed: {e}");
        std::process::exit(1);
    }
}
