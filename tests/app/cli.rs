//! The real `winit-automation` binary against a real app (the test app of tests/common).
use crate::common;
use crate::common::cli_binary;
use crate::common::fixture;

use std::process::Command as Process;

use accesskit::{Action, ActionData};
use common::{ChildApp, Handed, TestApp, fresh_dir, typed};
use winit_automation_protocol::Verb;

use cli_binary::{run as cli, stderr, stdout};

#[test]
fn status_prints_the_app_and_exits_zero() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let out = cli(&dir, &["status"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(&format!(
            "protocol {}\n",
            winit_automation_protocol::PROTOCOL_VERSION
        )),
        "{text}"
    );
    assert!(text.contains("app \"test-app\"\n"), "{text}");
}

#[test]
fn typed_text_arrives_intact_and_selector_arguments_are_requoted() {
    let (_tmp, dir) = fresh_dir();
    let form = fixture::Form {
        save_label: "Save as".into(),
        ..fixture::Form::default()
    };
    let app = common::showing(&dir, form.update());
    let hostile = "two words, a \"quote\"\nand a new line";
    let out = cli(&dir, &["type", hostile]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // One argument per term (or all in one), values with spaces quoted as on a command line.
    let out = cli(
        &dir,
        &["click", "role=button", "name=\"Save as\"", "--double"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains(" button \"Save as\""), "{text}");
    assert!(text.contains("button left double\n"), "{text}");
    // A text that starts with a dash goes after --.
    let out = cli(&dir, &["fill", "role=textbox name=\"Email\"", "--", "-x@y"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("typed \"-x@y\"\n"),
        "{}",
        stdout(&out)
    );
    let out = cli(&dir, &["scroll", "role=list", "0", "-120"]);
    assert!(stdout(&out).contains("wheel 0 -120\n"), "{}", stdout(&out));
    let out = cli(&dir, &["drag", "name=\"Remember me\"", "to", "10,20"]);
    assert!(stdout(&out).contains("\nto 10,20\n"), "{}", stdout(&out));
    // A selector's quoting survives the trip into an error message too.
    let out = cli(&dir, &["click", "name=\"No \\\"such\\\" node\""]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no node matches name=\"No \\\"such\\\" node\""),
        "{}",
        stderr(&out)
    );
    assert_eq!(typed(&app.stop()), [hostile, "-x@y"]);
}

#[test]
fn an_app_error_exits_one_with_code_message_and_hint() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let out = cli(&dir, &["screenshot", "fail"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("error: app_error:"), "{err}");
    assert!(err.contains("hint: "), "{err}");
    let out = cli(&dir, &["send", "jump", "high"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("unknown_verb"), "{}", stderr(&out));
}

#[test]
fn a_malformed_command_is_a_usage_error_and_is_never_sent() {
    let (_tmp, dir) = fresh_dir();
    let app = TestApp::builder().dir(&dir).start();
    for args in [
        &["click", "role~=button"][..],
        &["key", "hyper+x"],
        &["screenshot", "../../x"],
        &["action", "@e1", "fly"],
        &["resize", "0", "10"],
        &["click", "--no-such-flag", "@e1"],
    ] {
        let out = cli(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    assert!(
        winit_automation_dropbox::queue::scan(&dir)
            .unwrap()
            .responses
            .is_empty()
    );
    assert!(typed(&app.stop()).is_empty());
}

#[test]
fn a_target_argument_is_read_with_the_protocol_s_grammar_and_an_unquoted_value_is_refused() {
    let (_tmp, dir) = fresh_dir();
    let form = fixture::Form {
        save_label: "Open Save".into(),
        ..fixture::Form::default()
    };
    let app = common::showing(&dir, form.update());
    // As people type it: one shell argument, the value's space unquoted. Refused before sending,
    // with the quoted form, as the same line in a command file would be.
    let out = cli(&dir, &["find", "role=button name~=Open Save"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("error: bad_argument: \"Save\" after name~=Open is not a selector term\n"),
        "{err}"
    );
    assert!(
        err.contains("hint: quote a value with spaces: role=button name~=\"Open Save\"\n"),
        "{err}"
    );
    // The form the hint gives finds the button.
    let out = cli(&dir, &["find", "role=button name~=\"Open Save\""]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("matches 1\n"), "{text}");
    assert!(text.contains(" button \"Open Save\""), "{text}");
    // A role that snapshots never print is refused, naming the nearest.
    let out = cli(&dir, &["find", "role=buton"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("error: bad_argument: unknown role \"buton\"\n"),
        "{err}"
    );
    assert!(err.contains("hint: did you mean role=button"), "{err}");
    // With --json, the same code, message and hint.
    let out = cli(&dir, &["--json", "find", "role=buton"]);
    assert!(
        stdout(&out).starts_with(
            "{\"ok\":false,\"code\":\"bad_argument\",\"message\":\"unknown role \\\"buton\\\"\",\"hint\":\"did you mean role=button"
        ),
        "{}",
        stdout(&out)
    );
    // Nothing was sent but the find that parsed.
    let journal = stdout(&cli(&dir, &["journal"]));
    assert_eq!(journal.matches("\nentry ").count(), 1, "{journal}");
    drop(app);
}

#[test]
fn no_live_app_exits_three_and_says_why() {
    let (_tmp, dir) = fresh_dir();
    let out = cli(&dir, &["status"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(stderr(&out).contains("app not running"), "{}", stderr(&out));
    // The hint is a line of its own, never part of the message.
    let err = stderr(&out);
    assert!(
        err.starts_with("error: not_running: app not running: no ready.txt in "),
        "{err}"
    );
    assert!(
        err.contains("\nhint: start the app with the automation feature"),
        "{err}"
    );
    assert!(!err.contains("(hint"), "{err}");
    let out = cli(&dir, &["--json", "status"]);
    assert_eq!(out.status.code(), Some(3));
    let text = stdout(&out);
    assert!(
        text.starts_with("{\"ok\":false,\"code\":\"not_running\","),
        "{text}"
    );
    assert!(
        text.contains(",\"hint\":\"start the app with the automation feature"),
        "{text}"
    );
    assert!(!text.contains("(hint"), "{text}");

    let mut app = ChildApp::start(&dir);
    let pid = app.child.id();
    app.kill();
    let out = cli(&dir, &["click", "@e1"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stderr(&out).contains(&format!("app not running (pid {pid} exited)")),
        "{}",
        stderr(&out)
    );
}

#[test]
fn json_output_is_one_object_per_answer() {
    let (_tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let out = cli(&dir, &["--json", "type", "a\"b"]);
    let text = stdout(&out);
    assert!(text.starts_with("{\"ok\":true,\"seq\":"), "{text}");
    assert!(text.contains("\"verb\":\"type\""), "{text}");
    assert!(text.contains("typed \\\"a\\\\\\\"b\\\"\\n"), "{text}");
    assert_eq!(text.lines().count(), 1);
    let out = cli(&dir, &["--json", "screenshot", "fail"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("\"code\":\"app_error\""),
        "{}",
        stdout(&out)
    );
    let (_tmp2, empty) = fresh_dir();
    let out = cli(&empty, &["--json", "status"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(
        stdout(&out).contains("\"code\":\"not_running\""),
        "{}",
        stdout(&out)
    );
}

#[test]
fn screenshot_out_copies_the_file_the_app_named() {
    let (tmp, dir) = fresh_dir();
    let _app = TestApp::builder().dir(&dir).start();
    let target = tmp.path().join("copy of shot.png");
    let out = cli(
        &dir,
        &["screenshot", "shot-1", "--out", target.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&target).unwrap(), b"\x89PNG fake");
}

#[test]
fn help_documents_targets_and_exit_codes() {
    let out = Process::new(cli_binary::cli())
        .arg("--help")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for needle in [
        "EXIT CODES",
        "usage error",
        "@e12",
        "--dir",
        "--timeout",
        "--json",
        "snapshot",
        "screenshot",
    ] {
        assert!(text.contains(needle), "--help lacks {needle}: {text}");
    }
}

#[test]
fn clean_help_states_the_answer_format() {
    let out = Process::new(cli_binary::cli())
        .args(["clean", "--help"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for needle in [
        "--keep",
        "--dry-run",
        "kept screenshot-",
        "would_remove",
        "freed_bytes",
        "symlinks",
        "app_error",
    ] {
        assert!(text.contains(needle), "clean --help lacks {needle}: {text}");
    }
}

#[test]
fn snapshot_find_get_and_wait_against_an_app_that_feeds_a_tree() {
    let (_tmp, dir) = fresh_dir();
    let state = winit_automation::WindowState {
        title: "Demo".into(),
        width: 800.0,
        height: 600.0,
        scale_factor: 1.0,
        focused: true,
    };
    let _app = TestApp::builder()
        .dir(&dir)
        .window(state)
        .tree(fixture::Form::default().update())
        .start();
    let out = cli(&dir, &["snapshot"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("button \"Save\""), "{text}");
    assert!(
        text.contains("[45 items below in @e6 list \"Files\"]"),
        "{text}"
    );
    let save = text
        .lines()
        .find(|l| l.contains("button \"Save\""))
        .and_then(|l| l.trim_start().split(' ').next())
        .unwrap()
        .to_owned();

    let out = cli(&dir, &["snapshot", "-i"]);
    assert!(!stdout(&out).contains("text value="), "{}", stdout(&out));

    let out = cli(&dir, &["find", "role=button", "name~=sav"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).starts_with("matches 1\n"), "{}", stdout(&out));
    assert!(stdout(&out).contains(&save));

    let out = cli(&dir, &["get", &save]);
    assert!(stdout(&out).contains("children 0"), "{}", stdout(&out));

    let out = cli(&dir, &["get", "role=listitem"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("ambiguous"), "{}", stderr(&out));

    let out = cli(&dir, &["wait", "role=checkbox", "name=\"Remember me\""]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    let out = cli(&dir, &["--timeout", "100", "wait", "role=dialog"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("error: timeout:"), "{}", stderr(&out));

    let out = cli(&dir, &["get", "@e9999"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("not_found"), "{}", stderr(&out));
}

/// The form, with its Volume slider also taking `set_value` (as egui's sliders do).
fn form_with_settable_slider() -> accesskit::TreeUpdate {
    let mut update = fixture::Form::default().update();
    for (id, node) in &mut update.nodes {
        if *id == fixture::VOLUME {
            node.add_action(Action::SetValue);
        }
    }
    update
}

#[test]
fn action_takes_its_value_after_the_name_as_the_protocol_does() {
    let (_tmp, dir) = fresh_dir();
    let app = common::showing(&dir, form_with_settable_slider());
    let found = stdout(&cli(&dir, &["find", "role=slider"]));
    let slider = found
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or_else(|| panic!("no slider in {found}"))
        .to_owned();
    assert!(slider.starts_with("@e"), "{found}");
    let sent = |args: &[&str]| {
        app.take_frames();
        let out = cli(&dir, args);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("path action\naction "),
            "{}",
            stdout(&out)
        );
        common::all(&app.take_frames())
    };
    // The egui gallery's case: a ref, a name, a number.
    assert_eq!(
        sent(&["action", &slider, "set_value", "100"]),
        [Handed::Action(
            Action::SetValue,
            fixture::VOLUME,
            Some(ActionData::NumericValue(100.0))
        )]
    );
    assert_eq!(
        sent(&["action", &slider, "set_value", "-5"]),
        [Handed::Action(
            Action::SetValue,
            fixture::VOLUME,
            Some(ActionData::NumericValue(-5.0))
        )]
    );
    // Selector terms, one per argument, then the name and a value with spaces and an `=`.
    assert_eq!(
        sent(&["action", "role=textbox", "name=Email", "set_value", "a b=c"]),
        [Handed::Action(
            Action::SetValue,
            fixture::EMAIL,
            Some(ActionData::Value("a b=c".into()))
        )]
    );
    // A value that is itself an action name is still the value.
    assert_eq!(
        sent(&["action", "role=textbox", "set_value", "focus"]),
        [Handed::Action(
            Action::SetValue,
            fixture::EMAIL,
            Some(ActionData::Value("focus".into()))
        )]
    );
    // A text starting with - goes after --.
    assert_eq!(
        sent(&["action", "role=textbox", "set_value", "--", "-x"]),
        [Handed::Action(
            Action::SetValue,
            fixture::EMAIL,
            Some(ActionData::Value("-x".into()))
        )]
    );
    // No value where none is needed.
    assert_eq!(
        sent(&["action", &slider, "increment"]),
        [Handed::Action(Action::Increment, fixture::VOLUME, None)]
    );
    // Given twice, or with a stray argument after it: a usage error, nothing sent.
    app.take_frames();
    for args in [
        &["action", &slider, "set_value", "1", "2"][..],
        &["action", &slider, "fly", "2"],
    ] {
        let out = cli(&dir, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    }
    let out = cli(&dir, &["action", &slider, "fly", "2"]);
    assert!(
        stderr(&out).contains("unknown action \"fly\""),
        "{}",
        stderr(&out)
    );
    assert!(common::all(&app.stop()).is_empty());
}

#[test]
fn action_help_says_value_goes_after_the_name() {
    let out = Process::new(cli_binary::cli())
        .args(["action", "--help"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = stdout(&out);
    for needle in [
        "action TARGET NAME [VALUE]",
        "VALUE follows the action name",
        "set_value",
    ] {
        assert!(
            text.contains(needle),
            "action --help lacks {needle}: {text}"
        );
    }
}

#[test]
fn every_protocol_verb_has_a_subcommand() {
    for verb in Verb::ALL {
        let out = Process::new(cli_binary::cli())
            .args([verb.as_str(), "--help"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "the CLI has no `{verb}` subcommand (`send '{verb} ...'` does not count): {}",
            stderr(&out)
        );
        assert!(
            stdout(&out).contains(&format!("winit-automation {verb}")),
            "{verb}: {}",
            stdout(&out)
        );
    }
}

#[test]
fn windows_lists_the_app_s_windows() {
    let (_tmp, dir) = fresh_dir();
    let _app = common::showing(&dir, fixture::Form::default().update());
    let out = cli(&dir, &["windows"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("window "), "{text}");
    assert!(text.contains(" \"Test\" size=800x600 scale=1"), "{text}");
    let out = cli(&dir, &["--json", "windows"]);
    assert!(
        stdout(&out).contains("\"verb\":\"windows\""),
        "{}",
        stdout(&out)
    );
}
