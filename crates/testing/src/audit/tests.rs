//! The harness's audit against a fake app that answers as the service does: the typed answer,
//! the allows, and what a failing assertion says and leaves.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::*;
use crate::compare::Rgba;
use crate::fake_app::FakeApp;
use winit_automation_protocol::{ErrorCode, Failure, Rule};

/// What the fake app answers `audit` with, as the service does: the rules asked for, and the
/// findings.
const FINDINGS: &str = r#"frame 40
audit window=1 findings=2 rules=name,target-size,contrast,image-name controls=5 texts=3 unmeasured=0 images=0
name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus
target-size 2.5.8 serious "16x16 px; 24x24 needed" @e14 button "×" bounds=40,20,16x16 actions=click,focus
"#;

/// Its answer to `audit --keyboard`: the keyboard's rules asked for too, and not run (Tab
/// focused nothing).
const KEYBOARD: &str = r#"frame 40
audit window=1 findings=2 rules=name,target-size,contrast,image-name,keyboard,focus-order controls=5 texts=3 unmeasured=0 images=0
not-run keyboard "Tab focused nothing: the window may not take keys"
not-run focus-order "Tab focused nothing: the window may not take keys"
name 4.1.2 critical "no name and no label" @e12 button bounds=10,20,14x14 actions=click,focus
target-size 2.5.8 serious "16x16 px; 24x24 needed" @e14 button "×" bounds=40,20,16x16 actions=click,focus
"#;

/// A 4x4 PNG, red: the frame with the findings marked.
fn png(path: &std::path::Path) {
    Rgba::filled(4, 4, [255, 0, 0, 255]).write(path).unwrap();
}

/// A fake app answering `audit` with [`FINDINGS`] ([`KEYBOARD`] with `--keyboard`; and the
/// marked frame for `--screenshot`),
/// `find` with @e14 for the close button, and what a failure's artifacts ask for.
fn app() -> FakeApp {
    FakeApp::start(Box::new(|command, dir| match command {
        Command::Audit {
            screenshot,
            keyboard,
            ..
        } => {
            if let Some(label) = screenshot {
                png(&dir.join(label.file_name()));
            }
            Ok(if *keyboard { KEYBOARD } else { FINDINGS }.to_owned())
        }
        Command::Find { selector } if selector.to_string() == r#"role=button name="×""# => {
            Ok("matches 1\n@e14 button \"×\" bounds=40,20,16x16\n".to_owned())
        }
        Command::Find { .. } => Ok("matches 0\n".to_owned()),
        Command::Snapshot(_) => Ok("frame 40\n@e12 button\n@e14 button \"×\"\n".to_owned()),
        Command::Journal { .. } => Ok("next 1\n".to_owned()),
        Command::Screenshot { label, .. } => {
            png(&dir.join(label.file_name()));
            Ok(format!("frame 40\nfile {}\n", label.file_name()))
        }
        other => Err(Failure::new(
            ErrorCode::BadArgument,
            format!("the fake app was not asked {other}"),
            "",
        )),
    }))
}

fn panic_text(e: Box<dyn std::any::Any + Send>) -> String {
    match e.downcast::<String>() {
        Ok(s) => *s,
        Err(e) => e
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .unwrap_or_default(),
    }
}

#[test]
fn run_returns_the_typed_answer_and_the_builder_says_the_scope_and_keyboard() {
    let fake = app();
    let app = fake.app();
    let answer = app.audit().run();
    assert_eq!(answer.frame, 40);
    let rules: Vec<Rule> = answer.findings.iter().map(|f| f.rule).collect();
    assert_eq!(rules, [Rule::Name, Rule::TargetSize]);
    assert_eq!(answer.findings[1].node.name, "×");
    app.audit().within(&By::role("dialog")).keyboard().run();
    let (marked_answer, marked) = app.audit().marked();
    assert_eq!(marked_answer, answer);
    assert_eq!(marked.pixel(0, 0), Some([255, 0, 0, 255]));
    assert_eq!(
        fake.seen(),
        [
            "audit",
            "audit role=dialog --keyboard",
            "audit --screenshot audit-0"
        ]
    );
}

