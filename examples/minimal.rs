//! The smallest windowed integration, to copy whole: a window cleared to a colour, a button that
//! switches it and a label that names it (widget records), screenshots on any surface
//! (`FrameTarget`), and `--headless` (an offscreen texture, no window system). Built without the
//! `automation` feature it is the same app, and nothing can drive it.
//!
//! ```text
//! cargo run --features automation --example minimal -- --dir /tmp/box   # or add --headless
//! winit-automation --dir /tmp/box snapshot; winit-automation --dir /tmp/box click name=Switch
//! ```
#![allow(clippy::print_stderr)]

use std::sync::{Arc, mpsc};
use std::time::Duration;

use accesskit::{Action, Role};
use winit::application::ApplicationHandler;
use winit::event::{ElementState, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};
use winit_automation::{Automation, Bounds, FrameTarget, Input, Widget, WindowState};

/// The colours the button switches between, in linear RGB (0 and 1 are exact in sRGB too).
const COLOURS: [(&str, [f64; 3]); 2] = [("blue", [0.0, 0.0, 1.0]), ("yellow", [1.0, 1.0, 0.0])];
const SWITCH: Bounds = Bounds {
    x: 20.0,
    y: 60.0,
    width: 120.0,
    height: 32.0,
};

/// The app's state: which colour, and where the pointer is (logical pixels).
#[derive(Default)]
struct Ui {
    yellow: bool,
    cursor: (f64, f64),
}

impl Ui {
    /// A pointer event, from the window or injected (both physical pixels): a release over the
    /// button switches the colour.
    fn pointer(&mut self, event: &WindowEvent, scale: f64) {
        match event {
            WindowEvent::CursorMoved { position: p, .. } => {
                self.cursor = (p.x / scale, p.y / scale)
            }
            WindowEvent::MouseInput {
                state: ElementState::Released,
                ..
            } if SWITCH.contains(self.cursor.0, self.cursor.1) => self.yellow ^= true,
            _ => {}
        }
    }

    /// One frame: the injected input, then drawing into `texture`, which the plugin copies when a
    /// screenshot waits for it, then the widget records. False once `quit` arrived.
    fn frame(
        &mut self,
        automation: &Automation,
        window: WindowId,
        scale: f64,
        device: &wgpu::Device,
        texture: &wgpu::Texture,
    ) -> (wgpu::CommandEncoder, bool) {
        let mut running = true;
        for input in automation.begin_frame() {
            match input {
                Input::Pointer { event, .. } => self.pointer(&event, scale),
                Input::Action { widget, .. } if widget.as_deref() == Some("switch") => {
                    self.yellow ^= true
                }
                Input::Quit => running = false,
                _ => {} // a `Request` dropped unanswered is answered `not_handled`
            }
        }
        let (name, [r, g, b]) = COLOURS[usize::from(self.yellow)];
        let mut encoder = device.create_command_encoder(&Default::default());
        let view = texture.create_view(&Default::default());
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations {
                    load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a: 1.0 }),
                    store: wgpu::StoreOp::Store,
                },
            })],
            ..Default::default()
        });
        automation.capture(window, device, &mut encoder, texture);
        let label = Widget::new("colour", Role::Label, format!("Colour: {name}"));
        let switch = Widget::new("switch", Role::Button, "Switch")
            .bounds(SWITCH)
            .action(Action::Click);
        automation.widgets(
            window,
            vec![label.bounds(Bounds::new(20.0, 20.0, 200.0, 24.0)), switch],
        );
        (encoder, running)
    }
}

/// The adapter and device, for `surface` or headless; names the adapter on stderr and to the plugin.
fn gpu(
    automation: &Automation,
    instance: &wgpu::Instance,
    surface: Option<&wgpu::Surface>,
) -> (wgpu::Adapter, wgpu::Device, wgpu::Queue) {
    let options = wgpu::RequestAdapterOptions {
        compatible_surface: surface,
        ..Default::default()
    };
    let adapter = pollster::block_on(instance.request_adapter(&options))
        .expect("a GPU adapter (install mesa-vulkan-drivers)");
    eprintln!("minimal: adapter {:?}", adapter.get_info());
    automation.adapter(&adapter.get_info());
    let (device, queue) =
        pollster::block_on(adapter.request_device(&Default::default())).expect("a device");
    (adapter, device, queue)
}

/// The window's GPU state, once `resumed` has created it.
struct Running {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    target: FrameTarget,
    device: wgpu::Device,
    queue: wgpu::Queue,
}

