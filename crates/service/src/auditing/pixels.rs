//! An audit's pixels: each text's contrast measured in the captured frame, and the frame kept,
//! when the audit draws its findings, until every finding is known.

use std::path::Path;

use super::Pending;
use crate::overlay::Overlay;
use crate::png;
use winit_automation_audit::contrast_finding;
use winit_automation_link::FrameImage;
use winit_automation_link::wiring::CaptureJob;
use winit_automation_protocol::{ErrorCode, Failure, Finding, Label};

/// A frame kept as RGBA rows.
pub(super) struct Picture {
    width: u32,
    height: u32,
    scale: f64,
    rgba: Vec<u8>,
}

/// Reads the job's frame: measures each text of `pending` (its contrast findings and the texts
/// not measured go into it, with the frame and the count measured), and keeps the frame as a
/// picture when `keep`.
pub(super) fn measure(job: CaptureJob, pending: &mut Pending, keep: bool) -> Result<(), Failure> {
    let frame_no = job.frame;
    let mut read = false;
    (job.read)(&mut |frame: &FrameImage<'_>| {
        read = true;
        let mut texts = 0;
        for text in &pending.audited.texts {
            let measured = text.node.bounds.map(|bounds| {
                winit_automation_audit::measure(frame, bounds, text.inset, &text.mask)
            });
            match measured {
                Some(Ok(m)) => {
                    texts += 1;
                    pending.findings.extend(contrast_finding(text, &m));
                }
                _ => pending.unmeasured.push(text.node.r#ref),
            }
        }
        pending.measured = Some((frame_no, texts));
        if keep {
            pending.picture = Some(copy(frame));
        }
    })?;
    if read {
        Ok(())
    } else {
        Err(Failure::new(
            ErrorCode::AppError,
            "the frame was read back but never handed over",
            "please report it",
        ))
    }
}

/// The frame as RGBA rows without padding.
fn copy(frame: &FrameImage<'_>) -> Picture {
    let row = frame.width as usize * 4;
    let mut rgba = Vec::with_capacity(row * frame.height as usize);
    for r in 0..frame.height as usize {
        let start = r * frame.stride;
        let src = &frame.bytes[start..start + row];
        if frame.bgra {
            rgba.extend(src.chunks_exact(4).flat_map(|p| [p[2], p[1], p[0], p[3]]));
        } else {
            rgba.extend_from_slice(src);
        }
    }
    Picture {
        width: frame.width,
        height: frame.height,
        scale: frame.scale,
        rgba,
    }
}

/// Draws each finding's box, with its ref and criterion, on the picture and publishes it as
/// `screenshot-<label>.png`.
pub(super) fn publish_marked(
    dir: &Path,
    frame: u64,
    label: Label,
    picture: &Picture,
    findings: &[Finding],
) -> Result<(), Failure> {
    let boxes: Vec<(String, [f64; 4])> = findings
        .iter()
        .filter_map(|f| {
            let text = format!("{} {}", f.node.r#ref, f.rule.criterion().0);
            Some((text, f.node.bounds?))
        })
        .collect();
    let image = FrameImage {
        width: picture.width,
        height: picture.height,
        scale: picture.scale,
        stride: picture.width as usize * 4,
        bgra: false,
        bytes: &picture.rgba,
    };
    let marks = Overlay::new(&boxes, image.scale, image.width);
    let encoded = png::encode_png(&image, None, Some(&marks))?;
    png::publish_png(dir, frame, label, encoded).map(|_| ())
}
