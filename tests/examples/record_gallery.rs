//! `record --rust` on an app nobody here wrote: egui's gallery (egui_demo_lib), driven through
//! the CLI and through the MCP server as a person or an agent drives it. Each session's test is
//! checked in (tests/examples/recorded_gallery_cli.rs, recorded_gallery_mcp.rs), and `cargo test`
//! runs it against a fresh gallery; these tests record the sessions again and fail when the
//! recorder would now write anything else (`UPDATE_SNAPSHOTS=1` writes the files anew). The CLI
//! session recorded as a script replays with `run`.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe).
use crate::common::cli_binary;
use crate::common::mcp_session;
use crate::common::ref_of;

use std::process::Command as Process;

use mcp_session::tool;
use winit_automation_testing::{App, Spawn};

use super::record_rust::{Recording, assert_checked_in};

fn gallery() -> App {
    Spawn::example("egui_gallery").headless(1280, 800).start()
}

/// Runs the CLI against `app`; its stdout, after asserting it succeeded.
fn cli(app: &App, args: &[&str]) -> String {
    let out = Process::new(cli_binary::cli())
        .arg("--dir")
        .arg(app.dir())
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "winit-automation {args:?}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// What the recorder writes after each action of the sessions (in a script and in Rust alike):
/// the test waits for it before the next action, so the recorder sees one action at a time and
/// the file comes out the same on every run.
const AFTER: [&str; 4] = ["checked", "Ada is 42", "Ada is 53", "\" is 53\""];

/// The CLI session: a click with `--settle`, a `fill` on a ref from a snapshot, a drag and a key
/// chord, as a person types them.
fn cli_session(app: &App, recording: &Recording) {
    cli(app, &["click", "role=checkbox name=Checkbox", "--settle"]);
    recording.wrote(AFTER[0]);
    let snapshot = cli(app, &["snapshot", "-i"]);
    let field = ref_of(&snapshot, "textbox value=\"Arthur\"");
    cli(app, &["fill", &field, "Ada", "--settle"]);
    recording.wrote(AFTER[1]);
    cli(
        app,
        &[
            "drag",
            "role=spinbutton name=years",
            "to",
            "800,353",
            "--settle",
        ],
    );
    recording.wrote(AFTER[2]);
    cli(app, &["key", "ctrl+a", "Delete", "--settle"]);
    recording.wrote(AFTER[3]);
}

/// What the generated tests must not hold: raw lines for verbs the harness has, refs, a path of
/// this machine.
fn assert_typed(written: &str) {
    assert!(!written.contains("app.ok("), "raw lines: {written}");
    assert!(!written.contains("@e"), "refs: {written}");
    let target = env!("CARGO_MANIFEST_DIR");
    assert!(!written.contains(target), "an absolute path: {written}");
    assert!(!written.contains("/tmp/"), "an absolute path: {written}");
}

#[test]
fn a_cli_session_on_egui_s_gallery_becomes_the_checked_in_rust_test() {
    let app = gallery();
    let recording = Recording::start(&app, true);
    cli_session(&app, &recording);
    let written = recording.stop();
    println!("{written}");
    assert_typed(&written);
    assert!(
        written
            .contains("let app = Spawn::example(\"egui_gallery\")\n        .headless(1280, 800)")
    );
    assert!(written.contains("app.get_by_role_and_name(\"checkbox\", \"Checkbox\").click();"));
    assert!(written.contains(".drag_to((800.0, 353.0));"));
    assert!(written.contains("app.key(\"ctrl+a Delete\");"));
    assert_checked_in("tests/examples/recorded_gallery_cli.rs", &written);
}

#[test]
fn the_cli_session_recorded_as_a_script_replays_with_run() {
    let recorded_on = gallery();
    let recording = Recording::start(&recorded_on, false);
    cli_session(&recorded_on, &recording);
    let script = recording.stop();
    drop(recorded_on);
    println!("{script}");
    assert!(
        script.contains("drag role=spinbutton name=\"years\" to 800,353"),
        "{script}"
    );
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("session.script");
    std::fs::write(&file, &script).unwrap();
    let fresh = gallery();
    let out = cli(&fresh, &["run", file.to_str().unwrap()]);
    assert!(out.contains("passed: 4 commands"), "{out}");
}

#[tokio::test(flavor = "current_thread")]
async fn an_mcp_session_on_egui_s_gallery_becomes_the_checked_in_rust_test() {
    use serde_json::json;
    let app = gallery();
    let recording = Recording::start(&app, true);
    let client = mcp_session::start(app.dir()).await;

    // As an agent goes: look, act on a ref, act on selectors; the server settles each action.
    let snapshot = tool(&client, "snapshot", json!({})).await;
    let checkbox = ref_of(&snapshot, "checkbox \"Checkbox\"");
    tool(&client, "click", json!({"target": checkbox})).await;
    recording.wrote(AFTER[0]);
    tool(
        &client,
        "fill",
        json!({"target": "role=textbox text=Arthur", "text": "Ada"}),
    )
    .await;
    recording.wrote(AFTER[1]);
    tool(
        &client,
        "drag",
        json!({"from": "role=spinbutton name=years", "to": "800,353"}),
    )
    .await;
    recording.wrote(AFTER[2]);
    tool(&client, "key", json!({"chords": ["ctrl+a", "Delete"]})).await;
    recording.wrote(AFTER[3]);
    client.cancel().await.unwrap();
    let written = recording.stop();
    println!("{written}");
    assert_typed(&written);
    assert!(written.contains("app.get_by_role_and_name(\"checkbox\", \"Checkbox\").click();"));
    assert_checked_in("tests/examples/recorded_gallery_mcp.rs", &written);
}
