//! Frame-loop benchmarks:
//! - the render thread's cost per frame with automation on and a 1,000-node tree updated every
//!   frame (`Automation::frame`, `Frame::tree_update`, the frame's end; building the tree is the app's own cost and
//!   is not counted), in process;
//! - the command round trip (client write to response read) against the custom demo in a window
//!   under Xvfb, redrawing at 60 Hz: a read-only command answered by the service thread, and an
//!   action carried out by the next frame.
//!
//! - screenshots at 1920x1080: command to PNG on disk against the headless demo, the PNG's size
//!   against the raw RGBA size, and the render thread's own time in `capture` + the frame's end
//!   (in process, on a real device: what the plugin adds to the frame, the app's submit excluded).
//!
//! Each command round trip row also prints its p50 and p99 as ratios to the drop-box's floor
//! (benches/shared/floor.rs), measured back to back at the start, as these round trips are.
//!
//! Prints medians and p99 against the targets; asserts nothing. Run it with `bash scripts/bench.sh`,
//! which builds the release demo first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use std::time::{Duration, Instant};

#[path = "../tests/common/app.rs"]
mod app;
#[path = "shared/floor.rs"]
mod floor;
#[path = "../tests/common/gpu.rs"]
mod gpu;
#[path = "shared/render_loop.rs"]
mod render_loop;
#[path = "shared/stats.rs"]
mod stats;

use app::{TestApp, window_id};
use render_loop::render_cost;
use winit_automation::WindowState;
use winit_automation_client::Client;
use winit_automation_testing::{App, Spawn};

/// The drop-box's floor (p50, p99), for the ratio column; `None` for rows that are no round trip.
type Floor = Option<(Duration, Duration)>;

/// `p50 / p99` as multiples of the floor's, or `-`.
fn over(floor: Floor, p50: Duration, p99: Duration) -> String {
    floor.map_or("-".to_owned(), |floor| stats::over_floor((p50, p99), floor))
}

fn row(what: &str, v: &mut [Duration], target: Duration, unit_us: bool, floor: Floor) {
    v.sort();
    let (p50, p99) = (stats::percentile(v, 0.5), stats::percentile(v, 0.99));
    let fmt = |d: Duration| {
        if unit_us {
            format!("{:.1} us", d.as_secs_f64() * 1e6)
        } else {
            format!("{:.2} ms", d.as_secs_f64() * 1e3)
        }
    };
    println!(
        "| {what} | {} | {} | <= {} | {} | {} |",
        fmt(p50),
        fmt(p99),
        fmt(target),
        if p50 <= target { "met" } else { "MISSED" },
        over(floor, p50, p99)
    );
}

/// The release demo, started with the test harness: a private drop-box, killed on drop.
fn start_demo() -> App {
    start_demo_with(&["--continuous"], true)
}

