//! Snapshot rewriting for `insta`: a snapshot's tree without its header, metrics and refs, so
//! that it stays the same from run to run for the same UI ([`App::tree`](super::App::tree)).

use std::fmt::Write as _;

/// A snapshot's window and node lines without the header, the metrics and the refs: those that
/// start node lines, and those hints name containers and covering layers by (`[3 items below in
/// @e8 group]`, `[2 items under @e83 window ..]`).
pub(super) fn tree_text(body: &str) -> String {
    let mut out = String::new();
    for line in body.lines() {
        if line.starts_with("snapshot ") || line.starts_with("metrics ") {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let rest = line.trim_start();
        let rest = match rest.strip_prefix("@e") {
            Some(r) => r
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start(),
            None if rest.starts_with('[') => &without_refs(rest),
            None => rest,
        };
        let _ = writeln!(out, "{:indent$}{rest}", "");
    }
    out
}

/// A hint line with each ` @eN` left out.
fn without_refs(hint: &str) -> String {
    let mut out = String::with_capacity(hint.len());
    let mut rest = hint;
    while let Some(at) = rest.find(" @e") {
        let digits = rest[at + 3..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - at - 3);
        if digits == 0 {
            out.push_str(&rest[..at + 3]);
        } else {
            out.push_str(&rest[..at]);
        }
        rest = &rest[at + 3 + digits..];
    }
    out.push_str(rest);
    out
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
                    [2 items blocked by the modal @e7 dialog \"a @e9 b\"]\n\
                    metrics frames=3 fps=0\n";
        assert_eq!(
            tree_text(body),
            "window 1 \"Gallery\" size=1280x800 scale=1 focused\n  \
             button \"Widget Gallery\" checked\n  \
             [11 items below in group]\n  \
             [1 item under window \"Widget Gallery\"]\n    \
             text value=\"mail me @e5\"\n  \
             [2 items blocked by the modal dialog \"a b\"]\n"
        );
    }
}
