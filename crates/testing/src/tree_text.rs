//! Snapshot rewriting for `insta`: a snapshot's tree without its header, metrics and refs, so
//! that it stays the same from run to run for the same UI ([`App::tree`](super::App::tree)).
//!
//! Lines are read as the protocol's values, never searched as text: the header is a
//! [`SnapshotHeader`], a node line a [`NodeLine`] (its ref is its first token), and a hint is
//! split by the protocol's lexer, so a quoted name or value that holds ` @e9 ` stays as it is.

use std::fmt::Write as _;

use winit_automation_protocol::{NodeLine, NodeRef, SnapshotHeader, Token, tokenize};

/// A snapshot's window and node lines without the header, the metrics and the refs: those that
/// start node lines, and those hints name containers and covering layers by (`[3 items below in
/// @e8 group]`, `[2 items under @e83 window ..]`).
pub(super) fn tree_text(body: &str) -> String {
    let mut out = String::new();
    for (i, line) in body.lines().enumerate() {
        let header = i == 0 && is_header(line);
        if header || line.starts_with("metrics ") {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let rest = line.trim_start();
        let without = match NodeLine::parse(rest) {
            // The ref is the line's first token, written as `NodeRef` writes it; the rest of the
            // line is kept byte for byte.
            Some(node) => rest
                .strip_prefix(&node.r#ref.to_string())
                .unwrap_or(rest)
                .trim_start()
                .to_owned(),
            None => hint_without_refs(rest).unwrap_or_else(|| rest.to_owned()),
        };
        let _ = writeln!(out, "{:indent$}{without}", "");
    }
    out
}

/// Whether the first line is the snapshot's header: one [`SnapshotHeader`] reads, or, from a newer
/// app whose header this version does not read (a new quality word), one that starts with the
/// `snapshot` word.
fn is_header(line: &str) -> bool {
    SnapshotHeader::parse(line).is_ok()
        || tokenize(line)
            .ok()
            .and_then(|tokens| tokens.into_iter().next())
            .is_some_and(|t| t.quoted.is_none() && t.bare == "snapshot")
}

/// A hint line (`[3 items below in @e8 group "Rows"]`) with each bare ref token left out; `None`
/// when the line is no hint (or does not tokenize). Quoted text is never touched.
fn hint_without_refs(line: &str) -> Option<String> {
    let inside = line.strip_prefix('[')?.strip_suffix(']')?;
    let tokens = tokenize(inside).ok()?;
    let kept: Vec<String> = tokens
        .iter()
        .filter(|t| !(t.quoted.is_none() && NodeRef::parse(&t.bare).is_some()))
        .map(Token::written)
        .collect();
    Some(format!("[{}]", kept.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_for_insta_carry_no_refs_hints_included() {
        let body = "snapshot frame=3 protocol=1 quality=healthy\n\
                    window 1 \"Gallery\" size=1280x800 scale=1 focused\n  \
                    @e37 button \"Widget Gallery\" checked\n  \
                    [11 items below in @e8 group]\n  \
                    [1 item under @e83 window \"Widget Gallery\"]\n    \
                    @e90 text value=\"mail me @e5\"\n  \
                    [2 items blocked by the modal @e7 dialog \"a @e9 b\"]\n  \
                    [3 children below --depth 2]\n\
                    metrics frames=3 fps=0\n";
        assert_eq!(
            tree_text(body),
            "window 1 \"Gallery\" size=1280x800 scale=1 focused\n  \
             button \"Widget Gallery\" checked\n  \
             [11 items below in group]\n  \
             [1 item under window \"Widget Gallery\"]\n    \
             text value=\"mail me @e5\"\n  \
             [2 items blocked by the modal dialog \"a @e9 b\"]\n  \
             [3 children below --depth 2]\n"
        );
    }

    #[test]
    fn a_quoted_name_holding_a_ref_stays_intact() {
        let body = "snapshot frame=3 protocol=3 quality=healthy\n\
                    window 1 \"see @e4 here\" size=10x10 scale=1\n  \
                    @e5 button \"a @e9 b\" label=\"x @e1\"\n    \
                    [1 item below in @e5 button \"a @e9 b\"]\n  \
                    [2 items under @e6 dialog \"Quote \\\" @e9 \\\" end\"]\n";
        assert_eq!(
            tree_text(body),
            "window 1 \"see @e4 here\" size=10x10 scale=1\n  \
             button \"a @e9 b\" label=\"x @e1\"\n    \
             [1 item below in button \"a @e9 b\"]\n  \
             [2 items under dialog \"Quote \\\" @e9 \\\" end\"]\n"
        );
    }

    #[test]
    fn a_newer_app_s_header_is_left_out_too() {
        let body = "snapshot frame=3 protocol=9 quality=brilliant\nwindow 1 \"W\"\n  @e2 button \"snapshot x\"\n";
        assert_eq!(tree_text(body), "window 1 \"W\"\n  button \"snapshot x\"\n");
    }
}
