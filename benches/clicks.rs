//! Click benchmarks against the release demos, each started with the test harness
//! (`winit_automation::testing::Spawn`):
//! - one click's round trip (the command file written to the answer read), headless and in a
//!   window under Xvfb drawing on demand, and a burst of 100 clicks queued at once;
//! - one click through the CLI, process start to exit;
//! - eight headless demos at once on this machine, each clicked in its own thread: each one's
//!   p50 and p99, and each app's journal holding exactly the clicks sent to it (no cross-talk);
//! - egui's demo gallery at 1920x1080: frames and milliseconds per click.
//!
//! Each click toggles the demo's checkbox; after every run the checkbox's state is checked
//! against the number of clicks, so every `ok` counted here is a click that took effect.
//! Prints medians and p99 against the targets; asserts nothing. `bash scripts/bench.sh` builds
//! the release examples first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::process::Command as Process;
use std::time::{Duration, Instant};

use winit_automation::client::Client;
use winit_automation::testing::{App, Spawn};

const CLICK: &str = "click role=checkbox name=Subscribe";

fn percentile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn verdict(met: bool) -> &'static str {
    if met { "met" } else { "MISSED" }
}

/// A row with its p50 and p99 and a target on the p50.
fn row(what: &str, v: &mut [Duration], target: Duration) -> (Duration, Duration) {
    v.sort();
    let (p50, p99) = (percentile(v, 0.5), percentile(v, 0.99));
    println!(
        "| {what} | {} | {} | p50 <= {} | {} |",
        ms(p50),
        ms(p99),
        ms(target),
        verdict(p50 <= target)
    );
    (p50, p99)
}

fn demo(headless: bool) -> App {
    let spawn = Spawn::example("demo")
        .settle_actions(false)
        .env("WGPU_BACKEND", "vulkan");
    let spawn = if headless {
        spawn.headless(800, 600)
    } else {
        spawn.under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"])
    };
    let app = spawn.start();
    name_adapter(
        &app,
        if headless {
            "headless demo"
        } else {
            "windowed demo"
        },
    );
    app
}

