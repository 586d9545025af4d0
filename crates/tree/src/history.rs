//! What earlier snapshots saw, for `unchanged since`, `--diff` and `--diff --since`: the last
//! texts of each view, the frames that changed the trees, and the frame intervals of the
//! metrics line. Text in, text out: it knows nothing of the mirror.

use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::time::{Duration, Instant};

use winit_automation_link::GpuInfo;
use winit_automation_protocol::{SnapshotOptions, quote};

use super::text_line::{Kind, TextLine, parents, under};

/// Frame intervals for the metrics line.
#[derive(Default)]
struct FrameStats {
    ends: VecDeque<Instant>,
}

impl FrameStats {
    const KEEP: usize = 240;

    fn push(&mut self, at: Instant) {
        if self.ends.len() == Self::KEEP {
            self.ends.pop_front();
        }
        self.ends.push_back(at);
    }

    fn line(&self, frames: u64, gpu: Option<&GpuInfo>) -> String {
        let now = Instant::now();
        let fps = self
            .ends
            .iter()
            .filter(|t| now.duration_since(**t) <= Duration::from_secs(1))
            .count();
        let mut gaps: Vec<f64> = self
            .ends
            .iter()
            .zip(self.ends.iter().skip(1))
            .map(|(a, b)| b.duration_since(*a).as_secs_f64() * 1000.0)
            .collect();
        let mut out = format!("metrics frames={frames} fps={fps}");
        if !gaps.is_empty() {
            gaps.sort_by(f64::total_cmp);
            let pick = |q: f64| gaps[((gaps.len() - 1) as f64 * q).round() as usize];
            let _ = write!(
                out,
                " frame_interval_p50_ms={:.1} frame_interval_p99_ms={:.1}",
                pick(0.5),
                pick(0.99)
            );
        }
        if let Some(g) = gpu {
            let _ = write!(
                out,
                " adapter={} backend={} device={}",
                quote(&g.adapter),
                g.backend,
                g.device_type
            );
        }
        out.push('\n');
        out
    }
}

/// The last snapshot answered for one view (projection, depth, scope, fields), for `unchanged
/// since` and `--diff`, and the texts earlier snapshots of it saw, for `--diff --since`.
struct Last {
    key: String,
    /// (frame it was first answered at, text) of the view's last distinct snapshots, oldest
    /// first; the last is the one answered last, and its frame is the one it is unchanged since.
    seen: VecDeque<(u64, String)>,
}

impl Last {
    /// The text answered last, and the frame since which it has been the same.
    fn latest(&self) -> Option<(u64, &str)> {
        self.seen.back().map(|(f, t)| (*f, t.as_str()))
    }
}

/// How many earlier texts of a view `--diff --since` can compare with.
const SEEN_PER_VIEW: usize = 4;
/// How many frames that changed the trees are remembered, to tell whether a text seen at one frame
/// still held at a later one.
const CHANGES_KEPT: usize = 1024;

/// How many views keep their last snapshot; the least recently asked for goes first.
const LAST_VIEWS: usize = 16;

/// The snapshots answered so far, as far as later ones compare with them.
#[derive(Default)]
pub struct History {
    stats: FrameStats,
    /// The last snapshot of each view, the most recently asked for last.
    last: Vec<Last>,
    /// The frames whose changes reached the mirror (the frame being built when each arrived),
    /// oldest first, distinct; the last is the latest change.
    changes: VecDeque<u64>,
}

impl History {
    /// Records that the trees changed in `frame` (the frame being built when the change arrived).
    pub fn changed_in(&mut self, frame: u64) {
        if self.changes.back() != Some(&frame) {
            if self.changes.len() >= CHANGES_KEPT {
                self.changes.pop_front();
            }
            self.changes.push_back(frame);
        }
    }

    /// The frame of the latest change (0 before any).
    fn last_change(&self) -> u64 {
        self.changes.back().copied().unwrap_or(0)
    }

