//! The egui frame the egui examples share (examples/egui_demo.rs, examples/egui_gallery.rs), in
//! the shell's window (egui-winit for the window's own input and its accesskit_winit adapter,
//! egui-wgpu to draw) or headless into an offscreen texture. The plugin does the automation:
//! - `ctx.add_plugin(Plugin::new(automation).app_ends_frames())` once: injected input, egui's
//!   AccessKit tree, its layers, clips, modal layer, pressed widget and animation, and the
//!   window's state, all from egui's own hooks and state; it publishes each frame when egui's
//!   pass ends;
//! - the app keeps what only it can do: after `ctx.run_ui` it takes the published frame
//!   (`Plugin::take_frame`), hands it the exact texture (`Frame::capture`, with
//!   `winit_automation_egui::window_id`) and submits through it; the shell tells the plugin the
//!   surface it configured; the app carries out the viewport commands the plugin sends (`resize`
//!   as `InnerSize`, `quit` as `Close`).
//!
//! Included with `#[path = "shared/egui_app.rs"] mod egui_app;` next to `mod setup;` and
//! `mod shell;`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{ViewportCommand, ViewportId};
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};
use winit_automation::{Automation, Frame, FrameTarget, Published, WindowSurface};
use winit_automation_egui::{Plugin, window_id};

use crate::setup::{self, Args};
pub use crate::shell::Spec;
use crate::shell::{self, Cx, Gpu, UserEvent};

/// What an example draws each frame.
type Ui = Box<dyn FnMut(&mut egui::Ui)>;

/// egui-wgpu writes gamma-space colours: a non-sRGB target.
const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The plugin on `ctx`, driving `automation`; the app captures and ends its frames.
fn install(ctx: &egui::Context, automation: &Arc<Automation>) {
    ctx.add_plugin(Plugin::new(Arc::clone(automation)).app_ends_frames());
}

/// When egui wants the next frame, from its repaint delay: `None` for never (until an event).
fn repaint_at(output: &egui::ViewportOutput) -> Option<Instant> {
    Instant::now().checked_add(output.repaint_delay)
}

/// egui's textures and shapes of one frame, for [`Painter::paint`].
struct Painter {
    textures: egui::TexturesDelta,
    jobs: Vec<egui::ClippedPrimitive>,
    pixels_per_point: f32,
}

impl Painter {
    /// Uploads the frame's new textures.
    fn new(
        gpu: &Gpu,
        renderer: &mut egui_wgpu::Renderer,
        ctx: &egui::Context,
        output: egui::FullOutput,
    ) -> Painter {
        let egui::FullOutput { textures_delta: textures, shapes, pixels_per_point, .. } = output;
        for (id, deltas) in &textures.set {
            for delta in deltas {
                renderer.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        let jobs = ctx.tessellate(shapes, pixels_per_point);
        Painter { textures, jobs, pixels_per_point }
    }

    /// Draws egui's primitives into `target` and submits them, through `frame` when there is
    /// one (which captures the texture first when a screenshot waits for it, and ends).
    fn paint(
        &self,
        gpu: &Gpu,
        renderer: &mut egui_wgpu::Renderer,
        target: &wgpu::Texture,
        mut frame: Option<(Frame<Published>, WindowId)>,
    ) {
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [target.width(), target.height()],
            pixels_per_point: self.pixels_per_point,
        };
        let view = target.create_view(&Default::default());
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        let extra =
            renderer.update_buffers(&gpu.device, &gpu.queue, &mut encoder, &self.jobs, &screen);
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r: 0.1, g: 0.1, b: 0.12, a: 1.0 }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        renderer.render(&mut pass.forget_lifetime(), &self.jobs, &screen);
        if let Some((frame, window)) = &mut frame {
            frame.capture(*window, &gpu.device, &mut encoder, target);
        }
        // egui-wgpu's command buffers go before the encoder.
        let buffers = extra.into_iter().chain([encoder.finish()]);
        match frame {
            Some((frame, _)) => _ = frame.submit(&gpu.queue, buffers),
            None => _ = gpu.queue.submit(buffers),
        }
    }

    /// Frees the textures egui let go of.
    fn finish(mut self, renderer: &mut egui_wgpu::Renderer) {
        for id in &self.textures.free {
            renderer.free_texture(id);
        }
        // Applied; egui checks that nothing is dropped unapplied.
        self.textures.clear();
    }
}

