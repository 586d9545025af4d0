//! The round trips, side by side with the Native SDK when one is given (issue 26): set
//! `WINIT_AUTOMATION_PEER` to a Native SDK checkout with `ui-inbox` and its CLI built
//! (`scripts/bench.sh --peer DIR` does). Without it, this crate's rows only.
//!
//! Every row is measured on the release demo (windowed under Xvfb drawing on demand, and
//! headless, both on lavapipe) and, where the peer has the row, on `ui-inbox` windowed under Xvfb
//! (benches/shared/peer.rs says how it is driven); the two run at once and take turns per block
//! of samples, so load drifting over the run hits both. A click's round trip ends at its answer
//! here (written after the frame that applied it) and at its effect seen in `snapshot.txt` there.
//! Each round trip row is also printed as a ratio to the drop-box's floor (benches/shared/floor.rs)
//! measured in the same run: back to back for back-to-back rows, 20 ms apart for idle ones. Every click's effect is checked (see benches/shared/demo.rs).
//! Prints medians and p99; asserts nothing. `bash scripts/bench.sh` builds the release examples.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/demo.rs"]
mod demo;
#[path = "shared/floor.rs"]
mod floor;
#[path = "shared/peer.rs"]
mod peer;
#[path = "shared/stats.rs"]
mod stats;

use std::time::{Duration, Instant};

use demo::{burst, cli_clicks, click_round_trips};
use stats::{median_rate, ms, over_floor, p50_p99, ratio, verdict};

/// Blocks each system takes in turn, and samples per block.
const BLOCKS: usize = 5;
const PER_BLOCK: usize = 200;
const IDLE: Duration = Duration::from_millis(20);

/// What one row measured on one system: p50 and p99.
type Tails = (Duration, Duration);

/// A round trip row: this crate's p50 and p99, the peer's if measured, their ratios, this crate's
/// p50 and p99 against the floor's, and (for clicks) whether its p99 is within 3x its p50.
fn row(what: &str, ours: Tails, peer: Option<Tails>, floor: Tails, click: bool) {
    let (theirs, ratios) = match peer {
        Some((p50, p99)) => (
            format!("{} | {}", ms(p50), ms(p99)),
            format!("{} | {}", ratio(ours.0, p50), ratio(ours.1, p99)),
        ),
        None => ("- | -".to_owned(), "- | -".to_owned()),
    };
    let tails = if click {
        verdict(ours.1 <= ours.0 * 3)
    } else {
        "-"
    };
    println!(
        "| {what} | {} | {} | {theirs} | {ratios} | {} | {tails} |",
        ms(ours.0),
        ms(ours.1),
        over_floor(ours, floor),
    );
}

/// `BLOCKS` blocks of samples from each system in turn; each one's p50 and p99.
fn interleave<A, B>(mut ours: A, mut theirs: Option<B>) -> (Tails, Option<Tails>)
where
    A: FnMut() -> Vec<Duration>,
    B: FnMut() -> Vec<Duration>,
{
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..BLOCKS {
        a.extend(ours());
        if let Some(t) = theirs.as_mut() {
            b.extend(t());
        }
    }
    (p50_p99(&mut a), theirs.map(|_| p50_p99(&mut b)))
}

/// This crate's samples alone, in the same blocks.
fn alone(ours: impl FnMut() -> Vec<Duration>) -> Tails {
    interleave(ours, None::<fn() -> Vec<Duration>>).0
}

fn rate_row(what: &str, ours: &mut [f64], peer: Option<&mut [f64]>) {
    let ours = median_rate(ours);
    let (theirs, ratio) = match peer {
        Some(p) => {
            let p = median_rate(p);
            (format!("{p:.0}/s"), format!("{:.2}", p / ours))
        }
        None => ("-".to_owned(), "-".to_owned()),
    };
    println!("| {what} | {ours:.0}/s | | {theirs} | | {ratio} (time per click) | | | |");
}

/// `samples` idle `find`s (a read-only verb answered by the service thread), `IDLE` apart.
fn finds(client: &winit_automation_client::Client, samples: usize) -> Vec<Duration> {
    (0..samples + 10)
        .map(|_| {
            std::thread::sleep(IDLE);
            let start = Instant::now();
            let r = client
                .send_line("find role=checkbox name=Subscribe")
                .unwrap();
            assert!(r.is_ok(), "{r:?}");
            start.elapsed()
        })
        .skip(10)
        .collect()
}

