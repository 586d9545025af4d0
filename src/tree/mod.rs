//! The tree layer: the mirror of every window's AccessKit tree, refs, selectors, projections and the
//! text of snapshots. Runs on the service thread only; the render thread just moves updates into a
//! channel.
//!
//! Depends on `protocol` and on `accesskit`/`accesskit_consumer`; never on files, winit or wgpu.

mod format;
mod geometry;
mod hit;
pub(crate) mod mirror;
pub(crate) mod naming;
mod omit;
pub(crate) mod plan;
pub(crate) mod press;
mod refs;
mod stack;

use std::collections::{HashMap, VecDeque};
use std::fmt::Write;
use std::time::{Duration, Instant};

use crate::protocol::{ErrorCode, Failure, PROTOCOL_VERSION, Selector, SnapshotOptions, Target};
use format::View;
pub(crate) use mirror::{Mirror, SceneChange};
use refs::{Found, Refs};

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

    fn line(&self, frames: u64, gpu: Option<&crate::widget::GpuInfo>) -> String {
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
                crate::protocol::quote(&g.adapter),
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

/// Everything the service thread knows about the app's trees.
#[derive(Default)]
pub(crate) struct Trees {
    pub mirror: Mirror,
    refs: Refs,
    stats: FrameStats,
    /// The last snapshot of each view, the most recently asked for last.
    last: Vec<Last>,
    /// The frames whose changes reached the mirror (the frame being built when each arrived),
    /// oldest first, distinct; the last is the latest change.
    changes: VecDeque<u64>,
    /// Pointer gestures move the pointer in a frame of its own before pressing or turning the
    /// wheel (`Builder::hover_frame`); by default the move and the press share one frame.
    pub hover_frame: bool,
}

/// What a snapshot is compared with: the last one of the same projection, depth and scope node (a
/// scope is keyed on the node it resolved to, so `--scope @e5` and a selector for the same node
/// share their last snapshot).
fn view_key(o: &SnapshotOptions, scope: Option<Found>) -> String {
    format!(
        "{:?} {:?} {:?} {} {}",
        o.projection, o.depth, scope, o.bounds, o.actions
    )
}

impl Trees {
    /// Applies a render-side message; returns whether the trees changed.
    pub fn apply(&mut self, msg: SceneChange) -> bool {
        self.mirror.apply(msg)
    }

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

    /// Whether any window is animating (the app said it wants frames with no input).
    pub fn animating(&self) -> bool {
        self.mirror.windows.values().any(|w| w.animating)
    }

    /// Records a published frame's end.
    pub fn frame_ended(&mut self, at: Instant) {
        self.stats.push(at);
    }

    fn resolve(&mut self, target: &Target) -> Result<Found, Failure> {
        let mirror = &self.mirror;
        refs::resolve(mirror, &mut self.refs, target, &mut |refs, f| {
            format::found_line(mirror, refs, f)
        })
    }

    fn header(&self, frame: u64) -> (String, String) {
        let (verdict, warnings) = format::quality(&self.mirror);
        (
            format!("snapshot frame={frame} protocol={PROTOCOL_VERSION} quality={verdict}\n"),
            warnings,
        )
    }

    /// The answer to `snapshot`.
    pub fn snapshot(&mut self, o: &SnapshotOptions, frame: u64) -> Result<String, Failure> {
        let scope = match &o.scope {
            Some(t) => Some(self.resolve(t)?),
            None => None,
        };
        let view = View {
            projection: o.projection,
            depth: o.depth,
            scope,
            bounds: o.bounds,
            actions: o.actions,
        };
        let trees = format::trees(&self.mirror, &mut self.refs, &view);
        let (header, warnings) = self.header(frame);
        let key = view_key(o, scope);
        let mut out = header;
        out.push_str(&warnings);
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
                    Some(base) => out.push_str(&diff(base, &trees)),
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
                Some((_, before)) => out.push_str(&diff(before, &trees)),
                None => out.push_str(&trees),
            }
        } else if let (Some((since, _)), false) = (unchanged, o.force) {
            let _ = writeln!(out, "unchanged since frame {since}");
        } else {
            out.push_str(&trees);
        }
        out.push_str(&self.stats.line(frame, self.mirror.gpu.as_ref()));
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
        Ok(out)
    }

    /// `snapshot.txt`, `accessibility.txt` and `windows.txt`, for the artifacts in the directory.
    pub fn artifacts(&mut self, frame: u64) -> [(&'static str, String); 3] {
        let trees = format::trees(&self.mirror, &mut self.refs, &View::default());
        let (header, warnings) = self.header(frame);
        let snapshot = format!(
            "{header}{warnings}{trees}{}",
            self.stats.line(frame, self.mirror.gpu.as_ref())
        );
        [
            (crate::protocol::SNAPSHOT_FILE, snapshot),
            (crate::protocol::ACCESSIBILITY_FILE, trees),
            (crate::protocol::WINDOWS_FILE, format::windows(&self.mirror)),
        ]
    }

    /// The answer to `windows`.
    pub fn windows(&self) -> String {
        format::windows(&self.mirror)
    }

    /// The answer to `find`: `matches N`, then one line per match.
    pub fn find(&mut self, selector: &Selector) -> String {
        let all = refs::find_all(&self.mirror, selector);
        let all = match selector.nth {
            Some(n) => all.get(n).copied().into_iter().collect(),
            None => all,
        };
        let mut out = format!("matches {}\n", all.len());
        for f in all {
            out.push_str(&format::found_line(&self.mirror, &mut self.refs, f));
            out.push('\n');
        }
        out
    }

    /// The answer to `get`.
    pub fn get(&mut self, target: &Target) -> Result<String, Failure> {
        let f = self.resolve(target)?;
        Ok(format::details(&self.mirror, &mut self.refs, f))
    }

    /// For `wait`: `Some(answer)` once the condition holds.
    pub fn wait_check(&mut self, selector: &Selector, gone: bool) -> Option<String> {
        let found = self.find(selector);
        let none = found.starts_with("matches 0\n");
        (none == gone).then_some(found)
    }

    /// The failure of a `wait` that timed out.
    pub fn wait_timeout(&mut self, selector: &Selector, gone: bool, waited: Duration) -> Failure {
        let now = self.find(selector);
        Failure::new(
            ErrorCode::Timeout,
            format!(
                "{selector} {} after {} ms",
                if gone {
                    "still matches"
                } else {
                    "matched nothing"
                },
                waited.as_millis()
            ),
            "raise --timeout, or check the selector against a fresh snapshot",
        )
        .with_body(now)
    }
}

