//! The size cap of a snapshot's answer (`snapshot --max-bytes N`, docs/protocol.md section 6.2,
//! "Size cap"): whole lines of its tree (or diff) part are left out until the answer fits, the
//! outline of every window first, and one last line says what was left out and how to see it.
//! Text in, text out: it knows nothing of the mirror.

use std::borrow::Cow;
use std::fmt::Write as _;

use winit_automation_protocol::{NodeLine, NodeRef};

use super::text_line::{self, TextLine};

/// What a line of the part is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A line at the left margin that is no change: a window line, `unchanged since frame N`,
    /// `no changes`, `whole tree: ...`. Always kept.
    Margin,
    /// A node line, `@eN role ...`, at its indentation.
    Node,
    /// A diff's line: `+ ...`, `- ...`, `~ ...`.
    Change,
    /// A hint (`[3 items below in @e6 list "Files"]`), or another indented line.
    Hint,
}

/// One line of the part.
struct Line<'a> {
    /// The line, with its newline.
    text: &'a str,
    /// As the tree text's readers read it (`text_line.rs`).
    read: TextLine<'a>,
    kind: Kind,
}

impl<'a> Line<'a> {
    fn of(text: &'a str) -> Line<'a> {
        let read = TextLine::read(text);
        let margin = read.indent == 0;
        let kind = match read.kind {
            text_line::Kind::Node(_) => Kind::Node,
            text_line::Kind::Hint => Kind::Hint,
            _ if margin && ["+ ", "- ", "~ "].iter().any(|t| read.body.starts_with(t)) => {
                Kind::Change
            }
            _ if margin => Kind::Margin,
            _ => Kind::Hint,
        };
        Line { text, read, kind }
    }

    /// Its depth in the tree (`TextLine::level`).
    fn level(&self) -> usize {
        self.read.level()
    }

    /// The line without its indentation and newline.
    fn body(&self) -> &'a str {
        self.read.body
    }

    /// Whether the line is kept whatever the cap: a line at the margin, the focused node's line,
    /// `keep`'s line; in a diff, the line that adds or changes either node.
    fn pinned(&self, keep: Option<NodeRef>) -> bool {
        let node = match self.kind {
            Kind::Margin => return true,
            Kind::Hint => return false,
            Kind::Node => self.body(),
            Kind::Change => match self.body().split_at(2) {
                ("- ", _) => return false,
                (_, node) => node,
            },
        };
        let first = node.split(' ').next().unwrap_or_default();
        (keep.is_some() && NodeRef::parse(first) == keep)
            || (node.contains("focused") && NodeLine::parse(node).is_some_and(|n| n.focused))
    }

    /// How a container is named in the last line: a node by its ref, role and name
    /// (`@e4 window "Widgets"`), a window by its number and title (`window 1 "Demo"`).
    fn describe(&self) -> String {
        let body = self.body();
        let named = match self.kind {
            Kind::Node => NodeLine::parse(body).map(|n| n.describe()),
            _ => self.read.window_title(),
        };
        named.unwrap_or_else(|| body.to_owned())
    }
}

/// The part as lines, which of them are always kept, and the order the rest is kept in.
struct Part<'a> {
    lines: Vec<Line<'a>>,
    /// The line each stands under (`text_line::parents`).
    parents: Vec<Option<usize>>,
    /// Always kept: pinned lines and their ancestors (the lines of lower level above them).
    pinned: Vec<bool>,
    /// The other lines, breadth first: by level, then in the part's order.
    order: Vec<usize>,
}

