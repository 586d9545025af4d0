//! Screenshots, render side: copies the frame's texture into a staging buffer inside the app's own
//! command encoder, which maps the buffer when it is submitted (`map_buffer_on_submit`, so the
//! order of the submit and the frame's end does not matter), and hands the rest to the service
//! thread, which waits for the GPU, reads the pixels and writes the PNG.
//!
//! The render thread only encodes a copy: no wait, no pixel copy, no encoding. Staging buffers come back from the service thread and are reused (a small ring).

use crossbeam_channel::{Receiver, Sender, bounded};

use crate::link::{CaptureTo, Frame, Reader};
use crate::protocol::{Command, ErrorCode, Failure};
use crate::readback::GpuCopy;

/// How many staging buffers are kept for reuse.
const RING: usize = 3;
/// wgpu's row alignment for texture-to-buffer copies.
const ROW_ALIGN: u32 = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;

/// A screenshot whose step was delivered this frame: it waits for the app's `capture` call.
pub(crate) struct Wanted {
    pub seq: u64,
    pub command: Command,
    pub window: u64,
    /// The window's scale factor in the frame that takes it (stamped when the frame is published
    /// or captures, [`Pictures::stamp`]): its frame's, wherever and whenever that is drawn.
    pub scale: f64,
    /// Where the pixels go: `screenshot-<label>.png`, or the trace.
    pub to: CaptureTo,
    pub crop: Option<[f64; 4]>,
}

impl Wanted {
    /// Answers the screenshot with `failure` instead of pixels; a trace's frame, which no
    /// command waits for, is dropped instead. Returns whether it answered.
    pub fn refuse(&self, replier: &crate::link::Replier, failure: Failure) -> bool {
        let answers = !self.to.is_trace();
        if answers {
            replier.send(self.seq, self.command.verb(), Err(failure));
        }
        answers
    }
}

/// What a frame's texture owes (its pictures, src/render/pictures.rs): the screenshots waiting
/// for it, and the copies encoded from it.
#[derive(Default)]
pub(crate) struct Pictures {
    wanted: Vec<Wanted>,
    staged: Vec<Staged>,
}

impl Pictures {
    /// A screenshot whose step was delivered, waiting for the frame's capture.
    pub fn want(&mut self, wanted: Wanted) {
        self.wanted.push(wanted);
    }

    /// The screenshots of `window`, taken out; `None` when none waits (nothing moves then).
    pub fn take(&mut self, window: u64) -> Option<Vec<Wanted>> {
        if !self.wants(window) {
            return None;
        }
        let (mine, rest) = std::mem::take(&mut self.wanted)
            .into_iter()
            .partition(|w| w.window == window);
        self.wanted = rest;
        Some(mine)
    }

    /// Screenshots still to capture, alone.
    pub fn of(wanted: Vec<Wanted>) -> Pictures {
        Pictures {
            wanted,
            staged: Vec::new(),
        }
    }

    /// Gives each screenshot waiting the scale factor `scale_of` its window has now: the frame's
    /// that takes them (one put back by an undrawn frame was delivered with an older one).
    pub fn stamp(&mut self, scale_of: impl Fn(u64) -> f64) {
        for w in &mut self.wanted {
            w.scale = scale_of(w.window);
        }
    }

    /// A copy encoded from the frame's texture.
    pub fn staged(&mut self, staged: Staged) {
        self.staged.push(staged);
    }

    /// Whether a screenshot of `window` waits.
    pub fn wants(&self, window: u64) -> bool {
        self.wanted.iter().any(|w| w.window == window)
    }

    /// Whether any screenshot waits.
    pub fn wants_any(&self) -> bool {
        !self.wanted.is_empty()
    }

    pub fn into_parts(self) -> (Vec<Wanted>, Vec<Staged>) {
        (self.wanted, self.staged)
    }

    /// Puts back what an earlier frame still owes, ahead of what came since.
    pub fn put_back(&mut self, earlier: Pictures) {
        let later = std::mem::replace(self, earlier);
        self.wanted.extend(later.wanted);
        self.staged.extend(later.staged);
    }

    pub fn is_empty(&self) -> bool {
        self.wanted.is_empty() && self.staged.is_empty()
    }
}

/// A frame published by [`crate::Frame::publish`], which holds it until the frame ends: its
/// number, whether all of it reached the service, whether its picture is drawn over, and its
/// pictures.
pub(crate) struct Published {
    pub number: u64,
    pub flushed: bool,
    pub superseded: bool,
    pub pictures: Pictures,
}

impl Published {
    /// As the feature-off build's `Published` answers it.
    pub fn number(&self) -> u64 {
        self.number
    }
}

