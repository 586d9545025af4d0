//! One click's answer, this working tree against another commit's build, in turns (issue 54):
//! `scripts/bench.sh --compare REF` builds REF's release demo and CLI and sets
//! `WINIT_AUTOMATION_COMPARE` to the folder that holds them (`demo`, `winit-automation`) and
//! `WINIT_AUTOMATION_COMPARE_NAME` to REF's name; `--compare REF REF2` also sets
//! `WINIT_AUTOMATION_COMPARE_WITH` (and `_WITH_NAME`) to REF2's, which then stands in for the
//! working tree's (a bisect's step).
//!
//! Both demos run at once, windowed under Xvfb (drawing on demand) and then headless, and take
//! turns click by click (who goes first alternates), so load drifting over the run hits both
//! alike: first each click 20 ms after the last answer (an app at rest, as an agent or a test
//! meets it), then back to back. Both are driven by the same client, written here at the level
//! of the drop-box's files (a `command-<seq>.txt` as the client library writes it, with a
//! deadline; its `response-<seq>.txt` awaited on a `notify` watch), which every protocol version
//! shares, so that the difference measured is the app's. Each click toggles the demo's
//! checkbox, and each demo's checkbox must end in the state its number of clicks gives. Each sitting starts both apps afresh; a row gives each sitting's
//! p50 and p99 and the ratios of their medians (the second build's over REF's: above 1 is
//! slower). A click row whose p50 ratio is above 1.10 is flagged a regression, and the bench
//! then exits with status 1. The CLI row runs each build's own CLI against its own demo, process
//! start to exit; it is printed, not flagged: a process start varies by more than 10% here
//! between two runs of the same binary. With `WINIT_AUTOMATION_COMPARE_TRACE` set, both apps run
//! the trace the harness starts by default (`trace start --replaceable`).
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/release.rs"]
mod release;
#[path = "shared/stats.rs"]
mod stats;

use std::fs;
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use stats::{ms, p50_p99};
use winit_automation_dropbox::queue;

/// The demo's checkbox: each click toggles it.
const CLICK: &str = "click role=checkbox name=Subscribe";
const FIND: &str = "find role=checkbox name=Subscribe";
/// Sittings: each starts both apps afresh.
const SITTINGS: usize = 3;
/// Clicks each side takes before its samples count, and samples per side per sitting.
const WARMUP: usize = 10;
const SAMPLES: usize = 100;
/// The CLI row's samples per side per sitting (each is a process start).
const CLI_SAMPLES: usize = 30;
/// The pause before each click of the rows at rest.
const AT_REST: Duration = Duration::from_millis(20);
/// The p50 ratio above which a row is flagged.
const FLAG: f64 = 1.10;

/// One side of the comparison: its demo and CLI.
struct Build {
    name: String,
    demo: PathBuf,
    cli: PathBuf,
}

impl Build {
    /// A commit's build bench.sh keeps in `dir` (`demo`, `winit-automation`), named by the
    /// variable `name_var` (else `fallback`).
    fn kept(dir: &Path, name_var: &str, fallback: &str) -> Build {
        Build {
            name: std::env::var(name_var).unwrap_or_else(|_| fallback.into()),
            demo: dir.join("demo"),
            cli: dir.join("winit-automation"),
        }
    }
}

/// One row's sittings: (p50, p99) for REF and for the other build.
#[derive(Default)]
struct Row {
    other: Vec<(Duration, Duration)>,
    ours: Vec<(Duration, Duration)>,
}

impl Row {
    fn add(&mut self, [mut other, mut ours]: [Vec<Duration>; 2]) {
        self.other.push(p50_p99(&mut other));
        self.ours.push(p50_p99(&mut ours));
    }

    /// Prints the row; returns whether it is `flagged` and its p50 ratio is above [`FLAG`].
    fn print(&self, what: &str, flagged: bool) -> bool {
        let list = |s: &[(Duration, Duration)], p99: bool| {
            s.iter()
                .map(|t| ms(if p99 { t.1 } else { t.0 }).replace(" ms", ""))
                .collect::<Vec<_>>()
                .join(" / ")
        };
        let median = |s: &[(Duration, Duration)], p99: bool| {
            let mut v: Vec<Duration> = s.iter().map(|t| if p99 { t.1 } else { t.0 }).collect();
            v.sort();
            v[v.len() / 2]
        };
        let r50 =
            median(&self.ours, false).as_secs_f64() / median(&self.other, false).as_secs_f64();
        let r99 = median(&self.ours, true).as_secs_f64() / median(&self.other, true).as_secs_f64();
        let flagged = flagged && r50 > FLAG;
        println!(
            "| {what} | {} | {} | {} | {} | {r50:.2} | {r99:.2} | {} |",
            list(&self.other, false),
            list(&self.other, true),
            list(&self.ours, false),
            list(&self.ours, true),
            match (flagged, r50 > FLAG) {
                (true, _) => "**REGRESSION**",
                (false, true) => "(not flagged)",
                (false, false) => "ok",
            },
        );
        flagged
    }
}

