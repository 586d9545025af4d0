//! Cost that grows with the work (issue 26, item 4): bursts of 100, 1,000 and 10,000 clicks queued
//! at once in one batch (`Client::enqueue_lines`, one listing of the directory) against the
//! release headless demo started with room for them (`--queue-capacity 20000`) and without a
//! trace (`Spawn::untraced`). Each row: the throughput from the first write to the last answer
//! read, and the demo's resident memory before the burst and at its peak (`VmHWM`), so a scan
//! that walks every command known, or a record kept per command, shows as the burst grows.
//!
//! Every click toggles the demo's checkbox; after each burst its state is checked against the
//! number of clicks, so every answer counted is a click that took effect. Asserts nothing else.
//! `bash scripts/bench.sh` builds the release examples first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/demo.rs"]
mod demo;
#[path = "shared/stats.rs"]
mod stats;

use winit_automation_testing::App;

/// A field of `/proc/<pid>/status` in MiB (`VmRSS`, `VmHWM`).
fn mib(app: &App, field: &str) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", app.pid())).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(f64::NAN);
    kib / 1024.0
}

fn main() {
    println!(
        "machine: {} cores",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let app = demo::demo(true, &["--queue-capacity", "20000"]);
    // Warm-up: the first frames, the caches, the directory's first entries.
    demo::burst(app.client(), 100);
    println!("| burst queued at once | clicks/s (median of runs) | runs | RSS before | peak RSS |");
    println!("|---|---|---|---|---|");
    let mut rates_by_size = Vec::new();
    for (n, runs) in [(100, 5), (1_000, 3), (10_000, 1)] {
        let rss = mib(&app, "VmRSS");
        let mut rates: Vec<f64> = (0..runs).map(|_| demo::burst(app.client(), n)).collect();
        let median = stats::median_rate(&mut rates);
        rates_by_size.push(median);
        println!(
            "| headless demo: {n} clicks | {median:.0}/s | {runs} | {rss:.1} MiB | {:.1} MiB |",
            mib(&app, "VmHWM")
        );
    }
    let ratio = rates_by_size[0] / rates_by_size[rates_by_size.len() - 1];
    println!(
        "| 100-click rate / 10,000-click rate | {ratio:.2} | | target <= 2 | {} |",
        stats::verdict(ratio <= 2.0)
    );
}