struct App {
    automation: Automation,
    ui: Ui,
    running: Option<Running>,
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let window = Arc::new(
            event_loop
                .create_window(Window::default_attributes().with_title("minimal"))
                .expect("a window"),
        );
        self.automation.track_window(&window);
        let instance = wgpu::Instance::new(
            wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(window.clone())),
        );
        let surface = instance.create_surface(window.clone()).expect("a surface");
        let (adapter, device, queue) = gpu(&self.automation, &instance, Some(&surface));
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&adapter, size.width, size.height)
            .expect("a surface configuration");
        // Adds COPY_SRC where the surface has it, else draws into a texture blitted to the surface.
        let target = FrameTarget::new(&device, &mut config, &surface.get_capabilities(&adapter));
        surface.configure(&device, &config);
        self.automation.surface(window.id(), &config);
        window.request_redraw();
        self.running = Some(Running {
            window,
            surface,
            config,
            target,
            device,
            queue,
        });
    }

    /// The waker's event: the plugin has work for a frame.
    fn user_event(&mut self, _: &ActiveEventLoop, (): ()) {
        self.running.as_ref().inspect(|r| r.window.request_redraw());
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        self.automation.window_event(id, &event);
        let Some(r) = self.running.as_mut() else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => {
                (r.config.width, r.config.height) = (size.width.max(1), size.height.max(1));
                r.surface.configure(&r.device, &r.config);
                r.target.resize(&r.device, &r.config);
                self.automation.surface(id, &r.config);
            }
            WindowEvent::RedrawRequested => {
                let (wgpu::CurrentSurfaceTexture::Success(frame)
                | wgpu::CurrentSurfaceTexture::Suboptimal(frame)) = r.surface.get_current_texture()
                else {
                    r.surface.configure(&r.device, &r.config);
                    return r.window.request_redraw();
                };
                let texture = r.target.texture(&frame.texture);
                let (mut encoder, running) = self.ui.frame(
                    &self.automation,
                    id,
                    r.window.scale_factor(),
                    &r.device,
                    texture,
                );
                r.target.finish(&r.device, &mut encoder, &frame.texture);
                r.queue.submit([encoder.finish()]);
                r.window.pre_present_notify();
                r.queue.present(frame);
                self.automation.end_frame();
                if !running {
                    event_loop.exit();
                }
            }
            e @ (WindowEvent::CursorMoved { .. } | WindowEvent::MouseInput { .. }) => {
                self.ui.pointer(&e, r.window.scale_factor());
                r.window.request_redraw();
            }
            _ => {}
        }
    }
}

/// No window and no display: a frame each time the waker fires, drawn into an offscreen texture.
fn headless(automation: Automation, woken: mpsc::Receiver<()>) {
    let instance =
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
    let (_, device, queue) = gpu(&automation, &instance, None);
    let size = wgpu::Extent3d {
        width: 320,
        height: 200,
        depth_or_array_layers: 1,
    };
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size,
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    let state = WindowState {
        title: "minimal".into(),
        width: 320.0,
        height: 200.0,
        scale_factor: 1.0,
        focused: true,
    };
    let window = WindowId::from(1); // any stable id names the one "window"
    automation.window_state(window, state);
    let mut ui = Ui::default();
    loop {
        let (encoder, running) = ui.frame(&automation, window, 1.0, &device, &texture);
        queue.submit([encoder.finish()]);
        automation.end_frame();
        if !running {
            return;
        }
        let _ = woken.recv_timeout(Duration::from_millis(500)); // bounds what a lost wake-up costs
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .iter()
        .position(|a| a == "--dir")
        .and_then(|i| args.get(i + 1));
    let event_loop = (!args.iter().any(|a| a == "--headless"))
        .then(|| EventLoop::new().expect("a display (try xvfb-run -a)"));
    // The waker runs on the service thread when commands arrive, so an idle app wakes up.
    let (proxy, (wake, woken)) = (
        event_loop.as_ref().map(EventLoop::create_proxy),
        mpsc::sync_channel(1),
    );
    let mut builder = Automation::builder()
        .app_name("minimal")
        .waker(move || match &proxy {
            Some(proxy) => proxy.send_event(()).unwrap_or_default(),
            None => wake.try_send(()).unwrap_or_default(),
        });
    if let Some(dir) = dir {
        builder = builder.dir(dir);
    }
    let automation = builder.start().expect("the drop-box");
    match event_loop {
        Some(event_loop) => event_loop
            .run_app(&mut App {
                automation,
                ui: Ui::default(),
                running: None,
            })
            .expect("the event loop"),
        None if automation.dir().is_some() => headless(automation, woken),
        None => {
            eprintln!("minimal: nothing could drive a headless run without --features automation");
            std::process::exit(2);
        }
    }
}
