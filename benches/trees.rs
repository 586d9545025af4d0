//! Tree benchmarks: formatting a regular snapshot of a 10,000-node tree, and applying a 1,000-node
//! full update to the mirror, both as the service thread does them. Prints medians and p99 against
//! the targets; asserts nothing (timings belong here, never in tests).
//!
//! `cargo bench --features automation --bench trees`
#![allow(clippy::print_stdout)]

#[path = "shared/stats.rs"]
mod stats;
use std::time::{Duration, Instant};

use accesskit::{Action, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};
use winit_automation_tree::bench::Bench;

/// `rows` x `cols` buttons in groups, all inside the 800x600 window (the worst case: everything is
/// visible and printed). `tag` changes every label.
fn grid(rows: u64, cols: u64, tag: u64) -> TreeUpdate {
    let mut nodes = Vec::with_capacity((rows * (cols + 1) + 1) as usize);
    let mut root = Node::new(Role::Window);
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    root.set_children(
        (0..rows)
            .map(|r| NodeId(1 + r * (cols + 1)))
            .collect::<Vec<_>>(),
    );
    nodes.push((NodeId(0), root));
    let (w, h) = (800.0 / cols as f64, 600.0 / rows as f64);
    for r in 0..rows {
        let gid = 1 + r * (cols + 1);
        let mut group = Node::new(Role::Group);
        group.set_label(format!("row {r}"));
        group.set_bounds(Rect::new(0.0, r as f64 * h, 800.0, (r + 1) as f64 * h));
        group.set_children((0..cols).map(|c| NodeId(gid + 1 + c)).collect::<Vec<_>>());
        nodes.push((NodeId(gid), group));
        for c in 0..cols {
            let mut b = Node::new(Role::Button);
            b.set_label(format!("cell {r}.{c} v{tag}"));
            let (x, y) = (c as f64 * w, r as f64 * h);
            b.set_bounds(Rect::new(x, y, x + w, y + h));
            b.add_action(Action::Click);
            nodes.push((NodeId(gid + 1 + c), b));
        }
    }
    TreeUpdate {
        nodes,
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    }
}

/// Runs `f` `warmup` times, then `samples` timed times; returns the sorted samples.
fn measure(warmup: usize, samples: usize, mut f: impl FnMut() -> Duration) -> Vec<Duration> {
    for _ in 0..warmup {
        f();
    }
    let mut v: Vec<Duration> = (0..samples).map(|_| f()).collect();
    v.sort();
    v
}

fn row(what: &str, v: &[Duration], target: Duration) {
    let p50 = stats::percentile(v, 0.5);
    println!(
        "| {what} | {:.3} ms | {:.3} ms | <= {} ms | {} |",
        p50.as_secs_f64() * 1e3,
        stats::percentile(v, 0.99).as_secs_f64() * 1e3,
        target.as_millis(),
        if p50 <= target { "met" } else { "MISSED" }
    );
}

fn main() {
    println!(
        "machine: {} cores; samples after warm-up; times are medians and p99",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | p50 | p99 | target (p50) | |");
    println!("|---|---|---|---|---|");

    // 100 rows of 99 buttons plus the row groups and the root: 10,001 nodes.
    let mut big = Bench::default();
    big.apply(grid(100, 99, 0));
    let lines = big.regular_snapshot().lines().count();
    assert!(
        lines > 10_000,
        "the snapshot shows every node ({lines} lines)"
    );
    let v = measure(5, 50, || {
        let t = Instant::now();
        let text = big.regular_snapshot();
        let d = t.elapsed();
        std::hint::black_box(text);
        d
    });
    row(
        "regular snapshot, 10,000-node tree",
        &v,
        Duration::from_millis(10),
    );

    // 1,000 nodes (20 rows of 49 buttons and their groups), every label changing each time.
    let mut mirror = Bench::default();
    mirror.apply(grid(20, 49, 0));
    let updates: Vec<TreeUpdate> = (1..=60).map(|tag| grid(20, 49, tag)).collect();
    let mut it = updates.into_iter();
    let v = measure(10, 50, || {
        let u = it.next().expect("enough updates");
        let t = Instant::now();
        mirror.apply(u);
        t.elapsed()
    });
    row(
        "1,000-node full update applied to the mirror",
        &v,
        Duration::from_millis(2),
    );
}
