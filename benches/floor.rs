//! The drop-box's floor (issue 26, item 5), alone: benches/shared/floor.rs says what it measures.
//! Prints the median and p99 over 2,000 round trips after 200 of warm-up; asserts nothing.
//! `bash scripts/bench.sh` runs it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/floor.rs"]
mod floor;
#[path = "shared/stats.rs"]
mod stats;

const WARMUP: usize = 200;
const SAMPLES: usize = 2_000;

fn main() {
    floor::serve_if_asked();
    let (p50, p99) = stats::p50_p99(&mut floor::round_trips(
        WARMUP,
        SAMPLES,
        std::time::Duration::ZERO,
    ));
    println!(
        "machine: {} cores; {SAMPLES} round trips after {WARMUP} of warm-up",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | p50 | p99 |");
    println!("|---|---|---|");
    println!(
        "| the drop-box's floor: two processes, command file and response file, inotify, no parsing | {:.3} ms | {:.3} ms |",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3
    );
}