fn main() {
    let Some(dir) = std::env::var_os("WINIT_AUTOMATION_COMPARE") else {
        eprintln!(
            "compare: set WINIT_AUTOMATION_COMPARE to a folder with another build's `demo` and `winit-automation` (scripts/bench.sh --compare REF does)"
        );
        std::process::exit(2);
    };
    let other = Build::kept(Path::new(&dir), "WINIT_AUTOMATION_COMPARE_NAME", "REF");
    // Another commit's build in the working tree's place: a bisect's step.
    let ours = match std::env::var_os("WINIT_AUTOMATION_COMPARE_WITH") {
        Some(dir) => Build::kept(
            Path::new(&dir),
            "WINIT_AUTOMATION_COMPARE_WITH_NAME",
            "REF2",
        ),
        None => Build {
            name: "this tree".into(),
            demo: release::demo(),
            cli: release::cli(),
        },
    };
    let builds = [&other, &ours];
    for build in builds {
        for file in [&build.demo, &build.cli] {
            assert!(
                file.is_file(),
                "{} is missing: scripts/bench.sh --compare REF builds it",
                file.display()
            );
        }
    }
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "compare: {} (REF) against {}, {cores} cores; {SITTINGS} sittings of {WARMUP} warm-up and {SAMPLES} clicks a row, in turns",
        other.name, ours.name,
    );
    let mut rows: [Row; 5] = Default::default();
    for sitting in 0..SITTINGS {
        for headless in [false, true] {
            // Who starts first, and who clicks first, alternates: `apps` in the sitting's
            // order, the rows' samples back in the builds' order.
            let odd = sitting % 2 == 1;
            let apps = swapped(odd, builds).map(|b| Demo::start(b, headless));
            let at_rest = in_turns(&apps, WARMUP, SAMPLES, |app| {
                std::thread::sleep(AT_REST);
                app.click()
            });
            let back_to_back = in_turns(&apps, WARMUP, SAMPLES, Demo::click);
            let first = usize::from(headless) * 2;
            rows[first].add(swapped(odd, at_rest));
            rows[first + 1].add(swapped(odd, back_to_back));
            if headless {
                rows[4].add(swapped(
                    odd,
                    in_turns(&apps, 3, CLI_SAMPLES, Demo::cli_click),
                ));
            }
        }
    }
    println!();
    println!(
        "| row | {0} p50 (ms, per sitting) | {0} p99 | {1} p50 | {1} p99 | p50 ratio | p99 ratio | flag (p50 > {FLAG:.2}) |",
        other.name, ours.name
    );
    println!("|---|---|---|---|---|---|---|---|");
    let flagged = [
        rows[0].print("windowed: click, app at rest (20 ms apart)", true),
        rows[1].print("windowed: click, back to back", true),
        rows[2].print("headless: click, app at rest (20 ms apart)", true),
        rows[3].print("headless: click, back to back", true),
        rows[4].print(
            "headless: click through the CLI, process start to exit",
            false,
        ),
    ];
    if flagged.contains(&true) {
        println!(
            "\nregression: a click's p50 ratio above {FLAG:.2}; docs/performance.md says where a click's time goes"
        );
        std::process::exit(1);
    }
}

/// `[b, a]` when `swap`, else `[a, b]`.
fn swapped<T>(swap: bool, [a, b]: [T; 2]) -> [T; 2] {
    if swap { [b, a] } else { [a, b] }
}

/// One demo, driven through its drop-box by the files alone, so that both builds meet the same
/// client whatever protocol version each speaks (the click's line and the file names are the
/// same in every version): a command is written as the client library writes it (a fresh
/// `command-<seq>.txt`), its `response-<seq>.txt` is awaited on a `notify` watch and read.
struct Demo {
    name: String,
    child: Child,
    dir: PathBuf,
    _temp: tempfile::TempDir,
    cli: PathBuf,
    events: Receiver<()>,
    _watcher: Option<notify::RecommendedWatcher>,
}

impl Demo {
    /// Starts `build`'s demo headless or windowed under Xvfb, prints its adapter and waits until
    /// its checkbox answers.
    fn start(build: &Build, headless: bool) -> Demo {
        let temp = tempfile::tempdir().expect("a temporary folder");
        let dir = temp.path().join("box");
        fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .expect("the drop-box");
        let log = fs::File::create(temp.path().join("stderr")).expect("the app's log");
        let mut command = if headless {
            let mut c = Process::new(&build.demo);
            c.args(["--headless", "--size", "800x600"])
                .env_remove("DISPLAY")
                .env_remove("WAYLAND_DISPLAY");
            c
        } else {
            let mut c = Process::new("xvfb-run");
            c.args(["-a", "-s", "-screen 0 1280x800x24"])
                .arg(&build.demo);
            c
        };
        command
            .arg("--dir")
            .arg(&dir)
            .env("WGPU_BACKEND", "vulkan")
            .stdout(Stdio::null())
            .stderr(log)
            // Its own group, so that dropping it stops Xvfb too.
            .process_group(0);
        let child = command
            .spawn()
            .expect("start the demo (xvfb-run for the windowed one)");
        let (tx, events) = bounded(1);
        let watcher = winit_automation_dropbox::watch::watch(&dir, tx, |name, _| {
            name.starts_with("response-")
        });
        let demo = Demo {
            name: format!(
                "{} {}",
                build.name,
                if headless { "headless" } else { "windowed" }
            ),
            child,
            dir,
            _temp: temp,
            cli: build.cli.clone(),
            events,
            _watcher: watcher,
        };
        demo.wait_until_ready(build, headless);
        demo
    }

