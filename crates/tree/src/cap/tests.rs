//! The cap's rules, on texts written here and on arbitrary trees (proptest), and an `AppTree`'s
//! capped snapshot.

use super::*;
use proptest::prelude::*;

const TREE: &str = r#"window 1 "Demo" size=800x600 scale=1 focused
  @e1 window "Demo" bounds=0,0,800x600
    @e2 checkbox "Remember me" unchecked bounds=20,60,150x24 actions=click
    @e3 list "Files" bounds=400,20,300x100 actions=scroll_up,scroll_down
      @e4 listitem "file-00.txt" bounds=400,20,300x20 actions=click
      @e5 listitem "file-01.txt" bounds=400,40,300x20 actions=click
      [45 items below in @e3 list "Files"]
    @e6 group
      @e7 group
        @e8 textbox "Email" value="ada@example.com" focused bounds=20,20,300x30 actions=focus,set_value
      @e9 button "Save" bounds=20,140,80x30 actions=click
window 2 "Other" size=300x200 scale=1
  @e10 window "Other"
    @e11 button "OK"
"#;

fn lines_of(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

#[test]
fn a_text_under_the_cap_is_unchanged() {
    let max = TREE.len() as u64 + 100;
    assert!(matches!(cut(TREE, max, 100, None), Cow::Borrowed(t) if t == TREE));
    assert!(matches!(cut(TREE, max, 101, None), Cow::Owned(_)));
}

#[test]
fn windows_and_the_focused_node_with_its_ancestors_are_kept_then_the_outline() {
    // Room for the pinned lines, the lines of depths 1 and 2, the first of depth 3 and the last
    // line.
    let cut_text = cut(TREE, 670, 0, None);
    let kept = lines_of(&cut_text);
    let (last, kept) = kept.split_last().unwrap();
    assert_eq!(
        kept.iter()
            .map(|l| l.trim_start())
            .map(|l| &l[..l.find(' ').unwrap()])
            .collect::<Vec<_>>(),
        [
            "window", "@e1", "@e2", "@e3", "@e4", "@e6", "@e7", "@e8", "window", "@e10", "@e11"
        ],
        "{cut_text}"
    );
    assert_eq!(
        *last,
        "[cut to 670 bytes: 2 nodes left out: 1 under @e3 list \"Files\", 1 under @e6 group; see them with --scope @e3 (1 of them), --depth, or a larger --max-bytes]\n"
    );
    assert!(cut_text.len() <= 670);
}

#[test]
fn the_last_actions_target_is_kept_with_its_ancestors() {
    let cut_text = cut(TREE, 0, 0, Some(NodeRef(5)));
    assert!(
        cut_text.contains("\n      @e5 listitem \"file-01.txt\""),
        "{cut_text}"
    );
    assert!(cut_text.contains("\n    @e3 list \"Files\""), "{cut_text}");
    assert!(!cut_text.contains("@e4 "), "{cut_text}");
}

#[test]
fn a_cap_the_kept_lines_cannot_meet_is_said() {
    let cut_text = cut(TREE, 10, 0, None);
    assert!(cut_text.len() > 10);
    assert!(
        cut_text.ends_with("[cut to 10 bytes, still over: windows, the focused node and the last action's target are always kept; 7 nodes left out: 4 under @e1 window \"Demo\", 2 under window 2 \"Other\", 1 under @e6 group; see them with --scope @e3 (3 of them), --depth, or a larger --max-bytes]\n"),
        "{cut_text}"
    );
    // Nothing to leave out, and still over.
    let windows = "window 1 \"Demo\" size=800x600 scale=1\n";
    assert_eq!(
        cut(windows, 5, 0, None),
        format!(
            "{windows}[cut to 5 bytes, still over: windows, the focused node and the last action's target are always kept; nothing left out]\n"
        )
    );
    assert!(
        cut("unchanged since frame 4\n", 0, 90, None)
            .starts_with("unchanged since frame 4\n[cut to 0 bytes, still over")
    );
}

#[test]
fn a_diff_keeps_its_lines_in_order_and_counts_the_changed_lines() {
    let line = |i: usize| format!("+ @e{} listitem \"file-{i:02}.txt\"\n", 20 + i);
    let focused = "~ @e8 textbox \"Email\" value=\"ada\" focused\n";
    let mut diff: String = (0..4).map(line).collect();
    diff.push_str(focused);
    diff.extend((4..10).map(line));
    let cut_text = cut(&diff, 300, 0, None);
    let kept: String = [
        line(0),
        line(1),
        line(2),
        line(3),
        focused.to_owned(),
        line(4),
    ]
    .concat();
    assert_eq!(
        cut_text,
        format!(
            "{kept}[cut to 300 bytes: 5 changed lines left out; --force without --diff prints the whole tree]\n"
        )
    );
}

#[test]
fn a_window_without_a_title_is_named_by_its_number() {
    let text = "window 3 size=10x10 scale=1\n  @e1 button \"A\"\n  @e2 button \"B\"\n";
    let cut_text = cut(text, 0, 0, None);
    assert!(
        cut_text.contains(": 2 under window 3; see them with a larger --max-bytes]"),
        "{cut_text}"
    );
}

// Arbitrary trees: windows, node lines (some focused) and hints, at consistent indentation.

/// One line to generate: what it is (0: a window, 1: a hint, else a node), the depth it asks
/// for, whether a node is focused, the length of its name.
type Gen = (u8, usize, bool, usize);

fn text_of(gens: &[Gen]) -> String {
    let mut out = String::from("window 1 \"w\" size=1x1 scale=1\n");
    let (mut windows, mut refs, mut depth) = (1, 0, 0);
    for &(kind, want, focused, name) in gens {
        match kind {
            0 => {
                windows += 1;
                depth = 0;
                out.push_str(&format!(
                    "window {windows} \"{}\" size=1x1 scale=1\n",
                    "t".repeat(name)
                ));
            }
            1 => {
                let d = want.clamp(1, depth + 1);
                out.push_str(&format!("{}[{name} items below]\n", "  ".repeat(d)));
                // A hint comes after its container's last node: what follows is no deeper.
                depth = d - 1;
            }
            _ => {
                let d = want.clamp(1, depth + 1);
                refs += 1;
                let state = if focused { " focused" } else { "" };
                out.push_str(&format!(
                    "{}@e{refs} button \"{}\"{state}\n",
                    "  ".repeat(d),
                    "n".repeat(name)
                ));
                depth = d;
            }
        }
    }
    out
}

/// Each line's ancestors' indices (the nearest line of each lower indentation above it).
fn ancestors_of(lines: &[&str]) -> Vec<Vec<usize>> {
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut stack: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        while stack.last().is_some_and(|&a| indent(lines[a]) >= indent(l)) {
            stack.pop();
        }
        out.push(stack.clone());
        stack.push(i);
    }
    out
}

