//! The codebase's shape, as rules a change cannot break unnoticed: files of one job (at most 600
//! lines, or their first lines say why they are one piece), one facade (the no-op build comes from
//! `feature`, not from `cfg` twins in `automation.rs`), a README a newcomer reads in five minutes, an
//! ARCHITECTURE.md of two screens and a CHANGELOG that speaks to users, not of issue numbers.

use std::path::{Path, PathBuf};

/// The most lines a file holds before its first lines must say why it is one piece.
const MAX_LINES: usize = 600;
/// What a longer file's first lines say.
const ONE_PIECE: &str = "one piece";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of `dirs` longer than [`MAX_LINES`] whose first five lines do not say
/// [`ONE_PIECE`], with their lengths.
fn too_long(texts: &[(String, String)]) -> Vec<String> {
    texts
        .iter()
        .filter_map(|(name, text)| {
            let lines = text.lines().count();
            let says_why = text.lines().take(5).any(|l| l.contains(ONE_PIECE));
            (lines > MAX_LINES && !says_why).then(|| format!("{name}: {lines} lines"))
        })
        .collect()
}

#[test]
fn no_file_in_the_crates_or_examples_is_over_600_lines_without_saying_why() {
    let mut files = Vec::new();
    for dir in ["crates", "examples"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 50, "read only {} files", files.len());
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                f.strip_prefix(root()).unwrap().display().to_string(),
                std::fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    let found = too_long(&texts);
    assert!(found.is_empty(), "files of more than one job: {found:#?}");
}

#[test]
fn a_long_file_is_found_unless_it_says_why() {
    // The positive control: the rule sees a long file, and its exemption is read.
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    let why = format!("//! The table, in one piece: split, it would be read twice.\n{long}");
    let texts = vec![("long.rs".to_owned(), long), ("why.rs".to_owned(), why)];
    assert_eq!(
        too_long(&texts),
        [format!("long.rs: {} lines", MAX_LINES + 1)]
    );
}

#[test]
fn the_facade_is_written_once() {
    let facade = read("crates/winit-automation/src/automation.rs");
    let cfgs = facade.matches("cfg(").count();
    assert!(
        cfgs <= 1,
        "automation.rs has {cfgs} `cfg(`: the no-op build belongs in crates/winit-automation/src/feature/"
    );
    // Nor are the other public types twins: the frame, the later capture and the input.
    for file in [
        "crates/winit-automation/src/frame.rs",
        "crates/winit-automation/src/toolkit_capture.rs",
        "crates/winit-automation/src/input.rs",
    ] {
        let text = read(file);
        let twins = text.matches("cfg(feature").count() + text.matches("cfg(not(feature").count();
        assert_eq!(
            twins, 0,
            "{file} compiles differently with the feature off; use crate::feature"
        );
    }
}

#[test]
fn the_readme_fits_five_minutes_and_architecture_two_screens() {
    let readme = read("README.md").lines().count();
    assert!(
        readme <= 250,
        "README.md is {readme} lines; move detail to docs/"
    );
    let architecture = read("ARCHITECTURE.md").lines().count();
    assert!(
        architecture <= 130,
        "ARCHITECTURE.md is {architecture} lines; move detail to docs/internals.md"
    );
}

#[test]
fn the_changelog_speaks_of_changes_not_of_issue_numbers() {
    let changelog = read("CHANGELOG.md");
    let numbered: Vec<&str> = changelog
        .lines()
        .filter(|l| {
            let lower = l.to_lowercase();
            lower.contains("issue ")
                || l.split(|c: char| !(c.is_alphanumeric() || c == '#'))
                    .any(|w| {
                        w.len() > 1
                            && w.starts_with('#')
                            && w[1..].chars().all(|c| c.is_ascii_digit())
                    })
        })
        .collect();
    assert!(
        numbered.is_empty(),
        "CHANGELOG.md names issues: {numbered:#?}"
    );
}
