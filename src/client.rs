//! The client library: find the app's directory, check the handshake, send commands and wait for
//! their answers. The CLI and the tests use it; it is also the API for Rust test code that drives an
//! app.
//!
//! Waiting is event-driven: a watch on the directory wakes the client when a response appears, and a
//! liveness check every 100 ms turns a dead app into [`ClientError::AppExited`] instead of a hang.
//!
//! ```no_run
//! use winit_automation::client::Client;
//! use winit_automation::protocol::Command;
//!
//! let client = Client::connect(None)?; // --dir, $WINIT_AUTOMATION_DIR or target/winit-automation
//! let response = client.send(&Command::Status)?;
//! assert!(response.is_ok());
//! # Ok::<(), winit_automation::client::ClientError>(())
//! ```

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};

use crate::dropbox::dir::nofollow;
use crate::dropbox::{self, DirError, EnqueueError, Ready, queue};
use crate::protocol::{Command, PROTOCOL_VERSION, READY_FILE, Response, response_file};

/// The default time to wait for a response.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How often a waiting client checks that the app is still alive.
const LIVENESS_INTERVAL: Duration = Duration::from_millis(100);

/// How often a client that cannot watch the directory looks for its response.
const POLL_INTERVAL: Duration = Duration::from_millis(2);

/// Why the client could not get an answer.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// No app has published a handshake in the directory.
    NotRunning {
        /// The directory.
        dir: PathBuf,
    },
    /// The handshake names a process that no longer exists.
    AppExited {
        /// The directory.
        dir: PathBuf,
        /// The app's pid.
        pid: u32,
    },
    /// The app speaks another protocol version.
    VersionMismatch {
        /// The app's version.
        app: u32,
        /// This client's version.
        client: u32,
    },
    /// No response within the timeout; the app is alive.
    Timeout {
        /// The command's seq.
        seq: u64,
        /// How long the client waited.
        waited: Duration,
    },
    /// The command could not be enqueued.
    Enqueue(EnqueueError),
    /// The directory is unsafe or missing.
    Dir(DirError),
    /// The handshake or a response could not be parsed.
    Malformed {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// An I/O error.
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl ClientError {
    /// A short stable code for machine-readable output (`--json`).
    pub fn code(&self) -> &'static str {
        match self {
            ClientError::NotRunning { .. } => "not_running",
            ClientError::AppExited { .. } => "app_exited",
            ClientError::VersionMismatch { .. } => "version_mismatch",
            ClientError::Timeout { .. } => "timeout",
            ClientError::Enqueue(EnqueueError::QueueFull { .. }) => "queue_full",
            ClientError::Enqueue(_) => "enqueue_failed",
            ClientError::Dir(_) => "bad_dir",
            ClientError::Malformed { .. } => "malformed",
            ClientError::Io { .. } => "io",
        }
    }
}

impl ClientError {
    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](crate::protocol::Failure) for the rule); the CLI prints it as a `hint:` line.
    pub fn hint(&self) -> Option<String> {
        match self {
            ClientError::NotRunning { .. } => Some(format!(
                "start the app with the automation feature, or pass --dir / set {}",
                dropbox::DIR_ENV
            )),
            ClientError::AppExited { .. } => {
                Some("restart the app; it recovers the directory on start".to_owned())
            }
            ClientError::VersionMismatch { .. } => {
                Some("use a client from the same winit-automation release as the app".to_owned())
            }
            ClientError::Timeout { .. } => {
                Some("raise --timeout, or check that the app calls end_frame".to_owned())
            }
            ClientError::Enqueue(e) => e.hint(),
            ClientError::Dir(e) => e.hint(),
            ClientError::Malformed { .. } | ClientError::Io { .. } => None,
        }
    }
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::NotRunning { dir } => {
                write!(f, "app not running: no {READY_FILE} in {}", dir.display())
            }
            ClientError::AppExited { dir, pid } => {
                write!(f, "app not running (pid {pid} exited) in {}", dir.display())
            }
            ClientError::VersionMismatch { app, client } => write!(
                f,
                "the app speaks protocol {app} and this client speaks protocol {client}"
            ),
            ClientError::Timeout { seq, waited } => write!(
                f,
                "no response to command {seq} after {} ms; the app is alive but did not answer",
                waited.as_millis()
            ),
            ClientError::Enqueue(e) => e.fmt(f),
            ClientError::Dir(e) => e.fmt(f),
            ClientError::Malformed { path, reason } => {
                write!(f, "{} is malformed: {reason}", path.display())
            }
            ClientError::Io { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for ClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ClientError::Enqueue(e) => Some(e),
            ClientError::Dir(e) => Some(e),
            ClientError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// A connection to one app's directory.
pub struct Client {
    dir: PathBuf,
    ready: Ready,
    timeout: Duration,
    events: Receiver<()>,
    /// `None` when the directory cannot be watched; waits then poll every few milliseconds.
    watcher: Option<notify::RecommendedWatcher>,
}

impl fmt::Debug for Client {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Client")
            .field("dir", &self.dir)
            .field("ready", &self.ready)
            .finish()
    }
}