    fn wait_until_ready(&self, build: &Build, headless: bool) {
        let until = Instant::now() + Duration::from_secs(60);
        while !self.dir.join("ready.txt").is_file() {
            assert!(
                Instant::now() < until,
                "{}: no ready.txt in 60 s",
                build.name
            );
            // A poll, not a barrier: the condition is checked again after each pause.
            std::thread::sleep(Duration::from_millis(20));
        }
        // Refused `not_found` until the first tree holds the checkbox.
        while !self.send(FIND).starts_with("ok") {
            assert!(
                Instant::now() < until,
                "{}: no checkbox in 60 s",
                build.name
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // As the harness does: the first frames lay the window out before it holds still.
        let settled = self.send("settle");
        assert!(settled.starts_with("ok"), "{}: {settled}", build.name);
        if std::env::var_os("WINIT_AUTOMATION_COMPARE_TRACE").is_some() {
            let t = self.send("trace start --replaceable");
            assert!(t.starts_with("ok"), "{t}");
        }
        let snapshot = self.send("snapshot");
        let log = fs::read_to_string(self._temp.path().join("stderr")).unwrap_or_default();
        let adapter = snapshot
            .lines()
            .chain(log.lines())
            .find(|l| l.contains("adapter"))
            .unwrap_or("no adapter line");
        let kind = if headless { "headless" } else { "windowed" };
        println!("{} {kind}: {adapter}", build.name);
    }

    /// Writes `line` with a deadline 30 s ahead, as the client library does, and waits for its
    /// answer; the answer's text.
    fn send(&self, line: &str) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("a clock after 1970");
        let deadline = (now + Duration::from_secs(30)).as_millis();
        let line = format!("{line} --deadline {deadline}");
        let seq = queue::enqueue(&self.dir, &line, 1_000, 64 * 1024).expect("enqueue");
        let path = self.dir.join(format!("response-{seq}.txt"));
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            match fs::read_to_string(&path) {
                Ok(text) => {
                    let _ = fs::remove_file(&path);
                    return text;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => panic!("{}: {e}", path.display()),
            }
            let now = Instant::now();
            assert!(now < until, "no answer to {line:?} in 30 s");
            // Woken by the answer's file event; the timeout only guards a missed one.
            let _ = self.events.recv_timeout(Duration::from_millis(100));
        }
    }

    /// Whether the checkbox is checked once the UI holds still.
    fn checked(&self) -> bool {
        let settled = self.send("settle");
        assert!(settled.starts_with("ok"), "{settled}");
        let answer = self.send(FIND);
        assert!(answer.starts_with("ok"), "{answer}");
        let node = answer
            .lines()
            .find(|l| l.contains(r#"checkbox "Subscribe""#))
            .unwrap_or_else(|| panic!("no checkbox line in {answer}"));
        node.contains(" checked")
    }

    /// One click, from its command's write to its answer's read.
    fn click(&self) -> Duration {
        let start = Instant::now();
        let answer = self.send(CLICK);
        let spent = start.elapsed();
        assert!(answer.starts_with("ok"), "{answer}");
        spent
    }

    /// One click through this build's own CLI, process start to exit.
    fn cli_click(&self) -> Duration {
        let start = Instant::now();
        let status = Process::new(&self.cli)
            .arg("--dir")
            .arg(&self.dir)
            .args(["click", "role=checkbox", "name=Subscribe"])
            .stdout(Stdio::null())
            .status()
            .expect("run the CLI");
        let spent = start.elapsed();
        assert!(status.success(), "{} click: {status}", self.cli.display());
        spent
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        // The demo, and Xvfb with it: the group the demo was started in.
        let _ = Process::new("kill")
            .args(["-TERM", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.wait();
    }
}

/// `warmup + samples` clicks on each app, taking turns (who goes first alternates); the timed
/// samples of each, after checking that every click toggled its checkbox.
fn in_turns(
    apps: &[Demo; 2],
    warmup: usize,
    samples: usize,
    mut click: impl FnMut(&Demo) -> Duration,
) -> [Vec<Duration>; 2] {
    let before = apps.each_ref().map(Demo::checked);
    let mut times = [Vec::with_capacity(samples), Vec::with_capacity(samples)];
    for i in 0..warmup + samples {
        for k in [i % 2, 1 - i % 2] {
            let spent = click(&apps[k]);
            if i >= warmup {
                times[k].push(spent);
            }
        }
    }
    for (app, before) in apps.iter().zip(before) {
        assert_eq!(
            app.checked(),
            before ^ ((warmup + samples) % 2 == 1),
            "every click of {} toggled the checkbox",
            app.name
        );
    }
    times
}
