//! A real wgpu device for the tests and benchmarks that capture frames (Vulkan: lavapipe on a
//! machine without a GPU), a texture to draw into, a clear to draw with, and the first pixel of a
//! screenshot. The benchmarks include it with `#[path = "../tests/common/gpu.rs"] mod gpu;`.
#![allow(dead_code)]

/// A Vulkan device and its queue; the adapter is printed (it must be Vulkan: GL draws
/// differently).
pub fn device() -> (wgpu::Device, wgpu::Queue) {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
        .expect("a Vulkan adapter: install mesa-vulkan-drivers for lavapipe");
    println!("adapter: {:?}", adapter.get_info());
    pollster::block_on(adapter.request_device(&Default::default())).unwrap()
}

/// A 64x32 texture of `format` and `usage` (plus `RENDER_ATTACHMENT`), as the test app's frames
/// are drawn into.
pub fn texture(
    device: &wgpu::Device,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    sized_texture(device, (64, 32), format, usage)
}

/// A `width` x `height` texture of `format` and `usage` (plus `RENDER_ATTACHMENT`).
pub fn sized_texture(
    device: &wgpu::Device,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage: usage | wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    })
}

/// A device, its queue and a 64x32 `Rgba8Unorm` texture screenshots can copy from.
pub fn target() -> (wgpu::Device, wgpu::Queue, wgpu::Texture) {
    let (device, queue) = device();
    let texture = texture(
        &device,
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureUsages::COPY_SRC,
    );
    (device, queue, texture)
}

/// A device, its queue and a `width` x `height` sRGB texture screenshots can copy from: a
/// benchmark's frame.
pub fn sized_target(width: u32, height: u32) -> (wgpu::Device, wgpu::Queue, wgpu::Texture) {
    let (device, queue) = device();
    let texture = sized_texture(
        &device,
        (width, height),
        wgpu::TextureFormat::Rgba8UnormSrgb,
        wgpu::TextureUsages::COPY_SRC,
    );
    (device, queue, texture)
}

/// The first pixel of a 64x32 PNG, RGBA (the size is checked).
pub fn first_pixel(png: &[u8]) -> [u8; 4] {
    let decoder = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (64, 32));
    [buf[0], buf[1], buf[2], buf[3]]
}

/// Records a pass that clears `texture` to `color`: a frame's drawing.
pub fn clear(encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture, color: wgpu::Color) {
    let view = texture.create_view(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: None,
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(color),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    }));
}