    /// The text `key`'s view had at frame `at`: one a snapshot saw at or before it, when no change
    /// came between (`None` when none is known).
    fn seen_at<'a>(&self, last: Option<&'a Last>, at: u64) -> Option<&'a str> {
        let (frame, text) = last?.seen.iter().rev().find(|(f, _)| *f <= at)?;
        // The oldest remembered change is the limit of what is known.
        let known =
            self.changes.len() < CHANGES_KEPT || self.changes.front().is_some_and(|&c| c <= *frame);
        let changed = self.changes.iter().any(|&c| c > *frame && c <= at);
        (known && !changed).then_some(text.as_str())
    }

    /// Records a published frame's end.
    pub fn frame_ended(&mut self, at: Instant) {
        self.stats.push(at);
    }

    /// The metrics line of a snapshot at `frame`.
    pub fn metrics(&self, frame: u64, gpu: Option<&GpuInfo>) -> String {
        self.stats.line(frame, gpu)
    }

    /// Appends what a snapshot of view `key` says of the trees, whose text is now `trees`: the
    /// text, its diff with what an earlier snapshot saw, or `unchanged since frame N`, as the
    /// options ask; then remembers the text.
    pub fn answer(
        &mut self,
        out: &mut String,
        o: &SnapshotOptions,
        key: String,
        trees: String,
        frame: u64,
    ) {
        let previous = self
            .last
            .iter()
            .position(|l| l.key == key)
            .map(|i| self.last.remove(i));
        let latest = previous.as_ref().and_then(Last::latest);
        let unchanged = latest.filter(|(_, t)| *t == trees);
        if let Some(seen) = o.since {
            // The client says which frame it saw: the answer depends on the app's trees alone,
            // never on what another client asked before.
            let last_change = self.last_change();
            if last_change <= seen && !o.force {
                let _ = writeln!(out, "unchanged since frame {last_change}");
            } else if o.diff {
                match self.seen_at(previous.as_ref(), seen) {
                    Some(base) => out.push_str(&diff(base, &trees).to_string()),
                    None => {
                        let _ = writeln!(
                            out,
                            "whole tree: this view was not snapshotted as of frame {seen}"
                        );
                        out.push_str(&trees);
                    }
                }
            } else {
                out.push_str(&trees);
            }
        } else if o.diff {
            match latest {
                Some((_, before)) => out.push_str(&diff(before, &trees).to_string()),
                None => out.push_str(&trees),
            }
        } else if let (Some((since, _)), false) = (unchanged, o.force) {
            let _ = writeln!(out, "unchanged since frame {since}");
        } else {
            out.push_str(&trees);
        }
        if self.last.len() >= LAST_VIEWS {
            self.last.remove(0);
        }
        let mut seen = previous.map(|p| p.seen).unwrap_or_default();
        // A text answered again keeps the frame it was first answered at.
        if seen.back().is_none_or(|(_, t)| *t != trees) {
            if seen.len() >= SEEN_PER_VIEW {
                seen.pop_front();
            }
            seen.push_back((frame, trees));
        }
        self.last.push(Last { key, seen });
    }
}

/// How a line of a tree changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// A line the new tree has and the old did not.
    Added,
    /// A line the old tree had and the new does not.
    Removed,
    /// The same ref, another line.
    Changed,
}

impl Change {
    /// The tag a diff line starts with: `+`, `-`, `~`.
    pub fn tag(self) -> char {
        match self {
            Change::Added => '+',
            Change::Removed => '-',
            Change::Changed => '~',
        }
    }
}

/// The changed lines of a tree, without their indentation, in order: removed ones first, then
/// added and changed ones. Written as `+ line`, `- line`, `~ line`, or `no changes`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Diff<'a> {
    /// Each changed line, and how it changed.
    pub lines: Vec<(Change, &'a str)>,
    /// Beside each line: what it stands under in its tree (`brief.rs`), the ref of the nearest
    /// node line above it at a lower indentation, else its window line's `window N`.
    pub(crate) under: Vec<Option<&'a str>>,
}

impl std::fmt::Display for Diff<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.lines.is_empty() {
            return f.write_str("no changes\n");
        }
        for (change, line) in &self.lines {
            writeln!(f, "{} {line}", change.tag())?;
        }
        Ok(())
    }
}

/// Lines of `new` against `old`: added, removed, changed (same ref). Lines are compared without
/// their indentation; a ref's line keys on the ref.
pub fn diff<'a>(old: &'a str, new: &'a str) -> Diff<'a> {
    let (old_keys, new_keys) = (keys(old), keys(new));
    let before: HashMap<&str, &str> = old_keys.iter().map(|k| (k.key.as_str(), k.line)).collect();
    let after: HashMap<&str, &str> = new_keys.iter().map(|k| (k.key.as_str(), k.line)).collect();
    let mut out = Diff::default();
    for k in &old_keys {
        if !after.contains_key(k.key.as_str()) {
            out.lines.push((Change::Removed, k.line));
            out.under.push(k.under);
        }
    }
    for k in &new_keys {
        let change = match before.get(k.key.as_str()) {
            None => Change::Added,
            Some(prev) if *prev != k.line => Change::Changed,
            Some(_) => continue,
        };
        out.lines.push((change, k.line));
        out.under.push(k.under);
    }
    out
}

/// A line of a tree as the diff compares it.
struct Keyed<'a> {
    /// A ref's line keys on the ref; any other line (window lines, hints) on its full text with
    /// its indentation and how many identical lines came before it, so repeated hints stay
    /// distinct.
    key: String,
    /// The line without its indentation.
    line: &'a str,
    /// The ref of the line it stands under, or `window N` (`text_line::under`).
    under: Option<&'a str>,
}

fn keys(text: &str) -> Vec<Keyed<'_>> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let lines: Vec<TextLine> = text.lines().map(TextLine::read).collect();
    let parents = parents(&lines);
    text.lines()
        .zip(&lines)
        .enumerate()
        .map(|(i, (l, line))| {
            let key = match line.kind {
                Kind::Node(r) => r.to_owned(),
                _ => {
                    let n = seen.entry(l).or_insert(0);
                    *n += 1;
                    format!("{l}\u{0}{n}")
                }
            };
            Keyed {
                key,
                line: line.body,
                under: under(&lines, &parents, i),
            }
        })
        .collect()
}
