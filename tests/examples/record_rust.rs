//! `winit-automation record --rust`: a session recorded on the custom demo becomes a Rust test on
//! the harness. The test it writes is checked in as tests/examples/recorded_demo.rs, which `cargo test`
//! builds and runs against a fresh demo like any other test; this test records the session again
//! and fails when the recorder would now write anything else, as `cargo fmt` lays it out
//! (`UPDATE_SNAPSHOTS=1` writes the file anew, for review). tests/examples/record_gallery.rs does
//! the same for sessions on egui's gallery, driven through the CLI and the MCP server.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe).
use crate::common::file_with;
use crate::common::recorder;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};

use file_with::file_with;
use winit_automation_testing::{App, Spawn};

/// The file as `cargo fmt` leaves it (the checked-in copy is formatted like every other file).
pub(crate) fn rustfmt(text: &str) -> String {
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

/// A `winit-automation record` running against an app, into a file of its own.
pub(crate) struct Recording {
    child: Child,
    pub file: PathBuf,
    _tmp: tempfile::TempDir,
}

impl Recording {
    /// Starts `record --rust` (or `record`, for a script) on `app` and waits for the header it
    /// writes once it knows where it starts.
    pub fn start(app: &App, rust: bool) -> Recording {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join(if rust {
            "recorded.rs"
        } else {
            "recorded.script"
        });
        let args: &[&str] = if rust { &["--rust"] } else { &[] };
        let child = recorder::start(app.dir(), args, &file);
        Recording {
            child,
            file,
            _tmp: tmp,
        }
    }

    /// Waits until the file holds `what`: the recorder wrote an action's expectations.
    pub fn wrote(&self, what: &str) {
        file_with(&self.file, what);
    }

    /// Stops it as Ctrl-C does and returns what it wrote.
    pub fn stop(self) -> String {
        recorder::interrupt(self.child);
        std::fs::read_to_string(&self.file).unwrap()
    }
}

/// Fails unless `written`, formatted, is the checked-in file `relative` (to the package); with
/// `UPDATE_SNAPSHOTS` set, writes it first. Returns the formatted text.
pub(crate) fn assert_checked_in(relative: &str, written: &str) -> String {
    let written = rustfmt(written);
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
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
    written
}

#[test]
fn a_recorded_session_becomes_the_checked_in_rust_test() {
    let app = Spawn::example("demo").headless(800, 600).start();
    let recording = Recording::start(&app, true);

    // One action at a time, each once its expectations are written: the recorder groups the
    // actions it sees together, and the file must come out the same on every run.
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    recording.wrote("Has::value(\"Ada\")");
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    recording.wrote("\"checked\")");
    app.get_by_role_and_name("button", "Submit").click();
    recording.wrote("Submitted: Ada");
    let written = recording.stop();
    println!("{written}");

    // The commands became the harness's calls by role and name, the changes expectations.
    assert!(written.contains("let app = Spawn::example(\"demo\")\n        .headless(800, 600)"));
    assert!(written.contains("app.get_by_role_and_name(\"textbox\", \"Name\").fill(\"Ada\");"));
    assert!(written.contains("app.get_by_role_and_name(\"button\", \"Submit\").click();"));
    assert!(!written.contains("@e"), "no refs: {written}");
    assert_checked_in("tests/examples/recorded_demo.rs", &written);
}
