//! The smallest integration, to copy whole: a button switches a colour; screenshots on any surface;
//! `--headless`; without the `automation` feature, the same app. `WINIT_AUTOMATION_DIR=/tmp/b cargo run
//! -p winit-automation -F automation --example minimal`, then `winit-automation --dir /tmp/b snapshot`.

use accesskit::{Action, Role};
use std::sync::Arc;
use wgpu::{Instance, InstanceDescriptor};
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};
use winit_automation::{Automation, Bounds, Frame, FrameTarget, Input, Published, Widget};
use winit_automation::{WindowState, WindowSurface, window_state_of};

const COLOURS: [(&str, [f64; 3]); 2] = [("blue", [0.0, 0.0, 1.0]), ("yellow", [1.0, 1.0, 0.0])];
const LABEL: Bounds = Bounds::new(20.0, 20.0, 200.0, 24.0);
const SWITCH: Bounds = Bounds::new(20.0, 60.0, 120.0, 32.0);
#[derive(Default)]
struct Ui {
    yellow: bool,
    cursor: (f64, f64),         // logical pixels
    since: std::time::Duration, // when it switched, by the frames' clock (`Frame::time`)
}
impl Ui {
    /// A pointer event, the window's or injected (physical pixels): a release on the button.
    fn pointer(&mut self, event: &WindowEvent, scale: f64) {
        if let WindowEvent::CursorMoved { position: p, .. } = event {
            self.cursor = (p.x / scale, p.y / scale);
        }
        let up = matches!(event, WindowEvent::MouseInput { state, .. } if !state.is_pressed());
        self.yellow ^= up && SWITCH.contains(self.cursor.0, self.cursor.1);
    }
    /// A frame's input and widgets, published before drawing (answers go out); `None` on quit.
    fn update(&mut self, mut frame: Frame, id: WindowId, scale: f64) -> Option<Drawn> {
        let before = self.yellow;
        for input in frame.input() {
            match input {
                Input::Pointer { event, .. } => self.pointer(&event, scale),
                Input::Action { widget, .. } => self.yellow ^= widget.as_deref() == Some("switch"),
                Input::Quit => return None, // the frame ends here: `quit` is answered
                _ => {} // a `Request` dropped unanswered is answered `not_handled`
            }
        }
        let (name, colour) = COLOURS[usize::from(self.yellow)];
        self.since = if self.yellow == before { self.since } else { frame.time() };
        let shown = format!("for {} s", (frame.time() - self.since).as_secs()); // not Instant::now
        let label = Widget::new("colour", Role::Label, format!("Colour: {name}")).value(shown);
        let button = Widget::new("switch", Role::Button, "Switch").action(Action::Click);
        frame.widgets(id, vec![label.bounds(LABEL), button.bounds(SWITCH)]);
        Some((frame.publish(), colour))
    }
}
type Drawn = (Frame<Published>, [f64; 3]);
/// Draws into `texture`, copied when a screenshot waits for this frame; the submit ends it.
fn draw((mut frame, [r, g, b]): Drawn, gpu: &Gpu, texture: &wgpu::Texture) {
    let (clear, view) = (wgpu::Color { r, g, b, a: 1.0 }, texture.create_view(&Default::default()));
    let ops = wgpu::Operations { load: wgpu::LoadOp::Clear(clear), store: wgpu::StoreOp::Store };
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops,
        })],
        ..Default::default()
    });
    frame.capture(gpu.window, &gpu.device, &mut encoder, texture);
    frame.submit(&gpu.queue, [encoder.finish()]); // ends the frame
}
struct Gpu {
    adapter: wgpu::Adapter,
    device: wgpu::Device,
    queue: wgpu::Queue,
    window: WindowId,
}
/// The adapter (for `surface`, or headless), named to the plugin; its device; the frames' window.
fn gpu(automation: &Automation, instance: &Instance, surface: Option<&wgpu::Surface>) -> Gpu {
    let adapter = wgpu::util::initialize_adapter_from_env_or_default(instance, surface);
    let adapter = pollster::block_on(adapter).expect("a GPU adapter (install mesa-vulkan-drivers)");
    automation.adapter(&adapter.get_info());
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default())).unwrap();
    Gpu { adapter, device, queue, window: WindowId::from(1) } // headless: any stable id
}
struct App {
    automation: Automation,
    ui: Ui,
    shown: Option<(Arc<Window>, WindowSurface, Gpu)>,
}
impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        let attributes = Window::default_attributes().with_title("minimal");
        let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
        let state = WindowState { title: "minimal".into(), ..window_state_of(&window) };
        self.automation.window_state(window.id(), state);
        let display = Box::new(window.clone());
        let instance = Instance::new(InstanceDescriptor::new_with_display_handle_from_env(display));
        let surface = instance.create_surface(window.clone()).expect("a surface");
        let gpu = Gpu { window: window.id(), ..gpu(&self.automation, &instance, Some(&surface)) };
        // COPY_SRC where the surface has it, else a texture blitted to it: captures work on both.
        let surface = WindowSurface::new(window.clone(), surface, &gpu.adapter, &gpu.device);
        self.automation.surface(window.id(), surface.config());
        window.request_redraw();
        self.shown = Some((window, surface, gpu));
    }
    fn user_event(&mut self, _: &ActiveEventLoop, (): ()) {
        self.shown.as_ref().inspect(|(window, ..)| window.request_redraw());
    }
    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        self.automation.window_event(id, &event);
        let Some((window, surface, gpu)) = self.shown.as_mut() else { return };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(_) => self.automation.surface(id, surface.resize(&gpu.device)),
            WindowEvent::RedrawRequested => {
                let frame = self.automation.frame();
                let Some(drawn) = self.ui.update(frame, id, window.scale_factor()) else {
                    return event_loop.exit();
                };
                // The swapchain image after the input: an idle app answers without waiting on it.
                let Some(shown) = surface.acquire(&gpu.device) else { return };
                draw(drawn, gpu, surface.texture(&shown));
                surface.present(&gpu.device, &gpu.queue, shown);
            }
            event => {
                self.ui.pointer(&event, window.scale_factor());
                window.request_redraw();
            }
        }
    }
}

fn main() {
    let automation = Automation::builder().app_name("minimal");
    if std::env::args().any(|a| a == "--headless") {
        // No window: frames drawn into an offscreen texture whenever a command wakes the app.
        let automation = automation.start().expect("the drop-box");
        let instance = Instance::new(InstanceDescriptor::new_without_display_handle_from_env());
        let gpu = gpu(&automation, &instance, None);
        let texture = FrameTarget::offscreen(&gpu.device, 320, 200);
        automation.window_state(gpu.window, WindowState::headless("minimal", 320.0, 200.0));
        let mut ui = Ui::default();
        let draw = |drawn| draw(drawn, &gpu, &texture);
        return automation.run_headless(|f| ui.update(f, gpu.window, 1.0).map(draw).is_some());
    }
    let event_loop = EventLoop::new().expect("a display (try xvfb-run -a)");
    // Commands wake the idle loop: `user_event` asks for a frame.
    let automation = automation.wake_event_loop(&event_loop, ()).start().expect("the drop-box");
    event_loop.run_app(&mut App { automation, ui: Ui::default(), shown: None }).expect("the loop");
}