/// The viewport commands the plugin sent (`resize`, `quit`) that the app carries out: the
/// size asked for in pixels, and whether to close.
fn commands(
    output: Option<&egui::ViewportOutput>,
    pixels_per_point: f32,
) -> (Option<PhysicalSize<u32>>, bool) {
    let (mut size, mut close) = (None, false);
    for command in output.map_or(&[][..], |v| &v.commands) {
        match command {
            // `resize`, in egui points.
            ViewportCommand::InnerSize(points) => {
                let px = |points: f32| (points * pixels_per_point).round().max(1.0) as u32;
                size = Some(PhysicalSize::new(px(points.x), px(points.y)));
            }
            ViewportCommand::Close => close = true,
            _ => {}
        }
    }
    (size, close)
}

/// An egui example in the shell's window.
struct Windowed {
    ctx: egui::Context,
    spec: Spec,
    ui: Ui,
    /// When egui asked to draw again (a timer: a tooltip's delay, a disabled button's end).
    next: Option<Instant>,
}

/// egui-wgpu's renderer and the window's surface it draws on.
struct Screen {
    egui: egui_wgpu::Renderer,
    surface: WindowSurface,
}

impl shell::App for Windowed {
    type Access = egui_winit::State;
    type Renderer = Screen;
    const SRGB: bool = false;

    fn plugin_window(&self) -> Option<WindowId> {
        Some(window_id(ViewportId::ROOT))
    }

    fn access(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: &Arc<Window>,
        proxy: EventLoopProxy<UserEvent>,
    ) -> Self::Access {
        let scale = Some(window.scale_factor() as f32);
        let mut egui =
            egui_winit::State::new(self.ctx.clone(), ViewportId::ROOT, window, scale, None, None);
        egui.init_accesskit(event_loop, window, proxy);
        egui
    }

    fn renderer(gpu: &Gpu, surface: WindowSurface) -> Screen {
        let egui =
            egui_wgpu::Renderer::new(&gpu.device, surface.config().format, Default::default());
        Screen { egui, surface }
    }

    fn resize<'a>(screen: &'a mut Screen, gpu: &Gpu, _: &Window) -> &'a wgpu::SurfaceConfiguration {
        screen.surface.resize(&gpu.device)
    }

    fn event(&mut self, cx: Cx<'_, Self>, event: &WindowEvent) -> bool {
        cx.access.on_window_event(cx.window, event).repaint
    }

    fn accesskit(&mut self, cx: Cx<'_, Self>, event: accesskit_winit::WindowEvent) {
        if let accesskit_winit::WindowEvent::ActionRequested(request) = event {
            cx.access.on_accesskit_action_request(request);
        }
    }

    fn frame(&mut self, cx: Cx<'_, Self>) -> bool {
        let Cx {
            gpu,
            window,
            id,
            access: egui,
            renderer: Screen { egui: renderer, surface: screen },
        } = cx;
        let mut raw = egui.take_egui_input(window);
        // winit cannot read a window's title back on X11: tell egui (and so the plugin) the one
        // the window was given.
        if let Some(info) = raw.viewports.get_mut(&ViewportId::ROOT) {
            info.title = Some(self.spec.title.to_owned());
        }
        let ui = &mut self.ui;
        let mut output = self.ctx.run_ui(raw, |u| ui(u));
        // The end of egui's pass published the frame, so answers never wait for the drawing.
        let frame = Plugin::take_frame(&self.ctx);
        egui.handle_platform_output(window, std::mem::take(&mut output.platform_output));
        let root = output.viewport_output.remove(&ViewportId::ROOT);
        let (size, close) = commands(root.as_ref(), output.pixels_per_point);
        if let Some(size) = size {
            let _ = window.request_inner_size(size);
        }
        // egui's textures are applied for every frame, drawn or not.
        let painter = Painter::new(gpu, renderer, &self.ctx, output);
        // A frame the next queued command draws over (a burst: `Frame::superseded`) is not
        // drawn; the plugin wakes the app for a drawn frame if that command never goes out.
        let superseded = frame.as_ref().is_some_and(|f| f.superseded());
        // egui draws on demand, so nothing is queued for presentation: the swapchain image is
        // taken after the pass.
        let shown = if superseded { None } else { screen.acquire(&gpu.device) };
        if let Some(shown) = shown {
            painter.paint(gpu, renderer, screen.texture(&shown), frame.map(|f| (f, id)));
            screen.present(&gpu.device, &gpu.queue, shown);
        }
        painter.finish(renderer);
        self.next = root.as_ref().and_then(repaint_at);
        !close
    }

    fn next_frame(&self) -> Option<Instant> {
        self.next
    }

    fn exiting(&mut self) {
        // egui's plugins let go of the automation handle: the service answers what it owes and
        // stops.
        self.ctx.on_exit();
    }
}

