//! Start-up the demos share: the plugin, the GPU (for a window or headless), offscreen
//! frames and the `--size` argument. Included with `#[path = "shared/setup.rs"] mod setup;`.

use std::sync::Arc;

use winit::window::Window;
use winit_automation::Automation;

/// Events from other threads for a windowed demo's event loop: the plugin's waker, and
/// accesskit_winit's (directly, or through egui-winit).
#[derive(Debug)]
pub enum UserEvent {
    Wake,
    AccessKit(accesskit_winit::Event),
}

impl From<accesskit_winit::Event> for UserEvent {
    fn from(e: accesskit_winit::Event) -> Self {
        UserEvent::AccessKit(e)
    }
}

/// Starts the plugin (exits with the error's text if it cannot) and says where its drop-box is.
pub fn automation(
    app: &str,
    dir: Option<String>,
    headless: bool,
    waker: impl Fn() + Send + Sync + 'static,
) -> Automation {
    let mut builder = Automation::builder().app_name(app).waker(waker);
    if let Some(dir) = dir {
        builder = builder.dir(dir);
    }
    let automation = builder.start().unwrap_or_else(|e| {
        eprintln!("{app}: {e}");
        if let Some(hint) = e.hint() {
            eprintln!("hint: {hint}");
        }
        std::process::exit(1);
    });
    match automation.dir() {
        Some(d) if headless => eprintln!("{app}: headless, automation in {}", d.display()),
        Some(d) => eprintln!("{app}: automation in {}", d.display()),
        None if headless => {
            // Headless, nothing but the plugin can drive the app.
            eprintln!(
                "{app}: built without the automation feature, so nothing can drive it headless; rebuild with --features automation"
            );
            std::process::exit(2);
        }
        None => eprintln!("{app}: built without the automation feature"),
    }
    automation
}

/// The GPU: for `window` (with its surface) or, without one, headless with no display at all.
/// Names the adapter on stderr and to the plugin.
pub fn gpu(
    app: &str,
    automation: &Automation,
    window: Option<Arc<Window>>,
) -> (
    Option<wgpu::Surface<'static>>,
    wgpu::Adapter,
    wgpu::Device,
    wgpu::Queue,
) {
    let desc = match &window {
        Some(w) => wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(w.clone())),
        None => wgpu::InstanceDescriptor::new_without_display_handle_from_env(),
    };
    let instance = wgpu::Instance::new(desc);
    let surface = window.map(|w| {
        instance
            .create_surface(w)
            .expect("a surface for the window")
    });
    let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
        compatible_surface: surface.as_ref(),
        ..Default::default()
    }))
    .unwrap_or_else(|e| {
        eprintln!("{app}: no GPU adapter ({e}); install mesa-vulkan-drivers for lavapipe");
        std::process::exit(1);
    });
    let info = adapter.get_info();
    eprintln!(
        "{app}: adapter {} ({:?}, {:?})",
        info.name, info.backend, info.device_type
    );
    automation.adapter(&info);
    let (device, queue) =
        pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor::default()))
            .expect("a device");
    (surface, adapter, device, queue)
}

/// A headless frame: drawn into, and copied from for screenshots.
pub fn offscreen(
    device: &wgpu::Device,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("offscreen frame"),
        size: wgpu::Extent3d {
            width: width.max(1),
            height: height.max(1),
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}

/// `WIDTHxHEIGHT`, both positive.
pub fn parse_size(value: Option<String>) -> Option<(u32, u32)> {
    let value = value?;
    let (w, h) = value.split_once('x')?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    (w > 0 && h > 0).then_some((w, h))
}
