//! The release demo as the click benches drive it: started with the harness (no trace: the
//! figures are the app's and the drop-box's), its adapter printed, and its checkbox clicked with
//! every click's effect checked (each click toggles it, so the state after a run must match the
//! number of clicks).
#![allow(dead_code)]

#[path = "../../tests/common/cli_binary.rs"]
mod cli_binary;
use std::process::Command as Process;
use std::time::{Duration, Instant};

use winit_automation_client::Client;
use winit_automation_testing::{App, Spawn};

pub const CLICK: &str = "click role=checkbox name=Subscribe";

/// The release demo, headless or in a window under Xvfb drawing on demand, with `args`.
pub fn demo(headless: bool, args: &[&str]) -> App {
    let spawn = Spawn::example("demo")
        .args(args.iter().copied())
        .settle_actions(false)
        .untraced()
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
pub fn name_adapter(app: &App, what: &str) {
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
pub fn checked(client: &Client) -> bool {
    let r = client
        .send_line("find role=checkbox name=Subscribe")
        .unwrap();
    r.body()
        .lines()
        .nth(1)
        .is_some_and(|l| l.contains(" checked"))
}

/// Checks that `clicks` clicks toggled the checkbox from `before`.
pub fn check_toggled(client: &Client, before: bool, clicks: usize) {
    assert_eq!(
        checked(client),
        before ^ (clicks % 2 == 1),
        "every click toggled the checkbox"
    );
}

/// Clicks the checkbox `warmup + samples` times, one at a time, `gap` apart (an idle app: the
/// frame the last click drew is done; zero: back to back); returns the timed samples.
pub fn click_round_trips(
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
    check_toggled(client, before, warmup + samples);
    times
}

/// Clicks per second for one burst of `n` clicks written in one batch, from the first write to
/// the last answer read.
pub fn burst(client: &Client, n: usize) -> f64 {
    let before = checked(client);
    let lines = vec![CLICK; n];
    let start = Instant::now();
    let batch = client.enqueue_lines(&lines);
    assert!(batch.stopped.is_none(), "{:?}", batch.stopped);
    for seq in batch.seqs {
        let r = client.wait(seq).unwrap();
        assert!(r.is_ok(), "{r:?}");
    }
    let rate = n as f64 / start.elapsed().as_secs_f64();
    check_toggled(client, before, n);
    rate
}

/// `winit-automation --dir D click ...`, process start to exit, `samples` times after `warmup`.
pub fn cli_clicks(app: &App, warmup: usize, samples: usize) -> Vec<Duration> {
    let bin = cli_binary::cli();
    let before = checked(app.client());
    let mut times = Vec::new();
    for i in 0..warmup + samples {
        let start = Instant::now();
        let status = Process::new(&bin)
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
    check_toggled(app.client(), before, warmup + samples);
    times
}
