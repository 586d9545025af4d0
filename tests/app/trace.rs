//! `trace` (docs/protocol.md, section 6.6) against the in-process test app: what a trace records
//! of each command, what it refuses and why, and that a failed write loses nothing. The viewer
//! itself is opened in a browser by tests/examples/trace_viewer.rs.
use crate::common;
use crate::common::fixture;
use crate::common::trace_data;

use accesskit::{NodeId, Role, TreeUpdate};
use common::{TestApp, window_state};
use fixture::{node, tree};
use serde_json::Value;
use winit_automation_protocol::{AuditAnswer, ErrorCode, Rule};

/// A window "Trace" with a button "Save" at 10,10.
fn window() -> TreeUpdate {
    let mut update = tree(vec![
        (
            1,
            node(Role::Window, "Trace", [0.0, 0.0, 800.0, 600.0], &[2]),
        ),
        (
            2,
            node(Role::Button, "Save", [10.0, 10.0, 110.0, 40.0], &[]),
        ),
    ]);
    update.focus = NodeId(1);
    update
}

fn app() -> TestApp {
    TestApp::builder()
        .name("trace")
        .window(window_state("Trace", 1.0))
        .tree(window())
        .start()
}

/// The JSON a trace file holds.
fn data(file: &std::path::Path) -> Value {
    trace_data::trace_data(&std::fs::read_to_string(file).unwrap())
}

#[test]
fn a_trace_records_each_command_with_its_answer_target_and_tree_diff() {
    let app = app();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("session.html");
    assert!(app.ok("trace start").contains("screenshots off"));
    app.ok("find role=button");
    app.ok("status");
    let save = app.ok("find role=button name=\"Save\"");
    let r = save
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_owned();
    app.ok(&format!("click {r}"));
    // The app changes its tree: the next step's diff shows it.
    let mut renamed = window();
    renamed.nodes[1].1.set_label("Saved");
    app.publish(renamed);
    assert_eq!(
        app.error_code("click name=\"Nothing\""),
        ErrorCode::NotFound
    );
    let body = app.ok(&format!("trace stop {}", file.display()));
    assert!(body.contains("steps 4\n"), "{body}");

    let data = data(&file);
    assert_eq!(data["app"], "trace");
    assert_eq!(data["screenshots"], false);
    let steps = data["steps"].as_array().unwrap();
    // `status` and the trace's own commands are not steps.
    let commands: Vec<&str> = steps
        .iter()
        .map(|s| s["command"].as_str().unwrap())
        .collect();
    assert_eq!(commands[0], "find role=button");
    assert_eq!(commands[2], format!("click {r}"));
    assert_eq!(steps.len(), 4, "{commands:?}");
    let click = &steps[2];
    assert_eq!(click["ok"], true);
    assert_eq!(click["named"], "click role=button name=\"Save\"");
    assert_eq!(click["targets"][0]["selector"], "role=button name=\"Save\"");
    assert_eq!(
        click["targets"][0]["bounds"],
        serde_json::json!([10.0, 10.0, 100.0, 30.0])
    );
    assert_eq!(click["pointer"], serde_json::json!([60.0, 25.0]));
    assert!(click["frame"].as_u64().is_some());
    assert!(
        click["answer"].as_str().unwrap().starts_with("ok "),
        "{click}"
    );
    let refused = &steps[3];
    assert_eq!(refused["ok"], false);
    assert_eq!(refused["code"], "not_found");
    // A renamed node is another node (its ref changes), as `--settle` diffs say.
    let diff = refused["diff"].as_array().unwrap();
    let has = |tag: &str, text: &str| {
        diff.iter()
            .any(|d| d[0] == tag && d[1].as_str().unwrap().contains(text))
    };
    assert!(
        has("-", "button \"Save\" ") && has("+", "button \"Saved\" "),
        "the rename shows in the step after it: {refused}"
    );
    assert!(
        steps[0]["diff"].as_array().unwrap().is_empty(),
        "nothing changed before the first"
    );
    assert!(
        steps
            .windows(2)
            .all(|w| w[0]["end_ms"].as_f64() <= w[1]["end_ms"].as_f64()),
        "in answer order"
    );
}

