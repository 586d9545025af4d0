//! The plugin's cost per frame inside Bevy: a Bevy app with `MinimalPlugins` and 1,000 UI nodes
//! (accessibility nodes with layout, transforms, stack indices and visibility, as bevy_ui leaves
//! them, no renderer) runs
//! `App::update` with and without the plugin; the difference of the medians is what the plugin
//! adds to a frame: opening it, reading the ECS into the tree, comparing it with the last one,
//! sending what changed and publishing. Two rows: a UI that holds still, and one whose label
//! changes every frame (one node sent). Each on Bevy's multi-threaded executor (a game's: what
//! the plugin costs there includes the executor's handing of its systems to threads) and on
//! the single-threaded one (the plugin's own work, with less of the machine's noise).
//!
//! Prints medians and p99 against the target for a 1,000-node tree (20 us, which for
//! winit-automation counts only the plugin's calls, not building the tree); asserts nothing.
#![allow(clippy::print_stdout, reason = "a bench prints its table")]

use std::time::{Duration, Instant};

use accesskit_bevy::{Node as AccessNode, Role};
use bevy::a11y::AccessibilityNode;
use bevy::ecs::schedule::SingleThreadedExecutor;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, ComputedStackIndex, UiGlobalTransform};
use bevy::window::PrimaryWindow;
use bevy_winit_automation::AutomationPlugin;

const NODES: usize = 1_000;
const FRAMES: usize = 5_000;
/// Frames before the timing: the service thread takes the first tree (1,000 nodes) and writes
/// its files meanwhile, on the machine's other core.
const WARM_UP: usize = 2_000;

/// The changing label: the first node's, every frame.
#[derive(Component)]
struct Counter(u64);

fn app(plugin: Option<&std::path::Path>, single: bool) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins);
    if let Some(dir) = plugin {
        app.add_plugins(AutomationPlugin {
            app_name: Some("bevy-bench".into()),
            dir: Some(dir.to_owned()),
        });
    }
    app.world_mut().spawn((Window::default(), PrimaryWindow));
    for i in 0..NODES {
        let mut node = AccessNode::new(if i % 4 == 0 {
            Role::Button
        } else {
            Role::Label
        });
        node.set_label(format!("node {i}"));
        let (x, y) = ((i % 40) as f32 * 30.0, (i / 40) as f32 * 20.0);
        let mut entity = app.world_mut().spawn((
            AccessibilityNode::from(node),
            ComputedNode {
                size: Vec2::new(28.0, 18.0),
                ..default()
            },
            UiGlobalTransform::from_xy(x + 14.0, y + 9.0),
            ComputedStackIndex(i as u32),
            InheritedVisibility::VISIBLE,
        ));
        if i == 0 {
            entity.insert(Counter(0));
        }
    }
    app.finish();
    app.cleanup();
    if single {
        let mut schedules = app.world_mut().resource_mut::<Schedules>();
        for (_, schedule) in schedules.iter_mut() {
            schedule.set_executor(SingleThreadedExecutor::new());
        }
    }
    app
}

fn relabel(mut q: Query<(&mut AccessibilityNode, &mut Counter)>) {
    for (mut node, mut counter) in &mut q {
        counter.0 += 1;
        node.set_label(if counter.0 % 2 == 0 { "even" } else { "odd" });
    }
}

/// Per-frame times of `frames` updates of each app after [`WARM_UP`] frames, the two apps taking turns
/// frame by frame (so that a neighbour's load on the shared machine falls on both alike).
fn frames(with: &mut App, without: &mut App, frames: usize) -> (Vec<Duration>, Vec<Duration>) {
    for _ in 0..WARM_UP {
        with.update();
        without.update();
    }
    let time = |app: &mut App| {
        let t = Instant::now();
        app.update();
        t.elapsed()
    };
    let (mut a, mut b): (Vec<Duration>, Vec<Duration>) =
        (0..frames).map(|_| (time(with), time(without))).unzip();
    a.sort();
    b.sort();
    (a, b)
}

fn pct(v: &[Duration], p: f64) -> Duration {
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn row(what: &str, with: &[Duration], without: &[Duration]) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let p50 = us(pct(with, 0.5)) - us(pct(without, 0.5));
    let p99 = us(pct(with, 0.99)) - us(pct(without, 0.99));
    let verdict = if p50 <= 20.0 { "met" } else { "MISSED" };
    let base = us(pct(without, 0.5));
    println!(
        "| {what} | {p50:.1} us | {p99:.1} us | <= 20 us | {verdict} | (without: {base:.1} us) |"
    );
}

fn main() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    println!(
        "| Bevy plugin, per frame (App::update with it minus without) | p50 | p99 | target | verdict |"
    );
    println!("|---|---|---|---|---|");
    let runs = [(false, false), (true, false), (false, true), (true, true)];
    for (i, (changing, single)) in runs.into_iter().enumerate() {
        let dir = tmp.path().join(format!("run{i}"));
        let mut with = app(Some(&dir), single);
        let mut without = app(None, single);
        if changing {
            with.add_systems(Update, relabel);
            without.add_systems(Update, relabel);
        }
        let (a, b) = frames(&mut with, &mut without, FRAMES);
        let what = match (changing, single) {
            (false, false) => "1,000 UI nodes, unchanged",
            (true, false) => "1,000 UI nodes, one label changing every frame",
            (false, true) => "1,000 UI nodes, unchanged, single-threaded executor",
            (true, true) => "1,000 UI nodes, one label changing, single-threaded executor",
        };
        row(what, &a, &b);
    }
}
