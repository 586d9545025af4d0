//! The drop-box's floor (issue 26, item 5): what one round trip costs two processes that exchange
//! a command file and a response file with the system calls the crate uses and nothing else.
//! The client creates `command-N.txt` exclusively and writes the line in one write; the server,
//! woken by inotify (through `notify`, as the service thread is) when the file is closed, reads
//! it, renames it to `taken-N.txt`, writes `response-N.txt` to a temporary name and renames it
//! into place, and removes `taken-N.txt`; the client, woken by inotify, reads the response and
//! removes it. No listing, no parsing, no frame, no tree: the round trip rows of the other
//! benches are printed as ratios to it.
//!
//! The server is this bench's own executable run again: a bench using it calls [`serve_if_asked`]
//! first in its `main`.
#![allow(dead_code)]

use std::fs::{self, OpenOptions};
use std::io::Write as _;
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, unbounded};
use notify::{EventKind, RecursiveMode, Watcher as _};

/// Set in the server process's environment: the directory it serves.
const SERVER: &str = "WINIT_AUTOMATION_FLOOR_SERVER";

/// Watches `dir`: each event's file names, as they come.
fn watch(dir: &Path) -> (notify::RecommendedWatcher, Receiver<Vec<PathBuf>>) {
    let (tx, rx) = unbounded();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event {
            let interesting = matches!(
                event.kind,
                EventKind::Access(notify::event::AccessKind::Close(
                    notify::event::AccessMode::Write
                )) | EventKind::Modify(notify::event::ModifyKind::Name(_))
                    | EventKind::Create(_)
            );
            if interesting {
                let _ = tx.send(event.paths);
            }
        }
    })
    .expect("inotify");
    watcher
        .watch(dir, RecursiveMode::NonRecursive)
        .expect("watch the directory");
    (watcher, rx)
}

/// Creates `path` exclusively and writes `bytes` in one write.
fn create(path: &Path, bytes: &[u8]) {
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .expect("an exclusive create");
    file.write_all(bytes).expect("one write");
}

fn named(paths: &[PathBuf], name: &str) -> bool {
    paths
        .iter()
        .any(|p| p.file_name().is_some_and(|n| n == name))
}

/// The server: answers each command file once it is closed, until `stop` appears.
fn server(dir: &Path) {
    let (_watcher, events) = watch(dir);
    create(&dir.join("ready"), b"ready\n");
    for paths in events {
        if named(&paths, "stop") {
            return;
        }
        for path in &paths {
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            let Some(seq) = name
                .strip_prefix("command-")
                .and_then(|n| n.strip_suffix(".txt"))
            else {
                continue;
            };
            let Ok(line) = fs::read(path) else { continue };
            if !line.ends_with(b"\n") {
                continue;
            }
            let taken = dir.join(format!("taken-{seq}.txt"));
            fs::rename(path, &taken).expect("take the entry");
            let temp = dir.join(format!(".tmp-response-{seq}"));
            create(&temp, b"ok 1 click\nframe 1\n");
            fs::rename(&temp, dir.join(format!("response-{seq}.txt"))).expect("publish");
            fs::remove_file(&taken).expect("remove the entry");
        }
    }
}

/// The client's round trips, from the create to the response read and removed.
fn client(dir: &Path, warmup: usize, samples: usize, gap: Duration) -> Vec<Duration> {
    let (_watcher, events) = watch(dir);
    let mut trips = Vec::with_capacity(samples);
    for seq in 0..warmup + samples {
        if !gap.is_zero() {
            std::thread::sleep(gap);
        }
        let response = format!("response-{seq}.txt");
        let start = Instant::now();
        create(&dir.join(format!("command-{seq}.txt")), b"click @e1\n");
        loop {
            let paths = events
                .recv_timeout(Duration::from_secs(10))
                .expect("the server answers");
            if named(&paths, &response) {
                break;
            }
        }
        let path = dir.join(&response);
        let body = fs::read(&path).expect("the response");
        assert!(body.starts_with(b"ok "));
        fs::remove_file(&path).expect("remove the response");
        if seq >= warmup {
            trips.push(start.elapsed());
        }
    }
    trips
}

/// In the server process (this executable run again by [`round_trips`]): serves, then exits.
pub fn serve_if_asked() {
    if let Some(dir) = std::env::var_os(SERVER) {
        server(Path::new(&dir));
        std::process::exit(0);
    }
}

/// `samples` round trips after `warmup`, `gap` apart (zero: back to back; an idle gap lets both
/// processes sleep, as an idle app's threads do, so the wake-ups are in the figure), between this
/// process and a server process.
pub fn round_trips(warmup: usize, samples: usize, gap: Duration) -> Vec<Duration> {
    let tmp = tempfile::tempdir().expect("a directory");
    let dir = tmp.path();
    let mut child = Command::new(std::env::current_exe().expect("this bench"))
        .env(SERVER, dir)
        .stdin(Stdio::null())
        .spawn()
        .expect("the server process");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !dir.join("ready").exists() {
        assert!(Instant::now() < deadline, "the server did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    let trips = client(dir, warmup, samples, gap);
    create(&dir.join("stop"), b"stop\n");
    let _ = child.wait();
    trips
}
