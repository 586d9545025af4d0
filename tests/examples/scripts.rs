//! `winit-automation run` and `record` against the custom demo, headless (apps spawned with the
//! test harness): a recorded session replays green against a fresh app and red against a changed
//! UI; scripts check trees and screenshots and stop at the first failure with its line.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe).
use crate::common::file_with;
use crate::common::{cli_binary, recorder};

use std::time::{Duration, Instant};

use file_with::file_with;
use winit_automation_testing::compare::Rgba;
use winit_automation_testing::{App, Spawn};

fn demo(args: &[&str]) -> App {
    Spawn::example("demo")
        .headless(800, 600)
        .args(args.iter().copied())
        .start()
}

use cli_binary::{run as cli, stderr, stdout};

#[test]
fn a_recorded_session_replays_green_on_a_fresh_app_and_red_on_a_changed_ui() {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("session.script");
    let app = demo(&[]);
    let recording = recorder::start(app.dir(), &[], &script);

    // Another client drives the app by refs, as an agent reading snapshots would.
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    app.get_by_role_and_name("button", "Submit").click();
    assert!(!app.send("click @e999").is_ok());
    app.ok("find role=button");

    let written = file_with(&script, "# refused (not_found)");
    let written = if written.contains("Submitted: Ada") {
        written
    } else {
        file_with(&script, "Submitted: Ada")
    };
    recorder::interrupt(recording);
    println!("{written}");

    // Refs became selectors; read-only commands are not in it; the refusal is a comment.
    assert!(
        written.contains("\nfill role=textbox name=\"Name\" \"Ada\" --settle --wait 5000\n"),
        "{written}"
    );
    assert!(
        written.contains("\nclick role=checkbox name=\"Subscribe\" --settle --wait 5000\n"),
        "{written}"
    );
    assert!(
        written.contains("\nclick role=button name=\"Submit\" --settle --wait 5000\n"),
        "{written}"
    );
    assert!(
        written.contains("# refused (not_found): click @e999"),
        "{written}"
    );
    assert!(!written.contains("\nfind "), "{written}");
    let commands: Vec<&str> = written
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("expect"))
        .collect();
    assert!(commands.iter().all(|l| !l.contains("@e")), "{commands:?}");
    // What each action changed, as expectations.
    assert!(
        written.contains(
            "expect role=text name=\"Status\" value=\"Submitted: Ada (subscribe yes, volume 50)\""
        ),
        "{written}"
    );
    assert!(
        written.contains("expect role=checkbox name=\"Subscribe\""),
        "{written}"
    );
    drop(app);

    let fresh = demo(&[]);
    let out = cli(fresh.dir(), &["run", script.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    assert!(
        stdout(&out).contains("passed: 3 commands"),
        "{}",
        stdout(&out)
    );
    let status = fresh.get(&winit_automation_testing::By::text_contains("Submitted:"));
    assert_eq!(
        status.value(),
        Some("Submitted: Ada (subscribe yes, volume 50)")
    );

    // The same script against a UI whose button was renamed: red, at the click's line.
    let changed = demo(&["--submit-label", "Send"]);
    let out = cli(changed.dir(), &["run", script.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    let err = stderr(&out);
    let line = written
        .lines()
        .position(|l| l.starts_with("click role=button name=\"Submit\""))
        .unwrap()
        + 1;
    assert!(
        err.contains(&format!("session.script:{line}: click role=button")),
        "{err}"
    );
    assert!(err.contains("not_found"), "{err}");
    assert!(
        err.contains("button \"Send\""),
        "the snapshot at the failure: {err}"
    );
}

#[test]
fn the_recorder_stops_when_the_app_exits() {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("quit.script");
    let app = demo(&[]);
    let recording = recorder::start(app.dir(), &["--no-expect"], &script);
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    file_with(&script, "click role=checkbox");
    app.quit();
    let out = recording.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("the app exited"), "{}", stderr(&out));
    let written = std::fs::read_to_string(&script).unwrap();
    assert!(!written.contains("expect"), "--no-expect: {written}");
}

#[test]
fn scripts_check_trees_and_screenshots_and_stop_at_the_first_failure() {
    let app = demo(&[]);
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("form.script");
    std::fs::write(
        &script,
        "# the form\n\
         fill role=textbox name=\"Name\" \"Ada\"\n\
         expect role=textbox name=\"Name\" value=\"Ada\" focused\n\
         expect gone role=dialog\n\
         expect screenshot refs/submit.png --ref \"role=button name=Submit\"\n",
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec!["run", script.to_str().unwrap()];
        args.extend(extra);
        cli(app.dir(), &args)
    };
    // No reference yet: red, with the screenshot to accept written as .new.png.
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("form.script:5: expect screenshot"),
        "{}",
        stderr(&out)
    );
    assert!(tmp.path().join("refs/submit.new.png").exists());
    // --update writes it; then the same script is green.
    let out = run(&["--update"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let reference = Rgba::read(tmp.path().join("refs/submit.png")).unwrap();
    assert_eq!(
        (reference.width, reference.height),
        (120, 36),
        "the button's crop"
    );
    let out = run(&["--quiet"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "", "--quiet");
    // A pixel of another colour in the reference: red, with a diff image.
    let mut changed = reference.clone();
    changed.set_pixel(4, 18, [0, 0, 0, 255]);
    changed.write(tmp.path().join("refs/submit.png")).unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("mismatch: 1 of 4320 pixels"),
        "{}",
        stderr(&out)
    );
    let diff = Rgba::read(tmp.path().join("refs/submit.diff.png")).unwrap();
    assert_eq!(diff.pixel(4, 18), Some([255, 0, 0, 255]));

    // A field that does not hold: the line, what was found, and the snapshot.
    std::fs::write(
        &script,
        "expect role=textbox name=\"Name\" value=\"Grace\" --timeout 300\nclick role=button name=\"Submit\"\n",
    )
    .unwrap();
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("form.script:1:"), "{err}");
    assert!(err.contains("none has value=\"Grace\""), "{err}");
    assert!(err.contains("textbox \"Name\" value=\"Ada\""), "{err}");
    assert!(
        app.get_by_text("Ready").role() == "text",
        "the run stopped before the click: the status still says Ready"
    );
}

#[test]
fn a_bad_line_sends_nothing_and_no_app_is_exit_3() {
    let app = demo(&[]);
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("bad.script");
    std::fs::write(&script, "fill role=textbox \"Ada\"\nclik role=button\n").unwrap();
    let out = cli(app.dir(), &["run", script.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("bad.script:2:"), "{err}");
    assert!(err.contains("unknown verb"), "{err}");
    assert_eq!(
        app.get_by_role_and_name("textbox", "Name").value(),
        Some(""),
        "the first line was not sent either"
    );
    let journal = app.ok("journal");
    assert!(!journal.contains("fill"), "{journal}");

    // The one grammar: a script line gets the code, message and hint a command file, the CLI and
    // the MCP server get.
    for (line, message, hint) in [
        (
            "find role=button name~=Sub mit",
            "bad.script:1: \"mit\" after name~=Sub is not a selector term",
            "hint: quote a value with spaces: role=button name~=\"Sub mit\"",
        ),
        (
            "click role=buton",
            "bad.script:1: unknown role \"buton\"",
            "hint: did you mean role=button",
        ),
    ] {
        std::fs::write(&script, format!("{line}\n")).unwrap();
        let out = cli(app.dir(), &["run", script.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{line}");
        let err = stderr(&out);
        assert!(err.starts_with("error: bad_argument: "), "{err}");
        assert!(err.contains(&format!("{message}\n")), "{err}");
        assert!(err.contains(hint), "{err}");
    }
    std::fs::write(&script, "fill role=textbox \"Ada\"\nclik role=button\n").unwrap();

    let empty = tempfile::tempdir().unwrap();
    let out = cli(empty.path(), &["run", script.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "the script is checked before the app"
    );
    std::fs::write(&script, "status\n").unwrap();
    let out = cli(empty.path(), &["run", script.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
}

#[test]
fn an_expectation_waits_its_own_timeout_beyond_the_clients() {
    let app = demo(&[]);
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("slow.script");
    for expectation in [
        "expect role=button name=\"Later\" --timeout 2500",
        "expect gone role=button name=\"Submit\" --timeout 2500",
    ] {
        std::fs::write(&script, format!("# longer than --timeout\n{expectation}\n")).unwrap();
        let started = Instant::now();
        let out = cli(
            app.dir(),
            &["--timeout", "1000", "run", script.to_str().unwrap()],
        );
        let took = started.elapsed();
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains("slow.script:2:"), "{err}");
        assert!(err.contains("after 2500 ms"), "{err}");
        assert!(
            took >= Duration::from_millis(2400),
            "it said 2500 ms, and gave up after {took:?}: {err}"
        );
    }
}

/// egui puts a label's text in its value, with no name: the recorder expects it by `text=`.
#[test]
fn a_recording_of_an_egui_app_expects_what_its_labels_say() {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("egui.script");
    let egui_demo = || Spawn::example("egui_demo").headless(800, 600).start();
    let app = egui_demo();
    let recording = recorder::start(app.dir(), &[], &script);
    app.get_by_role_and_name("button", "Count").click();
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.get_by_role_and_name("checkbox", "Enabled").click();
    file_with(&script, "expect role=text text=\"Hello, Ada\"");
    let written = file_with(&script, "name=\"Enabled\"");
    recorder::interrupt(recording);
    let written = std::fs::read_to_string(&script).unwrap_or(written);
    assert!(
        written.contains("expect role=text text=\"Clicked 1 times\""),
        "{written}"
    );
    assert!(
        written.contains("expect role=checkbox name=\"Enabled\" unchecked\n"),
        "one `unchecked`: {written}"
    );
    drop(app);

    let fresh = egui_demo();
    let out = cli(fresh.dir(), &["run", script.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{written}\n{}{}",
        stdout(&out),
        stderr(&out)
    );
}
