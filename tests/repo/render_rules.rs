//! The rules Cargo cannot express are clippy's `disallowed-methods` and `disallowed-types`, in a
//! `clippy.toml` beside a crate's manifest; CI runs clippy with `-D warnings`. The render side
//! (no file system, no blocking call) carries one copy per render-side crate, the pure protocol
//! crate its own (no file, thread, process or clock). Clippy reads the nearest `clippy.toml` above
//! a crate, so this test keeps the render-side copies equal, and keeps rules away from the crates
//! whose job is files and waiting (and from any folder above the crates, whose file they would
//! inherit).

use std::path::{Path, PathBuf};

/// The crates that run on the render thread (the Bevy plugin's systems run on Bevy's main
/// thread, in its frame).
const RENDER_SIDE: [&str; 4] = [
    "crates/link",
    "crates/winit-automation",
    "crates/egui",
    "crates/bevy",
];

/// The pure crate, with rules of its own.
const PURE: &str = "crates/protocol";

/// Calls each copy must forbid (a sample of both rules).
const FORBIDDEN: [&str; 5] = [
    "std::fs::File",
    "std::fs::write",
    "std::thread::sleep",
    "crossbeam_channel::Receiver::recv",
    "crossbeam_channel::Sender::send",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn config(dir: &Path) -> Option<String> {
    std::fs::read_to_string(dir.join("clippy.toml")).ok()
}

#[test]
fn every_render_side_crate_carries_the_same_rules() {
    let copies: Vec<(&str, String)> = RENDER_SIDE
        .iter()
        .map(|c| (*c, config(&root().join(c)).unwrap_or_default()))
        .collect();
    let (first, rules) = &copies[0];
    for rule in FORBIDDEN {
        assert!(
            rules.contains(&format!("path = \"{rule}\"")),
            "{first}/clippy.toml does not forbid {rule}"
        );
    }
    for (crate_dir, text) in &copies[1..] {
        assert_eq!(
            text, rules,
            "{crate_dir}/clippy.toml differs from {first}/clippy.toml: keep the copies equal"
        );
    }
}

#[test]
fn the_pure_crate_forbids_files_threads_and_clocks() {
    let rules = config(&root().join(PURE)).unwrap_or_default();
    for rule in [
        "std::fs::File",
        "std::thread::spawn",
        "std::time::Instant::now",
    ] {
        assert!(
            rules.contains(&format!("path = \"{rule}\"")),
            "{PURE}/clippy.toml does not forbid {rule}"
        );
    }
}

#[test]
fn no_other_crate_and_no_folder_above_them_carries_them() {
    let crates: Vec<PathBuf> = std::fs::read_dir(root().join("crates"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("Cargo.toml").is_file())
        .collect();
    assert!(crates.len() >= 9, "found only {crates:?}");
    for dir in &crates {
        let name = dir.strip_prefix(root()).unwrap().display().to_string();
        let ruled = RENDER_SIDE.contains(&name.as_str()) || name == PURE;
        assert_eq!(
            config(dir).is_some(),
            ruled,
            "{name}: a clippy.toml belongs to the render-side crates and the pure one only"
        );
    }
    for above in [root().to_owned(), root().join("crates")] {
        assert!(
            config(&above).is_none(),
            "{}/clippy.toml would be read by every crate below it",
            above.display()
        );
    }
}
