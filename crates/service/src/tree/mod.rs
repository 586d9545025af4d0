//! The tree layer: the mirror of every window's AccessKit tree, refs, selectors, projections and the
//! text of snapshots. Runs on the service thread only; the render thread just moves updates into a
//! channel.
//!
//! Depends on the protocol crate, the link crate (the messages it reads and plans, widget records,
//! window state) and on `accesskit`/`accesskit_consumer`; never on files (the crate has neither
//! winit nor wgpu to depend on).
//!
//! Inside, imports point one way (kept by review: this is one module of one crate): `node` and `geometry` are
//! leaves; `mirror`, `refs`, `stack`, `omit`, `hit`, `resolve` and `format` build on them; `live`
//! (the mirror and the ref table) on those; `aim`, `plan`, `press` and `naming` add their methods
//! to `Live`; `history` keeps what earlier snapshots saw; and `Trees`, here, holds a `Live` and
//! a `History` and answers the service.

mod aim;
pub(crate) mod audit;
mod change_log;
mod format;
mod geometry;
mod gestures;
mod hints;
mod history;
mod hit;
mod label;
mod live;
mod mirror;
mod naming;
mod node;
mod omit;
mod paint_order;
pub(crate) mod plan;
mod pointer;
mod press;
mod refs;
mod resolve;
mod scroll_in;
mod secret;

use plan::Planned;
use std::time::{Duration, Instant};

use accesskit::NodeId;

use format::View;
use history::History;
pub(crate) use history::diff;
use live::Live;
use refs::Found;
pub(crate) use scroll_in::ScrollIn;
use winit_automation_link::SceneChange;
use winit_automation_link::wiring::PressCheck;
use winit_automation_protocol::{
    Command, ErrorCode, Failure, FindAnswer, JournalTarget, PROTOCOL_VERSION, Selector,
    SnapshotHeader, SnapshotOptions, Target,
};

