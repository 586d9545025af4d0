//! The Native SDK's `ui-inbox` example with automation on, the peer docs/performance.md measures
//! against (../shared/peer-native/README.md says how it builds), driven as its own CLI drives it:
//! a writer claims `command-<1 + the highest entry>.txt`, writes one line, and the app consumes one
//! entry per frame (deleting it is the ack) and republishes `snapshot.txt` in place. A click is
//! `widget-click inbox-canvas <id>` on the first `role=checkbox name="Done"` widget, and its
//! effect is that widget's `value=` flipping in `snapshot.txt`: the peer writes no answer, so a
//! round trip here ends when the effect is seen, as this crate's ends when its answer (written
//! after the frame that applied the click) is read.
#![allow(dead_code)]

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use notify::Watcher as _;

/// How many entries the peer's writers let wait (its `max_queued_commands`).
const MAX_QUEUED: usize = 8;
const PATIENCE: Duration = Duration::from_secs(20);

/// The peer app's build: the app and its CLI, in a Native SDK checkout.
pub struct Build {
    pub app: PathBuf,
    pub cli: PathBuf,
}

impl Build {
    /// The build in the Native SDK checkout `root` (`build.sh`'s `NATIVE_SRC`); panics naming
    /// what is missing.
    pub fn in_checkout(root: &Path) -> Build {
        let build = Build {
            app: root.join("examples/ui-inbox/zig-out/bin/ui-inbox"),
            cli: root.join("zig-out/bin/native"),
        };
        for path in [&build.app, &build.cli] {
            assert!(
                path.exists(),
                "no {}: build the peer first (../shared/peer-native/README.md)",
                path.display()
            );
        }
        build
    }
}

/// A running `ui-inbox`, windowed under Xvfb, in a working directory of its own.
pub struct Peer {
    child: Child,
    work: tempfile::TempDir,
    dir: PathBuf,
    /// The checkbox clicked.
    id: String,
    cli: PathBuf,
    events: Receiver<()>,
    _watcher: notify::RecommendedWatcher,
}

impl Peer {
    pub fn start(build: &Build) -> Peer {
        let work = tempfile::tempdir().expect("a working directory");
        let dir = work.path().join(".zig-cache/native-sdk-automation");
        let child = Command::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(&build.app)
            .current_dir(work.path())
            .env("GTK_A11Y", "none")
            .env("GDK_BACKEND", "x11")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("xvfb-run and the peer app");
        let deadline = Instant::now() + PATIENCE;
        let id = loop {
            let snapshot = fs::read_to_string(dir.join("snapshot.txt")).unwrap_or_default();
            if let Some(id) = snapshot.lines().find_map(|l| {
                let (_, rest) = l.split_once("widget @w1/inbox-canvas#")?;
                let (id, rest) = rest.split_once(' ')?;
                rest.starts_with("role=checkbox name=\"Done\"")
                    .then(|| id.to_owned())
            }) {
                break id;
            }
            assert!(Instant::now() < deadline, "the peer app did not start");
            std::thread::sleep(Duration::from_millis(20));
        };
        let (tx, events) = bounded(1);
        let mut watcher = notify::recommended_watcher(move |_: notify::Result<notify::Event>| {
            let _ = tx.try_send(());
        })
        .expect("inotify");
        watcher
            .watch(&dir, notify::RecursiveMode::NonRecursive)
            .expect("watch the peer's drop-box");
        Peer {
            child,
            work,
            dir,
            id,
            cli: build.cli.clone(),
            events,
            _watcher: watcher,
        }
    }

    /// The checkbox's `value=` in `snapshot.txt` now (`None` for a read torn by a republish).
    fn value(&self) -> Option<bool> {
        let snapshot = fs::read_to_string(self.dir.join("snapshot.txt")).ok()?;
        let needle = format!("#{} role=checkbox", self.id);
        let line = snapshot.lines().find(|l| l.contains(&needle))?;
        let value = line.split_once(" value=")?.1.split(' ').next()?;
        match value {
            "0" => Some(false),
            "1" => Some(true),
            _ => None,
        }
    }

    /// The seqs of the entries waiting.
    fn entries(&self) -> Vec<u64> {
        fs::read_dir(&self.dir)
            .expect("the peer's drop-box")
            .filter_map(|e| {
                let name = e.ok()?.file_name().into_string().ok()?;
                name.strip_prefix("command-")?
                    .strip_suffix(".txt")?
                    .parse()
                    .ok()
            })
            .collect()
    }

    /// Writes one click as its CLI does: above the highest entry, exclusively, one write. Waits
    /// while the peer's queue is full.
    fn enqueue_click(&self) {
        loop {
            let entries = self.entries();
            if entries.len() < MAX_QUEUED {
                let seq = entries.iter().max().map_or(1, |m| m + 1);
                let path = self.dir.join(format!("command-{seq}.txt"));
                let mut file = match OpenOptions::new()
                    .write(true)
                    .create_new(true)
                    .mode(0o600)
                    .open(&path)
                {
                    Ok(f) => f,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                    Err(e) => panic!("cannot write {}: {e}", path.display()),
                };
                let line = format!("widget-click inbox-canvas {}\n", self.id);
                file.write_all(line.as_bytes()).expect("one write");
                return;
            }
            self.wait_event();
        }
    }

    fn wait_event(&self) {
        self.events
            .recv_timeout(PATIENCE)
            .expect("the peer app changes its drop-box");
    }

    /// Waits until every entry is consumed and the checkbox shows `value`.
    fn wait_for(&self, value: bool) {
        loop {
            if self.entries().is_empty() && self.value() == Some(value) {
                return;
            }
            self.wait_event();
        }
    }

    fn current(&self) -> bool {
        loop {
            if let Some(v) = self.value() {
                return v;
            }
            self.wait_event();
        }
    }

    /// One click, from the entry written to its effect seen.
    pub fn click(&self) -> Duration {
        let before = self.current();
        let start = Instant::now();
        self.enqueue_click();
        self.wait_for(!before);
        start.elapsed()
    }

    /// Clicks per second for a burst of `n` clicks, written as fast as the queue takes them,
    /// until the last one's effect is seen.
    pub fn burst(&self, n: usize) -> f64 {
        let before = self.current();
        let start = Instant::now();
        for _ in 0..n {
            self.enqueue_click();
        }
        self.wait_for(before ^ (n % 2 == 1));
        n as f64 / start.elapsed().as_secs_f64()
    }

    /// One click through its CLI (`native automate widget-click ...`), process start to exit
    /// (the CLI returns once the entry is consumed), then waits for the effect untimed.
    pub fn cli_click(&self) -> Duration {
        let before = self.current();
        let start = Instant::now();
        let status = Command::new(&self.cli)
            .args(["automate", "widget-click", "inbox-canvas", &self.id])
            .current_dir(self.work.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("the peer's CLI");
        let spent = start.elapsed();
        assert!(status.success(), "the peer's CLI failed");
        self.wait_for(!before);
        spent
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        // xvfb-run, Xvfb and the app: the process group started for them.
        let _ = Command::new("kill")
            .arg("--")
            .arg(format!("-{}", self.child.id()))
            .status();
        let _ = self.child.wait();
    }
}
