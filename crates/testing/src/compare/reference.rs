//! Reference-file handling: the golden-file check against a reference PNG ([`check_reference`],
//! [`check_reference_with`]), the `.new.png` and `.diff.png` it leaves beside it, and the update
//! mode ([`UPDATE_SNAPSHOTS`]).

use std::io;
use std::path::{Path, PathBuf};

use super::{CompareError, Rgba, Tolerance, compare_images};

/// The environment variable that makes [`check_reference`] accept the actual image as the new
/// reference (egui_kittest's): set to anything but `0`, `false` or nothing.
pub const UPDATE_SNAPSHOTS: &str = "UPDATE_SNAPSHOTS";

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
    use crate::compare::fixtures::{RED, WHITE, one_black, white};

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