/// Which input lines the output kept (its lines but the last are a subsequence of the input's).
fn kept_of(input: &[&str], output: &[&str]) -> Option<Vec<bool>> {
    let mut kept = vec![false; input.len()];
    let mut at = 0;
    for line in output {
        at += input[at..].iter().position(|l| l == line)?;
        kept[at] = true;
        at += 1;
    }
    Some(kept)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn whole_lines_in_order_under_the_cap_unless_the_kept_lines_alone_are_over(
        gens in prop::collection::vec((0u8..8, 0usize..6, prop::bool::weighted(0.1), 0usize..40), 0..80),
        max in 0u64..3000,
        rest in 0usize..300,
        keep in prop::option::of(1u64..80),
    ) {
        let text = text_of(&gens);
        let keep = keep.map(NodeRef);
        let out = cut(&text, max, rest, keep).into_owned();
        if rest + text.len() <= max as usize {
            prop_assert_eq!(out, text);
            return Ok(());
        }
        let input = lines_of(&text);
        let output = lines_of(&out);
        let (last, output) = output.split_last().unwrap();
        prop_assert!(last.starts_with(&format!("[cut to {max} bytes")) && last.ends_with("]\n"), "{}", last);
        let kept = kept_of(&input, output);
        prop_assert!(kept.is_some(), "not whole lines in order:\n{}", out);
        let kept = kept.unwrap();
        let ancestors = ancestors_of(&input);
        let mut pinned = vec![false; input.len()];
        for (i, l) in input.iter().enumerate() {
            let body = l.trim_start();
            let is_keep = keep.is_some_and(|k| body.starts_with(&format!("{k} ")));
            if l.starts_with("window ") || body.contains(" focused\n") || is_keep {
                pinned[i] = true;
                for &a in &ancestors[i] {
                    pinned[a] = true;
                }
            }
        }
        for i in 0..input.len() {
            prop_assert!(!pinned[i] || kept[i], "pinned line {} left out:\n{}", input[i], out);
            for &a in &ancestors[i] {
                prop_assert!(!kept[i] || kept[a], "{} kept without its ancestor {}", input[i], input[a]);
            }
        }
        let nodes = |lines: &[&str]| lines.iter().filter(|l| l.trim_start().starts_with("@e")).count();
        let left = nodes(&input) - nodes(output);
        if left > 0 {
            let said = format!(" {left} node{} left out", if left == 1 { "" } else { "s" });
            prop_assert!(last.contains(&said), "{} in {}", said, last);
        }
        if last.contains(", still over: ") {
            // Over only when nothing but the pinned lines is kept, and those with the last line
            // (as it would read under the cap) are over.
            prop_assert_eq!(&kept, &pinned);
            let under = last.replacen(", still over: windows, the focused node and the last action's target are always kept;", ":", 1);
            prop_assert!(rest + output.concat().len() + under.len() > max as usize);
        } else {
            prop_assert!(rest + out.len() <= max as usize, "{} bytes over {}:\n{}", rest + out.len(), max, out);
        }
    }
}

