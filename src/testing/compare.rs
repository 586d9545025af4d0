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

use crate::protocol::{ClientCode, Code, Coded};
use std::fmt;
use std::io::{self, Cursor};
use std::path::{Path, PathBuf};

/// The environment variable that makes [`check_reference`] accept the actual image as the new
/// reference (egui_kittest's): set to anything but `0`, `false` or nothing.
pub const UPDATE_SNAPSHOTS: &str = "UPDATE_SNAPSHOTS";

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

/// An 8-bit RGBA image: `pixels` holds `width * height` pixels, row by row, 4 bytes each
/// (non-premultiplied, as in a PNG).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgba {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// `width * height * 4` bytes, row by row.
    pub pixels: Vec<u8>,
}

impl Rgba {
    /// An image from its pixels; `None` when `pixels` does not hold exactly `width * height * 4`
    /// bytes.
    #[must_use]
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Option<Self> {
        let len = (width as usize)
            .checked_mul(height as usize)?
            .checked_mul(4)?;
        (pixels.len() == len).then_some(Self {
            width,
            height,
            pixels,
        })
    }

    /// An image of one colour.
    ///
    /// # Panics
    ///
    /// When `width * height * 4` does not fit in memory.
    #[must_use]
    pub fn filled(width: u32, height: u32, colour: [u8; 4]) -> Self {
        let count = (width as usize)
            .checked_mul(height as usize)
            .expect("image size overflows usize");
        Self {
            width,
            height,
            pixels: colour.repeat(count),
        }
    }

    /// The pixel at `(x, y)`, `[r, g, b, a]`; `None` outside the image.
    #[must_use]
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        let i = self.index(x, y)?;
        self.pixels.get(i..i + 4)?.try_into().ok()
    }

    /// Sets the pixel at `(x, y)`; does nothing outside the image.
    pub fn set_pixel(&mut self, x: u32, y: u32, colour: [u8; 4]) {
        if let Some(i) = self.index(x, y)
            && let Some(px) = self.pixels.get_mut(i..i + 4)
        {
            px.copy_from_slice(&colour);
        }
    }

    fn index(&self, x: u32, y: u32) -> Option<usize> {
        (x < self.width && y < self.height)
            .then(|| (y as usize * self.width as usize + x as usize) * 4)
    }

    /// Decodes a PNG of any colour type and bit depth into 8-bit RGBA (palette and transparency
    /// chunks expanded, 16-bit samples stripped to 8, grey copied into R, G and B). An animated
    /// PNG gives its default image. The error is the reason, for a message.
    pub fn decode_png(bytes: &[u8]) -> Result<Self, String> {
        let mut decoder = png::Decoder::new(Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::normalize_to_color8());
        let mut reader = decoder.read_info().map_err(|e| e.to_string())?;
        let size = reader
            .output_buffer_size()
            .ok_or("the image is too large to decode")?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(|e| e.to_string())?;
        if info.bit_depth != png::BitDepth::Eight {
            return Err(format!(
                "unsupported bit depth {:?} after expansion",
                info.bit_depth
            ));
        }
        // 8-bit samples rows are packed: the image crate converts any channel layout to RGBA.
        buf.truncate(info.buffer_size());
        let (w, h) = (info.width, info.height);
        let image = match info.color_type {
            png::ColorType::Grayscale => {
                image::GrayImage::from_raw(w, h, buf).map(image::DynamicImage::ImageLuma8)
            }
            png::ColorType::GrayscaleAlpha => {
                image::GrayAlphaImage::from_raw(w, h, buf).map(image::DynamicImage::ImageLumaA8)
            }
            png::ColorType::Rgb => {
                image::RgbImage::from_raw(w, h, buf).map(image::DynamicImage::ImageRgb8)
            }
            png::ColorType::Rgba => {
                image::RgbaImage::from_raw(w, h, buf).map(image::DynamicImage::ImageRgba8)
            }
            png::ColorType::Indexed => {
                return Err("a palette image was not expanded".to_owned());
            }
        }
        .ok_or("the decoder returned a short frame")?;
        Self::new(w, h, image.to_rgba8().into_raw())
            .ok_or_else(|| "the decoder returned a frame of the wrong size".to_owned())
    }

    /// Encodes the image as an 8-bit RGBA PNG.
    pub fn encode_png(&self) -> Result<Vec<u8>, String> {
        let len = (self.width as usize)
            .checked_mul(self.height as usize)
            .and_then(|n| n.checked_mul(4));
        if len != Some(self.pixels.len()) {
            return Err(format!(
                "{} bytes do not make a {}x{} RGBA image",
                self.pixels.len(),
                self.width,
                self.height
            ));
        }
        let mut bytes = Vec::new();
        let mut encoder = png::Encoder::new(&mut bytes, self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        let result = (|| {
            let mut writer = encoder.write_header()?;
            writer.write_image_data(&self.pixels)?;
            writer.finish()
        })();
        result.map_err(|e| e.to_string())?;
        Ok(bytes)
    }

    /// Reads and decodes a PNG file (see [`Rgba::decode_png`]).
    pub fn read(path: impl AsRef<Path>) -> Result<Self, CompareError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|source| CompareError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Self::decode_png(&bytes).map_err(|reason| CompareError::Decode {
            path: path.to_path_buf(),
            reason,
        })
    }

    /// Encodes the image as an 8-bit RGBA PNG and writes it to `path` (replacing a file there).
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), CompareError> {
        let path = path.as_ref();
        let write_error = |source| CompareError::Write {
            path: path.to_path_buf(),
            source,
        };
        let bytes = self
            .encode_png()
            .map_err(|e| write_error(io::Error::other(e)))?;
        std::fs::write(path, bytes).map_err(write_error)
    }

    fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn to_image(&self) -> Option<image::RgbaImage> {
        image::RgbaImage::from_raw(self.width, self.height, self.pixels.clone())
    }
}

