//! Click benchmarks beyond one app's round trips (benches/versus.rs has those, side by side
//! with the Native SDK):
//! - eight headless demos at once on this machine, each clicked in its own thread: each one's
//!   p50 and p99, and each app's journal holding exactly the clicks sent to it (no cross-talk);
//! - egui's demo gallery at 1920x1080: frames and milliseconds per click.
//!
//! The round trip rows say how many times the drop-box's floor (benches/shared/floor.rs,
//! measured back to back at the start) their p50 and p99 are.
//!
//! Every demo click's effect is checked (benches/shared/demo.rs). Prints medians and p99 against
//! the targets; asserts nothing. `bash scripts/bench.sh` builds the release examples first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/demo.rs"]
mod demo;
#[path = "shared/floor.rs"]
mod floor;
#[path = "shared/stats.rs"]
mod stats;

use std::time::{Duration, Instant};

use demo::{click_round_trips, name_adapter};
use stats::{ms, over_floor, p50_p99, percentile, verdict};

/// The floor's p50 and p99.
type Floor = (Duration, Duration);
use winit_automation_testing::{App, Spawn};

/// Eight headless demos at once, each clicked `samples` times from its own thread.
fn parallel(n: usize, samples: usize, floor: Floor) {
    let apps: Vec<App> = (0..n).map(|_| demo::demo(true, &[])).collect();
    let results: Vec<(Vec<Duration>, usize)> = std::thread::scope(|s| {
        let handles: Vec<_> = apps
            .iter()
            .map(|app| {
                s.spawn(move || {
                    let times = click_round_trips(app.client(), 10, samples, Duration::ZERO);
                    // The app's own journal: every click it answered, from whichever client.
                    let journal = app.ok("journal");
                    let clicks = journal
                        .lines()
                        .filter(|l| l.starts_with("entry ") && l.contains("\"click "))
                        .count();
                    (times, clicks)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut p50s = Vec::new();
    let mut worst_p99 = Duration::ZERO;
    let mut all = Vec::new();
    for (mut times, _) in results.iter().cloned() {
        times.sort();
        p50s.push(percentile(&times, 0.5));
        worst_p99 = worst_p99.max(percentile(&times, 0.99));
        all.extend(times);
    }
    let list = p50s
        .iter()
        .map(|d| format!("{:.1}", d.as_secs_f64() * 1e3))
        .collect::<Vec<_>>()
        .join(", ");
    all.sort();
    println!(
        "| {n} headless demos at once: click round trip, each demo's p50 (ms) | {list} | worst p99 {} | - | - |",
        ms(worst_p99)
    );
    println!(
        "| {n} headless demos at once: all their clicks together | {} | {} | - | {} |",
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99)),
        over_floor((percentile(&all, 0.5), percentile(&all, 0.99)), floor)
    );
    let expected = 10 + samples;
    let clean = results.iter().all(|(_, clicks)| *clicks == expected);
    let counts = results
        .iter()
        .map(|(_, c)| c.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    println!(
        "| {n} headless demos at once: clicks in each app's journal (no cross-talk) | {counts} | | {expected} each | {} |",
        verdict(clean)
    );
}

/// egui's demo gallery at 1920x1080, headless: frames and time per click on its checkbox.
fn gallery(samples: usize, floor: Floor) {
    let app = Spawn::example("egui_gallery")
        .headless(1920, 1080)
        .settle_actions(false)
        .env("WGPU_BACKEND", "vulkan")
        .start();
    name_adapter(&app, "gallery 1920x1080");
    app.ok("settle --timeout 20000");
    let frame_of = |body: &str, prefix: &str| -> u64 {
        body.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {prefix:?} in {body}"))
    };
    let line = "click role=checkbox name=Checkbox";
    let mut frames = Vec::new();
    let mut times = Vec::new();
    let mut settled_frames = Vec::new();
    let mut settled_times = Vec::new();
    for i in 0..samples + 2 {
        // Idle first, so the frames counted are the click's own.
        app.ok("settle --timeout 20000");
        let before = frame_of(&app.ok("snapshot -i --force"), "snapshot frame=");
        let start = Instant::now();
        let body = app.ok(line);
        let spent = start.elapsed();
        let after = frame_of(&body, "frame ");
        app.ok("settle --timeout 20000");
        let start = Instant::now();
        let before_settled = frame_of(&app.ok("snapshot -i --force"), "snapshot frame=");
        let body = app.ok(&format!("{line} --settle --timeout 20000"));
        let settled_spent = start.elapsed();
        let settled_at = frame_of(&body, "settled frame ");
        if i >= 2 {
            frames.push(after - before);
            times.push(spent);
            settled_frames.push(settled_at - before_settled);
            settled_times.push(settled_spent);
        }
    }
    frames.sort();
    settled_frames.sort();
    let (p50, p99) = {
        times.sort();
        (percentile(&times, 0.5), percentile(&times, 0.99))
    };
    let f50 = frames[frames.len() / 2];
    println!(
        "| egui gallery 1920x1080 headless: frames per click (answer's frame - frame before) | {f50} | max {} | 1 | {} |",
        frames[frames.len() - 1],
        verdict(f50 <= 1)
    );
    println!(
        "| egui gallery 1920x1080 headless: click round trip | {} | {} | - | {} |",
        ms(p50),
        ms(p99),
        over_floor((p50, p99), floor)
    );
    settled_times.sort();
    println!(
        "| egui gallery 1920x1080 headless: click --settle, frames to settled and time | {} frames | {} | - | - |",
        settled_frames[settled_frames.len() / 2],
        ms(percentile(&settled_times, 0.5))
    );
}

fn main() {
    floor::serve_if_asked();
    let floor = p50_p99(&mut floor::round_trips(200, 2_000, Duration::ZERO));
    println!(
        "machine: {} cores; samples after warm-up; medians and p99",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | p50 | p99 | target | x floor (p50 / p99) |");
    println!("|---|---|---|---|---|");
    println!(
        "| the drop-box's floor (benches/shared/floor.rs), back to back | {} | {} | - | 1 / 1 |",
        ms(floor.0),
        ms(floor.1)
    );
    parallel(8, 100, floor);
    gallery(15, floor);
}
