#![doc = include_str!("../README.md")]

mod audited;
mod contrast;
mod keyboard;
mod pixels;
mod rules;

pub use audited::{Audited, Focused, Font, FontSource, Layer, Text, audited, focus_back, focused};
pub use contrast::{Measured, Unmeasured, measure};
pub use keyboard::Walk;
pub use pixels::{Contrast, Picture, contrast, finding_boxes};
pub use rules::{contrast_finding, tree_findings};