/// Reads and checks the handshake of `dir`.
pub fn read_ready(dir: &Path) -> Result<Ready, ClientError> {
    let path = dir.join(READY_FILE);
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(ClientError::NotRunning {
                dir: dir.to_owned(),
            });
        }
        Err(source) => return Err(ClientError::Io { path, source }),
    };
    if let Some(app) = Ready::parse_protocol(&text).filter(|&v| v != PROTOCOL_VERSION) {
        return Err(ClientError::VersionMismatch {
            app,
            client: PROTOCOL_VERSION,
        });
    }
    let ready = Ready::parse(&text).map_err(|e| ClientError::Malformed {
        path,
        reason: e.message,
    })?;
    if !dropbox::process_alive(ready.pid) {
        return Err(ClientError::AppExited {
            dir: dir.to_owned(),
            pid: ready.pid,
        });
    }
    Ok(ready)
}

impl Client {
    /// Connects to the app in `dir` (or `$WINIT_AUTOMATION_DIR`, or `target/winit-automation`):
    /// checks the directory, the handshake, the protocol version and that the app is alive.
    pub fn connect(dir: Option<&Path>) -> Result<Client, ClientError> {
        let dir = dropbox::resolve_dir(dir);
        match dropbox::check(&dir) {
            Err(DirError::Missing { .. }) => return Err(ClientError::NotRunning { dir }),
            Err(e) => return Err(ClientError::Dir(e)),
            Ok(()) => {}
        }
        let ready = read_ready(&dir)?;
        let (tx, events) = bounded(1);
        let watcher = dropbox::watch::watch(&dir, tx, |name| {
            name.starts_with("response-") || name == READY_FILE
        });
        Ok(Client {
            dir,
            ready,
            timeout: DEFAULT_TIMEOUT,
            events,
            watcher,
        })
    }

    /// Sets how long [`Client::send`] and [`Client::wait`] wait for an answer.
    pub fn with_timeout(mut self, timeout: Duration) -> Client {
        self.timeout = timeout;
        self
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The handshake read at connect time.
    pub fn ready(&self) -> &Ready {
        &self.ready
    }

    /// Sends a command and waits for its response.
    pub fn send(&self, command: &Command) -> Result<Response, ClientError> {
        self.send_line(&command.to_line())
    }

    /// Sends a raw command line (without its newline) and waits for its response. The app parses
    /// it; a malformed line comes back as an `error` response.
    pub fn send_line(&self, line: &str) -> Result<Response, ClientError> {
        let seq = self.enqueue_line(line)?;
        self.wait(seq)
    }

    /// Enqueues a raw command line without waiting; returns its seq for [`Client::wait`].
    pub fn enqueue_line(&self, line: &str) -> Result<u64, ClientError> {
        queue::enqueue(
            &self.dir,
            line,
            self.ready.queue_capacity,
            self.ready.max_command_bytes,
        )
        .map_err(ClientError::Enqueue)
    }

    /// Waits for the response to `seq`, reads it and removes it.
    pub fn wait(&self, seq: u64) -> Result<Response, ClientError> {
        let start = Instant::now();
        let deadline = start + self.timeout;
        let mut next_liveness = start + LIVENESS_INTERVAL;
        loop {
            if let Some(response) = self.take_response(seq)? {
                return Ok(response);
            }
            let now = Instant::now();
            if now >= next_liveness {
                self.check_alive()?;
                next_liveness = now + LIVENESS_INTERVAL;
            }
            if now >= deadline {
                // One last look: the answer may have landed during the liveness check.
                if let Some(response) = self.take_response(seq)? {
                    return Ok(response);
                }
                return Err(ClientError::Timeout {
                    seq,
                    waited: now - start,
                });
            }
            let mut until = deadline.min(next_liveness);
            if self.watcher.is_none() {
                until = until.min(now + POLL_INTERVAL);
            }
            let _ = self
                .events
                .recv_timeout(until.saturating_duration_since(now));
        }
    }

    fn check_alive(&self) -> Result<(), ClientError> {
        if dropbox::process_alive(self.ready.pid) {
            return Ok(());
        }
        Err(ClientError::AppExited {
            dir: self.dir.clone(),
            pid: self.ready.pid,
        })
    }

    fn take_response(&self, seq: u64) -> Result<Option<Response>, ClientError> {
        let path = self.dir.join(response_file(seq));
        let mut text = String::new();
        match OpenOptions::new()
            .read(true)
            .custom_flags(nofollow())
            .open(&path)
            .and_then(|mut f| f.read_to_string(&mut text))
        {
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(ClientError::Io { path, source }),
        }
        let response = Response::parse(&text).map_err(|e| ClientError::Malformed {
            path: path.clone(),
            reason: e.message,
        })?;
        if response.seq != seq {
            return Err(ClientError::Malformed {
                path,
                reason: format!("it answers seq {}, not {seq}", response.seq),
            });
        }
        let _ = fs::remove_file(&path);
        Ok(Some(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_is_apart_from_the_message() {
        let e = ClientError::Timeout {
            seq: 7,
            waited: Duration::from_millis(250),
        };
        assert_eq!(
            e.to_string(),
            "no response to command 7 after 250 ms; the app is alive but did not answer"
        );
        assert_eq!(
            e.hint().as_deref(),
            Some("raise --timeout, or check that the app calls end_frame")
        );
        // A wrapped error lends its hint.
        let full = ClientError::Enqueue(EnqueueError::QueueFull { capacity: 2 });
        assert_eq!(
            full.hint().as_deref(),
            Some("wait for responses before sending more")
        );
        assert!(!full.to_string().contains("hint:"), "{full}");
    }
}
