#![doc = include_str!("../README.md")]

mod brief;
mod cap;
mod change_log;
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixture;
mod format;
mod found;
pub mod geometry;
mod hints;
mod history;
pub mod hit;
mod label;
mod mirror;
mod naming;
pub mod node;
mod omit;
mod paint_order;
mod refs;
mod resolve;
mod text_line;
mod unsettled;

use std::time::{Duration, Instant};

use format::View;
pub use found::Found;
use hints::hint_node;
use history::History;
pub use history::{Change, Diff, diff};
pub use mirror::{Source, WindowTree, WindowTrees};
pub use paint_order::PaintOrder;
use refs::Refs;
use winit_automation_link::SceneChange;
use winit_automation_protocol::{
    Command, ErrorCode, Failure, FindAnswer, JournalTarget, PROTOCOL_VERSION, Selector,
    SnapshotHeader, SnapshotOptions, Target,
};

/// Everything the service thread knows about the app's trees.
#[derive(Default)]
pub struct AppTree {
    /// Every window's mirror.
    mirror: WindowTrees,
    /// The ref of every node a snapshot or an answer named.
    refs: Refs,
    /// What earlier snapshots saw.
    history: History,
    /// How many render-side messages were applied: what [`AppTree::settle_text`]'s cache is keyed
    /// on (any message may change what the projection shows, an error of a window's tree too).
    applied: u64,
    /// The last [`AppTree::settle_text`] and the `applied` count it was made at.
    settle_cache: Option<(u64, String)>,
    /// The node the last action sent to the app that named one was aimed at
    /// ([`AppTree::acted_on`]; `type` and `key` name none and leave it): a capped snapshot keeps
    /// its line.
    last_target: Option<Found>,
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

impl AppTree {
    /// Applies a render-side message; returns whether the trees changed.
    pub fn apply(&mut self, msg: SceneChange) -> bool {
        self.applied += 1;
        self.mirror.apply(msg)
    }

    /// Records that the trees changed in `frame` (the frame being built when the change arrived).
    pub fn changed_in(&mut self, frame: u64) {
        self.history.changed_in(frame);
        self.mirror.change_log.stamp(frame);
    }

    /// Whether any window is animating (the app said it wants frames with no input).
    pub fn animating(&self) -> bool {
        self.mirror.windows.values().any(|w| w.animating)
    }

    /// Records a published frame's end.
    pub fn frame_ended(&mut self, at: Instant) {
        self.history.frame_ended(at);
    }

    /// Every window's mirror, as it is now.
    pub fn mirror(&self) -> &WindowTrees {
        &self.mirror
    }

    /// Resolves a target to exactly one node; an ambiguous selector's refusal lists the lines of
    /// the nodes it matches.
    pub fn resolve(&mut self, target: &Target) -> Result<Found, Failure> {
        let mirror = &self.mirror;
        resolve::resolve(mirror, &mut self.refs, target, &mut |refs, f| {
            format::found_line(mirror, refs, f)
        })
    }

    /// What a node is, to tell whether a node id still holds the same thing: its role, name and
    /// value (toolkits such as egui give a position's widget the same id whatever it shows).
    pub fn identity(&self, f: Found) -> Option<String> {
        let node = self.mirror.node(f)?;
        Some(format!(
            "{:?}\u{1f}{}\u{1f}{}",
            node.role(),
            node::name_of(&node),
            node.value().unwrap_or_default()
        ))
    }

    /// The line of a resolved node (`@eN role "name" ...`), minting its ref.
    pub fn node_line(&mut self, f: Found) -> String {
        format::found_line(&self.mirror, &mut self.refs, f)
    }

    /// The ref of a node, minted when it has none, and the hint line that names it for a person
    /// (`hints.rs`): what a refusal about a container says.
    pub fn hinted_ref(&mut self, f: Found) -> Option<(winit_automation_protocol::NodeRef, String)> {
        let node = self.mirror.node(f)?;
        let hint = hint_node(&mut self.refs, f.window, &node);
        Some((self.refs.mint(f.window, &node), hint))
    }

    /// The header line (with its newline) and the warning lines of a snapshot taken now.
    fn header(&self, frame: u64) -> (String, String) {
        let (quality, warnings) = format::quality(&self.mirror);
        let header = SnapshotHeader {
            frame,
            protocol: PROTOCOL_VERSION,
            quality,
        };
        (format!("{header}\n"), warnings)
    }

    fn metrics(&self, frame: u64) -> String {
        self.history.metrics(frame, self.mirror.gpu.as_ref())
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
        let mut out = header;
        out.push_str(&warnings);
        let part = out.len();
        // The history remembers the whole text; only the answer is capped.
        self.history
            .answer(&mut out, o, view_key(o, scope), trees, frame);
        let metrics = self.metrics(frame);
        if let Some(max) = o.max_bytes {
            self.cap(&mut out, part, max, metrics.len());
        }
        out.push_str(&metrics);
        Ok(out)
    }