mod app_tree {
    use crate::fixture::{Form, one_window};
    use winit_automation_link::SceneChange;
    use winit_automation_protocol::{Selector, SnapshotOptions, Target};

    fn capped(max: u64) -> SnapshotOptions {
        SnapshotOptions {
            max_bytes: Some(max),
            force: true,
            ..SnapshotOptions::default()
        }
    }

    #[test]
    fn a_capped_snapshot_keeps_the_focused_node_and_the_last_target_and_history_the_whole_tree() {
        let mut trees = one_window(
            800.0,
            600.0,
            SceneChange::Update(1, Form::default().update()),
        );
        let whole = trees.snapshot(&SnapshotOptions::default(), 1).unwrap();
        let save = Selector::parse("role=listitem name=file-03.txt").unwrap();
        let target = trees.resolve(&Target::Selector(save)).unwrap();
        trees.acted_on(target);
        let text = trees.snapshot(&capped(700), 1).unwrap();
        assert!(text.len() <= 700, "{} bytes:\n{text}", text.len());
        assert!(text.starts_with("snapshot frame=1 "), "{text}");
        assert!(
            text.contains("\n    @e2 textbox \"Email\" value=\"ada@example.com\" focused "),
            "{text}"
        );
        assert!(text.contains(" listitem \"file-03.txt\" "), "{text}");
        assert!(!text.contains(" listitem \"file-02.txt\" "), "{text}");
        let last = text.lines().rev().nth(1).unwrap();
        assert!(last.starts_with("[cut to 700 bytes: "), "{text}");
        assert!(
            text.lines().last().unwrap().starts_with("metrics "),
            "{text}"
        );
        // An uncapped answer of the same size is the whole text; the history kept the whole tree.
        let again = trees
            .snapshot(&capped(whole.len() as u64 + 100), 2)
            .unwrap();
        assert_eq!(again.lines().count(), whole.lines().count(), "{again}");
        let diff = SnapshotOptions {
            diff: true,
            ..capped(0)
        };
        let text = trees.snapshot(&diff, 3).unwrap();
        assert!(text.contains("\nno changes\n"), "{text}");
    }
}

