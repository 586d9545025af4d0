//! `winit-automation test`'s speed (issue 53): the wall time of a suite of 12 scripts on the
//! release demo, headless, at `--jobs 1` and at `--jobs 4`, and what starting and ending an
//! instance costs a script (12 scripts of one read-only line at `--jobs 1`: the wall time over
//! 12). Each row is the median of five runs after one warm-up run, with the fastest and slowest;
//! every script checks its click's effect. Prints only; `scripts/bench.sh` builds the release
//! demo and CLI first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/release.rs"]
mod release;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const SCRIPTS: usize = 12;
const RUNS: usize = 5;

/// `count` scripts in `dir`, each `text`.
fn suite(dir: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    for n in 0..SCRIPTS {
        std::fs::write(dir.join(format!("s{n:02}.script")), text).unwrap();
    }
    dir.to_owned()
}

/// One run of the suite; its wall time, after checking every script passed.
fn run(folder: &Path, jobs: usize) -> Duration {
    let app = format!("{} --headless", release::demo().display());
    let start = Instant::now();
    let out = Command::new(release::cli())
        .arg("test")
        .arg(folder)
        .args(["--app", &app, "--jobs", &jobs.to_string()])
        .env("WGPU_BACKEND", "vulkan")
        .env_remove("WINIT_AUTOMATION_DIR")
        .output()
        .expect("run the release CLI (scripts/bench.sh builds it)");
    let spent = start.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains(&format!("{SCRIPTS} scripts: {SCRIPTS} passed")),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    spent
}

/// Median, fastest and slowest of `RUNS` runs after a warm-up.
fn row(what: &str, folder: &Path, jobs: usize) -> Duration {
    run(folder, jobs);
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run(folder, jobs)).collect();
    times.sort();
    let median = times[RUNS / 2];
    println!(
        "| {what} | {:.2} s | {:.2} s | {:.2} s |",
        median.as_secs_f64(),
        times[0].as_secs_f64(),
        times[RUNS - 1].as_secs_f64()
    );
    median
}

fn main() {
    let tmp = tempfile::tempdir().unwrap();
    let clicks = suite(
        &tmp.path().join("clicks"),
        "click role=checkbox name=Subscribe\nexpect role=checkbox name=Subscribe checked\nfill role=textbox name=Name \"Ada\"\nexpect role=textbox name=Name value=\"Ada\"\n",
    );
    let empty = suite(&tmp.path().join("empty"), "status\n");
    println!(
        "machine: {} cores; release demo headless; {RUNS} runs after a warm-up",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | median | fastest | slowest |");
    println!("|---|---|---|---|");
    let one = row(
        "12 scripts (a click, a fill, two expects each), --jobs 1",
        &clicks,
        1,
    );
    let four = row("the same, --jobs 4", &clicks, 4);
    let start_end = row("12 scripts of one `status` line, --jobs 1", &empty, 1);
    println!();
    println!(
        "--jobs 4 takes {:.2} of --jobs 1's time; starting and ending an instance costs a script {:.0} ms",
        four.as_secs_f64() / one.as_secs_f64(),
        start_end.as_secs_f64() * 1e3 / SCRIPTS as f64
    );
}