/// Lines of `new` against `old`: `+ line` added, `- line` removed, `~ line` changed (same ref).
/// Lines are compared without their indentation; a ref's line keys on the ref.
pub(crate) fn diff(old: &str, new: &str) -> String {
    /// A ref's line keys on the ref; any other line (window lines, hints) on its full text with its
    /// indentation and how many identical lines came before it, so repeated hints stay distinct.
    fn keys(text: &str) -> Vec<(String, &str)> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        text.lines()
            .map(|l| {
                let t = l.trim_start();
                let key = match t.split_once(' ') {
                    Some((r, _)) if r.starts_with("@e") => r.to_owned(),
                    _ => {
                        let n = seen.entry(l).or_insert(0);
                        *n += 1;
                        format!("{l}\u{0}{n}")
                    }
                };
                (key, t)
            })
            .collect()
    }
    let (old_keys, new_keys) = (keys(old), keys(new));
    let before: HashMap<&str, &str> = old_keys.iter().map(|(k, t)| (k.as_str(), *t)).collect();
    let after: HashMap<&str, &str> = new_keys.iter().map(|(k, t)| (k.as_str(), *t)).collect();
    let mut out = String::new();
    for (k, t) in &old_keys {
        if !after.contains_key(k.as_str()) {
            let _ = writeln!(out, "- {t}");
        }
    }
    for (k, line) in &new_keys {
        match before.get(k.as_str()) {
            None => {
                let _ = writeln!(out, "+ {line}");
            }
            Some(prev) if prev != line => {
                let _ = writeln!(out, "~ {line}");
            }
            Some(_) => {}
        }
    }
    if out.is_empty() {
        out.push_str("no changes\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Projection;
    use crate::widget::WindowState;
    use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};
    use proptest::prelude::*;

    /// A generated node: parent index (into the nodes before it), bounds, flags.
    #[derive(Debug, Clone)]
    struct Gen {
        parent: usize,
        rect: Option<(i16, i16, u8, u8)>,
        clips: bool,
        hidden: bool,
        clickable: bool,
    }

    fn gen_node() -> impl Strategy<Value = Gen> {
        (
            any::<usize>(),
            prop::option::of((-200i16..1000, -200i16..800, 0u8..200, 0u8..200)),
            any::<bool>(),
            prop::bool::weighted(0.1),
            any::<bool>(),
        )
            .prop_map(|(parent, rect, clips, hidden, clickable)| Gen {
                parent,
                rect,
                clips,
                hidden,
                clickable,
            })
    }

    fn build(gens: &[Gen]) -> TreeUpdate {
        let mut children: Vec<Vec<NodeId>> = vec![Vec::new(); gens.len() + 1];
        for (i, g) in gens.iter().enumerate() {
            children[g.parent % (i + 1)].push(NodeId(i as u64 + 1));
        }
        let mut nodes = Vec::new();
        let mut root = Node::new(Role::Window);
        root.set_children(std::mem::take(&mut children[0]));
        nodes.push((NodeId(0), root));
        for (i, g) in gens.iter().enumerate() {
            let mut n = Node::new(if g.clickable {
                Role::Button
            } else {
                Role::Group
            });
            n.set_label(format!("n{i}"));
            if let Some((x, y, w, h)) = g.rect {
                let (x, y) = (f64::from(x), f64::from(y));
                n.set_bounds(Rect::new(x, y, x + f64::from(w), y + f64::from(h)));
            }
            if g.clips {
                n.set_clips_children();
            }
            if g.hidden {
                n.set_hidden();
            }
            if g.clickable {
                n.add_action(Action::Click);
            }
            n.set_children(std::mem::take(&mut children[i + 1]));
            nodes.push((NodeId(i as u64 + 1), n));
        }
        TreeUpdate {
            nodes,
            tree: Some(TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        }
    }

    fn refs_of(text: &str) -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim_start().split(' ').next())
            .filter(|t| t.starts_with("@e"))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_adapter_and_surface_appear_in_the_metrics_and_window_lines() {
        let mut trees = Trees::default();
        trees.apply(SceneChange::Gpu(crate::widget::GpuInfo {
            adapter: "llvmpipe (LLVM 15)".into(),
            backend: "vulkan".into(),
            device_type: "cpu".into(),
        }));
        trees.apply(SceneChange::Surface(
            1,
            crate::widget::SurfaceInfo {
                width: 1600,
                height: 1200,
                format: "Bgra8UnormSrgb".into(),
            },
        ));
        let text = trees.snapshot(&SnapshotOptions::default(), 3).unwrap();
        assert!(
            text.contains("window 1 surface=1600x1200 format=Bgra8UnormSrgb\n"),
            "{text}"
        );
        assert!(
            text.contains(" adapter=\"llvmpipe (LLVM 15)\" backend=vulkan device=cpu\n"),
            "{text}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn interactive_is_within_regular_which_is_within_raw(gens in prop::collection::vec(gen_node(), 0..60)) {
            let mut trees = Trees::default();
            trees.apply(SceneChange::State(1, WindowState {
                title: "t".into(), width: 640.0, height: 480.0, scale_factor: 1.0, focused: true,
            }));
            trees.apply(SceneChange::Update(1, build(&gens)));
            let mut snap = |projection| {
                let o = SnapshotOptions { projection, force: true, ..Default::default() };
                refs_of(&trees.snapshot(&o, 1).unwrap())
            };
            let (raw, regular, interactive) =
                (snap(Projection::Raw), snap(Projection::Regular), snap(Projection::Interactive));
            prop_assert_eq!(raw.len(), gens.len() + 1, "raw shows every node");
            for r in &regular {
                prop_assert!(raw.contains(r));
            }
            for r in &interactive {
                prop_assert!(regular.contains(r));
            }
        }
    }
}

/// Entry points for `benches/trees.rs`: the service thread's tree work without the service thread.
/// Not part of the public API.
#[doc(hidden)]
pub mod bench {
    use super::{SceneChange, SnapshotOptions, Trees};
    use crate::widget::WindowState;

    /// A mirror holding one 800x600 window.
    pub struct Bench(Trees);

    impl Default for Bench {
        fn default() -> Self {
            let mut t = Trees::default();
            t.apply(SceneChange::State(
                1,
                WindowState {
                    title: "bench".into(),
                    width: 800.0,
                    height: 600.0,
                    scale_factor: 1.0,
                    focused: true,
                },
            ));
            Bench(t)
        }
    }

    impl Bench {
        /// Applies an update to window 1's mirror.
        pub fn apply(&mut self, update: accesskit::TreeUpdate) {
            self.0.apply(SceneChange::Update(1, update));
        }

        /// Formats a regular snapshot (forced, so it is never "unchanged").
        pub fn regular_snapshot(&mut self) -> String {
            let o = SnapshotOptions {
                force: true,
                ..SnapshotOptions::default()
            };
            self.0.snapshot(&o, 1).unwrap_or_default()
        }
    }
}
