//! The comparison itself: a [`Tolerance`], [`compare_images`] (dify's measure, as egui_kittest
//! uses it) and its result, a [`Comparison`].

use std::fmt;
use std::path::Path;

use super::{CompareError, Rgba};

/// How different two images may be and still match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// The largest per-pixel difference that does not count: dify's weighted squared YIQ distance
    /// (0 for equal colours, about 35215 between black and white), passed unscaled as egui_kittest
    /// passes `SnapshotOptions::threshold`. 0.6 by default, as there; 0.0 lets no difference pass.
    pub threshold: f32,
    /// How many pixels may differ by more than the threshold while the images still match
    /// (egui_kittest's `failed_pixel_count_threshold`). 0 by default.
    pub max_failed: u64,
}

impl Default for Tolerance {
    /// egui_kittest's defaults: threshold 0.6, no failed pixel allowed.
    fn default() -> Self {
        Self {
            threshold: 0.6,
            max_failed: 0,
        }
    }
}

impl Tolerance {
    /// No tolerance at all: every pixel must be equal (threshold 0.0, budget 0).
    #[must_use]
    pub const fn exact() -> Self {
        Self {
            threshold: 0.0,
            max_failed: 0,
        }
    }

    /// The same tolerance with another per-pixel threshold.
    #[must_use]
    pub const fn with_threshold(self, threshold: f32) -> Self {
        Self { threshold, ..self }
    }

    /// The same tolerance with another budget of failed pixels.
    #[must_use]
    pub const fn with_max_failed(self, max_failed: u64) -> Self {
        Self { max_failed, ..self }
    }
}

/// The result of [`compare_images`]: whether the images matched, how many pixels failed and the
/// diff image. Its [`Display`](fmt::Display) is a one-line summary.
#[derive(Clone, Debug)]
pub struct Comparison {
    expected_size: (u32, u32),
    actual_size: (u32, u32),
    identical: bool,
    failed: u64,
    total: u64,
    tolerance: Tolerance,
    diff: Option<Rgba>,
}

impl Comparison {
    /// Whether the images match: the same size and at most [`Tolerance::max_failed`] failed
    /// pixels.
    #[must_use]
    pub fn matched(&self) -> bool {
        !self.size_mismatch() && self.failed <= self.tolerance.max_failed
    }

    /// Whether the images have different sizes (then no pixel was compared).
    #[must_use]
    pub fn size_mismatch(&self) -> bool {
        self.expected_size != self.actual_size
    }

    /// Whether every byte of the two images is equal.
    #[must_use]
    pub fn identical(&self) -> bool {
        self.identical
    }

    /// How many pixels differ by more than the threshold (anti-aliased pixels excluded); 0 on a
    /// size mismatch.
    #[must_use]
    pub fn failed(&self) -> u64 {
        self.failed
    }

    /// How many pixels were compared: width times height; 0 on a size mismatch.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.total
    }

    /// The expected image's width and height.
    #[must_use]
    pub fn expected_size(&self) -> (u32, u32) {
        self.expected_size
    }

    /// The actual image's width and height.
    #[must_use]
    pub fn actual_size(&self) -> (u32, u32) {
        self.actual_size
    }

    /// The tolerance the images were compared with.
    #[must_use]
    pub fn tolerance(&self) -> Tolerance {
        self.tolerance
    }

    /// dify's diff image, present when at least one pixel failed (even within the budget): failed
    /// pixels red (255, 0, 0, 255), anti-aliased ones yellow (255, 255, 0, 255), all others
    /// transparent. The expected image's size.
    #[must_use]
    pub fn diff(&self) -> Option<&Rgba> {
        self.diff.as_ref()
    }

    /// Writes the diff image (see [`Comparison::diff`]) to `path` as a PNG. Returns `false`, and
    /// writes nothing, when there is none.
    pub fn write_diff(&self, path: impl AsRef<Path>) -> Result<bool, CompareError> {
        match &self.diff {
            Some(diff) => diff.write(path).map(|()| true),
            None => Ok(false),
        }
    }
}

impl fmt::Display for Comparison {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Tolerance {
            threshold,
            max_failed,
        } = self.tolerance;
        let ((ew, eh), (aw, ah)) = (self.expected_size, self.actual_size);
        if self.size_mismatch() {
            write!(f, "size mismatch: expected {ew}x{eh}, got {aw}x{ah}")
        } else if self.identical {
            write!(f, "match: the images are identical ({} pixels)", self.total)
        } else {
            write!(
                f,
                "{}: {} of {} pixels differ by more than threshold {threshold} (budget {max_failed})",
                if self.matched() { "match" } else { "mismatch" },
                self.failed,
                self.total
            )
        }
    }
}

