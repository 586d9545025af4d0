//! Screenshots, wgpu side: copies the frame's texture into a staging buffer inside the app's own
//! command encoder, which maps the buffer when it is submitted (`map_buffer_on_submit`, so the
//! order of the submit and the frame's end does not matter), and hands the render end a reader
//! for the service thread, which waits for the GPU (`readback`), reads the pixels and writes the
//! PNG.
//!
//! The render thread only encodes a copy: no wait, no pixel copy, no encoding. Staging buffers
//! come back from the service thread and are reused (a small ring).

use crossbeam_channel::{Receiver, Sender, bounded};

use crate::protocol::{ErrorCode, Failure};
use crate::readback::GpuCopy;
use winit_automation_link::{FrameImage, Reader};

/// How many staging buffers are kept for reuse.
const RING: usize = 3;
/// wgpu's row alignment for texture-to-buffer copies.
const ROW_ALIGN: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// The staging-buffer ring.
pub(crate) struct Ring {
    free: Vec<wgpu::Buffer>,
    returned_tx: Sender<wgpu::Buffer>,
    returned: Receiver<wgpu::Buffer>,
}

impl Ring {
    pub fn new() -> Ring {
        let (returned_tx, returned) = bounded(RING * 4);
        Ring {
            free: Vec::new(),
            returned_tx,
            returned,
        }
    }

    fn take(&mut self, device: &wgpu::Device, size: u64) -> wgpu::Buffer {
        while let Ok(b) = self.returned.try_recv() {
            if self.free.len() < RING {
                self.free.push(b);
            }
        }
        if let Some(i) = self.free.iter().position(|b| b.size() >= size) {
            return self.free.swap_remove(i);
        }
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("winit-automation screenshot"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }
}

fn unsupported(message: String, hint: &str) -> Failure {
    Failure::new(ErrorCode::Unsupported, message, hint)
}

/// Whether `texture` can be captured; `Ok(true)` when its bytes are BGRA.
pub(crate) fn check(texture: &wgpu::Texture) -> Result<bool, Failure> {
    let bgra = match texture.format() {
        wgpu::TextureFormat::Rgba8Unorm | wgpu::TextureFormat::Rgba8UnormSrgb => false,
        wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => true,
        other => {
            return Err(unsupported(
                format!("the frame's texture is {other:?}; screenshots read 8-bit RGBA or BGRA"),
                "configure the surface (or the texture handed to capture) as Rgba8/Bgra8, Unorm or UnormSrgb",
            ));
        }
    };
    if !texture.usage().contains(wgpu::TextureUsages::COPY_SRC) {
        return Err(unsupported(
            "the frame's texture cannot be copied from (no COPY_SRC usage)".into(),
            "use winit_automation::FrameTarget, which adds COPY_SRC where the surface allows it and draws through an intermediate texture where it does not",
        ));
    }
    if texture.sample_count() != 1 {
        return Err(unsupported(
            "the frame's texture is multisampled".into(),
            "hand capture the resolved texture",
        ));
    }
    Ok(bgra)
}

/// Encodes the copy of `texture` (checked by [`check`]) for one screenshot of a frame whose scale
/// factor is `scale`, and returns the reader the service thread runs: it waits for the mapping
/// the encoder's submit starts.
pub(crate) fn stage(
    ring: &mut Ring,
    bgra: bool,
    scale: f64,
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
) -> Reader {
    let (width, height) = (texture.width(), texture.height());
    let padded_row = (width * 4).div_ceil(ROW_ALIGN) * ROW_ALIGN;
    let buffer = ring.take(device, u64::from(padded_row) * u64::from(height));
    encoder.copy_texture_to_buffer(
        wgpu::TexelCopyTextureInfo {
            texture,
            mip_level: 0,
            origin: wgpu::Origin3d::ZERO,
            aspect: wgpu::TextureAspect::All,
        },
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded_row),
                rows_per_image: Some(height),
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    let (mapped_tx, mapped) = bounded(1);
    encoder.map_buffer_on_submit(&buffer, wgpu::MapMode::Read, .., move |result| {
        let _ = mapped_tx.try_send(result);
    });
    let copy = GpuCopy {
        buffer,
        mapped,
        device: device.clone(),
        width,
        height,
        padded_row,
        bgra,
        scale,
        returned: ring.returned_tx.clone(),
    };
    Box::new(move |visit: &mut dyn FnMut(&FrameImage<'_>)| crate::readback::read(copy, visit))
}
