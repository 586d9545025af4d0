//! What an agent pays on the gallery (docs/mcp.md has the figures): the interactive projection's
//! bytes a node, an action's answer told as a person notices it against the whole diff of the
//! same change, and a capped snapshot of a busy scene. Each figure is printed for the docs, and
//! each check holds the app to what was measured.

use super::{added, gallery};
use crate::common::demo::*;
use crate::common::{line_of, node_bytes, now, ref_in};

/// The diff part of a settled action's answer: the lines after `settled frame ...`.
fn changes(body: &str) -> &str {
    let at = body
        .find("\nsettled frame ")
        .unwrap_or_else(|| panic!("not settled: {body}"));
    let after = &body[at + 1..];
    &after[after.find('\n').map_or(after.len(), |i| i + 1)..]
}

/// The same change as `snapshot --diff` lists it, every line: the regular view's last snapshot
/// was taken right before the action.
fn whole_diff(demo: &App) -> String {
    demo.ok("snapshot --diff")
        .lines()
        .filter(|l| ["+ ", "- ", "~ "].iter().any(|t| l.starts_with(t)))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A settled action's answer, its changes, and every line of the same change; printed as `what`
/// costs, with what the answer took when it listed every line.
fn measured(demo: &App, action: &str, what: &str) -> (String, String, String) {
    demo.ok("snapshot --force");
    let body = demo.ok(&format!("{action} --settle --timeout 20000"));
    let brief = changes(&body).to_owned();
    let whole = whole_diff(demo);
    println!(
        "agent cost: {what} answers {} bytes; its diff {} bytes, every line {} bytes (before: {} bytes)",
        body.len(),
        brief.len(),
        whole.len(),
        body.len() - brief.len() + whole.len()
    );
    (body, brief, whole)
}

#[test]
fn the_interactive_projection_and_an_action_s_answer_cost_what_a_person_would_notice() {
    let (demo, _) = gallery();

    // `-i`: under 30 bytes a node, the node lines alone.
    let interactive = demo.ok("snapshot -i --force");
    let (nodes, bytes) = node_bytes(&interactive);
    println!(
        "agent cost: snapshot -i: {nodes} nodes, node lines {bytes} bytes ({:.1} a node), whole answer {} bytes ({:.1} a node)",
        bytes as f64 / nodes as f64,
        interactive.len(),
        interactive.len() as f64 / nodes as f64
    );
    assert!(
        nodes > 100 && bytes < 30 * nodes,
        "{bytes} bytes for {nodes} nodes\n{interactive}"
    );
    // Nothing an agent acts on is shortened: a long text by its start, which finds it.
    let start = line_of(&interactive, "value~=\"egui is an immediate\"");
    let found = demo.ok("find text~=\"egui is an immediate\"");
    assert!(found.contains(&ref_in(start)), "{found}");

    // A click that changes a checkbox: the change leads, and nothing else is said.
    let (body, brief, whole) = measured(
        &demo,
        "click role=checkbox name=Checkbox",
        "a checkbox click",
    );
    assert!(brief.starts_with("~ "), "{body}");
    assert!(
        now(&brief, "checkbox \"Checkbox\"").contains(" checked"),
        "{body}"
    );
    assert!(brief.len() <= whole.len(), "{brief}\n{whole}");

    // A click that opens a window: its named lines stay; its unnamed layout, its resize handles
    // and the hints that moved are counted.
    let (_, brief, whole) = measured(
        &demo,
        "click role=button name~=\"Window Options\"",
        "a click that opens a window",
    );
    added(&brief, "titlebar \"🔲 Window Options\"");
    assert!(
        brief
            .lines()
            .any(|l| l.starts_with("+ ") && l.contains(" splitters under @e")),
        "{brief}"
    );
    assert!(brief.len() < whole.len(), "{brief}\n{whole}");
    // Every named node's line of the whole diff is in the answer, but for the resize handles.
    let named = |l: &&str| l.contains('"') && !l[2..].starts_with('[') && !l.contains(" splitter ");
    for line in whole.lines().filter(named) {
        assert!(
            brief.lines().any(|b| b == line),
            "{line} left out of\n{brief}"
        );
    }
    demo.quit();
}

#[test]
fn a_capped_snapshot_of_a_busy_gallery_stays_under_its_cap_and_names_what_it_left_out() {
    let (demo, _) = gallery();
    // One more window, and a focused text field that is the last action's target.
    demo.ok("click role=button name~=\"Font Book\" --settle --timeout 20000");
    demo.ok("fill role=textbox nth=1 capped --settle --timeout 20000");
    let whole = demo.ok("snapshot --force");
    let titlebars = whole.lines().filter(|l| l.contains(" titlebar ")).count();
    assert!(titlebars >= 3, "{whole}");

    const CAP: usize = 3000;
    let capped = demo.ok(&format!("snapshot --force --max-bytes {CAP}"));
    println!(
        "agent cost: the regular snapshot of {titlebars} windows is {} bytes; capped at {CAP}: {} bytes",
        whole.len(),
        capped.len()
    );
    assert!(capped.len() <= CAP, "{} bytes\n{capped}", capped.len());
    // Whole lines of the snapshot, the focused field among them.
    for line in capped.lines().filter(|l| l.trim_start().starts_with('@')) {
        assert!(
            whole.lines().any(|w| w == line),
            "{line:?} is not a line of the tree"
        );
    }
    assert!(
        line_of(&capped, "value=\"capped\"").contains(" focused"),
        "{capped}"
    );
    // The last line before the metrics says what was left out, where, and how to see it.
    let last = capped
        .lines()
        .find(|l| l.starts_with("[cut to "))
        .unwrap_or_else(|| panic!("no cut line in {capped}"));
    assert!(
        last.starts_with(&format!("[cut to {CAP} bytes: ")) && last.contains(" nodes left out: "),
        "{last}"
    );
    // `--scope @eK (N of them)`: that scope shows N node lines the cap left out.
    let (scope, many) = last
        .split_once("--scope ")
        .and_then(|(_, r)| r.split_once(" of them)"))
        .and_then(|(r, _)| r.split_once(" ("))
        .unwrap_or_else(|| panic!("no scope in {last}"));
    let many: usize = many.parse().unwrap_or_else(|_| panic!("{last}"));
    let inside = demo.ok(&format!("snapshot --force --scope {scope}"));
    let left_out = inside
        .lines()
        .filter(|l| l.trim_start().starts_with('@'))
        .filter(|l| !capped.contains(l.trim_start()))
        .count();
    assert!(left_out >= many && many > 1, "{last}\n{inside}");

    // `-i` under a cap: its lines at the margin are counted under their window.
    let capped = demo.ok("snapshot -i --force --max-bytes 1200");
    assert!(capped.len() <= 1200, "{capped}");
    let last = line_of(&capped, "[cut to 1200 bytes: ");
    assert!(last.contains(" under window 1 "), "{last}");
    demo.quit();
}
