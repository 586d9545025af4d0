//! This tree's release build, which `scripts/bench.sh` makes before the benches run.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// `target/release`: the folder above the bench's own (`target/release/deps/<bench>`).
pub fn dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the bench's own path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/release/deps/<bench>")
        .to_owned()
}

/// The release demo.
pub fn demo() -> PathBuf {
    dir().join("examples").join("demo")
}

/// The release CLI.
pub fn cli() -> PathBuf {
    dir().join("winit-automation")
}