/// Compares two images with egui_kittest's measure (see the [module](super) documentation).
/// `expected` is dify's left image: the diff image has its size.
#[must_use]
pub fn compare_images(expected: &Rgba, actual: &Rgba, tol: Tolerance) -> Comparison {
    let mut comparison = Comparison {
        expected_size: expected.size(),
        actual_size: actual.size(),
        identical: expected == actual,
        failed: 0,
        total: 0,
        tolerance: tol,
        diff: None,
    };
    if comparison.size_mismatch() {
        return comparison;
    }
    comparison.total = u64::from(expected.width) * u64::from(expected.height);
    if comparison.identical {
        return comparison;
    }
    let (Some(left), Some(right)) = (expected.to_image(), actual.to_image()) else {
        // A malformed `Rgba` (its fields are public): count every pixel as failed.
        comparison.failed = comparison.total;
        return comparison;
    };
    // As egui_kittest calls it: the raw threshold, anti-aliasing detection on, no blending of
    // unchanged pixels, the default output base, no blocked-out areas.
    if let Some((failed, image)) =
        dify::diff::get_results(left, right, tol.threshold, true, None, &None, &None)
    {
        comparison.failed = u64::try_from(failed).unwrap_or(0);
        let (width, height) = image.dimensions();
        comparison.diff = Rgba::new(width, height, image.into_raw());
    }
    comparison
}

/// Reads two PNG files and compares them (see [`compare_images`]).
pub fn compare_files(
    expected: &Path,
    actual: &Path,
    tol: Tolerance,
) -> Result<Comparison, CompareError> {
    let expected = Rgba::read(expected)?;
    let actual = Rgba::read(actual)?;
    Ok(compare_images(&expected, &actual, tol))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::fixtures::{RED, WHITE, one_black, white};

    #[test]
    fn identical_images_match() {
        let c = compare_images(&white(), &white(), Tolerance::exact());
        assert!(c.matched() && c.identical() && !c.size_mismatch());
        assert_eq!((c.failed(), c.total()), (0, 48));
        assert!(c.diff().is_none());
        assert_eq!(c.to_string(), "match: the images are identical (48 pixels)");
    }

    #[test]
    fn one_changed_pixel_fails_without_budget_and_passes_with_one() {
        let c = compare_images(&white(), &one_black(), Tolerance::default());
        assert!(!c.matched());
        assert_eq!(c.failed(), 1);
        assert_eq!(
            c.to_string(),
            "mismatch: 1 of 48 pixels differ by more than threshold 0.6 (budget 0)"
        );
        let diff = c.diff().expect("a diff image");
        assert_eq!((diff.width, diff.height), (8, 6));
        assert_eq!(diff.pixel(3, 2), Some(RED));
        assert_eq!(
            diff.pixel(0, 0).map(|p| p[3]),
            Some(0),
            "unchanged: transparent"
        );

        let c = compare_images(
            &white(),
            &one_black(),
            Tolerance::default().with_max_failed(1),
        );
        assert!(c.matched());
        assert_eq!(
            c.to_string(),
            "match: 1 of 48 pixels differ by more than threshold 0.6 (budget 1)"
        );
        assert!(c.diff().is_some(), "the diff exists within the budget too");
    }

    #[test]
    fn a_tiny_change_is_below_the_default_threshold_and_above_zero() {
        let mut tiny = white();
        tiny.set_pixel(3, 2, [254, 255, 255, 255]);
        let c = compare_images(&white(), &tiny, Tolerance::default());
        assert!(c.matched() && !c.identical());
        assert_eq!(c.failed(), 0);
        assert!(c.diff().is_none());
        let c = compare_images(&white(), &tiny, Tolerance::exact());
        assert!(!c.matched());
        assert_eq!(c.failed(), 1);
    }

    #[test]
    fn different_sizes_mismatch_without_comparing_pixels() {
        let c = compare_images(&white(), &Rgba::filled(6, 8, WHITE), Tolerance::default());
        assert!(c.size_mismatch() && !c.matched());
        assert_eq!((c.failed(), c.total()), (0, 0));
        assert!(c.diff().is_none());
        assert_eq!(c.to_string(), "size mismatch: expected 8x6, got 6x8");
    }

    #[test]
    fn errors_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("missing.png");
        let e = Rgba::read(&missing).unwrap_err();
        assert!(matches!(e, CompareError::Read { .. }));
        assert!(e.to_string().contains("missing.png"), "{e}");
        let junk = dir.path().join("junk.png");
        std::fs::write(&junk, b"not a png").unwrap();
        let e = compare_files(&junk, &junk, Tolerance::default()).unwrap_err();
        assert!(matches!(e, CompareError::Decode { .. }));
        assert_eq!(e.path(), junk);
        assert!(e.to_string().starts_with("cannot decode "), "{e}");
    }
}
