//! An action's diff as a person would tell it: what changed in named nodes and their states
//! first, then what went and what came (what came last: a node's last line is how it is now),
//! with unnamed structure counted instead of listed.
//!
//! A settled action answers with the changes of the regular projection. Opening a window or a tab
//! adds and removes dozens of unnamed groups that lay the named nodes out, a window's eight
//! resize handles, and hints that moved: listed one per line (`- @e132 group bounds=...`) they
//! make much of the answer and tell nothing a person notices. Here two or more added (or
//! removed) unnamed nodes of one role under one parent become one line,
//! `- 12 unnamed groups under @e40`, a window's resize handles (role `splitter`) likewise
//! (`+ 8 splitters under @e826`), and the hints of what a window now covers one line each way
//! (`+ 9 hints of covered items`); any other node that has a name, a label, a value, a state or
//! an action keeps its line, and so does a hint of what is scrolled out of view, so every line an
//! agent acts on next is still there.

use std::fmt::Write as _;

use winit_automation_protocol::{Token, tokenize};

use super::history::{Change, Diff};
use super::text_line::{Kind, TextLine};

/// A line's place in the brief: changed nodes, then the lines removed and added, then the counts.
fn rank(change: Change) -> usize {
    match change {
        Change::Changed => 0,
        Change::Removed => 1,
        Change::Added => 2,
    }
}

/// What a folded line counts as: a node of a role (`unnamed` when its line says nothing but its
/// role), or a hint.
#[derive(Clone, PartialEq, Eq)]
enum Folded {
    Node { unnamed: bool, role: String },
    Hint,
}

/// Roles whose nodes only lay the window out however they are named, when they take no action and
/// hold no value: a window's resize handles (a panel's divider that takes `set_value` keeps its
/// line).
const HANDLES: &[&str] = &["splitter"];

/// How a line of the diff is folded, if it is: a hint of what a higher layer covers (`[3 items
/// under @e9 window "B"]`, `[.. blocked by the modal ..]`), an unnamed node, a resize handle.
fn folded(line: &str) -> Option<Folded> {
    match TextLine::read(line).kind {
        Kind::Hint => {
            let covered = line.contains(" under @e") || line.contains(" blocked by the modal ");
            return covered.then_some(Folded::Hint);
        }
        Kind::Node(_) => {}
        Kind::Window(_) | Kind::Other => return None,
    }
    let (role, named) = bare_role(line)?;
    (!named || HANDLES.contains(&role.as_str())).then_some(Folded::Node {
        unnamed: !named,
        role,
    })
}

/// The role of a node line that says nothing but its role, perhaps its name, and its bounds (no
/// label, value, state or action), and whether it has a name.
fn bare_role(line: &str) -> Option<(String, bool)> {
    let tokens = tokenize(line).ok()?;
    let (role, rest) = match tokens.as_slice() {
        [_, role, rest @ ..] if role.quoted.is_none() => (role, rest),
        _ => return None,
    };
    let name = |t: &Token| t.bare.is_empty() && t.quoted.is_some();
    let (named, rest) = match rest {
        [first, more @ ..] if name(first) => (true, more),
        _ => (false, rest),
    };
    let bounds = |t: &Token| t.quoted.is_none() && t.bare.starts_with("bounds=");
    rest.iter().all(bounds).then(|| (role.bare.clone(), named))
}

/// `groups`, `images`; a role that does not take an `s` well is counted as nodes of it.
fn plural(role: &str) -> String {
    match role {
        "unknown" | "generic" => format!("{role} nodes"),
        _ if role.ends_with('s') => role.to_owned(),
        _ => format!("{role}s"),
    }
}

/// Lines folded into one: their change, what they stand under (none for hints), what they are,
/// and how many.
struct Run<'a> {
    change: Change,
    under: Option<&'a str>,
    what: Folded,
    count: usize,
}

impl Run<'_> {
    /// A node alone keeps its line (a count would be no shorter); hints are always counted.
    fn folds(&self) -> bool {
        self.count > 1 || self.what == Folded::Hint
    }

    /// `+ 12 unnamed groups under @e40`, `- 3 hints of covered items`.
    fn write(&self, out: &mut String) {
        let _ = write!(out, "{} {} ", self.change.tag(), self.count);
        match &self.what {
            Folded::Hint if self.count == 1 => out.push_str("hint of covered items"),
            Folded::Hint => out.push_str("hints of covered items"),
            Folded::Node { unnamed, role } => {
                if *unnamed {
                    out.push_str("unnamed ");
                }
                out.push_str(&plural(role));
            }
        }
        if let Some(parent) = self.under {
            let _ = write!(out, " under {parent}");
        }
        out.push('\n');
    }
}

