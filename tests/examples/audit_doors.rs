//! One app state, audited through each door: the CLI (its text and `--json`), the MCP server's
//! `audit` tool, the harness (`app.audit()`) and a script's `expect audit clean`, all with the
//! keyboard's rules, on the page built to break each rule (examples/egui_audit.rs). Each door
//! gives the same findings: the same rule on the same node, as the app wrote its line. Headless,
//! on lavapipe.
use crate::common::cli_binary;
use crate::common::demo;
use crate::common::mcp_session;

use std::path::Path;

use cli_binary::{stderr, stdout};
use demo::*;
use mcp_session::tool;
use winit_automation_protocol::{AuditAnswer, Finding};

/// Each finding as its rule and its node's line (ref, role, name, states, bounds, actions).
type Found = Vec<(String, String)>;

fn found(findings: &[Finding]) -> Found {
    findings
        .iter()
        .map(|f| (f.rule.as_str().to_owned(), f.node.to_string()))
        .collect()
}

use cli_binary::run as cli;

/// The CLI's `audit --keyboard`: its text, read as the answer it prints.
fn through_the_cli(dir: &Path) -> Found {
    let out = cli(dir, &["audit", "--keyboard"]);
    let stdout = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr(&out));
    let answer = AuditAnswer::parse(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert!(answer.not_run.is_empty(), "{stdout}");
    found(&answer.findings)
}

/// The CLI's `--json audit --keyboard`: the findings of its `audit` object.
fn through_the_cli_as_json(dir: &Path) -> Found {
    let out = cli(dir, &["--json", "audit", "--keyboard"]);
    let stdout = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr(&out));
    let v: serde_json::Value =
        serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let audit = &v["audit"];
    assert_eq!(audit["clean"], false, "{stdout}");
    assert_eq!(audit["not_run"], serde_json::json!([]), "{stdout}");
    audit["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("no findings in {stdout}"))
        .iter()
        .map(|f| {
            let field = |k: &str| f[k].as_str().unwrap_or_else(|| panic!("{k}: {f}"));
            assert!(field("line").starts_with(field("ref")), "{f}");
            (field("rule").to_owned(), field("line").to_owned())
        })
        .collect()
}

/// `winit-automation mcp`'s `audit` tool with `keyboard`, driven by rmcp's client.
async fn through_mcp(dir: &Path) -> Found {
    let client = mcp_session::start(dir).await;
    let said = tool(&client, "audit", serde_json::json!({"keyboard": true})).await;
    client.cancel().await.expect("the session ends");
    let answer = AuditAnswer::parse(&said).unwrap_or_else(|e| panic!("{e}: {said}"));
    assert!(answer.not_run.is_empty(), "{said}");
    found(&answer.findings)
}

/// `expect audit clean --keyboard` run by the CLI's script runner: it fails at its line, listing
/// each finding as the app wrote it.
fn through_a_script(dir: &Path) -> Found {
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("audit.script");
    std::fs::write(&script, "expect audit clean --keyboard\n").unwrap();
    let out = cli(dir, &["run", script.to_str().unwrap()]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{}{err}", stdout(&out));
    assert!(
        err.contains("audit.script:1: expect audit clean --keyboard"),
        "{err}"
    );
    assert!(err.contains(" 0 rule(s) not run"), "{err}");
    assert!(
        err.contains(
            "\n  rules run: name, target-size, contrast, image-name, keyboard, focus-order\n"
        ),
        "{err}"
    );
    err.lines()
        .filter_map(|l| l.strip_prefix("  "))
        .filter_map(|l| Finding::parse(l).ok())
        .map(|f| (f.rule.as_str().to_owned(), f.node.to_string()))
        .collect()
}

#[tokio::test(flavor = "current_thread")]
async fn the_cli_mcp_the_harness_and_a_script_give_the_same_findings() {
    let app = start("egui_audit", Mode::Headless(640, 480));
    wait_for(&app, "button \"Save\"", "the page publishes its tree");
    app.ok("settle --timeout 20000");
    let dir = app.dir().to_path_buf();

    let harness = app.audit().keyboard().run();
    assert!(harness.not_run.is_empty(), "{harness}");
    let harness = found(&harness.findings);
    // Every rule breaks on the page: eight findings, the keyboard's among them.
    assert_eq!(harness.len(), 8, "{harness:#?}");
    for rule in [
        "name",
        "target-size",
        "contrast",
        "image-name",
        "keyboard",
        "focus-order",
    ] {
        assert!(
            harness.iter().any(|(r, _)| r == rule),
            "{rule}: {harness:#?}"
        );
    }

    let cli_text = through_the_cli(&dir);
    let cli_json = through_the_cli_as_json(&dir);
    let mcp = through_mcp(&dir).await;
    let script = through_a_script(&dir);
    assert_eq!(cli_text, harness, "the CLI's text against the harness's");
    assert_eq!(cli_json, harness, "the CLI's --json against the harness's");
    assert_eq!(mcp, harness, "the MCP tool's against the harness's");
    assert_eq!(
        script, harness,
        "the script's failure against the harness's"
    );
    // The walks gave the focus back each time: no control is focused.
    let s = app.ok("snapshot -i --force");
    let mut nodes = s.lines().filter(|l| l.trim_start().starts_with('@'));
    assert!(nodes.all(|l| !l.contains(" focused")), "{s}");
}