/// A copy encoded this frame, to be mapped once the frame is submitted.
pub(crate) struct Staged {
    pub wanted: Wanted,
    buffer: wgpu::Buffer,
    /// The mapping's outcome, sent when the encoder's work is done after its submit.
    mapped: Receiver<Result<(), wgpu::BufferAsyncError>>,
    device: wgpu::Device,
    width: u32,
    height: u32,
    padded_row: u32,
    bgra: bool,
}

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

/// Encodes the copy of `texture` (checked by [`check`]) for one wanted screenshot.
pub(crate) fn stage(
    ring: &mut Ring,
    wanted: Wanted,
    bgra: bool,
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
) -> Staged {
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
    Staged {
        wanted,
        buffer,
        mapped,
        device: device.clone(),
        width,
        height,
        padded_row,
        bgra,
    }
}

impl Staged {
    /// The reader the service thread runs: it waits for the mapping the submit starts.
    pub fn into_reader(self, ring: &Ring) -> Reader {
        let copy = GpuCopy {
            buffer: self.buffer,
            mapped: self.mapped,
            device: self.device,
            width: self.width,
            height: self.height,
            padded_row: self.padded_row,
            bgra: self.bgra,
            scale: self.wanted.scale,
            returned: ring.returned_tx.clone(),
        };
        Box::new(move |visit: &mut dyn FnMut(&Frame<'_>)| crate::readback::read(copy, visit))
    }
}

/// Screenshots whose frame another reader takes back: the toolkit reads its frame itself (egui's
/// screenshot path, in eframe) and hands the pixels over later ([`crate::LaterCapture`]). Each one
/// is answered exactly once: from the pixels, or, dropped undelivered, with the reason.
pub(crate) struct Later {
    pub wanted: Vec<Wanted>,
    /// The frame the pixels come from: the one after the frame that took the screenshots (a
    /// toolkit's screenshot command takes effect when it paints next, as egui's does).
    pub frame: u64,
    pub scale: f64,
    pub captures: Sender<crate::link::CaptureJob>,
    pub replier: crate::link::Replier,
}

/// Pixels handed over by a toolkit, shared by the screenshots of one frame.
pub(crate) type Pixels = std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>;

impl Later {
    /// Hands each screenshot to the service thread with `pixels` (8-bit RGBA, rows `width * 4`
    /// bytes apart, as the frame held them). Never blocks.
    pub fn deliver(&mut self, width: u32, height: u32, pixels: Pixels) {
        let stride = width as usize * 4;
        let have = (*pixels).as_ref().len();
        let need = stride * height as usize;
        for w in std::mem::take(&mut self.wanted) {
            let verb = w.command.verb();
            if have < need || width == 0 || height == 0 {
                w.refuse(
                    &self.replier,
                    Failure::new(
                        ErrorCode::AppError,
                        format!("the toolkit handed {have} bytes for a {width}x{height} frame"),
                        "a bug in the toolkit's screenshot path; report it with the app's log",
                    ),
                );
                continue;
            }
            let (px, scale) = (std::sync::Arc::clone(&pixels), self.scale);
            let read: Reader = Box::new(move |visit: &mut dyn FnMut(&Frame<'_>)| {
                visit(&Frame {
                    width,
                    height,
                    scale,
                    stride,
                    bgra: false,
                    bytes: &(*px).as_ref()[..need],
                });
                Ok(())
            });
            let job = crate::link::CaptureJob {
                seq: w.seq,
                verb,
                frame: self.frame,
                to: w.to.clone(),
                crop: w.crop,
                read,
            };
            if self.captures.try_send(job).is_err() {
                w.refuse(
                    &self.replier,
                    Failure::new(
                        ErrorCode::AppError,
                        "the screenshot could not be handed to the service thread",
                        "the app is shutting down, or too many screenshots are waiting; try again",
                    ),
                );
            }
        }
    }
}

impl Later {
    /// The frame the answers will name.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// How many screenshots wait.
    pub fn len(&self) -> usize {
        self.wanted.len()
    }

    /// Answers each screenshot with `failure` instead of pixels.
    pub fn refuse(&mut self, failure: &Failure) {
        for w in std::mem::take(&mut self.wanted) {
            w.refuse(&self.replier, failure.clone());
        }
    }
}

impl Drop for Later {
    fn drop(&mut self) {
        for w in self.wanted.drain(..) {
            w.refuse(
                &self.replier,
                Failure::new(
                    ErrorCode::Unsupported,
                    format!("the toolkit never delivered window {}'s frame", w.window),
                    "the window may be hidden or minimized (egui paints no hidden viewport unless asked to); show it and try again",
                ),
            );
        }
    }
}
