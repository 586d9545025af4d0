//! `audit` on a page built for it (examples/egui_audit.rs): each rule finds the widget built to
//! break it and not the one beside it that keeps it, the contrast measured in the frame's pixels
//! matches the colours the page asked for, the keyboard's walk gives the focus back, and the
//! marked frame shows the findings' boxes. Headless, on lavapipe.
use crate::common::demo;

use demo::*;
use winit_automation_protocol::{AuditAnswer, Rule};
use winit_automation_testing::{Allow, By};

/// The page headless, settled.
fn page() -> App {
    let app = start("egui_audit", Mode::Headless(640, 480));
    wait_for(&app, "button \"Save\"", "the page publishes its tree");
    app.ok("settle --timeout 20000");
    app
}

/// Each finding as (rule, the node's role and name or text).
fn found(answer: &AuditAnswer) -> Vec<(Rule, String)> {
    answer
        .findings
        .iter()
        .map(|f| {
            let text = f
                .node
                .value
                .as_ref()
                .and_then(|v| v.as_text())
                .unwrap_or("");
            (f.rule, format!("{} {}{}", f.node.role, f.node.name, text))
        })
        .collect()
}

/// The contrast ratio of two greys, as WCAG 2.2 defines it.
fn ratio(a: u8, b: u8) -> f64 {
    let lum = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let (a, b) = (lum(a), lum(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

#[test]
fn each_rule_finds_the_widget_that_breaks_it_and_not_the_one_that_keeps_it() {
    let app = page();
    let answer = app.audit().keyboard().run();
    let expected = [
        (Rule::Name, "button "),
        (Rule::TargetSize, "button a"),
        (Rule::TargetSize, "button b"),
        (Rule::Contrast, "text Faint text"),
        (Rule::Contrast, "text Small grey"),
        (Rule::ImageName, "image "),
        (Rule::Keyboard, "button Pointer only (0)"),
        (Rule::FocusOrder, "button Second"),
    ]
    .map(|(rule, what)| (rule, what.to_owned()));
    // Nothing else: "Save", "Wide", black text, large grey text, the named image and "First"
    // keep the rules and are not found.
    assert_eq!(found(&answer), expected, "{answer}");
    assert!(answer.not_run.is_empty(), "{answer}");
    assert_eq!(
        (
            answer.checked.controls,
            answer.checked.texts,
            answer.checked.images
        ),
        (12, 11, 2),
        "{answer}"
    );

    // The contrast measured in the pixels is the one the page asked for: #777777 and #949494 on
    // white, within 0.02 (anti-aliasing can only lower it, and the strokes at 16 px and 20 px
    // have pixels of their full colour).
    for (text, grey) in [("Faint text", 0x77), ("Small grey", 0x94)] {
        let finding = answer
            .findings
            .iter()
            .find(|f| f.node.value.as_ref().and_then(|v| v.as_text()) == Some(text))
            .unwrap();
        let measured: f64 = finding.evidence.split(':').next().unwrap().parse().unwrap();
        let want = ratio(grey, 0xff);
        assert!(
            (measured - want).abs() <= 0.02,
            "{text}: {measured} against {want}: {finding}"
        );
        assert!(
            finding
                .evidence
                .contains(&format!("text #{grey:02x}{grey:02x}{grey:02x} on #ffffff")),
            "{finding}"
        );
    }
    assert!((ratio(0x77, 0xff) - 4.48).abs() < 0.01 && (ratio(0, 0xff) - 21.0).abs() < 1e-9);

    // The walk gave the focus back (nothing had it), and the button Tab never reaches works with
    // the pointer: the finding is about the keyboard alone.
    let s = app.ok("snapshot -i --force");
    let nodes = s.lines().filter(|l| l.trim_start().starts_with('@'));
    assert!(
        nodes.clone().count() == 12 && nodes.clone().all(|l| !l.contains(" focused")),
        "{s}"
    );
    let clicked = app.ok("click role=button name~=\"Pointer only\" --settle");
    assert!(clicked.contains("hit verified"), "{clicked}");
    wait_for(&app, "button \"Pointer only (1)\"", "the pointer clicks it");
}

#[test]
fn a_scope_a_marked_frame_and_an_allow_list() {
    let app = page();
    // One subtree: the row of small buttons is found, nothing outside it is.
    let row = app.audit().within(&By::role("button").and_name("a")).run();
    assert_eq!(
        found(&row),
        [(Rule::TargetSize, "button a".to_owned())],
        "{row}"
    );
    assert!(row.scope.is_some(), "{row}");

    // The marked frame: each finding's box drawn in magenta; "Save" has no box.
    // With the keyboard's findings too: the frame is the one captured before the walk of Tab,
    // and every finding is drawn on it once the walk is done.
    let (answer, marked) = app.audit().keyboard().marked();
    let magenta = Some([255, 0, 255, 255]);
    let bottom_edge =
        |[x, y, w, h]: [f64; 4]| marked.pixel((x + w / 2.0) as u32, (y + h - 1.0) as u32);
    let unnamed = answer
        .findings
        .iter()
        .find(|f| f.rule == Rule::Name)
        .unwrap();
    let unreached = answer
        .findings
        .iter()
        .find(|f| f.rule == Rule::Keyboard)
        .unwrap();
    assert_eq!(
        bottom_edge(unreached.node.bounds.unwrap()),
        magenta,
        "the outline of the button Tab never reaches"
    );
    assert_eq!(
        bottom_edge(unnamed.node.bounds.unwrap()),
        magenta,
        "the unnamed button's outline"
    );
    let save = app.get_by_role_and_name("button", "Save");
    assert_ne!(
        bottom_edge(save.line().bounds.unwrap()),
        magenta,
        "\"Save\" keeps every rule"
    );

    // Allowed findings pass; the keyboard's rules, not asked for, fail nothing.
    app.audit().assert_clean(&[
        Allow::rule(Rule::TargetSize),
        Allow::rule(Rule::ImageName),
        Allow::rule(Rule::Contrast),
        Allow::rule(Rule::Name),
    ]);
}
