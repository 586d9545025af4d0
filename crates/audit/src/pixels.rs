//! What an audit reads from a captured frame: each text's contrast, and the frame kept as a
//! [`Picture`] to draw the findings on.

use winit_automation_link::FrameImage;
use winit_automation_protocol::{Finding, NodeRef};

use crate::audited::Text;
use crate::contrast::measure;
use crate::rules::contrast_finding;

/// What measuring the texts of one frame found.
#[derive(Debug, Default)]
pub struct Contrast {
    /// The findings of the texts whose contrast is too low.
    pub findings: Vec<Finding>,
    /// The texts that could not be measured (no bounds, too few pixels).
    pub unmeasured: Vec<NodeRef>,
    /// How many texts were measured.
    pub measured: usize,
}

/// Measures the contrast of each of `texts` in `frame`.
pub fn contrast(frame: &FrameImage<'_>, texts: &[Text]) -> Contrast {
    let mut out = Contrast::default();
    for text in texts {
        let measured = text
            .node
            .bounds
            .map(|bounds| measure(frame, bounds, text.inset, &text.mask));
        match measured {
            Some(Ok(m)) => {
                out.measured += 1;
                out.findings.extend(contrast_finding(text, &m));
            }
            _ => out.unmeasured.push(text.node.r#ref),
        }
    }
    out
}

/// A frame kept as RGBA rows without padding, until every finding is known.
pub struct Picture {
    width: u32,
    height: u32,
    scale: f64,
    rgba: Vec<u8>,
}

impl Picture {
    /// A copy of `frame`.
    pub fn copy(frame: &FrameImage<'_>) -> Picture {
        Picture {
            width: frame.width,
            height: frame.height,
            scale: frame.scale,
            rgba: frame.to_rgba(),
        }
    }

    /// The picture as a frame image, to encode.
    pub fn image(&self) -> FrameImage<'_> {
        FrameImage {
            width: self.width,
            height: self.height,
            scale: self.scale,
            stride: self.width as usize * 4,
            bgra: false,
            bytes: &self.rgba,
        }
    }
}

/// The box of each finding that has bounds, labelled with its ref and criterion
/// (`@e5 2.5.8`): what the audit's screenshot draws.
pub fn finding_boxes(findings: &[Finding]) -> Vec<(String, [f64; 4])> {
    findings
        .iter()
        .filter_map(|f| {
            let text = format!("{} {}", f.node.r#ref, f.rule.criterion().0);
            Some((text, f.node.bounds?))
        })
        .collect()
}
