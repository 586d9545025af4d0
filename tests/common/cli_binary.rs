//! The `winit-automation` CLI the tests run: the binary of the `winit-automation-cli` crate, which
//! cargo builds into this workspace's target directory beside the test binaries whenever the
//! workspace's tests are built (`cargo test --workspace`: the CLI crate has tests of its own, so
//! its binary is built), and scripts/test.sh builds first.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The CLI binary of this test run's profile; panics, saying how to build it, when it is missing.
pub fn cli() -> PathBuf {
    // target/<profile>/deps/<test>-<hash> -> target/<profile>/winit-automation
    let path = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.parent()?.join("winit-automation")))
        .expect("the test binary's own path");
    assert!(
        path.is_file(),
        "{} is missing: build the CLI first (`cargo build -p winit-automation-cli --features mcp`, or `cargo test --workspace --all-features`)",
        path.display()
    );
    path
}

/// `winit-automation --dir DIR ARGS`, run to its end (the environment's drop-box left out, so
/// the directory is the one given).
pub fn run(dir: &Path, args: &[&str]) -> Output {
    Command::new(cli())
        .arg("--dir")
        .arg(dir)
        .args(args)
        .env_remove("WINIT_AUTOMATION_DIR")
        .output()
        .expect("run the CLI")
}

/// A run's stdout, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A run's stderr, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