fn main() {
    floor::serve_if_asked();
    let build = std::env::var_os("WINIT_AUTOMATION_PEER")
        .map(|root| peer::Build::in_checkout(std::path::Path::new(&root)));
    println!(
        "machine: {} cores; {} samples per click row ({BLOCKS} blocks, taking turns), after warm-up; peer: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        BLOCKS * PER_BLOCK,
        if build.is_some() {
            "Native SDK ui-inbox, windowed under Xvfb"
        } else {
            "none (set WINIT_AUTOMATION_PEER)"
        }
    );
    let floor = p50_p99(&mut floor::round_trips(200, 2_000, Duration::ZERO));
    let idle_floor = p50_p99(&mut floor::round_trips(20, 500, IDLE));
    let windowed = demo::demo(false, &[]);
    let headless = demo::demo(true, &[]);
    let peer = build.as_ref().map(peer::Peer::start);
    // Warm-up for all three.
    click_round_trips(windowed.client(), 20, 0, Duration::ZERO);
    click_round_trips(headless.client(), 20, 0, Duration::ZERO);
    if let Some(p) = &peer {
        for _ in 0..20 {
            p.click();
        }
    }

    println!(
        "| row | p50 | p99 | Native SDK p50 | Native SDK p99 | p50 ratio | p99 ratio | / floor p50 / p99 | p99 <= 3x p50 |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| the drop-box's floor: two processes, command file and response file, inotify, back to back | {} | {} | | | | | 1 / 1 | |",
        ms(floor.0),
        ms(floor.1)
    );
    println!(
        "| the same floor, 20 ms apart (both processes wake from idle; the idle rows' floor) | {} | {} | | | | | 1 / 1 | |",
        ms(idle_floor.0),
        ms(idle_floor.1)
    );
    let (ours, theirs) = interleave(
        || click_round_trips(windowed.client(), 0, PER_BLOCK, IDLE),
        peer.as_ref().map(|p| {
            move || {
                (0..PER_BLOCK)
                    .map(|_| {
                        std::thread::sleep(IDLE);
                        p.click()
                    })
                    .collect()
            }
        }),
    );
    row(
        "windowed: click, app idle (20 ms apart); Native SDK: until its effect",
        ours,
        theirs,
        idle_floor,
        true,
    );
    let (ours, theirs) = interleave(
        || click_round_trips(windowed.client(), 0, PER_BLOCK, Duration::ZERO),
        peer.as_ref()
            .map(|p| move || (0..PER_BLOCK).map(|_| p.click()).collect()),
    );
    row(
        "windowed: click, back to back (each after the last one's drawing)",
        ours,
        theirs,
        floor,
        true,
    );
    let ours = alone(|| click_round_trips(headless.client(), 0, PER_BLOCK, IDLE));
    row(
        "headless: click, app idle (20 ms apart)",
        ours,
        None,
        idle_floor,
        true,
    );
    let ours = alone(|| click_round_trips(headless.client(), 0, PER_BLOCK, Duration::ZERO));
    row("headless: click, back to back", ours, None, floor, true);
    let ours = alone(|| finds(headless.client(), PER_BLOCK));
    row(
        "headless: find (read-only, the service thread answers), idle",
        ours,
        None,
        idle_floor,
        false,
    );

    // Bursts: 100 clicks queued at once, five each, taking turns.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    for _ in 0..5 {
        ours.push(burst(windowed.client(), 100));
        if let Some(p) = &peer {
            theirs.push(p.burst(100));
        }
    }
    rate_row(
        "windowed: burst of 100 clicks queued at once",
        &mut ours,
        peer.as_ref().map(|_| theirs.as_mut_slice()),
    );
    let mut ours: Vec<f64> = (0..5).map(|_| burst(headless.client(), 100)).collect();
    rate_row(
        "headless: burst of 100 clicks queued at once",
        &mut ours,
        None,
    );

    // One click through each CLI, 60 each after 5, taking turns per 20.
    let (mut ours, mut theirs) = (Vec::new(), Vec::new());
    cli_clicks(&windowed, 5, 0);
    for _ in 0..3 {
        ours.extend(cli_clicks(&windowed, 0, 20));
        if let Some(p) = &peer {
            theirs.extend((0..20).map(|_| p.cli_click()));
        }
    }
    let ours = p50_p99(&mut ours);
    let theirs = peer.as_ref().map(|_| p50_p99(&mut theirs));
    row(
        "windowed: one click through the CLI, process start to exit",
        ours,
        theirs,
        floor,
        false,
    );
}