impl Diff<'_> {
    /// The diff for an action's answer: `~` lines, then `-` and `+` lines, each in the order the
    /// diff has them, then one line per run of folded lines (unnamed nodes of a role under a
    /// parent, resize handles, hints of covered items); or `no changes`.
    pub fn brief(&self) -> String {
        if self.lines.is_empty() {
            return "no changes\n".to_owned();
        }
        // The runs in the order first met, and the run each line is in.
        let mut runs: Vec<Run> = Vec::new();
        let mut run_of = vec![None; self.lines.len()];
        for (i, &(change, line)) in self.lines.iter().enumerate() {
            if change == Change::Changed {
                continue;
            }
            let Some(what) = folded(line) else {
                continue;
            };
            let under = match what {
                Folded::Hint => None,
                Folded::Node { .. } => self.under.get(i).copied().flatten(),
            };
            let same = |r: &Run| r.change == change && r.under == under && r.what == what;
            let k = match runs.iter().position(same) {
                Some(k) => k,
                None => {
                    runs.push(Run {
                        change,
                        under,
                        what,
                        count: 0,
                    });
                    runs.len() - 1
                }
            };
            runs[k].count += 1;
            run_of[i] = Some(k);
        }
        let mut order: Vec<usize> = (0..self.lines.len())
            .filter(|&i| !run_of[i].is_some_and(|k| runs[k].folds()))
            .collect();
        order.sort_by_key(|&i| rank(self.lines[i].0));
        let mut out = String::new();
        for i in order {
            let (change, line) = self.lines[i];
            let _ = writeln!(out, "{} {line}", change.tag());
        }
        let mut folded_runs: Vec<&Run> = runs.iter().filter(|r| r.folds()).collect();
        folded_runs.sort_by_key(|r| rank(r.change));
        for run in folded_runs {
            run.write(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::history::diff;

    const BEFORE: &str = "window 1 \"App\" size=800x600 scale=1 focused
  @e2 tablist
    @e3 tab \"One\" selected bounds=0,0,40x20 actions=click
    @e4 tab \"Two\" bounds=40,0,40x20 actions=click
  @e5 group bounds=0,20,800x580
    @e6 group bounds=0,20,400x580
      @e7 group bounds=0,20,400x290
      @e8 group bounds=0,310,400x290
      @e9 button \"Old\" bounds=0,20,80x20 actions=click
";

    const AFTER: &str = "window 1 \"App\" size=800x600 scale=1 focused
  @e2 tablist
    @e3 tab \"One\" bounds=0,0,40x20 actions=click
    @e4 tab \"Two\" selected bounds=40,0,40x20 actions=click
  @e5 group bounds=0,20,800x580
    @e10 group bounds=0,20,400x580
      @e11 group bounds=0,20,400x290
      @e12 group bounds=0,310,400x290
      @e13 group bounds=0,310,400x290
      @e14 checkbox \"New\" bounds=0,20,80x20 actions=click
      @e15 image bounds=0,40,10x10
";

    #[test]
    fn state_changes_lead_and_unnamed_structure_is_counted_under_its_parent() {
        let brief = diff(BEFORE, AFTER).brief();
        assert_eq!(
            brief,
            "~ @e3 tab \"One\" bounds=0,0,40x20 actions=click
~ @e4 tab \"Two\" selected bounds=40,0,40x20 actions=click
- @e6 group bounds=0,20,400x580
- @e9 button \"Old\" bounds=0,20,80x20 actions=click
+ @e10 group bounds=0,20,400x580
+ @e14 checkbox \"New\" bounds=0,20,80x20 actions=click
+ @e15 image bounds=0,40,10x10
- 2 unnamed groups under @e6
+ 3 unnamed groups under @e10
"
        );
        // Every line it keeps is a line of the whole diff, and nothing named is left out.
        let whole = diff(BEFORE, AFTER).to_string();
        for line in brief.lines().filter(|l| !l.contains(" unnamed ")) {
            assert!(whole.lines().any(|w| w == line), "{line}");
        }
        assert!(brief.len() < whole.len());
    }

    #[test]
    fn a_window_s_resize_handles_and_what_it_covers_are_counted_dividers_and_what_scrolled_out_kept()
     {
        let before = "window 1 \"App\"\n  @e1 window \"A\"\n    [3 items under @e9 window \"B\"]\n    [2 items below in @e7 list \"L\"]\n";
        let after = "window 1 \"App\"
  @e1 window \"A\"
    @e2 splitter \"Resize window left edge\" bounds=0,0,6x400
    @e3 splitter \"Resize window right edge\" bounds=394,0,6x400
    @e4 button \"Close window\" bounds=380,5,14x14 actions=click,focus
    @e6 splitter \"Resize panel\" value=120 bounds=200,0,4x400 actions=set_value
    @e7 splitter \"Resize panel\" value=80 bounds=300,0,4x400 actions=set_value
    [13 items under @e5 window \"C\"]
    [2 items under @e5 window \"C\"]
    [4 items below in @e7 list \"L\"]
";
        assert_eq!(
            diff(before, after).brief(),
            "- [2 items below in @e7 list \"L\"]
+ @e4 button \"Close window\" bounds=380,5,14x14 actions=click,focus
+ @e6 splitter \"Resize panel\" value=120 bounds=200,0,4x400 actions=set_value
+ @e7 splitter \"Resize panel\" value=80 bounds=300,0,4x400 actions=set_value
+ [4 items below in @e7 list \"L\"]
- 1 hint of covered items
+ 2 splitters under @e1
+ 2 hints of covered items
"
        );
    }

    #[test]
    fn no_change_is_said_as_before() {
        assert_eq!(diff(BEFORE, BEFORE).brief(), "no changes\n");
    }

    #[test]
    fn a_count_names_the_window_when_there_is_no_parent_node_and_roles_read_as_plurals() {
        let before = "window 2 \"Tool\"\n";
        let after = "window 2 \"Tool\"\n  @e1 unknown\n  @e2 unknown\n  @e3 group\n";
        assert_eq!(
            diff(before, after).brief(),
            "+ @e3 group\n+ 2 unnamed unknown nodes under window 2\n"
        );
    }
}
