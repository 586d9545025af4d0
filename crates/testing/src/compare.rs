//! Screenshot comparison: two RGBA images, a per-pixel threshold and a budget of failed pixels.
//!
//! The measure is egui_kittest's, through the same crate (`dify`): each pixel pair that is not
//! byte-identical is converted to YIQ and their weighted squared distance is compared with
//! [`Tolerance::threshold`], passed to `dify::diff::get_results` unscaled, exactly as
//! egui_kittest passes `SnapshotOptions::threshold`, so a threshold means the same here as there
//! (0.6 by default, as there). Pixels that dify recognises as anti-aliasing do not count as
//! failed, as in egui_kittest. The images match when at most [`Tolerance::max_failed`] pixels
//! failed (egui_kittest's `failed_pixel_count_threshold`). Images of different sizes never match
//! and are not compared pixel by pixel.
//!
//! [`check_reference`] (or [`check_reference_with`], the update mode given) is the golden-file
//! check: it compares an image with a reference PNG and, like egui_kittest, writes
//! `<name>.new.png` and `<name>.diff.png` beside the reference when they differ, or (over)writes
//! the reference when `UPDATE_SNAPSHOTS` is set.
//!
//! PNGs of any colour type and bit depth are read (palette, grey, 16-bit and transparency are
//! expanded to 8-bit RGBA); PNGs are written as 8-bit RGBA.
//!
//! The comparison is in `compare/diff.rs`, the images and their PNGs in `compare/rgba.rs`, the
//! golden-file check in `compare/reference.rs`, the error in `compare/error.rs` and the images
//! the unit tests share in `compare/fixtures.rs`; this file only declares them and re-exports.

mod diff;
mod error;
mod reference;
mod rgba;

pub use diff::{Comparison, Tolerance, compare_files, compare_images};
pub use error::CompareError;
pub use reference::{
    UPDATE_SNAPSHOTS, check_reference, check_reference_with, reference_siblings, update_requested,
};
pub use rgba::Rgba;

#[cfg(test)]
mod fixtures;
