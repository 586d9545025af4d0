//! The frame both render-cost benchmarks time (`frame.rs` with the feature on, `frame_off.rs`
//! with it off): `Automation::frame`, `Frame::tree_update` with a 1,000-node tree, the frame's end, run by the
//! test app of tests/common/app.rs. Included with
//! `#[path = "../tests/common/app.rs"] mod app;` and `#[path = "shared/render_loop.rs"] mod render_loop;`.

use std::time::{Duration, Instant};

use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};

use crate::app::{TestApp, window_id, window_state};

/// 1,000 buttons under a root; `tag` changes every label.
pub fn tree(tag: u64) -> TreeUpdate {
    let mut nodes = Vec::with_capacity(1001);
    let mut root = Node::new(Role::Window);
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    root.set_children((1..=1000).map(NodeId).collect::<Vec<_>>());
    nodes.push((NodeId(0), root));
    for i in 1..=1000u64 {
        let mut b = Node::new(Role::Button);
        b.set_label(format!("button {i} v{tag}"));
        let (x, y) = ((i % 40) as f64 * 20.0, (i / 40) as f64 * 20.0);
        b.set_bounds(Rect::new(x, y, x + 20.0, y + 20.0));
        b.add_action(Action::Click);
        nodes.push((NodeId(i), b));
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

/// The render thread's cost of one frame, paced at 500 Hz so the service thread keeps up (at 60 Hz
/// it has even more room; a loop that outruns the service only queues updates on its own side).
pub fn render_cost() -> Vec<Duration> {
    let app = TestApp::builder()
        .name("bench")
        .window(window_state("bench", 1.0))
        .stepped();
    let (warmup, samples) = (200, 2000);
    let mut times = Vec::with_capacity(samples);
    for frame in 0..(warmup + samples) {
        let update = tree(frame as u64);
        let start = Instant::now();
        app.frame(|frame| frame.tree_update(window_id(), update));
        let spent = start.elapsed();
        if frame >= warmup {
            times.push(spent);
        }
        // The pace: 500 Hz.
        std::thread::sleep(Duration::from_millis(2));
    }
    times
}
