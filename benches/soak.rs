//! The soak: egui's gallery headless, driven by four writers at once for ten minutes or more with
//! a mix of valid commands (service-side and app-side), invalid, oversized and expiring ones,
//! screenshots with `clean`, and trace starts and stops (benches/shared/soak_mix.rs). At the end
//! it checks that every command was answered exactly once (or withdrawn by its client at its
//! deadline, its documented fate), that the drop-box holds no entry, temporary file or unread
//! response, that the app never panicked and quits with exit 0, and that its resident memory grew
//! by less than 10 MiB from the first minute to the end. Prints the figures; exits 1 when a check
//! fails. `bash scripts/soak.sh` builds the gallery and runs it; not part of `cargo test` or CI.
//!
//!   soak --app GALLERY --dir DROPBOX --work DIR [--duration SECS] [--min-commands N]
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/soak_mix.rs"]
mod soak_mix;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use soak_mix::{Tally, Writer};
use winit_automation_client::Client;
use winit_automation_protocol::{
    ACCESSIBILITY_FILE, LOCK_FILE, READY_FILE, SNAPSHOT_FILE, WINDOWS_FILE,
};

/// The writer threads.
const WRITERS: usize = 4;
/// The most resident memory may grow from the first minute to the end.
const RSS_GROWTH_MAX_KIB: u64 = 10 * 1024;

struct Args {
    app: PathBuf,
    dir: PathBuf,
    work: PathBuf,
    duration: Duration,
    min_commands: u64,
}

fn args() -> Args {
    let mut args = std::env::args().skip(1);
    let (mut app, mut dir, mut work) = (None, None, None);
    let (mut duration, mut min_commands) = (600, 20_000);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--app" => app = Some(PathBuf::from(value())),
            "--dir" => dir = Some(PathBuf::from(value())),
            "--work" => work = Some(PathBuf::from(value())),
            "--duration" => duration = value().parse().expect("--duration SECS"),
            "--min-commands" => min_commands = value().parse().expect("--min-commands N"),
            // `cargo bench` passes this to every bench.
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
    }
    Args {
        app: app.expect("--app GALLERY"),
        dir: dir.expect("--dir DROPBOX"),
        work: work.expect("--work DIR"),
        duration: Duration::from_secs(duration),
        min_commands,
    }
}