/// Why a comparison could not be made or its result not saved.
#[derive(Debug)]
#[non_exhaustive]
pub enum CompareError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The file is not a PNG, or not one that can be decoded.
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's reason.
        reason: String,
    },
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O (or encoding) error.
        source: io::Error,
    },
}

impl CompareError {
    /// The file the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::Read { path, .. } | Self::Decode { path, .. } | Self::Write { path, .. } => path,
        }
    }
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            Self::Decode { path, reason } => {
                write!(f, "cannot decode {} as a PNG: {reason}", path.display())
            }
            Self::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for CompareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } | Self::Write { source, .. } => Some(source),
            Self::Decode { .. } => None,
        }
    }
}

impl Coded for CompareError {
    fn code(&self) -> Code {
        Code::Client(match self {
            Self::Read { .. } => ClientCode::ReadFailed,
            Self::Decode { .. } => ClientCode::NotPng,
            Self::Write { .. } => ClientCode::WriteFailed,
        })
    }
    fn hint(&self) -> Option<String> {
        Some(
            match self {
                Self::Read { .. } => "check the path",
                Self::Decode { .. } => "both files must be PNG images",
                Self::Write { .. } => "check the path and its folder",
            }
            .to_owned(),
        )
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

/// Compares two images with egui_kittest's measure (see the [module](self) documentation).
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

/// Whether the environment asks for references to be updated: [`UPDATE_SNAPSHOTS`] is set to
/// anything but `0`, `false` or nothing.
#[must_use]
pub fn update_requested() -> bool {
    std::env::var_os(UPDATE_SNAPSHOTS).is_some_and(|v| {
        let v = v.to_string_lossy();
        let v = v.trim();
        !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
    })
}

/// The files [`check_reference`] writes beside a reference: `<name>.new.png` (the actual image)
/// and `<name>.diff.png` (the diff image), where `<name>` is the reference path without its
/// `.png` extension (`tests/snapshots/form.png` gives `tests/snapshots/form.new.png` and
/// `tests/snapshots/form.diff.png`).
#[must_use]
pub fn reference_siblings(reference: &Path) -> (PathBuf, PathBuf) {
    let base = if reference
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        reference.with_extension("")
    } else {
        reference.to_path_buf()
    };
    let with = |suffix: &str| {
        let mut name = base.clone().into_os_string();
        name.push(suffix);
        PathBuf::from(name)
    };
    (with(".new.png"), with(".diff.png"))
}

/// The golden-file check a test calls: [`check_reference_with`], the update mode read from the
/// environment (`UPDATE_SNAPSHOTS` set to anything but `0`, `false` or nothing; see
/// [`update_requested`]). The error is a ready-to-print message, for `panic!("{message}")`.
pub fn check_reference(actual: &Rgba, reference: &Path, tol: Tolerance) -> Result<(), String> {
    check_reference_with(actual, reference, tol, update_requested())
}

/// The golden-file check, egui_kittest's flow, with the update mode given (a test passes
/// [`update_requested`], or calls [`check_reference`]). The error is a ready-to-print message.
///
/// - The reference matches `actual`: passes, and removes the `.new.png` and `.diff.png` an
///   earlier failure left (see [`reference_siblings`]).
/// - `update` is true and the reference is missing, unreadable or does not match: (over)writes
///   the reference with `actual` (creating its folder), removes those leftovers, and passes.
/// - The reference is missing: writes `actual` to `<name>.new.png` and fails, saying how to accept
///   it.
/// - The reference does not match (or cannot be decoded): writes `actual` to `<name>.new.png` and
///   dify's diff to `<name>.diff.png` (when there is one: not on a size mismatch) and fails with
///   the summary and both paths.
pub fn check_reference_with(
    actual: &Rgba,
    reference: &Path,
    tol: Tolerance,
    update: bool,
) -> Result<(), String> {
    let (new_path, diff_path) = reference_siblings(reference);
    let remove_leftovers = || {
        // Best effort: a leftover that cannot be removed does not fail the check.
        let _ = std::fs::remove_file(&new_path);
        let _ = std::fs::remove_file(&diff_path);
    };
    let accept = || -> Result<(), String> {
        create_parent(reference)?;
        actual.write(reference).map_err(|e| e.to_string())?;
        remove_leftovers();
        Ok(())
    };
    let save_new = || -> Result<(), String> {
        create_parent(&new_path)?;
        actual.write(&new_path).map_err(|e| e.to_string())
    };
    let how_to_accept = format!(
        "check it, then accept it by renaming it to {} or by running the test with {UPDATE_SNAPSHOTS}=1 (`{UPDATE_SNAPSHOTS}=1 cargo test`)",
        reference.display()
    );
    let expected = match Rgba::read(reference) {
        Ok(expected) => expected,
        Err(_) if update => return accept(),
        Err(CompareError::Read { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            let _ = std::fs::remove_file(&diff_path);
            save_new()?;
            return Err(format!(
                "the reference {} does not exist; the actual image was written to {}: {how_to_accept}",
                reference.display(),
                new_path.display()
            ));
        }
        Err(e) => {
            let _ = std::fs::remove_file(&diff_path);
            save_new()?;
            return Err(format!(
                "{e}; the actual image was written to {}: {how_to_accept}",
                new_path.display()
            ));
        }
    };
    let comparison = compare_images(&expected, actual, tol);
    if comparison.matched() {
        remove_leftovers();
        return Ok(());
    }
    if update {
        return accept();
    }
    save_new()?;
    let diff_written = comparison
        .write_diff(&diff_path)
        .map_err(|e| e.to_string())?;
    if !diff_written {
        let _ = std::fs::remove_file(&diff_path);
    }
    let mut message = format!(
        "{} does not match: {comparison}\n  actual: {}",
        reference.display(),
        new_path.display()
    );
    if diff_written {
        message.push_str(&format!(
            "\n  diff:   {} (red: failed pixels, yellow: anti-aliasing)",
            diff_path.display()
        ));
    }
    message.push_str(&format!("\n  {how_to_accept}"));
    Err(message)
}

fn create_parent(path: &Path) -> Result<(), String> {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => std::fs::create_dir_all(parent)
            .map_err(|e| format!("cannot create {}: {e}", parent.display())),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHITE: [u8; 4] = [255, 255, 255, 255];
    const BLACK: [u8; 4] = [0, 0, 0, 255];
    const RED: [u8; 4] = [255, 0, 0, 255];

    fn white() -> Rgba {
        Rgba::filled(8, 6, WHITE)
    }

    fn one_black() -> Rgba {
        let mut image = white();
        image.set_pixel(3, 2, BLACK);
        image
    }

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
    fn png_round_trip_and_other_colour_types() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.png");
        let mut image = one_black();
        image.set_pixel(0, 0, [10, 20, 30, 40]);
        image.write(&path).unwrap();
        assert_eq!(Rgba::read(&path).unwrap(), image);

        // 16-bit grey with alpha and 8-bit RGB normalise to RGBA8.
        let mut bytes = Vec::new();
        let mut e = png::Encoder::new(&mut bytes, 2, 1);
        e.set_color(png::ColorType::GrayscaleAlpha);
        e.set_depth(png::BitDepth::Sixteen);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[0x80, 0x00, 0xff, 0xff, 0x10, 0x00, 0x00, 0x00])
            .unwrap();
        w.finish().unwrap();
        let grey = Rgba::decode_png(&bytes).unwrap();
        assert_eq!(grey.pixels, [0x80, 0x80, 0x80, 0xff, 0x10, 0x10, 0x10, 0]);

        let mut bytes = Vec::new();
        let mut e = png::Encoder::new(&mut bytes, 1, 1);
        e.set_color(png::ColorType::Rgb);
        let mut w = e.write_header().unwrap();
        w.write_image_data(&[1, 2, 3]).unwrap();
        w.finish().unwrap();
        assert_eq!(Rgba::decode_png(&bytes).unwrap().pixels, [1, 2, 3, 255]);
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

    #[test]
    fn sibling_names_drop_the_png_extension() {
        let (new, diff) = reference_siblings(Path::new("tests/snapshots/form.png"));
        assert_eq!(new, Path::new("tests/snapshots/form.new.png"));
        assert_eq!(diff, Path::new("tests/snapshots/form.diff.png"));
    }

    #[test]
    fn reference_flow() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("snapshots").join("form.png");
        let (new, diff) = reference_siblings(&reference);

        // Missing: the actual goes to .new.png and the check fails, saying how to accept it.
        let why =
            check_reference_with(&white(), &reference, Tolerance::default(), false).unwrap_err();
        assert!(why.contains("UPDATE_SNAPSHOTS=1 cargo test"), "{why}");
        assert!(why.contains(&new.display().to_string()), "{why}");
        assert!(!reference.exists());
        assert_eq!(Rgba::read(&new).unwrap(), white());

        // Update mode writes the reference and clears the leftovers.
        check_reference_with(&white(), &reference, Tolerance::default(), true).unwrap();
        assert_eq!(Rgba::read(&reference).unwrap(), white());
        assert!(!new.exists());

        // A mismatch writes the actual and the diff, its failed pixel red.
        let why = check_reference_with(&one_black(), &reference, Tolerance::default(), false)
            .unwrap_err();
        assert!(why.contains("mismatch: 1 of 48 pixels"), "{why}");
        assert!(why.contains(&diff.display().to_string()), "{why}");
        assert_eq!(Rgba::read(&new).unwrap(), one_black());
        assert_eq!(Rgba::read(&diff).unwrap().pixel(3, 2), Some(RED));
        assert_eq!(Rgba::read(&reference).unwrap(), white(), "reference kept");

        // A later match removes them.
        check_reference_with(&white(), &reference, Tolerance::default(), false).unwrap();
        assert!(!new.exists() && !diff.exists());

        // Update mode overwrites a mismatching reference.
        check_reference_with(&one_black(), &reference, Tolerance::default(), true).unwrap();
        assert_eq!(Rgba::read(&reference).unwrap(), one_black());
        assert!(!new.exists() && !diff.exists());

        // A size mismatch writes the actual but no diff.
        let why = check_reference_with(
            &Rgba::filled(2, 2, WHITE),
            &reference,
            Tolerance::default(),
            false,
        )
        .unwrap_err();
        assert!(
            why.contains("size mismatch: expected 8x6, got 2x2"),
            "{why}"
        );
        assert!(new.exists() && !diff.exists());
    }
}