/// Prints the adapter the app draws on (it must say `backend=vulkan`).
fn name_adapter(app: &App, what: &str) {
    for _ in 0..600 {
        let s = app.ok("snapshot --force");
        if let Some(m) = s.lines().find(|l| l.contains(" backend=")) {
            println!("{what}: {m}");
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    println!("{what}: no adapter reported");
}

/// Whether the demo's checkbox is checked now.
fn checked(client: &Client) -> bool {
    let r = client
        .send_line("find role=checkbox name=Subscribe")
        .unwrap();
    r.body()
        .lines()
        .nth(1)
        .is_some_and(|l| l.contains(" checked"))
}

/// Clicks the checkbox `warmup + samples` times, one at a time, `gap` apart (an idle app: the
/// frame the last click drew is done; zero: back to back); returns the timed samples and checks
/// that every click toggled it.
fn click_round_trips(
    client: &Client,
    warmup: usize,
    samples: usize,
    gap: Duration,
) -> Vec<Duration> {
    let before = checked(client);
    let mut times = Vec::with_capacity(samples);
    for i in 0..warmup + samples {
        if !gap.is_zero() {
            std::thread::sleep(gap);
        }
        let start = Instant::now();
        let r = client.send_line(CLICK).unwrap();
        let spent = start.elapsed();
        assert!(r.is_ok(), "{r:?}");
        if i >= warmup {
            times.push(spent);
        }
    }
    let odd = (warmup + samples) % 2 == 1;
    assert_eq!(
        checked(client),
        before ^ odd,
        "every click toggled the checkbox"
    );
    times
}

/// Clicks per second: `batch` clicks queued at once, from the first write to the last answer.
fn burst(client: &Client, batch: usize, batches: usize) -> Vec<f64> {
    let before = checked(client);
    let mut rates = Vec::new();
    for b in 0..=batches {
        let start = Instant::now();
        let seqs: Vec<u64> = (0..batch)
            .map(|_| client.enqueue_line(CLICK).unwrap())
            .collect();
        for seq in seqs {
            let r = client.wait(seq).unwrap();
            assert!(r.is_ok(), "{r:?}");
        }
        if b > 0 {
            rates.push(batch as f64 / start.elapsed().as_secs_f64());
        }
    }
    let odd = (batch * (batches + 1)) % 2 == 1;
    assert_eq!(
        checked(client),
        before ^ odd,
        "every click toggled the checkbox"
    );
    rates.sort_by(f64::total_cmp);
    rates
}

fn rate_row(what: &str, rates: &[f64], target: f64) {
    let median = rates[rates.len() / 2];
    println!(
        "| {what} | {median:.0}/s | worst batch {:.0}/s | >= {target:.0}/s | {} |",
        rates[0],
        verdict(median >= target)
    );
}

/// `winit-automation --dir D click ...`, process start to exit.
fn cli_clicks(app: &App, warmup: usize, samples: usize) -> Vec<Duration> {
    let bin = env!("CARGO_BIN_EXE_winit-automation");
    let before = checked(app.client());
    let mut times = Vec::new();
    for i in 0..warmup + samples {
        let start = Instant::now();
        let status = Process::new(bin)
            .arg("--dir")
            .arg(app.dir())
            .args(["click", "role=checkbox", "name=Subscribe"])
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap();
        let spent = start.elapsed();
        assert!(status.success());
        if i >= warmup {
            times.push(spent);
        }
    }
    let odd = (warmup + samples) % 2 == 1;
    assert_eq!(
        checked(app.client()),
        before ^ odd,
        "every click toggled the checkbox"
    );
    times
}

/// Eight headless demos at once, each clicked `samples` times from its own thread.
fn parallel(n: usize, samples: usize) {
    let apps: Vec<App> = (0..n).map(|_| demo(true)).collect();
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
        "| {n} headless demos at once: all their clicks together | {} | {} | - | - |",
        ms(percentile(&all, 0.5)),
        ms(percentile(&all, 0.99))
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
fn gallery(samples: usize) {
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
        "| egui gallery 1920x1080 headless: click round trip | {} | {} | - | - |",
        ms(p50),
        ms(p99)
    );
    settled_times.sort();
    println!(
        "| egui gallery 1920x1080 headless: click --settle, frames to settled and time | {} frames | {} | - | - |",
        settled_frames[settled_frames.len() / 2],
        ms(percentile(&settled_times, 0.5))
    );
}

fn main() {
    println!(
        "machine: {} cores; samples after warm-up; medians and p99",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | p50 | p99 | target | |");
    println!("|---|---|---|---|---|");

    let idle = Duration::from_millis(20);
    let app = demo(true);
    row(
        "headless demo: click round trip (command written to answer read), back to back",
        &mut click_round_trips(app.client(), 20, 300, Duration::ZERO),
        Duration::from_millis(3),
    );
    rate_row(
        "headless demo: burst of 100 clicks queued at once",
        &burst(app.client(), 100, 5),
        500.0,
    );
    row(
        "headless demo: one click through the CLI, process start to exit",
        &mut cli_clicks(&app, 5, 60),
        Duration::from_millis(5),
    );
    drop(app);

    let app = demo(false);
    row(
        "windowed demo (Xvfb, draws on demand): click round trip, app idle (20 ms apart)",
        &mut click_round_trips(app.client(), 10, 150, idle),
        Duration::from_millis(6),
    );
    let mut back = click_round_trips(app.client(), 20, 300, Duration::ZERO);
    back.sort();
    println!(
        "| windowed demo: click round trip, back to back (each waits for the last click's drawing) | {} | {} | - | - |",
        ms(percentile(&back, 0.5)),
        ms(percentile(&back, 0.99))
    );
    rate_row(
        "windowed demo: burst of 100 clicks queued at once",
        &burst(app.client(), 100, 5),
        200.0,
    );
    let mut cli = cli_clicks(&app, 5, 60);
    cli.sort();
    println!(
        "| windowed demo: one click through the CLI, process start to exit | {} | {} | - | - |",
        ms(percentile(&cli, 0.5)),
        ms(percentile(&cli, 0.99))
    );
    drop(app);

    parallel(8, 100);
    gallery(15);
}
