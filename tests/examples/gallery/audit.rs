//! `audit` on egui's own gallery, an app nobody here wrote: every control `snapshot -i` prints
//! with no name and no label is a finding, the keyboard's walk gives the focus back, and the
//! default audit of the settled gallery is pinned as a golden.
use super::*;
use winit_automation_client::{ClientError, Fate};
use winit_automation_protocol::{AuditAnswer, Rule};

/// The roles a person operates (the audit's own list, stated again here as the test expects it).
const CONTROLS: &[&str] = &[
    "button",
    "checkbox",
    "radio",
    "switch",
    "textbox",
    "textarea",
    "number",
    "spinbutton",
    "slider",
    "combobox",
    "link",
    "tab",
    "menuitem",
    "option",
    "colorwell",
    "unknown",
];

#[test]
fn every_unnamed_unlabelled_control_is_a_finding_and_the_audit_is_pinned() {
    let (demo, _) = gallery();
    let interactive = demo.ok("snapshot -i --force");
    let body = demo.ok("audit");
    let answer = AuditAnswer::parse(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let unnamed: Vec<NodeRef> = NodeLine::all(&interactive)
        .into_iter()
        .filter(|n| CONTROLS.contains(&n.role.as_str()) && n.name.is_empty() && n.label.is_none())
        .map(|n| n.r#ref)
        .collect();
    assert!(
        unnamed.len() >= 2,
        "the gallery has unnamed text fields:\n{interactive}"
    );
    for r in &unnamed {
        assert!(
            answer
                .findings
                .iter()
                .any(|f| f.rule == Rule::Name && f.node.r#ref == *r),
            "{r} is unnamed and unlabelled in `snapshot -i` but not a finding:\n{body}"
        );
    }
    // Every rule asked for ran; the contrast of the gallery's texts was measured.
    assert!(answer.not_run.is_empty(), "{body}");
    assert_eq!(answer.rules.len(), 4, "{body}");
    assert!(answer.checked.texts > 50, "{body}");
    // The golden, less the frame it was taken in and the refs' numbers (which the start-up's
    // snapshots mint in an order that varies from run to run).
    let (_, pinned) = body.split_once('\n').unwrap();
    insta::assert_snapshot!("gallery_audit", without_ref_numbers(pinned));
}

/// `@e12` as `@e`.
fn without_ref_numbers(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("@e") {
        out.push_str(&rest[..at + 2]);
        rest = rest[at + 2..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// The node a snapshot says has the focus.
fn focused(snapshot: &str) -> Option<NodeRef> {
    NodeLine::all(snapshot)
        .into_iter()
        .find(|n| n.focused)
        .map(|n| n.r#ref)
}

/// Gives the Widget Gallery's text field the focus: the node a walk of Tab must give it back to.
fn focus_a_text_field(demo: &App) -> NodeRef {
    demo.ok("focus role=textbox text=\"Arthur\" --settle");
    let snapshot = demo.ok("snapshot -i --force");
    focused(&snapshot).unwrap_or_else(|| panic!("the text field took no focus:\n{snapshot}"))
}

#[test]
fn the_keyboard_s_walk_of_the_gallery_gives_the_focus_back() {
    let (demo, _) = gallery();
    let before = focus_a_text_field(&demo);
    let body = demo.ok("audit --keyboard");
    let answer = AuditAnswer::parse(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert!(answer.not_run.is_empty(), "{body}");
    // Tab reaches every control of the gallery, the drag values too (egui puts a text field
    // with a new id in a drag value's place when it takes the focus).
    assert!(
        answer.findings.iter().all(|f| f.rule != Rule::Keyboard),
        "{body}"
    );
    assert!(answer.rules.contains(&Rule::Keyboard), "{body}");
    let after = demo.ok("snapshot -i --force");
    assert_eq!(
        focused(&after),
        Some(before),
        "the focus is given back:\n{after}"
    );
}

#[test]
fn a_deadline_that_passes_mid_walk_gives_the_focus_back_before_the_answer() {
    let (demo, _) = gallery();
    let before = focus_a_text_field(&demo);
    // The gallery's walk takes well over a second (two frames a press, about 130 presses).
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    // The client waits up to the deadline and reads the app's `expired` answer as the fate.
    let sent = demo
        .client()
        .send_line(&format!("audit --keyboard --deadline {}", now_ms + 1_000));
    let Err(ClientError::Timeout {
        fate: Fate::Expired { message, .. },
        ..
    }) = sent
    else {
        panic!("not answered expired: {sent:?}");
    };
    assert!(
        message.contains("during the walk of Tab") && message.contains("the focus was given back"),
        "{message}"
    );
    let after = demo.ok("snapshot -i --force");
    assert_eq!(
        focused(&after),
        Some(before),
        "the focus is given back:\n{after}"
    );
}
