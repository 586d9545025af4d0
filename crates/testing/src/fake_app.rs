//! A stand-in for an app in unit tests: a private drop-box with a handshake, and a thread that
//! answers each command file with what a closure says, as the plugin's service would, with no
//! window, GPU or service. What the harness and scripts make of an answer is tested with it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use winit_automation_client::Client;
use winit_automation_dropbox::{Ready, publish};
use winit_automation_protocol::{
    Command, Envelope, Failure, PROTOCOL_VERSION, Response, response_file,
};

/// What the fake app answers a command with: a body, or a refusal. It is given the app's
/// directory, to write a screenshot into.
pub(crate) type Answer = dyn Fn(&Command, &Path) -> Result<String, Failure> + Send;

/// A fake app, answering until dropped.
pub(crate) struct FakeApp {
    dir: tempfile::TempDir,
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Vec<String>>>,
    thread: Option<JoinHandle<()>>,
}

impl FakeApp {
    /// Publishes the handshake and starts answering.
    pub fn start(answer: Box<Answer>) -> FakeApp {
        let dir = tempfile::tempdir().expect("a temporary directory");
        winit_automation_dropbox::prepare(dir.path()).expect("a drop-box");
        let ready = Ready {
            protocol: PROTOCOL_VERSION,
            pid: std::process::id(),
            os: std::env::consts::OS.into(),
            app: "fake".into(),
            crate_version: "0".into(),
            started_unix_ms: 0,
            queue_capacity: 64,
            max_command_bytes: 64 * 1024,
        };
        publish(dir.path(), "ready.txt", ready.to_text().as_bytes()).expect("ready.txt");
        let stop = Arc::new(AtomicBool::new(false));
        let seen = Arc::new(Mutex::new(Vec::new()));
        let thread = {
            let (path, stop, seen) = (dir.path().to_owned(), stop.clone(), seen.clone());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    for (seq, file) in commands(&path) {
                        // A client creates its entry, then writes it: an entry is whole once
                        // its line ends (docs/protocol.md section 4.1).
                        let line = std::fs::read_to_string(&file).unwrap_or_default();
                        if !line.ends_with('\n') {
                            continue;
                        }
                        let _ = std::fs::remove_file(&file);
                        let command = Envelope::parse(line.trim_end()).expect("a command").command;
                        seen.lock().unwrap().push(command.to_line());
                        let verb = Some(command.verb());
                        let response = match answer(&command, &path) {
                            Ok(body) => Response::ok(seq, verb, body),
                            Err(failure) => Response::error(seq, verb, failure),
                        };
                        let text = response.to_text();
                        publish(&path, &response_file(seq), text.as_bytes()).expect("a response");
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
            })
        };
        FakeApp {
            dir,
            stop,
            seen,
            thread: Some(thread),
        }
    }

    /// A client connected to it.
    pub fn client(&self) -> Client {
        Client::connect(Some(self.dir.path()))
            .expect("the fake app is ready")
            .with_timeout(Duration::from_secs(5))
    }

    /// Its directory.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// A harness [`App`](crate::App) on it: its child a minute's wait (what the `App` kills when
    /// dropped; on Unix a `sleep` in a process group of its own, on Windows a `ping` of the
    /// loopback, its nearest to a `sleep`), actions settling.
    pub fn app(&self) -> crate::App {
        super::artifacts::clear();
        let tmp = tempfile::tempdir().expect("a temporary directory");
        #[cfg(unix)]
        let child = {
            use std::os::unix::process::CommandExt as _;
            std::process::Command::new("sleep")
                .arg("60")
                .process_group(0)
                .spawn()
                .expect("sleep")
        };
        #[cfg(not(unix))]
        let child = std::process::Command::new("ping")
            .args(["-n", "61", "127.0.0.1"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("ping");
        crate::App {
            child,
            watchdog: None,
            client: Some(self.client()),
            dir: self.dir().to_owned(),
            log: tmp.path().join("stderr.txt"),
            settle: true,
            screenshots: std::sync::atomic::AtomicU64::new(0),
            trace: None,
            _tmp: tmp,
        }
    }

    /// The commands it answered so far, in canonical form (without the deadline).
    pub fn seen(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }
}

impl Drop for FakeApp {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The command files in `dir`, by seq.
fn commands(dir: &Path) -> Vec<(u64, PathBuf)> {
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let seq = name.strip_prefix("command-")?.strip_suffix(".txt")?;
            Some((seq.parse().ok()?, e.path()))
        })
        .collect();
    found.sort();
    found
}
