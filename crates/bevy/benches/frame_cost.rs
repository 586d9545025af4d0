//! The plugin's cost per frame inside Bevy: a Bevy app with `MinimalPlugins` and 1,000 UI nodes
//! (accessibility nodes with layout and transforms, as bevy_ui leaves them, no renderer) runs
//! `App::update` with and without the plugin; the difference of the medians is what the plugin
//! adds to a frame: opening it, reading the ECS into the tree, comparing it with the last one,
//! sending what changed and publishing. Two rows: a UI that holds still, and one whose label
//! changes every frame (one node sent).
//!
//! Prints medians and p99 against the target for a 1,000-node tree (20 us, which for
//! winit-automation counts only the plugin's calls, not building the tree); asserts nothing.
#![allow(clippy::print_stdout, reason = "a bench prints its table")]

use std::time::{Duration, Instant};

use accesskit_bevy::{Node as AccessNode, Role};
use bevy::a11y::AccessibilityNode;
use bevy::prelude::*;
use bevy::ui::{ComputedNode, UiGlobalTransform};
use bevy::window::PrimaryWindow;
use bevy_winit_automation::AutomationPlugin;

const NODES: usize = 1_000;
const FRAMES: usize = 2_000;

/// The changing label: the first node's, every frame.
#[derive(Component)]
struct Counter(u64);

fn app(plugin: Option<&std::path::Path>) -> App {
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
        ));
        if i == 0 {
            entity.insert(Counter(0));
        }
    }
    app.finish();
    app.cleanup();
    app
}

fn relabel(mut q: Query<(&mut AccessibilityNode, &mut Counter)>) {
    for (mut node, mut counter) in &mut q {
        counter.0 += 1;
        node.set_label(if counter.0 % 2 == 0 { "even" } else { "odd" });
    }
}

/// Per-frame times of `frames` updates after a warm-up.
fn frames(app: &mut App, frames: usize) -> Vec<Duration> {
    for _ in 0..100 {
        app.update();
    }
    let mut v: Vec<Duration> = (0..frames)
        .map(|_| {
            let t = Instant::now();
            app.update();
            t.elapsed()
        })
        .collect();
    v.sort();
    v
}

fn pct(v: &[Duration], p: f64) -> Duration {
    v[((v.len() - 1) as f64 * p).round() as usize]
}

fn row(what: &str, with: &[Duration], without: &[Duration]) {
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    let p50 = us(pct(with, 0.5)) - us(pct(without, 0.5));
    let p99 = us(pct(with, 0.99)) - us(pct(without, 0.99));
    let verdict = if p50 <= 20.0 { "met" } else { "MISSED" };
    println!("| {what} | {p50:.1} us | {p99:.1} us | <= 20 us | {verdict} |");
}

fn main() {
    let tmp = tempfile::tempdir().expect("a temporary directory");
    println!(
        "| Bevy plugin, per frame (App::update with it minus without) | p50 | p99 | target | verdict |"
    );
    println!("|---|---|---|---|---|");
    for changing in [false, true] {
        let dir = tmp.path().join(if changing { "changing" } else { "still" });
        let mut with = app(Some(&dir));
        let mut without = app(None);
        if changing {
            with.add_systems(Update, relabel);
            without.add_systems(Update, relabel);
        }
        let (a, b) = (frames(&mut with, FRAMES), frames(&mut without, FRAMES));
        let what = if changing {
            "1,000 UI nodes, one label changing every frame"
        } else {
            "1,000 UI nodes, unchanged"
        };
        row(what, &a, &b);
    }
}