/// The interactive projection: its nodes start at the margin, under their window line.
const INTERACTIVE: &str = r#"window 1 "Demo" size=800x600 scale=1 focused
@e2 checkbox "Remember me"
@e4 listitem "file-00.txt"
  @e12 button "Open"
@e5 listitem "file-01.txt"
[45 items below in @e3 list "Files"]
@e8 textbox "Email" value="ada@example.com" focused
window 2 "Other" size=300x200 scale=1
@e11 button "OK"
@e13 button "Cancel"
@e14 text value="Are you sure you want to leave?"
@e15 checkbox "Do not ask again"
@e16 link "Help on leaving"
"#;

#[test]
fn nodes_at_the_margin_stand_under_their_window() {
    let cut_text = cut(INTERACTIVE, 420, 0, None);
    let kept = lines_of(&cut_text);
    let (last, kept) = kept.split_last().unwrap();
    // The windows and the focused node are kept, then the lines of the first level in order
    // while they fit; the nested button is counted under its list item, the others under their
    // window.
    assert_eq!(
        kept.iter()
            .map(|l| l.trim_start())
            .map(|l| &l[..l.find(' ').unwrap_or(l.len())])
            .collect::<Vec<_>>(),
        ["window", "@e2", "@e4", "@e5", "@e8", "window"],
        "{cut_text}"
    );
    assert_eq!(
        *last,
        "[cut to 420 bytes: 6 nodes left out: 5 under window 2 \"Other\", 1 under @e4 listitem \"file-00.txt\"; see them with --scope @e4 (1 of them), --depth, or a larger --max-bytes]\n"
    );
    assert!(cut_text.len() <= 420, "{}", cut_text.len());
}

#[test]
fn the_view_s_own_start_is_never_the_scope_and_the_counts_add_up() {
    // Five groups of two buttons under the window's root: the cap keeps the groups and leaves
    // the buttons out, one each under five containers.
    let mut text = String::from("window 1 \"Demo\"\n  @e1 window \"Demo\"\n");
    for g in 0..5 {
        text.push_str(&format!("    @e{} group \"G{g}\"\n", 10 + g));
        for b in 0..2 {
            text.push_str(&format!(
                "      @e{} button \"A button named B{g}{b}\"\n",
                20 + 2 * g + b
            ));
        }
    }
    let cut_text = cut(&text, 400, 0, None);
    let last = cut_text.lines().last().unwrap();
    // `[cut to 400 bytes: N nodes left out: a under .., b under .., c under .., d under others;
    // see them with --scope @eK (n of them), ...]`: the counts add up to N, and the scope is a
    // group, not the window's root.
    let (total, rest) = last
        .strip_prefix("[cut to 400 bytes: ")
        .and_then(|r| r.split_once(" nodes left out: "))
        .unwrap_or_else(|| panic!("{cut_text}"));
    let (counts, how) = rest.split_once(';').unwrap();
    let sum: usize = counts
        .split(", ")
        .map(|c| c.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(sum.to_string(), total, "{last}");
    assert!(counts.ends_with(" under others"), "{last}");
    assert!(
        how.starts_with(" see them with --scope @e1") && how.contains(" (2 of them), "),
        "{last}"
    );
    assert!(!how.starts_with(" see them with --scope @e1 "), "{last}");
    // With only the start's own children left out, the start is no scope: a larger cap is.
    let mut flat = String::from("window 1 \"Demo\"\n  @e1 window \"Demo\"\n");
    for b in 2..8 {
        flat.push_str(&format!("    @e{b} button \"A button named {b}\"\n"));
    }
    let cut_text = cut(&flat, 160, 0, None);
    assert!(cut_text.contains("\n  @e1 window"), "{cut_text}");
    assert!(
        cut_text.ends_with(
            "6 nodes left out: 6 under @e1 window \"Demo\"; see them with a larger --max-bytes]\n"
        ),
        "{cut_text}"
    );
}