#[test]
fn a_trace_refuses_what_it_cannot_do_and_a_failed_write_loses_nothing() {
    let app = app();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.html");
    let stop = format!("trace stop {}", file.display());
    assert_eq!(app.error_code(&stop), ErrorCode::NotTracing);
    app.ok("trace start");
    assert_eq!(
        app.error_code("trace start --screenshots"),
        ErrorCode::AlreadyTracing
    );
    app.ok("find role=button");

    // The wire takes absolute paths only: a raw line with a relative one is refused with the
    // hint (the client library would have made it absolute).
    let client = app.client();
    let seq = client.enqueue_line("trace save t.html").unwrap();
    let r = client.wait(seq).unwrap();
    assert_eq!(
        r.error_code(),
        Some(ErrorCode::BadArgument),
        "{}",
        r.to_text()
    );
    assert!(r.to_text().contains("absolute"), "{}", r.to_text());

    // A directory that does not exist: refused, and the trace keeps running with its steps.
    let nowhere = tmp.path().join("missing/t.html");
    let r = app.send(&format!("trace save {}", nowhere.display()));
    assert_eq!(r.error_code(), Some(ErrorCode::AppError), "{}", r.to_text());
    assert!(r.to_text().contains("keeps running"), "{}", r.to_text());
    // A directory is no file to write.
    let r = app.send(&format!("trace save {}", tmp.path().display()));
    assert_eq!(
        r.error_code(),
        Some(ErrorCode::BadArgument),
        "{}",
        r.to_text()
    );
    assert!(r.to_text().contains("is a directory"), "{}", r.to_text());
    app.ok("find role=window");
    let saved = app.ok(&format!("trace save {}", file.display()));
    assert!(saved.contains("steps 2\n"), "{saved}");
    // Saved, not stopped: it goes on, and stop writes it all.
    app.ok("find name=\"Save\"");
    let stopped = app.ok(&stop);
    assert!(stopped.contains("steps 3\n"), "{stopped}");
    assert_eq!(data(&file)["steps"].as_array().unwrap().len(), 3);
    assert_eq!(app.error_code(&stop), ErrorCode::NotTracing);
    // The trace is not in the journal.
    assert!(
        !app.ok("journal").contains("trace "),
        "{}",
        app.ok("journal")
    );
}

#[test]
fn a_replaceable_trace_gives_way_to_the_next_start() {
    let app = app();
    app.ok("trace start --replaceable");
    app.ok("find role=button");
    // A client's own trace replaces it, saying what was dropped; its own is not replaceable.
    let body = app.ok("trace start");
    assert!(
        body.contains("replaced a replaceable trace (since frame ")
            && body.contains("1 steps dropped"),
        "{body}"
    );
    assert_eq!(app.error_code("trace start"), ErrorCode::AlreadyTracing);
    app.ok("find role=window");
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("t.html");
    let stopped = app.ok(&format!("trace stop {}", file.display()));
    assert!(stopped.contains("steps 1\n"), "{stopped}");
    assert_eq!(data(&file)["steps"][0]["command"], "find role=window");
}

#[test]
fn an_audit_step_holds_its_findings_with_their_boxes() {
    // An unnamed button beside "Save": the audit finds it.
    let app = TestApp::builder()
        .name("trace")
        .window(window_state("Trace", 1.0))
        .tree(tree(vec![
            (
                0,
                node(Role::Window, "Trace", [0.0, 0.0, 800.0, 600.0], &[1, 2]),
            ),
            (
                1,
                node(Role::Button, "Save", [10.0, 10.0, 110.0, 40.0], &[]),
            ),
            (2, node(Role::Button, "", [200.0, 10.0, 300.0, 40.0], &[])),
        ]))
        .start();
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("audit.html");
    app.ok("trace start");
    let body = app.ok("audit");
    let answer = AuditAnswer::parse(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    assert!(
        answer
            .findings
            .iter()
            .any(|f| f.rule == Rule::Name && f.node.bounds == Some([200.0, 10.0, 100.0, 30.0])),
        "{body}"
    );
    app.ok(&format!("trace stop {}", file.display()));

    let traced = data(&file);
    let step = &traced["steps"][0];
    assert_eq!(step["verb"], "audit", "{step:#}");
    // Each finding as the answer lists it: its rule, criterion, impact, evidence, node line and
    // box, for the viewer to list and draw.
    let held: Vec<Value> = answer
        .findings
        .iter()
        .map(|f| {
            serde_json::json!({
                "rule": f.rule.as_str(),
                "wcag": f.rule.criterion().0,
                "impact": f.rule.impact().as_str(),
                "evidence": f.evidence,
                "node": f.node.to_string(),
                "bounds": f.node.bounds,
            })
        })
        .collect();
    assert_eq!(step["findings"], Value::Array(held), "{step:#}");
    // And its answer, as its client read it, lists them too.
    let text = step["answer"].as_str().unwrap();
    for finding in &answer.findings {
        assert!(text.contains(&finding.to_string()), "{text}");
    }
    // Another step holds none.
    app.ok("trace start");
    app.ok("find role=button");
    app.ok(&format!("trace stop {}", file.display()));
    assert_eq!(data(&file)["steps"][0]["findings"], serde_json::json!([]));
}
