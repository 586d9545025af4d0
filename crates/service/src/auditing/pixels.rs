//! An audit's pixels: each text's contrast measured in the captured frame (the audit crate's
//! `contrast`), and the frame kept, when the audit draws its findings, until every finding is
//! known.

use std::path::Path;

use super::Pending;
use crate::overlay::Overlay;
use crate::png;
use winit_automation_audit::{Picture, contrast, finding_boxes};
use winit_automation_link::FrameImage;
use winit_automation_link::wiring::CaptureJob;
use winit_automation_protocol::{ErrorCode, Failure, Finding, Label};

/// Reads the job's frame: measures each text of `pending` (its contrast findings and the texts
/// not measured go into it, with the frame and the count measured), and keeps the frame as a
/// picture when `keep`.
pub(super) fn measure(job: CaptureJob, pending: &mut Pending, keep: bool) -> Result<(), Failure> {
    let frame_no = job.frame;
    let mut read = false;
    (job.read)(&mut |frame: &FrameImage<'_>| {
        read = true;
        let measured = contrast(frame, &pending.audited.texts);
        pending.findings.extend(measured.findings);
        pending.unmeasured.extend(measured.unmeasured);
        pending.measured = Some((frame_no, measured.measured));
        if keep {
            pending.picture = Some(Picture::copy(frame));
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

/// Draws each finding's box, with its ref and criterion, on the picture and publishes it as
/// `screenshot-<label>.png`.
pub(super) fn publish_marked(
    dir: &Path,
    frame: u64,
    label: Label,
    picture: &Picture,
    findings: &[Finding],
) -> Result<(), Failure> {
    let image = picture.image();
    let marks = Overlay::new(&finding_boxes(findings), image.scale, image.width);
    let encoded = png::encode_png(&image, None, Some(&marks))?;
    png::publish_png(dir, frame, label, encoded).map(|_| ())
}