    /// Cuts what follows byte `part` of `out` (the tree, diff or `unchanged since` part) so that
    /// the answer, with `after` more bytes to come, holds at most `max` bytes (`cap.rs`).
    fn cap(&self, out: &mut String, part: usize, max: u64, after: usize) {
        let keep = self
            .last_target
            .and_then(|f| self.refs.known(f.window, f.node));
        let text = out.split_off(part);
        let rest = out.len() + after;
        out.push_str(&cap::cut(&text, max, rest, keep));
    }

    /// Remembers `f` as the target of the last action sent to the app: `snapshot --max-bytes`
    /// keeps its line whatever the cap.
    pub fn acted_on(&mut self, f: Found) {
        self.last_target = Some(f);
    }

    /// `snapshot.txt`, `accessibility.txt` and `windows.txt`, for the artifacts in the directory.
    pub fn artifacts(&mut self, frame: u64) -> [(&'static str, String); 3] {
        let trees = format::trees(&self.mirror, &mut self.refs, &View::default());
        let (header, warnings) = self.header(frame);
        let snapshot = format!("{header}{warnings}{trees}{}", self.metrics(frame));
        [
            (winit_automation_protocol::SNAPSHOT_FILE, snapshot),
            (winit_automation_protocol::ACCESSIBILITY_FILE, trees),
            (winit_automation_protocol::WINDOWS_FILE, self.windows()),
        ]
    }

    /// The answer to `windows`.
    pub fn windows(&self) -> String {
        format::windows(&self.mirror)
    }

    /// The answer to `find`: the line of each match (minting its ref), in tree order. Its
    /// `Display` is the answer's text (`matches N`, then one line per match).
    pub fn find(&mut self, selector: &Selector) -> FindAnswer<String> {
        let all = resolve::find_all(&self.mirror, selector);
        let all = match selector.nth {
            Some(n) => all.get(n).copied().into_iter().collect(),
            None => all,
        };
        FindAnswer::new(all.into_iter().map(|f| self.node_line(f)).collect())
    }

    /// The answer to `get`.
    pub fn get(&mut self, target: &Target) -> Result<String, Failure> {
        let f = self.resolve(target)?;
        Ok(format::details(&self.mirror, &mut self.refs, f))
    }

    /// For `wait`: `Some(the find answer)` once the condition holds.
    pub fn wait_check(&mut self, selector: &Selector, gone: bool) -> Option<FindAnswer<String>> {
        let found = self.find(selector);
        (found.is_empty() == gone).then_some(found)
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
        .with_body(now.to_string())
    }

    /// The tree text that `--settle` (and a trace) diffs against: the regular projection of
    /// every window, formatted again only when a render-side message came since the last call.
    pub fn settle_text(&mut self) -> String {
        if let Some((at, text)) = &self.settle_cache
            && *at == self.applied
        {
            return text.clone();
        }
        let text = format::trees(&self.mirror, &mut self.refs, &View::default());
        self.settle_cache = Some((self.applied, text.clone()));
        text
    }

    /// The text of `projection` from the node `scope` down, as `snapshot --scope` prints it
    /// (no header), minting the refs it prints.
    pub fn projection_from(
        &mut self,
        scope: Found,
        projection: winit_automation_protocol::Projection,
    ) -> String {
        let view = View {
            projection,
            scope: Some(scope),
            ..View::default()
        };
        format::trees(&self.mirror, &mut self.refs, &view)
    }

    /// What keeps the trees from settling, for a settle that timed out (it began at frame
    /// `since` and waited for `frames` unchanged ones): the nodes and windows that changed
    /// lately, named by ref, and the windows the app says are animating (`change_log.rs`).
    pub fn unsettled(&mut self, since: u64, frames: u32) -> Vec<String> {
        unsettled::unsettled(&self.mirror, &mut self.refs, since, frames)
    }

    /// The interactive nodes of `window` as `snapshot -i` prints them: each one's ref and bounds
    /// (logical x, y, width, height), in the projection's order, for `screenshot --refs`.
    pub fn marks(&mut self, window: u64) -> Vec<(String, [f64; 4])> {
        let view = View {
            projection: winit_automation_protocol::Projection::Interactive,
            bounds: true,
            ..View::default()
        };
        let text = format::trees(&self.mirror, &mut self.refs, &view);
        let own = format!("window {window}");
        let mut inside = false;
        let mut out = Vec::new();
        for line in text.lines() {
            if line.starts_with("window ") {
                inside = line == own || line.starts_with(&format!("{own} "));
                continue;
            }
            if !inside {
                continue;
            }
            if let Some(node) = winit_automation_protocol::NodeLine::parse(line)
                && let Some(bounds) = node.bounds
            {
                out.push((node.r#ref.to_string(), bounds));
            }
        }
        out
    }

    /// The targets of `command` given as a ref or a point, named by selectors (`naming.rs`).
    pub fn named_targets(&self, command: &Command) -> Vec<JournalTarget> {
        naming::named_targets(&self.mirror, &self.refs, command)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};
    use proptest::prelude::*;
    use winit_automation_protocol::Projection;

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
        winit_automation_protocol::NodeLine::all(text)
            .into_iter()
            .map(|n| n.r#ref.to_string())
            .collect()
    }

    #[test]
    fn the_adapter_and_surface_appear_in_the_metrics_and_window_lines() {
        let mut trees = AppTree::default();
        trees.apply(SceneChange::Gpu(winit_automation_link::GpuInfo {
            adapter: "llvmpipe (LLVM 15)".into(),
            backend: "vulkan".into(),
            device_type: "cpu".into(),
        }));
        trees.apply(SceneChange::Surface(
            1,
            winit_automation_link::SurfaceInfo {
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

    /// One window holding two buttons named "OK" under its root.
    fn two_buttons() -> AppTree {
        let mut trees = AppTree::default();
        trees.apply(SceneChange::State(
            1,
            crate::fixture::test_window(640.0, 480.0),
        ));
        let mut root = Node::new(Role::Window);
        root.set_children(vec![NodeId(1), NodeId(2)]);
        let button = |y: f64| {
            let mut n = Node::new(Role::Button);
            n.set_label("OK");
            n.set_bounds(Rect::new(10.0, y, 90.0, y + 20.0));
            n.add_action(Action::Click);
            n
        };
        trees.apply(SceneChange::Update(
            1,
            TreeUpdate {
                nodes: vec![
                    (NodeId(0), root),
                    (NodeId(1), button(10.0)),
                    (NodeId(2), button(40.0)),
                ],
                tree: Some(TreeInfo::new(NodeId(0))),
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            },
        ));
        trees
    }

    #[test]
    fn the_snapshot_header_is_written_from_its_value() {
        let mut empty = AppTree::default();
        let text = empty.snapshot(&SnapshotOptions::default(), 4).unwrap();
        let header = SnapshotHeader::of(&text).unwrap();
        assert_eq!(
            header,
            SnapshotHeader {
                frame: 4,
                protocol: PROTOCOL_VERSION,
                quality: winit_automation_protocol::Quality::Sparse,
            }
        );
        assert!(
            text.starts_with(&format!(
                "snapshot frame=4 protocol={PROTOCOL_VERSION} quality=sparse\nwarning "
            )),
            "{text}"
        );
        let text = two_buttons()
            .snapshot(&SnapshotOptions::default(), 9)
            .unwrap();
        assert_eq!(
            SnapshotHeader::of(&text).unwrap().quality,
            winit_automation_protocol::Quality::Healthy,
            "{text}"
        );
    }

    #[test]
    fn find_answers_a_value_that_wait_checks_and_writes_once() {
        let mut trees = two_buttons();
        let ok = Selector::parse("role=button name=OK").unwrap();
        let found = trees.find(&ok);
        assert_eq!(found.len(), 2);
        let written = found.to_string();
        assert!(written.starts_with("matches 2\n@e"), "{written}");
        let parsed = FindAnswer::parse(&written).unwrap();
        assert_eq!(parsed.matches.len(), 2);
        assert_eq!(parsed.matches[1].name, "OK");
        // The lines the answer holds are the node lines it writes.
        let lines: Vec<String> = parsed.matches.iter().map(ToString::to_string).collect();
        assert_eq!(found.matches, lines);
        let second = Selector::parse("role=button name=OK nth=1").unwrap();
        assert_eq!(trees.find(&second).matches, lines[1..]);
        // `wait` holds once it matches; `wait --gone` once it does not.
        assert_eq!(trees.wait_check(&ok, false).map(|f| f.len()), Some(2));
        assert!(trees.wait_check(&ok, true).is_none());
        let none = Selector::parse("role=button name=Cancel").unwrap();
        assert!(trees.wait_check(&none, false).is_none());
        let gone = trees.wait_check(&none, true).unwrap();
        assert_eq!(gone.to_string(), "matches 0\n");
        let timeout = trees.wait_timeout(&ok, true, Duration::from_millis(5));
        assert_eq!(
            timeout.body, written,
            "the timeout's body is the find answer"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn interactive_is_within_regular_which_is_within_raw(gens in prop::collection::vec(gen_node(), 0..60)) {
            let mut trees =
                crate::fixture::one_window(640.0, 480.0, SceneChange::Update(1, build(&gens)));
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
    use super::{AppTree, SceneChange, SnapshotOptions};
    use winit_automation_link::WindowState;

    /// A mirror holding one 800x600 window.
    pub struct Bench(AppTree);

    impl Default for Bench {
        fn default() -> Self {
            let mut t = AppTree::default();
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