fn start_demo_with(args: &[&str], windowed: bool) -> App {
    let spawn = Spawn::example("demo")
        .args(args.iter().copied())
        .settle_actions(false)
        .env("WGPU_BACKEND", "vulkan");
    let spawn = if windowed {
        spawn.under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"])
    } else {
        spawn.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY")
    };
    let app = spawn.start();
    // Name the adapter.
    loop {
        let s = app.ok("snapshot --force");
        if let Some(metrics) = s.lines().find(|l| l.contains(" backend=")) {
            println!("demo {args:?}: {metrics}");
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    app
}

/// A row whose target names both the median and the p99.
fn row_p99(
    what: &str,
    v: &mut [Duration],
    p50_target: Duration,
    p99_target: Duration,
    floor: Floor,
) {
    v.sort();
    let (p50, p99) = (stats::percentile(v, 0.5), stats::percentile(v, 0.99));
    println!(
        "| {what} | {:.2} ms | {:.2} ms | p50 <= {} ms, p99 <= {} ms | {} | {} |",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        p50_target.as_millis(),
        p99_target.as_millis(),
        if p50 <= p50_target && p99 <= p99_target {
            "met"
        } else {
            "MISSED"
        },
        over(floor, p50, p99)
    );
}

/// Commands answered per second: batches of `batch` commands enqueued at once (the queue takes
/// them in order), timed from the first write to the last answer read. Returns per-batch rates.
fn throughput(client: &Client, lines: &[&str], batch: usize, batches: usize) -> Vec<f64> {
    let mut rates = Vec::new();
    for b in 0..batches + 1 {
        let start = Instant::now();
        let seqs: Vec<u64> = (0..batch)
            .map(|i| client.enqueue_line(lines[i % lines.len()]).unwrap())
            .collect();
        for seq in seqs {
            let r = client.wait(seq).unwrap();
            assert!(r.is_ok(), "{r:?}");
        }
        if b > 0 {
            rates.push(batch as f64 / start.elapsed().as_secs_f64());
        }
    }
    rates.sort_by(f64::total_cmp);
    rates
}

fn rate_row(what: &str, rates: &[f64], target: f64) {
    let median = rates[rates.len() / 2];
    println!(
        "| {what} | {median:.0}/s | worst {:.0}/s | >= {target:.0}/s | {} | - |",
        rates[0],
        if median >= target { "met" } else { "MISSED" }
    );
}

fn round_trips(client: &Client, line: &str, warmup: usize, samples: usize) -> Vec<Duration> {
    let mut times = Vec::with_capacity(samples);
    for i in 0..(warmup + samples) {
        let start = Instant::now();
        let response = client.send_line(line).unwrap();
        let spent = start.elapsed();
        assert!(response.is_ok(), "{line}: {response:?}");
        if i >= warmup {
            times.push(spent);
        }
    }
    times
}

/// For one 1920x1080 screenshot each of a frame that is only a clear: the render thread's time in
/// `capture` and the frame's end, and the time from the command to the PNG on disk (what the
/// screenshot adds to a frame, without the demo's drawing).
fn capture_stall(samples: usize) -> (Vec<Duration>, Vec<Duration>) {
    let app = TestApp::builder()
        .name("bench")
        .window(WindowState {
            title: "bench".into(),
            width: 1920.0,
            height: 1080.0,
            scale_factor: 1.0,
            focused: true,
        })
        .configure(|b| b.app_screenshots(false))
        .stepped();
    let window = window_id();
    let (device, queue, texture) = gpu::sized_target(1920, 1080);
    let client = app.client();
    let mut times = Vec::new();
    let mut trips = Vec::new();
    for i in 0..samples + 3 {
        let sent = Instant::now();
        let seq = client
            .enqueue_line(&format!("screenshot s{}", i % 4))
            .unwrap();
        let answer = app
            .dir()
            .join(winit_automation_protocol::response_file(seq));
        let mut spent = Duration::ZERO;
        while !answer.exists() {
            app.begin_frame();
            let mut frame = app.open_frame();
            let mut encoder = device.create_command_encoder(&Default::default());
            gpu::clear(&mut encoder, &texture, wgpu::Color::WHITE);
            let wanted = frame.wants_capture(window);
            let start = Instant::now();
            frame.capture(window, &device, &mut encoder, &texture);
            let encoded = start.elapsed();
            queue.submit([encoder.finish()]);
            drop(frame);
            let start = Instant::now();
            app.end_frame();
            if wanted {
                spent = encoded + start.elapsed();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let trip = sent.elapsed();
        let _ = client.wait(seq);
        if i >= 3 {
            times.push(spent);
            trips.push(trip);
        }
    }
    (times, trips)
}

/// Prints the plugin's debug log (where a screenshot spends its time) when `BENCH_LOG` is set.
struct Stderr;

impl log::Log for Stderr {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Debug
    }
    fn log(&self, r: &log::Record) {
        if r.target().starts_with("winit_automation") {
            eprintln!("{}", r.args());
        }
    }
    fn flush(&self) {}
}

fn main() {
    floor::serve_if_asked();
    if std::env::var_os("BENCH_LOG").is_some() {
        let _ = log::set_logger(&Stderr);
        log::set_max_level(log::LevelFilter::Debug);
    }
    println!(
        "machine: {} cores; samples after warm-up; medians and p99",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let mut trips = floor::round_trips(200, 2_000, Duration::ZERO);
    trips.sort();
    let floor = Some((
        stats::percentile(&trips, 0.5),
        stats::percentile(&trips, 0.99),
    ));
    println!("| what | p50 | p99 | target (p50) | | x floor (p50 / p99) |");
    println!("|---|---|---|---|---|---|");
    println!(
        "| the drop-box's floor (benches/shared/floor.rs), back to back | {:.2} ms | {:.2} ms | - | - | 1 / 1 |",
        stats::percentile(&trips, 0.5).as_secs_f64() * 1e3,
        stats::percentile(&trips, 0.99).as_secs_f64() * 1e3
    );
    row(
        "render thread per frame, automation on, 1,000-node tree updated every frame",
        &mut render_cost(),
        Duration::from_micros(20),
        true,
        None,
    );
    let demo = start_demo();
    let frame = Duration::from_micros(16_667);
    row(
        "windowed demo at 60 Hz: read-only command round trip (find)",
        &mut round_trips(demo.client(), "find role=button", 20, 300),
        frame + Duration::from_millis(2),
        false,
        floor,
    );
    row(
        "windowed demo at 60 Hz: action round trip (focus, one frame)",
        &mut round_trips(demo.client(), "focus name=Subscribe", 10, 150),
        frame + Duration::from_millis(2),
        false,
        floor,
    );
    drop(demo);

    let demo = start_demo_with(&["--headless"], false);
    row_p99(
        "idle headless demo: command round trip, client write to response read (find)",
        &mut round_trips(demo.client(), "find role=button", 50, 500),
        Duration::from_millis(1),
        Duration::from_millis(5),
        floor,
    );
    rate_row(
        "headless demo: read-only throughput (snapshot, find; 200 queued at once)",
        &throughput(
            demo.client(),
            &["snapshot --force", "find role=listitem"],
            200,
            5,
        ),
        2000.0,
    );
    // Clicks: benches/versus.rs (round trips, bursts, the CLI), benches/clicks.rs (eight demos,
    // the gallery).
    drop(demo);

    let demo = start_demo_with(&["--headless", "--size", "1920x1080"], false);
    row(
        "screenshot 1920x1080, command to PNG on disk (headless demo, lavapipe)",
        &mut round_trips(demo.client(), "screenshot bench", 3, 40),
        Duration::from_millis(40),
        false,
        floor,
    );
    let answer = demo.client().send_line("screenshot bench").unwrap();
    let bytes: u64 = answer
        .body()
        .lines()
        .find_map(|l| l.strip_prefix("bytes "))
        .and_then(|b| b.parse().ok())
        .unwrap();
    let raw = 1920 * 1080 * 4;
    println!(
        "| PNG of the demo UI at 1920x1080 against raw RGBA | {bytes} B | {raw} B | <= 1/4 | {} ({:.1}%) | - |",
        if bytes * 4 <= raw { "met" } else { "MISSED" },
        bytes as f64 * 100.0 / raw as f64
    );
    drop(demo);
    let (mut stall, mut trips) = capture_stall(30);
    // No target of its own: what a screenshot costs beyond drawing the frame (the 40 ms target
    // above includes the demo's drawing), with the app submitting a frame every millisecond.
    trips.sort();
    println!(
        "| (diagnostic) screenshot 1920x1080 of a cleared frame, command to PNG on disk, in process | {:.2} ms | {:.2} ms | - | - | - |",
        stats::percentile(&trips, 0.5).as_secs_f64() * 1e3,
        stats::percentile(&trips, 0.99).as_secs_f64() * 1e3
    );
    row(
        "render thread stalled by a 1920x1080 screenshot (capture + frame end)",
        &mut stall,
        Duration::from_micros(500),
        false,
        None,
    );
}
