//! A frame's pictures, render side: the screenshots (and trace frames) waiting for the frame's
//! texture, and the copies made from it, each with the reader the service thread runs. The frame
//! loop's GPU code makes the copy (winit-automation's wgpu capture, or an engine's own); the
//! render thread only hands readers over: no wait, no pixel copy, no encoding.

use crossbeam_channel::Sender;

use crate::{CaptureTo, FrameImage, Reader};
use winit_automation_protocol::{Command, ErrorCode, Failure};

/// A screenshot whose step was delivered this frame: it waits for the app's `capture` call.
pub struct PendingCapture {
    /// The seq of the command whose capture step asked for it.
    pub seq: u64,
    /// That command (its verb goes with the answer).
    pub command: Command,
    /// The window whose frame it captures.
    pub window: u64,
    /// The window's scale factor in the frame that takes it (stamped when the frame is published
    /// or captures, `Pictures::stamp`): its frame's, wherever and whenever that is drawn.
    pub scale: f64,
    /// Where the pixels go: `screenshot-<label>.png`, or the trace.
    pub to: CaptureTo,
    /// x, y, width, height in logical pixels; `None` for the whole frame.
    pub crop: Option<[f64; 4]>,
}

impl PendingCapture {
    /// Answers the screenshot with `failure` instead of pixels; a trace's frame, which no
    /// command waits for, is dropped instead. Returns whether it answered.
    pub fn refuse(&self, replier: &crate::Replier, failure: Failure) -> bool {
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
pub struct Pictures {
    pending: Vec<PendingCapture>,
    copied: Vec<CopiedCapture>,
}

impl Pictures {
    /// A screenshot whose step was delivered, waiting for the frame's capture.
    pub fn add_pending(&mut self, pending: PendingCapture) {
        self.pending.push(pending);
    }

    /// The screenshots of `window`, taken out; `None` when none waits (nothing moves then).
    pub fn take(&mut self, window: u64) -> Option<Vec<PendingCapture>> {
        if !self.wants(window) {
            return None;
        }
        let (mine, rest) = std::mem::take(&mut self.pending)
            .into_iter()
            .partition(|w| w.window == window);
        self.pending = rest;
        Some(mine)
    }

    /// Screenshots still to capture, alone.
    pub fn of(pending: Vec<PendingCapture>) -> Pictures {
        Pictures {
            pending,
            copied: Vec::new(),
        }
    }

    /// Gives each screenshot waiting the scale factor `scale_of` its window has now: the frame's
    /// that takes them (one put back by an undrawn frame was delivered with an older one).
    pub fn stamp(&mut self, scale_of: impl Fn(u64) -> f64) {
        for w in &mut self.pending {
            w.scale = scale_of(w.window);
        }
    }

    /// A copy encoded from the frame's texture.
    pub fn add_copied(&mut self, copied: CopiedCapture) {
        self.copied.push(copied);
    }

    /// Whether a screenshot of `window` waits.
    pub fn wants(&self, window: u64) -> bool {
        self.pending.iter().any(|w| w.window == window)
    }

    /// Whether any screenshot waits.
    pub fn wants_any(&self) -> bool {
        !self.pending.is_empty()
    }

    pub fn into_parts(self) -> (Vec<PendingCapture>, Vec<CopiedCapture>) {
        (self.pending, self.copied)
    }

    /// Puts back what an earlier frame still owes, ahead of what came since.
    pub fn put_back(&mut self, earlier: Pictures) {
        let later = std::mem::replace(self, earlier);
        self.pending.extend(later.pending);
        self.copied.extend(later.copied);
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty() && self.copied.is_empty()
    }
}

/// A frame published before it is drawn ([`crate::RenderEnd::publish`]), which holds it until the frame ends: its
/// number, whether all of it reached the service, whether its picture is drawn over, and its
/// pictures.
pub struct PublishedFrame {
    /// The frame's number.
    pub number: u64,
    /// Whether all of its scene changes reached the service thread (only then was it published).
    pub flushed: bool,
    /// Whether its picture is drawn over by a later frame's and no screenshot waits for it.
    pub superseded: bool,
    /// The screenshots waiting for its texture and the copies encoded from it.
    pub pictures: Pictures,
}

impl PublishedFrame {
    /// As the feature-off build's `PublishedFrame` answers it.
    pub fn number(&self) -> u64 {
        self.number
    }
}

/// A copy made from the frame's texture (by the frame loop's GPU code), with the reader the
/// service thread runs once the frame is handed over: it waits for the copy and lends the pixels.
pub struct CopiedCapture {
    /// The screenshot the copy answers.
    pub pending: PendingCapture,
    /// Waits for the copy's pixels, on the service thread.
    pub read: Reader,
}

/// Screenshots whose frame another reader takes back: the toolkit reads its frame itself (egui's
/// screenshot path, in eframe) and hands the pixels over later (winit-automation's `ToolkitCapture`). Each one
/// is answered exactly once: from the pixels, or, dropped undelivered, with the reason.
pub struct ToolkitScreenshots {
    /// The window's number (as snapshots print it).
    pub window: u64,
    /// The screenshots waiting for the toolkit's pixels.
    pub pending: Vec<PendingCapture>,
    /// The frame the pixels come from: the one after the frame that took the screenshots (a
    /// toolkit's screenshot command takes effect when it paints next, as egui's does).
    pub frame: u64,
    /// The window's scale factor (physical pixels per logical pixel) in the frame that took them.
    pub scale: f64,
    /// The channel the screenshots go to the service thread on.
    pub captures: Sender<crate::CaptureJob>,
    /// Answers a screenshot that cannot be handed over (it wakes the app).
    pub replier: crate::Replier,
}

/// Pixels handed over by a toolkit, shared by the screenshots of one frame.
pub type Pixels = std::sync::Arc<dyn AsRef<[u8]> + Send + Sync>;

impl ToolkitScreenshots {
    /// Hands each screenshot to the service thread with `pixels` (8-bit RGBA, rows `width * 4`
    /// bytes apart, as the frame held them). Never blocks.
    pub fn deliver(&mut self, width: u32, height: u32, pixels: Pixels) {
        self.deliver_pixels(width, height, false, pixels);
    }

    /// [`ToolkitScreenshots::deliver`] for pixels in either byte order: 8-bit BGRA when `bgra` (a
    /// toolkit that reads its surface back as it is, Bevy's, hands it over unswizzled; the
    /// service thread swaps the bytes as it encodes). Never blocks.
    pub fn deliver_pixels(&mut self, width: u32, height: u32, bgra: bool, pixels: Pixels) {
        let stride = width as usize * 4;
        let have = (*pixels).as_ref().len();
        let need = stride * height as usize;
        for w in std::mem::take(&mut self.pending) {
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
            let read: Reader = Box::new(move |visit: &mut dyn FnMut(&FrameImage<'_>)| {
                visit(&FrameImage {
                    width,
                    height,
                    scale,
                    stride,
                    bgra,
                    bytes: &(*px).as_ref()[..need],
                });
                Ok(())
            });
            let job = crate::CaptureJob {
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

impl ToolkitScreenshots {
    /// The frame the answers will name.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The window's number, as snapshots print it (the app's id for it is the one it passed).
    pub fn window(&self) -> u64 {
        self.window
    }

    /// How many screenshots wait.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    /// Whether no screenshot waits.
    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Answers each screenshot with `failure` instead of pixels.
    pub fn refuse(&mut self, failure: &Failure) {
        for w in std::mem::take(&mut self.pending) {
            w.refuse(&self.replier, failure.clone());
        }
    }
}

impl Drop for ToolkitScreenshots {
    fn drop(&mut self) {
        for w in self.pending.drain(..) {
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