/// The resident memory of `pid` in KiB (`VmRSS`).
fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// Starts the gallery headless at 1280x800 on `dir`, its stderr in `work/app.stderr`; returns
/// it, a client, and the adapter line. `reads` counts the answers read here.
fn start(args: &Args, reads: &mut u64) -> (Child, Client, String) {
    let stderr = std::fs::File::create(args.work.join("app.stderr")).unwrap();
    let child = Process::new(&args.app)
        .args(["--headless", "--size", "1280x800", "--dir"])
        .arg(&args.dir)
        .env("WGPU_BACKEND", "vulkan")
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", args.app.display()));
    let client = Client::connect_waiting(Some(&args.dir), Duration::from_secs(120), |_| {})
        .expect("the gallery starts")
        .with_timeout(Duration::from_secs(60));
    // Its tree, then its settled layout (egui fades its windows in).
    let mut adapter = String::from("no adapter reported");
    for _ in 0..1200 {
        let r = client.send_line("snapshot --force").unwrap();
        *reads += 1;
        let body = body(&r);
        if let Some(l) = body.lines().find_map(|l| l.split_once(" adapter=")) {
            adapter = l.1.trim().to_owned();
        }
        if body.contains("checkbox \"Checkbox\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let r = client.send_line("settle --timeout 30000").unwrap();
    *reads += 1;
    assert!(r.is_ok(), "the gallery settles: {r:?}");
    (child, client, adapter)
}

fn body(r: &winit_automation_protocol::Response) -> &str {
    match &r.outcome {
        winit_automation_protocol::Outcome::Ok { body } => body,
        winit_automation_protocol::Outcome::Error { body, .. } => body,
    }
}

/// Runs the writers until the duration has passed and the commands are sent (at most a quarter
/// longer); samples the app's memory at the first minute. Returns the tally, the time spent
/// and the sample.
fn soak(args: &Args, pid: u32) -> (Tally, Duration, u64) {
    let stop = AtomicBool::new(false);
    let sent = AtomicU64::new(0);
    let started = Instant::now();
    let mut minute = None;
    let tally = std::thread::scope(|s| {
        let writers: Vec<_> = (0..WRITERS)
            .map(|id| {
                let (stop, sent) = (&stop, &sent);
                s.spawn(move || {
                    let mut w = Writer::new(id, &args.dir, &args.work);
                    w.run(stop, sent);
                    w.tally
                })
            })
            .collect();
        let mut next_report = Duration::from_secs(60);
        loop {
            std::thread::sleep(Duration::from_millis(250));
            let spent = started.elapsed();
            if minute.is_none() && spent >= Duration::from_secs(60) {
                minute = Some(rss_kib(pid));
            }
            if spent >= next_report {
                next_report += Duration::from_secs(60);
                println!(
                    "soak: {} s, {} commands, rss {}",
                    spent.as_secs(),
                    sent.load(Ordering::Relaxed),
                    mib(rss_kib(pid))
                );
            }
            let done = spent >= args.duration && sent.load(Ordering::Relaxed) >= args.min_commands;
            if done || spent >= args.duration * 5 / 4 {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        let mut tally = Tally::default();
        for w in writers {
            tally.add(w.join().expect("a writer panicked"));
        }
        tally
    });
    let minute = minute.unwrap_or_else(|| rss_kib(pid));
    (tally, started.elapsed(), minute)
}

/// The names in the drop-box that section 2 of the protocol does not allow once every client is
/// done: anything but the app's own files and its screenshots.
fn leftovers(dir: &Path) -> (Vec<String>, usize) {
    let mut left = Vec::new();
    let mut shots = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        let own = [
            LOCK_FILE,
            READY_FILE,
            SNAPSHOT_FILE,
            ACCESSIBILITY_FILE,
            WINDOWS_FILE,
        ];
        if name.starts_with("screenshot-") && name.ends_with(".png") {
            shots += 1;
        } else if !own.contains(&name.as_str()) {
            left.push(name);
        }
    }
    left.sort();
    (left, shots)
}

/// The `answered` count of a `status` answer.
fn answered(client: &Client) -> u64 {
    let r = client.send_line("status").unwrap();
    body(&r)
        .lines()
        .find_map(|l| l.strip_prefix("answered "))
        .and_then(|v| v.parse().ok())
        .expect("status says how many answers it wrote")
}

fn main() {
    let args = args();
    std::fs::create_dir_all(&args.work).unwrap();
    let mut reads = 0;
    let (mut child, client, adapter) = start(&args, &mut reads);
    let pid = child.id();
    let rss_start = rss_kib(pid);
    println!("soak: gallery pid {pid}, {adapter}, rss {}", mib(rss_start));
    let (tally, spent, rss_minute) = soak(&args, pid);
    let rss_end = rss_kib(pid);
    let mut failed = tally.violations.clone();
    let mut check = |ok: bool, what: String| {
        if !ok {
            failed.push(what);
        }
    };

    // Every command written was answered once, or withdrawn by its client (never answered).
    let withdrawn = tally.fates.get("withdrawn").copied().unwrap_or(0);
    check(
        tally.total() == tally.answers + withdrawn,
        format!(
            "{} commands written, {} answered, {withdrawn} withdrawn",
            tally.total(),
            tally.answers
        ),
    );
    // The app wrote as many answers as were read: none twice, none unread. (Its status is
    // answered by what it had written before it.)
    let written = answered(&client);
    check(
        written == reads + tally.answers,
        format!(
            "the app wrote {written} answers; {} were read",
            reads + tally.answers
        ),
    );
    reads += 1;
    // The screenshots kept to 5, then nothing left but the app's own files (withdrawn entries
    // are removed by the app at their turn: give it a moment).
    let r = client.send_line("clean --keep 5").unwrap();
    reads += 1;
    check(r.is_ok(), format!("clean: {r:?}"));
    let mut left = leftovers(&args.dir);
    for _ in 0..50 {
        if left.0.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
        left = leftovers(&args.dir);
    }
    check(
        left.0.is_empty(),
        format!("left in the drop-box: {:?}", left.0),
    );
    check(
        left.1 <= 5,
        format!("{} screenshots after clean --keep 5", left.1),
    );
    check(
        rss_end < rss_minute + RSS_GROWTH_MAX_KIB,
        format!(
            "resident memory grew from {} to {}",
            mib(rss_minute),
            mib(rss_end)
        ),
    );
    check(
        tally.total() >= args.min_commands && spent >= args.duration,
        format!(
            "{} commands in {} s; {} in {} s asked for",
            tally.total(),
            spent.as_secs(),
            args.min_commands,
            args.duration.as_secs()
        ),
    );
    let alive = matches!(child.try_wait(), Ok(None));
    check(alive, "the gallery exited during the soak".to_owned());
    let exit = quit(&client, &mut child, &mut reads);
    check(exit.as_deref() == Some("0"), format!("quit: exit {exit:?}"));
    let stderr = std::fs::read_to_string(args.work.join("app.stderr")).unwrap_or_default();
    check(
        !stderr.contains("panicked"),
        format!("the gallery panicked: {stderr}"),
    );
    // The service logs a command it was about to answer twice (and does not).
    check(
        !stderr.contains("already answered"),
        format!("the gallery tried to answer a command twice: {stderr}"),
    );
    report(
        &tally,
        spent,
        [rss_start, rss_minute, rss_end],
        &adapter,
        written,
    );
    if !failed.is_empty() {
        for f in &failed {
            println!("soak: FAILED: {f}");
        }
        std::process::exit(1);
    }
    println!("soak: every check passed");
}

/// Sends `quit`; returns the gallery's exit code once it has exited (within 60 s).
fn quit(client: &Client, child: &mut Child, reads: &mut u64) -> Option<String> {
    if matches!(client.send_line("quit"), Ok(r) if r.is_ok()) {
        *reads += 1;
    }
    let until = Instant::now() + Duration::from_secs(60);
    while Instant::now() < until {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status.code().map_or(format!("{status}"), |c| c.to_string()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn report(tally: &Tally, spent: Duration, rss: [u64; 3], adapter: &str, written: u64) {
    println!("| figure | value |");
    println!("|---|---|");
    println!("| adapter | {adapter} |");
    println!("| duration | {:.0} s |", spent.as_secs_f64());
    let kinds: Vec<String> = tally.sent.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "| commands written | {} ({}) |",
        tally.total(),
        kinds.join(", ")
    );
    println!(
        "| answers read | {} (the app's count: {written}) |",
        tally.answers
    );
    let codes: Vec<String> = tally
        .codes
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!("| errors by code | {} |", codes.join(", "));
    let fates: Vec<String> = tally
        .fates
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    println!("| short clients that gave up | {} |", fates.join(", "));
    println!("| queue full (not written) | {} |", tally.queue_full);
    println!(
        "| resident memory: start / first minute / end | {} / {} / {} |",
        mib(rss[0]),
        mib(rss[1]),
        mib(rss[2])
    );
}
