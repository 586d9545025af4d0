//! The winit + wgpu shell the windowed examples share: the GPU, the window and its surface, and
//! the event loop, around an [`App`] that holds only its UI. Included with
//! `#[path = "shared/shell.rs"] mod shell;` next to `mod setup;`.
//!
//! The shell creates the window hidden, lets the app make its accessibility adapter
//! (`accesskit_winit`, directly or through egui-winit: it must exist before the window is shown),
//! shows it, configures its surface for captures (`WindowSurface`) and tells the plugin the window and
//! the surface. Then it hands the app the window's events and asks it for a frame on each redraw;
//! commands wake the idle loop (`Builder::wake_event_loop`).

use std::sync::Arc;
use std::time::Instant;

use winit::application::ApplicationHandler;
use winit::dpi::{LogicalSize, PhysicalSize};
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop, EventLoopProxy};
use winit::window::{Window, WindowId};
use winit_automation::{Automation, WindowState, WindowSurface, window_state_of};

use crate::setup::{self, Args};

/// Events from other threads for the event loop: the plugin's wake-up, and accesskit_winit's
/// (directly, or through egui-winit).
#[derive(Debug, Clone)]
pub enum UserEvent {
    Wake,
    AccessKit(accesskit_winit::WindowEvent),
}

impl From<accesskit_winit::Event> for UserEvent {
    fn from(e: accesskit_winit::Event) -> Self {
        UserEvent::AccessKit(e.window_event)
    }
}

/// An example's window: its name (for messages and the plugin), title and size.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub title: &'static str,
    /// The window's logical size, and the headless frame's default size in pixels.
    pub size: (u32, u32),
}

/// The adapter, named on stderr and to the plugin, and its device.
pub struct Gpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// The GPU for `window` (and the window's surface) or, without one, headless with no display
    /// at all. Exits when there is no adapter.
    pub fn new(
        name: &str,
        automation: &Automation,
        window: Option<&Arc<Window>>,
    ) -> (Gpu, Option<wgpu::Surface<'static>>) {
        let desc = match window {
            Some(w) => {
                wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(w.clone()))
            }
            None => wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
        };
        let instance = wgpu::Instance::new(desc);
        let surface =
            window.map(|w| instance.create_surface(w.clone()).expect("a surface for the window"));
        let options = wgpu::RequestAdapterOptions {
            compatible_surface: surface.as_ref(),
            ..Default::default()
        };
        let adapter = pollster::block_on(instance.request_adapter(&options)).unwrap_or_else(|e| {
            eprintln!("{name}: no GPU adapter ({e}); install mesa-vulkan-drivers for lavapipe");
            std::process::exit(1);
        });
        let info = adapter.get_info();
        eprintln!("{name}: adapter {} ({:?}, {:?})", info.name, info.backend, info.device_type);
        automation.adapter(&info);
        let (device, queue) =
            pollster::block_on(adapter.request_device(&Default::default())).expect("a device");
        (Gpu { adapter, device, queue }, surface)
    }
}

/// What an example's UI does in the shell's window.
pub trait App {
    /// The window's accessibility adapter (and whatever else reads the window's events).
    type Access;
    /// What draws the window's frames, on its surface, which it keeps (the demo draws on a
    /// thread of its own).
    type Renderer;
    /// Whether the renderer draws into an sRGB target.
    const SRGB: bool;

    /// The window's id for the plugin, when the app's toolkit tells the plugin the window's state
    /// (egui's plugin, from egui's own); `None`: the window's own id, and the shell tells it.
    fn plugin_window(&self) -> Option<WindowId> {
        None
    }
    /// The window exists and is still hidden: the accessibility adapter is made now.
    fn access(
        &mut self,
        event_loop: &ActiveEventLoop,
        window: &Arc<Window>,
        proxy: EventLoopProxy<UserEvent>,
    ) -> Self::Access;
    /// The renderer for the window's surface, configured for captures and told to the plugin.
    fn renderer(gpu: &Gpu, screen: WindowSurface) -> Self::Renderer;
    /// The window changed size: the renderer configures its surface again; returns the
    /// configuration, for the plugin.
    fn resize<'a>(
        renderer: &'a mut Self::Renderer,
        gpu: &Gpu,
        window: &Window,
    ) -> &'a wgpu::SurfaceConfiguration;
    /// An event of the window (a resize after the surface followed it); whether to redraw.
    fn event(&mut self, cx: Cx<'_, Self>, event: &WindowEvent) -> bool;
    /// An event of the accessibility adapter (the shell redraws after it).
    fn accesskit(&mut self, cx: Cx<'_, Self>, event: accesskit_winit::WindowEvent);
    /// Draws a frame (the window asked for a redraw); `false` to quit.
    fn frame(&mut self, cx: Cx<'_, Self>) -> bool;
    /// When the app wants a frame with no event: an animation, a timer; `None` for none.
    fn next_frame(&self) -> Option<Instant> {
        None
    }
    /// A size the window took at once during the last frame: `Window::request_inner_size`
    /// returned it (Wayland), and no `Resized` event follows, so the shell handles it as one.
    fn applied_size(&mut self) -> Option<PhysicalSize<u32>> {
        None
    }
    /// The event loop is ending.
    fn exiting(&mut self) {}
}

/// What the app gets in each of its window's calls.
pub struct Cx<'a, A: App + ?Sized> {
    /// Unread by the demo, whose renderer keeps the device for its thread.
    #[allow(dead_code)]
    pub gpu: &'a Gpu,
    pub window: &'a Arc<Window>,
    /// The window's id for the plugin.
    pub id: WindowId,
    pub access: &'a mut A::Access,
    pub renderer: &'a mut A::Renderer,
}

struct Shown<A: App> {
    window: Arc<Window>,
    id: WindowId,
    gpu: Gpu,
    access: A::Access,
    renderer: A::Renderer,
}

impl<A: App> Shown<A> {
    fn cx(&mut self) -> Cx<'_, A> {
        let Shown { window, id, gpu, access, renderer } = self;
        Cx { gpu, window, id: *id, access, renderer }
    }
}