#[test]
fn assert_clean_passes_what_is_allowed_and_returns_the_whole_answer() {
    let fake = app();
    let app = fake.app();
    let answer = app.audit().assert_clean(&[
        Allow::rule(Rule::Name),
        Allow::node(&By::role("button").and_name("×")),
    ]);
    assert_eq!(answer.findings.len(), 2);
    assert_eq!(
        fake.seen(),
        ["audit --screenshot audit-0", r#"find role=button name="×""#]
    );
    // A passing assertion leaves no marked frame behind.
    assert!(!fake.dir().join("screenshot-audit-0.png").exists());
}

#[test]
fn assert_clean_fails_with_the_findings_and_leaves_the_marked_frame_as_audit_png() {
    let fake = app();
    let app = fake.app();
    let failed = catch_unwind(AssertUnwindSafe(|| {
        app.audit().assert_clean(&[Allow::rule(Rule::Name)]);
    }));
    let message = panic_text(failed.unwrap_err());
    let lines: Vec<&str> = message.lines().collect();
    assert_eq!(
        lines[0],
        "the audit of window 1 (frame 40) is not clean: 1 finding(s), 0 rule(s) not run; 1 finding(s) allowed"
    );
    // The rules that ran: the keyboard's were not asked for, so not named.
    assert_eq!(
        lines[2],
        "  rules run: name, target-size, contrast, image-name"
    );
    assert_eq!(lines[3], format!("  {}", FINDINGS.lines().nth(3).unwrap()));
    assert_eq!(
        lines[4],
        r#"if it is meant to be, allow it on its node: Allow::rule(Rule::TargetSize).on(&By::role("button").and_name("×")), or the whole rule: Allow::rule(Rule::TargetSize)"#
    );
    let folder = crate::artifacts::folder().unwrap();
    let audit_png = folder.join("audit.png");
    assert_eq!(
        lines[5],
        format!("the findings marked: {}", audit_png.display())
    );
    assert!(
        message.contains("the interactive snapshot now:"),
        "{message}"
    );
    assert!(
        message.contains("artifacts (tree, journal, trace, screenshot): "),
        "{message}"
    );
    assert_eq!(
        Rgba::read(&audit_png).unwrap().pixel(3, 3),
        Some([255, 0, 0, 255])
    );
    assert!(folder.join("screenshot.png").exists());
    // A test that catches the failure keeps what it wrote; this one tidies up.
    let _ = std::fs::remove_dir_all(folder);
}

#[test]
fn assert_clean_with_the_keyboard_fails_on_its_rules_not_run() {
    let fake = app();
    let app = fake.app();
    let failed = catch_unwind(AssertUnwindSafe(|| {
        app.audit()
            .keyboard()
            .assert_clean(&[Allow::rule(Rule::Name), Allow::rule(Rule::TargetSize)]);
    }));
    let message = panic_text(failed.unwrap_err());
    assert!(
        message.starts_with("the audit of window 1 (frame 40) is not clean: 0 finding(s), 2 rule(s) not run; 2 finding(s) allowed\n"),
        "{message}"
    );
    assert!(
        message.contains("\n  rules run: name, target-size, contrast, image-name\n"),
        "{message}"
    );
    assert!(
        message.contains("\n  not-run keyboard \"Tab focused nothing: the window may not take keys\"\n  not-run focus-order "),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(crate::artifacts::folder().unwrap());
    app.audit().keyboard().assert_clean(&[
        Allow::rule(Rule::Name),
        Allow::rule(Rule::TargetSize),
        Allow::rule(Rule::Keyboard),
        Allow::rule(Rule::FocusOrder),
    ]);
}
