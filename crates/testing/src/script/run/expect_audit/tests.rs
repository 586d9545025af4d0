use super::*;
use crate::By;
use crate::fake_app::FakeApp;
use crate::script::{Expect, RunFailure, RunOptions, Script, StepKind};
use winit_automation_protocol::Rule;

fn expect(text: &str) -> Expect {
    match Script::parse(text).map(|s| s.steps.into_iter().next().map(|s| s.kind)) {
        Ok(Some(StepKind::Expect(e))) => e,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn an_audit_expectation_takes_a_scope_the_keyboard_and_allows() {
    assert_eq!(
        expect("expect audit clean"),
        Expect::Audit {
            scope: None,
            keyboard: false,
            allow: Vec::new()
        }
    );
    assert_eq!(
        expect(
            r#"expect audit clean role=dialog name="Settings" --keyboard --allow target-size --allow contrast role=text name~="hint" --allow role=button name="×""#
        ),
        Expect::Audit {
            scope: Some(Target::parse(r#"role=dialog name="Settings""#).unwrap()),
            keyboard: true,
            allow: vec![
                Allow::rule(Rule::TargetSize),
                Allow::rule(Rule::Contrast).on(&By::role("text").and_name_contains("hint")),
                Allow::node(&By::role("button").and_name("×")),
            ],
        }
    );
    match expect("expect audit clean @e4 --allow name") {
        Expect::Audit { scope, allow, .. } => {
            assert_eq!(scope, Some(Target::Ref(NodeRef(4))));
            assert_eq!(allow, [Allow::rule(Rule::Name)]);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_bad_audit_expectation_is_refused_with_its_line() {
    for (text, says) in [
        ("expect audit", "expect audit clean"),
        ("expect audit dirty", "expect audit clean"),
        ("expect audit clean @e1 @e2", "after the target"),
        ("expect audit clean --allow", "takes a rule or selector"),
        ("expect audit clean --allow tiny", "not a rule"),
        ("expect audit clean --keyboard yes", "takes no value"),
        ("expect audit clean --timeout 10", "unknown flag --timeout"),
    ] {
        let e = Script::parse(&format!("status\n{text}\n")).unwrap_err();
        assert_eq!(e.line, 2, "{text}: {e}");
        assert!(e.message.contains(says), "{text}: {e} (wanted {says:?})");
    }
}

/// What the fake app answers `audit` with: a name finding on @e12 and a target-size one on @e14,
/// and with `--screenshot LABEL` it writes the marked frame, as the service does.
const FINDINGS: &str = r#"frame 40
audit window=1 findings=2 rules=name,target-size,contrast,image-name,keyboard,focus-order controls=5 texts=3 unmeasured=0 images=0
name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus
target-size 2.5.8 serious "16x16 px; 24x24 needed" @e14 button "×" bounds=40,20,16x16 actions=click,focus
"#;

const CLEAN: &str =
    "frame 41\naudit window=1 findings=0 controls=5 texts=3 unmeasured=0 images=0\n";

/// A fake app answering `audit` with `body`, writing the marked frame unless `no_pixels` (then
/// it refuses `--screenshot`, as an app with no pixels might), and `find role=button
/// name="×"` with @e14.
fn app(body: &'static str, no_pixels: bool) -> FakeApp {
    FakeApp::start(Box::new(move |command, dir| match command {
        Command::Audit {
            screenshot: Some(_),
            ..
        } if no_pixels => Err(winit_automation_protocol::Failure::new(
            winit_automation_protocol::ErrorCode::BadArgument,
            "this app answers screenshots itself",
            "audit without --screenshot",
        )),
        Command::Audit { screenshot, .. } => {
            if let Some(label) = screenshot {
                std::fs::write(dir.join(label.file_name()), b"marked").unwrap();
            }
            Ok(body.to_owned())
        }
        Command::Find { selector } if selector.to_string() == r#"role=button name="×""# => {
            Ok("matches 1\n@e14 button \"×\" bounds=40,20,16x16\n".to_owned())
        }
        Command::Find { .. } => Ok("matches 0\n".to_owned()),
        Command::Snapshot(_) | Command::Status => Ok("frame 1\n".to_owned()),
        other => Err(winit_automation_protocol::Failure::new(
            winit_automation_protocol::ErrorCode::BadArgument,
            format!("the fake app was not asked {other}"),
            "",
        )),
    }))
}

fn run(app: &FakeApp, script: &str) -> Result<String, Box<RunFailure>> {
    let options = RunOptions {
        base: std::path::PathBuf::new(),
        update: false,
        deadline: None,
    };
    let mut said = String::new();
    Script::parse(script)
        .unwrap()
        .run(&app.client(), &options, |_, s| said = s.to_owned())?;
    Ok(said)
}

#[test]
fn a_clean_audit_passes_and_leaves_no_marked_frame() {
    let app = app(CLEAN, false);
    let said = run(&app, "expect audit clean\n").unwrap();
    assert_eq!(
        said,
        "audit clean: 5 controls, 3 texts, 0 images checked; 0 finding(s) allowed"
    );
    assert_eq!(app.seen(), ["audit --screenshot script-0"]);
    assert!(!app.dir().join("screenshot-script-0.png").exists());
}

#[test]
fn findings_fail_the_run_with_their_lines_and_the_marked_frame_kept() {
    let app = app(FINDINGS, false);
    let failure = run(&app, "status\nexpect audit clean role=dialog --keyboard\n").unwrap_err();
    assert_eq!(failure.step.line, 2);
    let reason: Vec<&str> = failure.reason.lines().collect();
    assert_eq!(
        reason[0],
        "the audit of window 1 (frame 40) is not clean: 2 finding(s), 0 rule(s) not run"
    );
    // The rules asked for (--keyboard's included) all ran.
    assert_eq!(
        reason[2],
        "  rules run: name, target-size, contrast, image-name, keyboard, focus-order"
    );
    assert_eq!(reason[3], format!("  {}", FINDINGS.lines().nth(2).unwrap()));
    assert_eq!(reason[4], format!("  {}", FINDINGS.lines().nth(3).unwrap()));
    assert_eq!(
        reason[5],
        "if it is meant to be, allow the rule: --allow name"
    );
    let marked = app.dir().join("screenshot-script-1.png");
    assert_eq!(
        reason.last().copied(),
        Some(format!("the findings marked: {}", marked.display()).as_str())
    );
    assert!(marked.exists());
    assert_eq!(
        app.seen()[1..2],
        ["audit role=dialog --keyboard --screenshot script-1"]
    );
    // The run stopped with the interactive snapshot, as every failure does.
    assert!(failure.snapshot.is_some());
}

#[test]
fn allows_by_rule_and_by_the_nodes_the_app_finds_let_the_findings_pass() {
    let app = app(FINDINGS, false);
    let said = run(
        &app,
        "expect audit clean --allow name --allow role=button name=\"×\"\n",
    )
    .unwrap();
    assert!(said.ends_with("2 finding(s) allowed"), "{said}");
    assert_eq!(
        app.seen(),
        [
            "audit --screenshot script-0",
            r#"find role=button name="×""#
        ]
    );
    // The same selector on another rule, or a selector that finds other nodes, allows nothing.
    let failure = run(
        &app,
        "expect audit clean --allow name --allow contrast role=button name=\"×\" --allow role=dialog\n",
    )
    .unwrap_err();
    assert!(
        failure
            .reason
            .contains("1 finding(s), 0 rule(s) not run; 1 finding(s) allowed"),
        "{}",
        failure.reason
    );
}

#[test]
fn a_rule_that_did_not_run_fails_unless_allowed_and_a_refused_screenshot_is_asked_again() {
    const NOT_RUN: &str = "frame 7\naudit window=1 findings=0 rules=name,target-size,contrast,image-name controls=2 texts=1 unmeasured=0 images=0\nnot-run contrast \"this app answers screenshots itself: the plugin holds no pixels to measure\"\n";
    let app = app(NOT_RUN, true);
    let failure = run(&app, "expect audit clean\n").unwrap_err();
    assert!(
        failure
            .reason
            .contains("\n  rules run: name, target-size, image-name\n  not-run contrast \"this app answers screenshots itself"),
        "{}",
        failure.reason
    );
    assert!(
        failure.reason.contains(
            "the findings marked: none (`--screenshot` was refused: error bad_argument: this app answers screenshots itself"
        ),
        "{}",
        failure.reason
    );
    assert!(
        failure
            .reason
            .contains("\nif it is meant to be, allow the rule: --allow contrast\n"),
        "{}",
        failure.reason
    );
    assert_eq!(app.seen()[..2], ["audit --screenshot script-0", "audit"]);
    run(&app, "expect audit clean --allow contrast\n").unwrap();
}