impl<'a> Part<'a> {
    fn new(text: &'a str, keep: Option<NodeRef>) -> Part<'a> {
        let lines: Vec<Line> = text.split_inclusive('\n').map(Line::of).collect();
        let reads: Vec<TextLine> = lines.iter().map(|l| l.read).collect();
        let parents = text_line::parents(&reads);
        let mut pinned = vec![false; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            if line.pinned(keep) {
                pinned[i] = true;
                // A pinned ancestor's own ancestors are pinned already.
                let mut at = parents[i];
                while let Some(a) = at {
                    if std::mem::replace(&mut pinned[a], true) {
                        break;
                    }
                    at = parents[a];
                }
            }
        }
        let mut order: Vec<usize> = (0..lines.len()).filter(|&i| !pinned[i]).collect();
        order.sort_by_key(|&i| lines[i].level());
        Part {
            lines,
            parents,
            pinned,
            order,
        }
    }

    /// The lines kept within `budget` bytes: the pinned ones whatever their size, then the others
    /// in breadth-first order until the first that does not fit.
    fn fill(&self, budget: usize) -> Vec<bool> {
        let mut kept = self.pinned.clone();
        let mut used: usize = self.kept_len(&kept);
        for &i in &self.order {
            let len = self.lines[i].text.len();
            if used + len > budget {
                break;
            }
            used += len;
            kept[i] = true;
        }
        kept
    }

    fn kept_len(&self, kept: &[bool]) -> usize {
        self.lines
            .iter()
            .zip(kept)
            .filter(|(_, k)| **k)
            .map(|(l, _)| l.text.len())
            .sum()
    }

    /// What `kept` leaves out: node lines counted under their nearest kept ancestor.
    fn left_out(&self, kept: &[bool]) -> LeftOut {
        let mut left = LeftOut::default();
        let mut per_container = vec![0usize; self.lines.len()];
        // Each left-out subtree (a left-out line whose parent is kept) and the nodes it holds.
        let mut per_subtree = vec![0usize; self.lines.len()];
        for (i, line) in self.lines.iter().enumerate() {
            if kept[i] {
                continue;
            }
            match line.kind {
                Kind::Node => {
                    left.nodes += 1;
                    // Up to the nearest kept ancestor: the subtree's root is the line below it.
                    let (mut root, mut at) = (i, self.parents[i]);
                    while let Some(a) = at.filter(|&a| !kept[a]) {
                        root = a;
                        at = self.parents[a];
                    }
                    per_subtree[root] += 1;
                    if let Some(c) = at {
                        per_container[c] += 1;
                    }
                }
                Kind::Change => left.changes += 1,
                Kind::Hint | Kind::Margin => left.hints += 1,
            }
        }
        // Where `--scope` shows the most of what was left out: the root of the largest left-out
        // subtree of more than one node, else the kept container holding the most, unless it is
        // the view's own start (scoping to it answers the same).
        let largest = |counts: &[usize], fits: &dyn Fn(usize, usize) -> bool| {
            counts
                .iter()
                .enumerate()
                .filter(|&(r, &n)| fits(r, n) && self.lines[r].kind == Kind::Node)
                .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))
                .and_then(|(r, &n)| Some((self.lines[r].read.name()?.to_owned(), n)))
        };
        left.scope = largest(&per_subtree, &|_, n| n > 1)
            .or_else(|| largest(&per_container, &|c, n| n > 0 && !self.is_start(c)));
        let mut under: Vec<(usize, usize)> = per_container
            .into_iter()
            .enumerate()
            .filter(|(_, n)| *n > 0)
            .map(|(c, n)| (n, c))
            .collect();
        under.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        under.truncate(3);
        left.elsewhere = left.nodes - under.iter().map(|(n, _)| n).sum::<usize>();
        left.under = under
            .into_iter()
            .map(|(n, c)| (n, self.lines[c].describe()))
            .collect();
        left
    }

    /// Whether line `i` is the start of its window's walk: the one line under its window line (or
    /// at the top), which holds all the others.
    fn is_start(&self, i: usize) -> bool {
        let parent = self.parents[i];
        let top = parent.is_none_or(|p| self.lines[p].level() == 0);
        top && self.parents.iter().filter(|&&p| p == parent).count() == 1
    }

    /// The kept lines, in order.
    fn text(&self, kept: &[bool]) -> String {
        let mut out = String::with_capacity(self.kept_len(kept));
        for (line, _) in self.lines.iter().zip(kept).filter(|(_, k)| **k) {
            out.push_str(line.text);
        }
        out
    }
}

