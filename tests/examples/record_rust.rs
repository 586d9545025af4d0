//! `winit-automation record --rust`: a session recorded on the custom demo becomes a Rust test on
//! the harness. The test it writes is checked in as tests/examples/recorded_demo.rs, which `cargo test`
//! builds and runs against a fresh demo like any other test; this test records the session again
//! and fails when the recorder would now write anything else, as `cargo fmt` lays it out
//! (`UPDATE_SNAPSHOTS=1` writes the file anew, for review).
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe).
use crate::common::cli_binary;
use crate::common::file_with;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};

use file_with::file_with;
use winit_automation_testing::Spawn;

/// The file as `cargo fmt` leaves it (the checked-in copy is formatted like every other file).
fn rustfmt(text: &str) -> String {
    use std::io::Write as _;
    let mut child = Process::new("rustfmt")
        .args(["--edition", "2024", "--emit", "stdout"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt: `rustup component add rustfmt`");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "rustfmt refused the generated test:\n{text}"
    );
    String::from_utf8(out.stdout).unwrap()
}

fn checked_in() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples/recorded_demo.rs")
}

#[test]
fn a_recorded_session_becomes_the_checked_in_rust_test() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("recorded.rs");
    let app = Spawn::example("demo").headless(800, 600).start();
    let mut recorder: Child = Process::new(cli_binary::cli())
        .arg("--dir")
        .arg(app.dir())
        .args(["record", "--rust"])
        .arg(&file)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    file_with(&file, "// recorded by winit-automation record --rust");

    // One action at a time, each once its expectations are written: the recorder groups the
    // actions it sees together, and the file must come out the same on every run.
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    file_with(&file, "Some(\"Ada\")");
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    file_with(&file, "node.is_checked()");
    app.get_by_role_and_name("button", "Submit").click();
    file_with(&file, "Submitted: Ada");
    let pid = rustix::process::Pid::from_raw(recorder.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    recorder.wait().unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    println!("{written}");

    // The commands became the harness's calls by role and name, the changes assertions.
    assert!(written.contains("let app = Spawn::example(\"demo\")\n        .headless(800, 600)"));
    assert!(written.contains("app.get_by_role_and_name(\"textbox\", \"Name\").fill(\"Ada\");"));
    assert!(written.contains("app.get_by_role_and_name(\"button\", \"Submit\").click();"));
    assert!(!written.contains("@e"), "no refs: {written}");

    let written = rustfmt(&written);
    let path = checked_in();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    let kept = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        kept,
        written,
        "the recorder now writes another test than {} (which cargo test builds and runs): \
         check the difference, then UPDATE_SNAPSHOTS=1 writes it",
        path.display()
    );
}
