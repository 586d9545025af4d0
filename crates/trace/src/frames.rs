//! A trace's frames: read back on the service thread, downscaled to [`MAX_WIDTH`] pixels wide at
//! most, kept once when several steps show the same picture, and PNG-encoded as they come, so
//! the trace holds encoded bytes only, at most [`MAX_BYTES`] of them.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use image::{RgbaImage, imageops};

use winit_automation_link::FrameImage;
use winit_automation_link::wiring::CaptureJob;
use winit_automation_protocol::{ErrorCode, Failure};

/// The widest a kept frame is, in pixels.
pub const MAX_WIDTH: u32 = 800;
/// How many bytes of encoded frames a trace keeps.
pub const MAX_BYTES: usize = 64 << 20;

/// One kept frame.
pub struct Image {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// Image pixels per logical pixel.
    pub scale: f64,
}

#[derive(Default)]
pub struct Frames {
    pub kept: Vec<Image>,
    /// The index of each kept picture, by the hash of its downscaled pixels.
    by_pixels: HashMap<u64, usize>,
    bytes: usize,
    /// Frames not kept for want of room.
    pub dropped: u64,
}

impl Frames {
    /// How many frames are kept.
    pub fn len(&self) -> usize {
        self.kept.len()
    }

    /// Reads the job's pixels and keeps them; returns the index of the kept frame that shows
    /// them, `None` when there is no room left.
    pub fn add(&mut self, job: CaptureJob) -> Result<Option<usize>, Failure> {
        let mut read = None;
        (job.read)(&mut |frame: &FrameImage<'_>| read = Some(downscaled(frame)))?;
        let (pixels, scale) = read.ok_or_else(|| {
            Failure::new(
                ErrorCode::AppError,
                "the frame was read back but never handed over",
                "please report it",
            )
        })?;
        let mut hasher = DefaultHasher::new();
        pixels.dimensions().hash(&mut hasher);
        pixels.as_raw().hash(&mut hasher);
        let key = hasher.finish();
        if let Some(&i) = self.by_pixels.get(&key) {
            return Ok(Some(i));
        }
        let png = encode(&pixels)?;
        if self.bytes + png.len() > MAX_BYTES {
            self.dropped += 1;
            return Ok(None);
        }
        self.bytes += png.len();
        self.kept.push(Image {
            png,
            width: pixels.width(),
            height: pixels.height(),
            scale,
        });
        self.by_pixels.insert(key, self.kept.len() - 1);
        Ok(Some(self.kept.len() - 1))
    }
}

/// The frame as RGBA, at most [`MAX_WIDTH`] wide, and its scale (image pixels per logical
/// pixel).
fn downscaled(frame: &FrameImage<'_>) -> (RgbaImage, f64) {
    let (w, h) = (frame.width, frame.height);
    let full = RgbaImage::from_raw(w, h, frame.to_rgba()).expect("w * h * 4 bytes");
    if w <= MAX_WIDTH {
        return (full, frame.scale);
    }
    let k = f64::from(MAX_WIDTH) / f64::from(w);
    let height = ((f64::from(h) * k).round() as u32).max(1);
    // An area average: each kept pixel is the mean of the ones it stands for.
    let small = imageops::thumbnail(&full, MAX_WIDTH, height);
    (small, frame.scale * k)
}

fn encode(image: &RgbaImage) -> Result<Vec<u8>, Failure> {
    let mut bytes = Vec::new();
    (|| {
        let mut encoder = png::Encoder::new(&mut bytes, image.width(), image.height());
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        // Smaller files than the screenshots' fast setting: a trace is written once and read
        // over and over, and these frames are small.
        encoder.set_compression(png::Compression::Balanced);
        let mut writer = encoder.write_header()?;
        writer.write_image_data(image.as_raw())?;
        writer.finish()
    })()
    .map_err(|e| {
        Failure::new(
            ErrorCode::AppError,
            format!("cannot encode a trace frame: {e}"),
            "please report it",
        )
    })?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(width: u32, height: u32, colour: [u8; 4]) -> CaptureJob {
        CaptureJob {
            seq: 1,
            verb: winit_automation_protocol::Verb::Click,
            frame: 1,
            to: winit_automation_link::CaptureTo::Trace { trace: 1, step: 0 },
            crop: None,
            read: Box::new(move |visit| {
                let bytes: Vec<u8> = colour
                    .iter()
                    .copied()
                    .cycle()
                    .take(width as usize * height as usize * 4)
                    .collect();
                visit(&FrameImage {
                    width,
                    height,
                    scale: 2.0,
                    stride: width as usize * 4,
                    bgra: false,
                    bytes: &bytes,
                });
                Ok(())
            }),
        }
    }

    #[test]
    fn wide_frames_are_downscaled_and_the_same_picture_is_kept_once() {
        let mut frames = Frames::default();
        assert_eq!(frames.add(job(1600, 1000, [10, 20, 30, 255])), Ok(Some(0)));
        let kept = &frames.kept[0];
        assert_eq!((kept.width, kept.height), (800, 500));
        // 2 physical pixels per logical one, halved.
        assert_eq!(kept.scale, 1.0);
        assert_eq!(frames.add(job(1600, 1000, [10, 20, 30, 255])), Ok(Some(0)));
        assert_eq!(frames.add(job(1600, 1000, [99, 20, 30, 255])), Ok(Some(1)));
        assert_eq!(frames.add(job(400, 300, [99, 20, 30, 255])), Ok(Some(2)));
        assert_eq!(frames.kept[2].width, 400, "a narrow frame keeps its size");
        assert_eq!(frames.len(), 3);
        let decoded = png::Decoder::new(std::io::Cursor::new(&frames.kept[1].png))
            .read_info()
            .expect("a PNG")
            .info()
            .width;
        assert_eq!(decoded, 800);
    }
}
