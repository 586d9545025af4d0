//! `audit` in an app that answers screenshots itself (the test app's default,
//! `Builder::app_screenshots`): the rules that need only the tree run, contrast is reported as
//! not run with why, never as clean, and `--screenshot` is refused with a hint. The rules with
//! pixels are tested on a real page in tests/examples/audit.rs.
use crate::common;
use crate::common::fixture;

use accesskit::{Node, Role};
use common::{TestApp, window_state};
use fixture::{node, tree};
use winit_automation_protocol::{AuditAnswer, ErrorCode, Rule};

fn app() -> TestApp {
    let mut image = Node::new(Role::Image);
    image.set_bounds(accesskit::Rect::new(10.0, 100.0, 42.0, 132.0));
    TestApp::builder()
        .name("audit")
        .window(window_state("Audit", 1.0))
        .tree(tree(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2, 3]),
            ),
            (1, node(Role::Button, "", [10.0, 10.0, 110.0, 50.0], &[])),
            (
                2,
                node(Role::Button, "Save", [200.0, 10.0, 300.0, 50.0], &[]),
            ),
            (3, image),
        ]))
        .start()
}

#[test]
fn without_pixels_contrast_is_not_run_and_the_tree_rules_still_are() {
    let app = app();
    let body = app.ok("audit");
    let answer = AuditAnswer::parse(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let found: Vec<(Rule, &str)> = answer
        .findings
        .iter()
        .map(|f| (f.rule, f.node.role.as_str()))
        .collect();
    assert_eq!(
        found,
        [(Rule::Name, "button"), (Rule::ImageName, "image")],
        "{body}"
    );
    let not_run: Vec<Rule> = answer.not_run.iter().map(|n| n.rule).collect();
    assert_eq!(not_run, [Rule::Contrast], "{body}");
    // The keyboard's rules were not asked for: not run, and not listed as if they could not.
    assert_eq!(
        answer.rules,
        [
            Rule::Name,
            Rule::TargetSize,
            Rule::Contrast,
            Rule::ImageName
        ],
        "{body}"
    );
    assert!(answer.not_run[0].why.contains("no pixels"), "{body}");
    assert!(!answer.is_clean());
    assert_eq!(
        (answer.checked.controls, answer.checked.texts),
        (2, 0),
        "{body}"
    );
}

#[test]
fn a_marked_frame_is_refused_where_the_plugin_holds_no_pixels() {
    let app = app();
    let response = app.send("audit --screenshot found");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Unsupported),
        "{response:?}"
    );
    assert!(!app.dir().join("screenshot-found.png").exists());
    // A scope that names nothing is refused as any target is.
    assert_eq!(
        app.error_code("audit role=dialog"),
        ErrorCode::NotFound,
        "{}",
        app.snapshot("-i")
    );
}