/// Everything the service thread knows about the app's trees.
#[derive(Default)]
pub(crate) struct Trees {
    /// The mirror and the ref table.
    live: Live,
    /// What earlier snapshots saw.
    history: History,
    /// Pointer gestures move the pointer in a frame of its own before pressing or turning the
    /// wheel (`Builder::hover_frame`); by default the move and the press share one frame.
    pub hover_frame: bool,
    /// How many render-side messages were applied: what [`Trees::settle_text`]'s cache is keyed
    /// on (any message may change what the projection shows, an error of a window's tree too).
    applied: u64,
    /// The last [`Trees::settle_text`] and the `applied` count it was made at.
    settle_cache: Option<(u64, String)>,
    /// The last change of the pointer a command's order made: its seq, the pointer before and
    /// after ([`Trees::pointer_unchanged`]).
    pointer_change: Option<(u64, pointer::Pointer, pointer::Pointer)>,
    /// The node each drag in flight took hold of, by the seq of its command: what its answer's
    /// `ended` line names, whatever its FROM selects by then.
    dragged: std::collections::HashMap<u64, pointer::Dragged>,
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
        self.applied += 1;
        self.live.mirror.apply(msg)
    }

    /// Records that the trees changed in `frame` (the frame being built when the change arrived).
    pub fn changed_in(&mut self, frame: u64) {
        self.history.changed_in(frame);
        self.live.mirror.change_log.stamp(frame);
    }

    /// Whether any window is animating (the app said it wants frames with no input).
    pub fn animating(&self) -> bool {
        self.live.mirror.windows.values().any(|w| w.animating)
    }

    /// Records a published frame's end.
    pub fn frame_ended(&mut self, at: Instant) {
        self.history.frame_ended(at);
    }

    /// The header line (with its newline) and the warning lines of a snapshot taken now.
    fn header(&self, frame: u64) -> (String, String) {
        let (quality, warnings) = format::quality(&self.live.mirror);
        let header = SnapshotHeader {
            frame,
            protocol: PROTOCOL_VERSION,
            quality,
        };
        (format!("{header}\n"), warnings)
    }

    fn metrics(&self, frame: u64) -> String {
        self.history.metrics(frame, self.live.mirror.gpu.as_ref())
    }

    /// The answer to `snapshot`.
    pub fn snapshot(&mut self, o: &SnapshotOptions, frame: u64) -> Result<String, Failure> {
        let scope = match &o.scope {
            Some(t) => Some(self.live.resolve(t)?),
            None => None,
        };
        let view = View {
            projection: o.projection,
            depth: o.depth,
            scope,
            bounds: o.bounds,
            actions: o.actions,
        };
        let trees = format::trees(&self.live.mirror, &mut self.live.refs, &view);
        let (header, warnings) = self.header(frame);
        let mut out = header;
        out.push_str(&warnings);
        self.history
            .answer(&mut out, o, view_key(o, scope), trees, frame);
        out.push_str(&self.metrics(frame));
        Ok(out)
    }

    /// `snapshot.txt`, `accessibility.txt` and `windows.txt`, for the artifacts in the directory.
    pub fn artifacts(&mut self, frame: u64) -> [(&'static str, String); 3] {
        let trees = format::trees(&self.live.mirror, &mut self.live.refs, &View::default());
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
        format::windows(&self.live.mirror)
    }

    /// The answer to `find`: the line of each match (minting its ref), in tree order. Its
    /// `Display` is the answer's text (`matches N`, then one line per match).
    pub fn find(&mut self, selector: &Selector) -> FindAnswer<String> {
        let all = resolve::find_all(&self.live.mirror, selector);
        let all = match selector.nth {
            Some(n) => all.get(n).copied().into_iter().collect(),
            None => all,
        };
        FindAnswer::new(all.into_iter().map(|f| self.live.node_line(f)).collect())
    }

    /// Whether the text of a `type` or `fill` is a secret (`tree/secret.rs`): `--secret`, or a
    /// password field gets it; `None` when it cannot be told.
    pub fn secret_text(&mut self, command: &Command) -> Option<bool> {
        self.live.secret_text(command)
    }

    /// The answer to `get`.
    pub fn get(&mut self, target: &Target) -> Result<String, Failure> {
        let f = self.live.resolve(target)?;
        Ok(format::details(&self.live.mirror, &mut self.live.refs, f))
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
        let text = format::trees(&self.live.mirror, &mut self.live.refs, &View::default());
        self.settle_cache = Some((self.applied, text.clone()));
        text
    }

    /// Plans an action command (`plan.rs`), its answer written in. `Ok(None)` for a command the
    /// app answers itself.
    #[cfg(test)]
    pub(crate) fn plan(
        &mut self,
        command: &Command,
    ) -> Result<Option<winit_automation_link::wiring::Plan>, Failure> {
        Ok(self.planned(command)?.map(Planned::into_plan))
    }

    /// [`Trees::plan`] with its answer still a value, for lines to go in before it is written
    /// (what scrolling the target in did).
    pub(crate) fn planned(&mut self, command: &Command) -> Result<Option<Planned>, Failure> {
        self.live.plan(command, self.hover_frame)
    }

    /// The next step towards showing the pointer target of `command` that lies outside its
    /// container's visible part (a `drag`'s start, else its end: `scroll_in.rs`); `Err` says
    /// why none can. `wheel_only`: never the target's `scroll_into_view` action.
    pub fn scroll_in(&mut self, command: &Command, wheel_only: bool) -> Result<ScrollIn, String> {
        let mut why = None;
        for target in command.action_targets() {
            match self.live.scroll_in(target, self.hover_frame, wheel_only) {
                Ok(step) => return Ok(step),
                Err(e) => {
                    why.get_or_insert(e);
                }
            }
        }
        Err(why.unwrap_or_else(|| "it has no target".to_owned()))
    }

    /// The interactive nodes of `window` as `snapshot -i` prints them: each one's ref and bounds
    /// (logical x, y, width, height), in the projection's order, for `screenshot --refs`.
    pub fn marks(&mut self, window: u64) -> Vec<(String, [f64; 4])> {
        let view = View {
            projection: winit_automation_protocol::Projection::Interactive,
            bounds: true,
            ..View::default()
        };
        let text = format::trees(&self.live.mirror, &mut self.live.refs, &view);
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

    /// The answer to a delivered pointer action whose plan held a press (`press.rs`).
    pub fn press_answer(
        &mut self,
        check: &PressCheck,
        reported: Option<Option<NodeId>>,
        body: String,
    ) -> Result<String, Failure> {
        self.live.press_answer(check, reported, body)
    }

    /// The visible part of each of `command`'s action targets (logical x, y, width, height, in
    /// `Command::action_targets` order), `None` for one that has none, and for a point (it names
    /// a place, not the node under it): what a trace draws.
    pub fn target_boxes(&mut self, command: &Command) -> Vec<Option<[f64; 4]>> {
        command
            .action_targets()
            .map(|t| match t {
                Target::Point(_) => None,
                _ => self.live.visible_rect(t).ok().map(|(_, r)| r),
            })
            .collect()
    }

    /// The targets of `command` given as a ref or a point, named by selectors (`naming.rs`).
    pub fn named_targets(&self, command: &Command) -> Vec<JournalTarget> {
        self.live.named_targets(command)
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
        let mut trees = Trees::default();
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
    fn two_buttons() -> Trees {
        let mut trees = Trees::default();
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
        let mut empty = Trees::default();
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
    use super::{SceneChange, SnapshotOptions, Trees};
    use winit_automation_link::WindowState;

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