/// The app with no window and no display: egui runs on input the plugin brings, drawn into an
/// offscreen texture; a frame per wake-up, and when egui asks for one (at once while it animates,
/// later for its timers, which keep to the wall clock). Not `Automation::run_headless`, whose
/// wait is fixed: egui says when it wants its next frame (`Automation::wait_for_work` waits).
fn run_headless(spec: &Spec, mut ui: Ui, args: &Args) {
    let automation = Arc::new(setup::automation(spec.name, Automation::builder(), args));
    let (gpu, _) = Gpu::new(spec.name, &automation, None);
    let make = |(w, h)| FrameTarget::offscreen_with_format(&gpu.device, w, h, HEADLESS_FORMAT);
    let mut texture = make(args.size);
    let mut renderer = egui_wgpu::Renderer::new(&gpu.device, HEADLESS_FORMAT, Default::default());
    let window = window_id(ViewportId::ROOT);
    let ctx = egui::Context::default();
    install(&ctx, &automation);
    let title = format!("{} (headless)", spec.title);
    let start = Instant::now();
    let mut next: Option<Instant> = Some(start);
    loop {
        // Until a command comes, or egui's next frame is due (without the feature,
        // setup::automation exits headless).
        automation.wait_for_work(
            next.map_or(Duration::MAX, |at| at.saturating_duration_since(Instant::now())),
        );
        let frame_start = Instant::now();
        // egui's points: the texture's pixels over egui's scale (its zoom: ctrl++ makes points
        // larger, and fewer fit).
        let ppp = ctx.pixels_per_point();
        let points = egui::vec2(texture.width() as f32 / ppp, texture.height() as f32 / ppp);
        let mut raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points)),
            time: Some(start.elapsed().as_secs_f64()),
            predicted_dt: 1.0 / 60.0,
            focused: true,
            ..Default::default()
        };
        let info = egui::ViewportInfo {
            title: Some(title.clone()),
            native_pixels_per_point: Some(1.0),
            focused: Some(true),
            ..Default::default()
        };
        raw.viewports.insert(ViewportId::ROOT, info);
        let mut output = ctx.run_ui(raw, |u| ui(u));
        let frame = Plugin::take_frame(&ctx);
        let root = output.viewport_output.remove(&ViewportId::ROOT);
        let (size, quit) = commands(root.as_ref(), output.pixels_per_point);
        if let Some(size) = size {
            texture = make((size.width, size.height));
        }
        let painter = Painter::new(&gpu, &mut renderer, &ctx, output);
        // Nobody sees a headless frame: it is drawn only when a screenshot waits for it (the
        // plugin published the frame at the end of egui's pass already); else it ends here.
        if let Some(frame) = frame.filter(|f| f.wants_capture(window)) {
            painter.paint(&gpu, &mut renderer, &texture, Some((frame, window)));
        }
        painter.finish(&mut renderer);
        if quit {
            break;
        }
        // egui asks for the next frame at once while it animates; headless, where nothing is
        // drawn for anybody, that would spin as fast as the CPU goes. Its animations keep to the
        // wall clock, so frames at 60 Hz show them the same. Commands do not wait for this: the
        // plugin's waker ends the wait above.
        let min = frame_start + Duration::from_secs_f64(1.0 / 60.0);
        next = root.as_ref().and_then(repaint_at).map(|at| at.max(min));
    }
    // egui's plugins let go of the automation handle: the service answers what it owes and stops.
    ctx.on_exit();
}

/// Parses `--dir`, `--headless`, `--size` and runs `ui` every frame, in a window or headless.
pub fn main(spec: Spec, ui: impl FnMut(&mut egui::Ui) + 'static) {
    let (name, (w, h)) = (spec.name, spec.size);
    let usage = format!(
        "usage: {name} [--dir DIR] [--headless [--size WxH]] [--queue-capacity N]

  --dir DIR    the automation drop-box (default: $WINIT_AUTOMATION_DIR or target/winit-automation)
  --headless   no window and no display: egui drawn into an offscreen texture
  --size WxH   the headless frame size in pixels (default {w}x{h})
  --queue-capacity N  how many commands may wait in the drop-box (default 256)"
    );
    let args = Args::parse(name, &usage, spec.size, |_, _| Ok(false));
    let ui: Ui = Box::new(ui);
    if args.headless {
        return run_headless(&spec, ui, &args);
    }
    shell::run(spec, &args, |automation| {
        let ctx = egui::Context::default();
        install(&ctx, automation);
        Windowed { ctx, spec, ui, next: None }
    });
}
