//! A real device and a copyable target texture, for the benchmarks that capture frames
//! (`frame.rs`'s screenshot stall, `trace.rs`). Included with
//! `#[path = "shared/gpu.rs"] mod gpu;`.

/// A Vulkan device (lavapipe on a machine without a GPU), its queue, and a `width` x `height`
/// sRGB texture to draw into and capture.
pub fn device_and_target(width: u32, height: u32) -> (wgpu::Device, wgpu::Queue, wgpu::Texture) {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    desc.backends = wgpu::Backends::VULKAN;
    let instance = wgpu::Instance::new(desc);
    let adapter = pollster::block_on(instance.request_adapter(&Default::default())).unwrap();
    let (device, queue) = pollster::block_on(adapter.request_device(&Default::default())).unwrap();
    let texture = device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: wgpu::TextureFormat::Rgba8UnormSrgb,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    });
    (device, queue, texture)
}

/// Records a pass that clears `texture` to white: the frame's drawing.
pub fn clear(encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture) {
    let view = texture.create_view(&Default::default());
    drop(encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: None,
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: &view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::WHITE),
                store: wgpu::StoreOp::Store,
            },
        })],
        ..Default::default()
    }));
}
