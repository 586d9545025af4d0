//! What the tests read from an answer's text, one helper a job: a line, the node or the ref on
//! it, a window's lines, the frame a snapshot or an answer names. Shared by the in-process tests
//! and the examples' (`use crate::common::{ref_of, ...}`).

use winit_automation_protocol::{NodeLine, NodeRef, Response};

/// The first line of `text` that contains `what`.
#[track_caller]
pub fn line_of<'a>(text: &'a str, what: &str) -> &'a str {
    text.lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{text}"))
}

/// The last line of `body` that contains `what`: in an answer with a diff, the node as it is now
/// (the `target` line above it shows it as it was).
#[track_caller]
pub fn now<'a>(body: &'a str, what: &str) -> &'a str {
    body.lines()
        .rfind(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{body}"))
}

/// The node of a line of a snapshot or a `find` answer, of a diff (`~ @eN ...`) or an action's
/// `target @eN ...` line.
#[track_caller]
pub fn node_in(line: &str) -> NodeLine {
    NodeLine::parse(line)
        .or_else(|| {
            let (_, rest) = line.trim_start().split_once(' ')?;
            NodeLine::parse(rest)
        })
        .unwrap_or_else(|| panic!("no node on {line:?}"))
}

/// The first ref on a line: a node's (of a snapshot, a `find` answer, a diff, a `target` line),
/// or the one a hint names a layer's root by (`+ [7 items under @e185 window ...]`).
#[track_caller]
pub fn ref_in(line: &str) -> String {
    line.split(' ')
        .find(|t| NodeRef::parse(t).is_some())
        .unwrap_or_else(|| panic!("no ref on {line:?}"))
        .to_owned()
}

/// Each of `what` is on a node line of `snapshot` (one that starts with its ref).
#[track_caller]
pub fn assert_nodes(snapshot: &str, what: &[&str]) {
    for what in what {
        assert!(
            line_of(snapshot, what).trim_start().starts_with("@e"),
            "{what} is on no node line:\n{snapshot}"
        );
    }
}

/// The ref on the first line of `text` that contains `what`.
#[track_caller]
pub fn ref_of(text: &str, what: &str) -> String {
    ref_in(line_of(text, what))
}

/// The ref on the `nth` line (0-based) of `text` that contains `what`.
#[track_caller]
pub fn ref_of_nth(text: &str, what: &str, nth: usize) -> String {
    let line = text
        .lines()
        .filter(|l| l.contains(what))
        .nth(nth)
        .unwrap_or_else(|| panic!("no line {nth} with {what:?} in\n{text}"));
    ref_in(line)
}

/// `bounds=X,Y,WxH` of the node on a line ([`node_in`]).
#[track_caller]
pub fn bounds(line: &str) -> (f64, f64, f64, f64) {
    match node_in(line).bounds {
        Some([x, y, w, h]) => (x, y, w, h),
        None => panic!("no bounds: {line}"),
    }
}

/// The window lines of a snapshot (`window <n> ...`), in order.
pub fn window_lines(snapshot: &str) -> Vec<&str> {
    snapshot
        .lines()
        .filter(|l| l.starts_with("window "))
        .collect()
}

/// The node lines of a snapshot (`@eN ...`) and their bytes, newlines included.
pub fn node_bytes(snapshot: &str) -> (usize, usize) {
    let nodes: Vec<&str> = snapshot
        .lines()
        .filter(|l| l.trim_start().starts_with('@'))
        .collect();
    (nodes.len(), nodes.iter().map(|l| l.len() + 1).sum())
}

/// The frame a snapshot's header names (`frame=N`).
#[track_caller]
pub fn snapshot_frame(snapshot: &str) -> u64 {
    snapshot
        .split_whitespace()
        .find_map(|w| w.strip_prefix("frame="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no frame= in {snapshot}"))
}

/// The frame an `ok` answer names (its `frame` line).
#[track_caller]
pub fn frame_of(response: &Response) -> u64 {
    assert!(response.is_ok(), "{response:?}");
    response
        .frame()
        .unwrap_or_else(|| panic!("no frame line: {response:?}"))
}
