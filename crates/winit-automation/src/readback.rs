//! Where the service thread waits for the GPU: a screenshot's staging buffer, copied into by the
//! app's encoder and mapped when it is submitted, is read here once the mapping is done. The
//! render side only encodes the copy (`capture`); this module's code runs on the service thread,
//! inside the reader `capture::stage` returns, so waiting is fine here and nowhere on the render side.

use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::protocol::{ErrorCode, Failure};
use winit_automation_link::FrameImage;

/// The longest the service thread waits for the GPU to finish a frame's copy.
const GPU_WAIT: Duration = Duration::from_secs(10);

/// How long one wait for the mapping lasts between two polls of the device.
const POLL_EVERY: Duration = Duration::from_micros(250);

/// A frame's copy in a staging buffer.
pub(crate) struct GpuCopy {
    pub buffer: wgpu::Buffer,
    /// The mapping's outcome, sent once the encoder's work is done after its submit.
    pub mapped: Receiver<Result<(), wgpu::BufferAsyncError>>,
    /// Polled while waiting, so the mapping's callback runs.
    pub device: wgpu::Device,
    pub width: u32,
    pub height: u32,
    /// Bytes between rows (padded to wgpu's copy alignment).
    pub padded_row: u32,
    pub bgra: bool,
    /// Physical pixels per logical pixel.
    pub scale: f64,
    /// Where the buffer goes back for reuse once read.
    pub returned: Sender<wgpu::Buffer>,
}

fn gpu_failed(why: String) -> Failure {
    Failure::new(
        ErrorCode::AppError,
        format!("the screenshot could not be read back: {why}"),
        "the GPU may have been lost; check the app's log",
    )
}

/// Waits for the copy's mapping, polling the device (rather than waiting for it to go idle, so
/// the wait ends as soon as this frame's copy is done while the app keeps submitting), lends the
/// mapped rows, unmaps and gives the buffer back for reuse.
#[allow(
    clippy::disallowed_methods,
    reason = "runs on the service thread, inside the reader: the one place that waits for the GPU"
)]
pub(crate) fn read(copy: GpuCopy, visit: &mut dyn FnMut(&FrameImage<'_>)) -> Result<(), Failure> {
    let started = Instant::now();
    let result = loop {
        let _ = copy.device.poll(wgpu::PollType::Poll);
        match copy.mapped.recv_timeout(POLL_EVERY) {
            Ok(result) => break result,
            // The mapping's callback went without running: the encoder that was to map the
            // buffer was dropped unsubmitted (or the device is gone). Nothing will come.
            Err(RecvTimeoutError::Disconnected) => {
                return Err(Failure::new(
                    ErrorCode::AppError,
                    "the screenshot could not be read back: the encoder handed to Frame::capture was dropped without being submitted",
                    "submit the encoder the frame was captured into (Frame::submit does)",
                ));
            }
            Err(RecvTimeoutError::Timeout) if started.elapsed() < GPU_WAIT => {}
            Err(RecvTimeoutError::Timeout) => {
                return Err(gpu_failed(format!(
                    "the GPU did not finish the frame within {} s (was the encoder handed to Frame::capture submitted?)",
                    GPU_WAIT.as_secs()
                )));
            }
        }
    };
    result.map_err(|e| gpu_failed(e.to_string()))?;
    log::debug!(
        "winit-automation: the GPU finished the screenshot copy {:?} after the frame ended",
        started.elapsed()
    );
    {
        let view = copy
            .buffer
            .slice(..)
            .get_mapped_range()
            .map_err(|e| gpu_failed(e.to_string()))?;
        visit(&FrameImage {
            width: copy.width,
            height: copy.height,
            scale: copy.scale,
            stride: copy.padded_row as usize,
            bgra: copy.bgra,
            bytes: &view,
        });
    }
    copy.buffer.unmap();
    let _ = copy.returned.try_send(copy.buffer);
    Ok(())
}