struct Shell<A: App> {
    automation: Arc<Automation>,
    proxy: EventLoopProxy<UserEvent>,
    spec: Spec,
    app: A,
    shown: Option<Shown<A>>,
}

/// Runs the app that `app` makes (from the started plugin) in a window, until it closes.
pub fn run<A: App>(spec: Spec, args: &Args, app: impl FnOnce(&Arc<Automation>) -> A) {
    let name = spec.name;
    let event_loop = EventLoop::<UserEvent>::with_user_event().build().unwrap_or_else(|e| {
        eprintln!("{name}: cannot open a window ({e}); is DISPLAY set? (try xvfb-run -a)");
        std::process::exit(1);
    });
    // Commands wake the idle loop: `user_event` asks for a frame.
    let builder = Automation::builder().wake_event_loop(&event_loop, UserEvent::Wake);
    let automation = Arc::new(setup::automation(name, builder, args));
    let app = app(&automation);
    let proxy = event_loop.create_proxy();
    let mut shell = Shell { automation, proxy, spec, app, shown: None };
    if let Err(e) = event_loop.run_app(&mut shell) {
        eprintln!("{name}: the event loop failed: {e}");
        std::process::exit(1);
    }
}

impl<A: App> ApplicationHandler<UserEvent> for Shell<A> {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.shown.is_some() {
            return;
        }
        let (name, (width, height)) = (self.spec.name, self.spec.size);
        // Hidden first: accesskit_winit's adapter must be created before the window is shown.
        let attributes = Window::default_attributes()
            .with_title(self.spec.title)
            .with_inner_size(LogicalSize::new(f64::from(width), f64::from(height)))
            .with_visible(false);
        let window = Arc::new(event_loop.create_window(attributes).expect("a window"));
        let access = self.app.access(event_loop, &window, self.proxy.clone());
        window.set_visible(true);
        let id = self.app.plugin_window().unwrap_or_else(|| {
            let title = self.spec.title.to_owned();
            let state = WindowState { title, ..window_state_of(&window) };
            self.automation.window_state(window.id(), state);
            window.id()
        });
        let (gpu, surface) = Gpu::new(name, &self.automation, Some(&window));
        let surface = surface.expect("a surface for the window");
        let (adapter, device) = (&gpu.adapter, &gpu.device);
        let srgb = |f: wgpu::TextureFormat| f.is_srgb() == A::SRGB;
        let screen = WindowSurface::with_format(window.clone(), surface, adapter, device, srgb);
        eprintln!("{name}: capture path {}", screen.path().as_str());
        self.automation.surface(id, screen.config());
        let renderer = A::renderer(&gpu, screen);
        window.request_redraw();
        self.shown = Some(Shown { window, id, gpu, access, renderer });
    }

    fn user_event(&mut self, _: &ActiveEventLoop, event: UserEvent) {
        let Some(shown) = self.shown.as_mut() else { return };
        if let UserEvent::AccessKit(event) = event {
            self.app.accesskit(shown.cx(), event);
        }
        shown.window.request_redraw();
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, id: WindowId, event: WindowEvent) {
        let Some(shown) = self.shown.as_mut() else { return };
        if self.app.plugin_window().is_none() {
            self.automation.window_event(id, &event);
        }
        match &event {
            WindowEvent::CloseRequested => return event_loop.exit(),
            WindowEvent::RedrawRequested => {
                if !self.app.frame(shown.cx()) {
                    event_loop.exit();
                } else if let Some(size) = self.app.applied_size() {
                    self.window_event(event_loop, id, WindowEvent::Resized(size));
                }
                return;
            }
            WindowEvent::Resized(_) => {
                let config = A::resize(&mut shown.renderer, &shown.gpu, &shown.window);
                self.automation.surface(shown.id, config);
            }
            // Frames skipped while hidden (no swapchain image) are drawn now.
            WindowEvent::Occluded(false) => shown.window.request_redraw(),
            _ => {}
        }
        if self.app.event(shown.cx(), &event) {
            shown.window.request_redraw();
        }
    }

    fn about_to_wait(&mut self, event_loop: &ActiveEventLoop) {
        let flow = match self.app.next_frame() {
            Some(at) if at <= Instant::now() => {
                if let Some(shown) = &self.shown {
                    shown.window.request_redraw();
                }
                ControlFlow::Wait
            }
            Some(at) => ControlFlow::WaitUntil(at),
            None => ControlFlow::Wait,
        };
        event_loop.set_control_flow(flow);
    }

    fn exiting(&mut self, _: &ActiveEventLoop) {
        self.app.exiting();
        // While the event loop still runs: a renderer drawing on a thread of its own holds the
        // window through its surface, and stops (drawing what it holds) before the window goes.
        self.shown = None;
    }
}
