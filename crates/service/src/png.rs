//! Screenshots, service side: hands the capture job's reader a visitor (the reader, which the
//! render end built, is what waits for its pixels), then swizzles BGRA to RGBA, crops, encodes the
//! PNG and publishes it. Runs on the service thread only, so the render thread never touches
//! pixels.

use std::path::Path;
use std::time::Instant;

use super::overlay::Overlay;
use winit_automation_dropbox::publish;
use winit_automation_link::FrameImage;
use winit_automation_link::wiring::CaptureJob;
use winit_automation_protocol::{ErrorCode, Failure, Label, ScreenshotAnswer};

/// Reads the job's pixels, crops them, draws `marks` on them (`screenshot --refs`: refs and
/// logical boxes) and publishes the PNG; returns the answer.
pub(super) fn write_png(
    dir: &Path,
    job: CaptureJob,
    label: Label,
    marks: Option<&[(String, [f64; 4])]>,
) -> Result<ScreenshotAnswer, Failure> {
    let started = Instant::now();
    let crop = job.crop;
    let mut encoded: Option<Result<Encoded, Failure>> = None;
    (job.read)(&mut |frame: &FrameImage<'_>| {
        let marks = marks.map(|m| Overlay::new(m, frame.scale, frame.width));
        encoded = Some(encode_png(frame, crop, marks.as_ref()));
    })?;
    let encoded = encoded.unwrap_or_else(|| {
        Err(Failure::new(
            ErrorCode::AppError,
            "the screenshot was read back but never handed over",
            "please report it",
        ))
    })?;
    log::debug!(
        "winit-automation: {}: read back and encoded in {:?}",
        label.file_name(),
        started.elapsed()
    );
    publish_png(dir, job.frame, label, encoded)
}

/// Publishes an encoded frame as `screenshot-<label>.png`; returns the answer.
pub(super) fn publish_png(
    dir: &Path,
    frame: u64,
    label: Label,
    encoded: Encoded,
) -> Result<ScreenshotAnswer, Failure> {
    let Encoded {
        bytes,
        width: w,
        height: h,
        scale,
    } = encoded;
    let file = label.file_name();
    publish(dir, &file, &bytes).map_err(|e| {
        Failure::new(
            ErrorCode::AppError,
            format!("cannot write {file}: {e}"),
            "check the free space and permissions of the automation directory",
        )
    })?;
    Ok(ScreenshotAnswer {
        frame,
        file: label,
        size: Some((w, h)),
        scale: Some(scale),
        bytes: Some(bytes.len() as u64),
    })
}

/// A PNG file's bytes and what its answer states.
pub(super) struct Encoded {
    bytes: Vec<u8>,
    width: u32,
    height: u32,
    scale: f64,
}

/// Encodes the frame (cropped to `crop`, logical x, y, width, height) as PNG, row by row from
/// the mapped buffer.
pub(super) fn encode_png(
    frame: &FrameImage<'_>,
    crop: Option<[f64; 4]>,
    marks: Option<&Overlay>,
) -> Result<Encoded, Failure> {
    let (mut x, mut y, mut w, mut h) = (0, 0, frame.width, frame.height);
    if let Some([cx, cy, cw, ch]) = crop {
        // Logical to physical, rounded outwards, clamped to the frame.
        let k = frame.scale;
        let x0 = ((cx * k).floor().max(0.0) as u32).min(frame.width);
        let y0 = ((cy * k).floor().max(0.0) as u32).min(frame.height);
        let x1 = (((cx + cw) * k).ceil().max(0.0) as u32).min(frame.width);
        let y1 = (((cy + ch) * k).ceil().max(0.0) as u32).min(frame.height);
        if x1 <= x0 || y1 <= y0 {
            return Err(Failure::new(
                ErrorCode::Offscreen,
                "the node's bounds lie outside the captured frame",
                "take the whole window, or snapshot again: the node may have moved",
            ));
        }
        (x, y, w, h) = (x0, y0, x1 - x0, y1 - y0);
    }
    let mut bytes = Vec::new();
    let result = (|| {
        let mut encoder = png::Encoder::new(&mut bytes, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // sRGB bytes as the frame held them.
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        // Fast deflate with the Sub filter: UI content (flat colour runs) compresses to about 1% of
        // the raw size at 1920x1080 in a few milliseconds; adaptive filtering halves the file again
        // but costs twice the time.
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::Filter::Sub);
        let mut writer = encoder.write_header()?;
        let mut stream = writer.stream_writer()?;
        let mut row = Vec::with_capacity(w as usize * 4);
        for r in y..y + h {
            let start = r as usize * frame.stride + x as usize * 4;
            let src = &frame.bytes[start..start + w as usize * 4];
            if frame.bgra || marks.is_some() {
                row.clear();
                row.extend_from_slice(src);
                if frame.bgra {
                    for px in row.chunks_exact_mut(4) {
                        px.swap(0, 2);
                    }
                }
                if let Some(marks) = marks {
                    marks.paint_row(i64::from(r), i64::from(x), &mut row);
                }
                std::io::Write::write_all(&mut stream, &row)?;
            } else {
                std::io::Write::write_all(&mut stream, src)?;
            }
        }
        stream.finish()?;
        Ok::<(), png::EncodingError>(())
    })();
    result.map_err(|e| {
        Failure::new(
            ErrorCode::AppError,
            format!("cannot encode the screenshot: {e}"),
            "please report it",
        )
    })?;
    Ok(Encoded {
        bytes,
        width: w,
        height: h,
        scale: frame.scale,
    })
}