/// What a cut left out.
#[derive(Default)]
struct LeftOut {
    nodes: usize,
    changes: usize,
    hints: usize,
    /// The kept containers most of the nodes are under (at most 3, the most first): how many,
    /// and the container as the last line names it.
    under: Vec<(usize, String)>,
    /// The nodes under other kept containers.
    elsewhere: usize,
    /// Where `--scope` shows the most of what was left out, and how many nodes it holds of it.
    scope: Option<(String, usize)>,
}

/// `n` and the noun, plural unless `n` is 1.
fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl LeftOut {
    /// The last line: `[cut to N bytes: 212 nodes left out: 120 under @e4 window "Widgets", 92
    /// under @e90 group; see them with --scope @e31 (64 of them), --depth, or a larger --max-bytes]`; `over`:
    /// the kept lines alone are over the cap, and the line says so.
    fn line(&self, max: u64, over: bool) -> String {
        let mut out = format!("[cut to {max} bytes");
        if over {
            out.push_str(", still over: windows, the focused node and the last action's target are always kept;");
        } else {
            out.push(':');
        }
        let Some(what) = self.what() else {
            out.push_str(" nothing left out]\n");
            return out;
        };
        let _ = write!(out, " {what} left out");
        for (i, (n, container)) in self.under.iter().enumerate() {
            let _ = write!(
                out,
                "{}{n} under {container}",
                if i == 0 { ": " } else { ", " }
            );
        }
        if self.elsewhere > 0 {
            let _ = write!(out, ", {} under others", self.elsewhere);
        }
        out.push_str(&self.how());
        out.push_str("]\n");
        out
    }

    /// What was left out, counted: the node lines and a diff's changed lines, else the hints.
    fn what(&self) -> Option<String> {
        let mut what: Vec<String> = Vec::new();
        if self.nodes > 0 {
            what.push(counted(self.nodes, "node", "nodes"));
        }
        if self.changes > 0 {
            what.push(counted(self.changes, "changed line", "changed lines"));
        }
        if what.is_empty() && self.hints > 0 {
            what.push(counted(self.hints, "hint line", "hint lines"));
        }
        (!what.is_empty()).then(|| what.join(" and "))
    }

    /// How to see what was left out: `--scope` on the largest left-out subtree, else a larger
    /// cap; for a diff, the whole tree.
    fn how(&self) -> String {
        if self.nodes == 0 && self.changes > 0 {
            return "; --force without --diff prints the whole tree".to_owned();
        }
        match &self.scope {
            Some((scope, n)) => {
                format!(
                    "; see them with --scope {scope} ({n} of them), --depth, or a larger --max-bytes"
                )
            }
            // Single lines under the windows or the view's start only: nothing to scope to.
            None => "; see them with a larger --max-bytes".to_owned(),
        }
    }
}

/// `text`, the part of a snapshot's answer between its header (and warnings) and its metrics
/// line, cut so that the answer (`rest` more bytes with it) holds at most `max` bytes: unchanged
/// when it fits, else its kept lines and a last line saying what was left out. Kept are every line
/// at the margin that is no change (window lines), the focused node's line, the line of `keep` (the
/// last action's target) and their ancestors, whatever their size; then lines breadth first
/// while they fit. Over `max` only when those alone are, and then the last line says so.
pub fn cut(text: &str, max: u64, rest: usize, keep: Option<NodeRef>) -> Cow<'_, str> {
    let limit = usize::try_from(max).unwrap_or(usize::MAX);
    if rest.saturating_add(text.len()) <= limit {
        return Cow::Borrowed(text);
    }
    let part = Part::new(text, keep);
    // The last line takes its bytes from the budget; its length depends on what is left out, so
    // the cut is made again with a larger reserve until the line fits in it (the reserve grows
    // each time, and no line is longer than its longest form).
    let mut reserve = 0;
    loop {
        let kept = part.fill(limit.saturating_sub(rest.saturating_add(reserve)));
        let left = part.left_out(&kept);
        let line = left.line(max, false);
        if line.len() <= reserve {
            let kept_text = part.text(&kept);
            let over = rest + kept_text.len() + line.len() > limit;
            let line = if over { left.line(max, true) } else { line };
            return Cow::Owned(kept_text + &line);
        }
        reserve = line.len();
    }
}

#[cfg(test)]
mod tests;
