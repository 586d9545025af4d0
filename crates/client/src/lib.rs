#![doc = include_str!("../README.md")]

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};

use winit_automation_dropbox::dir::open_no_follow;
use winit_automation_dropbox::queue;
/// The drop-box's types this client's API hands out: the handshake it read, a burst's seqs, why
/// an entry could not be written.
pub use winit_automation_dropbox::{EnqueueError, Ready, queue::Batch};
use winit_automation_protocol::{
    ClientCode, Code, Coded, Command, DirError, Envelope, ErrorCode, PROTOCOL_VERSION, READY_FILE,
    Response, ScreenshotAnswer, response_file,
};

/// The default time to wait for a response.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How often a waiting client checks that the app is still alive.
const LIVENESS_INTERVAL: Duration = Duration::from_millis(100);

/// How often [`Client::connect_waiting`] looks for an app that has not started yet.
const START_POLL: Duration = Duration::from_millis(20);

/// The most a command's deadline lies before its client's timeout.
const DEADLINE_MARGIN: Duration = Duration::from_millis(250);

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
    /// No answer within the timeout; the app is alive. `fate` says whether the command can still
    /// be carried out.
    Timeout {
        /// The command's seq.
        seq: u64,
        /// How long the client waited.
        waited: Duration,
        /// What became of the command.
        fate: Fate,
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

/// What became of a command whose client stopped waiting for it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Fate {
    /// The client removed the entry before the app took it: it is never carried out.
    Withdrawn,
    /// The app answered `expired` at the command's deadline; `message` says whether any of it was
    /// carried out (it was not, unless the message says how much was delivered).
    Expired {
        /// The app's message.
        message: String,
        /// The app's hint.
        hint: String,
    },
    /// The app had taken the command: it may still be carried out. Its answer, unread, is removed
    /// by the app after the response TTL.
    Taken,
}

impl Coded for ClientError {
    /// A short stable code for machine-readable output (`--json`) and the CLI's exit code.
    fn code(&self) -> Code {
        Code::Client(match self {
            ClientError::NotRunning { .. } => ClientCode::NotRunning,
            ClientError::AppExited { .. } => ClientCode::AppExited,
            ClientError::VersionMismatch { .. } => ClientCode::VersionMismatch,
            ClientError::Timeout { .. } => ClientCode::ClientTimeout,
            ClientError::Enqueue(EnqueueError::QueueFull { .. }) => ClientCode::QueueFull,
            ClientError::Enqueue(_) => ClientCode::EnqueueFailed,
            ClientError::Dir(_) => ClientCode::BadDir,
            ClientError::Malformed { .. } => ClientCode::Malformed,
            ClientError::Io { .. } => ClientCode::Io,
        })
    }

    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](winit_automation_protocol::Failure) for the rule); the CLI prints it as a `hint:` line.
    fn hint(&self) -> Option<String> {
        match self {
            ClientError::NotRunning { .. } => Some(format!(
                "start the app with the automation feature, or pass --dir / set {}",
                winit_automation_protocol::DIR_ENV
            )),
            ClientError::AppExited { .. } => {
                Some("restart the app; it recovers the directory on start".to_owned())
            }
            ClientError::VersionMismatch { .. } => {
                Some("use a client from the same winit-automation release as the app".to_owned())
            }
            ClientError::Timeout {
                fate: Fate::Expired { hint, .. },
                ..
            } => Some(hint.clone()),
            ClientError::Timeout {
                fate: Fate::Taken, ..
            } => Some(
                "check the app's state before sending it again; raise --timeout, or check that the app ends its frames (drops or submits each Frame)"
                    .to_owned(),
            ),
            ClientError::Timeout { .. } => {
                Some("raise --timeout, or check that the app ends its frames (drops or submits each Frame)".to_owned())
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
            ClientError::Timeout { seq, waited, fate } => {
                write!(
                    f,
                    "no response to command {seq} after {} ms; ",
                    waited.as_millis()
                )?;
                match fate {
                    Fate::Withdrawn => f.write_str("withdrawn, not carried out"),
                    Fate::Expired { message, .. } => {
                        write!(f, "the app gave up on it: {message}")
                    }
                    Fate::Taken => f.write_str("taken by the app: it may still be carried out"),
                }
            }
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

/// The deadline a command sent now with `timeout` carries: the timeout less a margin (a fifth of
/// it, at most 250 ms), so the app's `expired` answer arrives while the client still waits.
fn deadline_unix_ms(timeout: Duration) -> u64 {
    let margin = (timeout / 5).min(DEADLINE_MARGIN);
    let ms = timeout.saturating_sub(margin).as_millis();
    winit_automation_dropbox::unix_ms_now().saturating_add(u64::try_from(ms).unwrap_or(u64::MAX))
}

/// `at` plus `timeout`, or a day later when that is past what an `Instant` holds (a timeout of
/// `u64::MAX` milliseconds waits, it does not panic).
fn later(at: Instant, timeout: Duration) -> Instant {
    at.checked_add(timeout)
        .unwrap_or_else(|| at + Duration::from_secs(86_400))
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

/// `command` with its relative file paths made absolute against the working directory (left as
/// they are when it cannot be read: the app then refuses them with a hint).
fn with_absolute_paths(command: Command) -> Command {
    let relative = matches!(&command, Command::Trace(t) if t.file().is_some_and(Path::is_relative));
    match std::env::current_dir() {
        Ok(cwd) if relative => command.with_paths_from(&cwd),
        _ => command,
    }
}

/// The file the body of a `screenshot` answer names (`file screenshot-LABEL.png`), in `dir`. The
/// answer is read as a [`ScreenshotAnswer`], which takes only a name of that shape, so an answer
/// can only make a client read a `screenshot-<label>.png` inside the directory.
pub fn screenshot_path(dir: &Path, body: &str) -> Result<PathBuf, String> {
    let answer = ScreenshotAnswer::parse(body).map_err(|e| format!("{}:\n{body}", e.message))?;
    Ok(dir.join(answer.file.file_name()))
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
    if ready.pid_is_local() && !winit_automation_dropbox::process_alive(ready.pid) {
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
        let dir = winit_automation_dropbox::resolve_dir(dir);
        match winit_automation_dropbox::check(&dir) {
            Err(DirError::Missing { .. }) => return Err(ClientError::NotRunning { dir }),
            Err(e) => return Err(ClientError::Dir(e)),
            Ok(()) => {}
        }
        let ready = read_ready(&dir)?;
        let (tx, events) = bounded(1);
        let watcher = winit_automation_dropbox::watch::watch(&dir, tx, |name, _| {
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

    /// Connects like [`Client::connect`], waiting up to `patience` for an app to start in the
    /// directory: while the directory is missing, holds no handshake, or holds the handshake of an
    /// app that has exited (a new app replaces it when it starts). Other errors return at once.
    /// `on_wait` is called once, with the first error, when it starts waiting.
    pub fn connect_waiting(
        dir: Option<&Path>,
        patience: Duration,
        on_wait: impl FnOnce(&ClientError),
    ) -> Result<Client, ClientError> {
        let until = Instant::now() + patience;
        let mut on_wait = Some(on_wait);
        loop {
            match Client::connect(dir) {
                Err(e @ (ClientError::NotRunning { .. } | ClientError::AppExited { .. }))
                    if Instant::now() < until =>
                {
                    if let Some(f) = on_wait.take() {
                        f(&e);
                    }
                    // A poll, not a barrier: the condition is checked again after each pause.
                    let left = until.saturating_duration_since(Instant::now());
                    std::thread::sleep(left.min(START_POLL));
                }
                other => return other,
            }
        }
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

    /// Sends a command and waits for its response, up to the timeout.
    ///
    /// The command carries its deadline (`--deadline`, a little before the timeout), so the app
    /// never starts it after the client gave up; on timeout the client withdraws it if the app has
    /// not taken it yet. [`ClientError::Timeout`] says which happened.
    ///
    /// A relative file path in the command (`trace stop FILE`) is made absolute against this
    /// process's working directory first: the app takes absolute paths only.
    pub fn send(&self, command: &Command) -> Result<Response, ClientError> {
        self.send_within(command, self.timeout)
    }

    /// [`Client::send`] with its own timeout for this command: a command the app holds longer
    /// than the client's timeout (a long press, a `wait` with a long `--timeout`) is given at
    /// least [`Command::held_in_app_ms`] and a margin for its answer by front ends that know it.
    pub fn send_within(
        &self,
        command: &Command,
        timeout: Duration,
    ) -> Result<Response, ClientError> {
        let sent = Instant::now();
        let envelope = Envelope {
            command: with_absolute_paths(command.clone()),
            deadline_unix_ms: Some(deadline_unix_ms(timeout)),
        };
        let seq = self.enqueue_line(&envelope.to_line())?;
        self.wait_until(seq, later(sent, timeout))
    }

    /// How long the client waits for an answer.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Sends a raw command line (without its newline) and waits for its response. The app parses
    /// it; a malformed line comes back as an `error` response. A line without `--deadline` gets
    /// the client's, as in [`Client::send`], and a relative file path is made absolute as there.
    pub fn send_line(&self, line: &str) -> Result<Response, ClientError> {
        let sent = Instant::now();
        let line = match Envelope::parse(line) {
            // A relative path: the line is written again, in canonical form.
            Ok(Envelope {
                command: Command::Trace(trace),
                deadline_unix_ms,
            }) if trace.file().is_some_and(Path::is_relative) => Envelope {
                command: with_absolute_paths(Command::Trace(trace)),
                deadline_unix_ms: deadline_unix_ms.or_else(|| Some(self.deadline_unix_ms())),
            }
            .to_line(),
            Ok(Envelope {
                deadline_unix_ms: None,
                ..
            }) => format!(
                "{line} --{} {}",
                Envelope::DEADLINE_FLAG,
                self.deadline_unix_ms()
            ),
            _ => line.to_owned(),
        };
        let seq = self.enqueue_line(&line)?;
        self.wait_until(seq, later(sent, self.timeout))
    }

    /// The deadline a command sent now carries ([`deadline_unix_ms`] of the client's timeout).
    fn deadline_unix_ms(&self) -> u64 {
        deadline_unix_ms(self.timeout)
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

    /// Enqueues raw command lines as consecutive entries with one listing of the directory (a
    /// burst of thousands costs one); [`Batch`] has the seqs written, for
    /// [`Client::wait`], and why the rest were not. Bad lines or a full queue write nothing.
    pub fn enqueue_lines<S: AsRef<str>>(&self, lines: &[S]) -> Batch {
        queue::enqueue_all(
            &self.dir,
            lines,
            self.ready.queue_capacity,
            self.ready.max_command_bytes,
        )
    }

    /// Waits for the response to `seq` up to the timeout, reads it and removes it. On timeout it
    /// withdraws the command if the app has not taken it yet ([`ClientError::Timeout`]).
    pub fn wait(&self, seq: u64) -> Result<Response, ClientError> {
        self.wait_until(seq, Instant::now() + self.timeout)
    }

    fn wait_until(&self, seq: u64, deadline: Instant) -> Result<Response, ClientError> {
        let start = Instant::now();
        let mut next_liveness = start + LIVENESS_INTERVAL;
        let expired = |response: Response| match response.failure() {
            Some(f) if f.code == ErrorCode::Expired => Err(ClientError::Timeout {
                seq,
                waited: start.elapsed(),
                fate: Fate::Expired {
                    message: f.message,
                    hint: f.hint,
                },
            }),
            _ => Ok(response),
        };
        loop {
            if let Some(response) = self.take_response(seq)? {
                return expired(response);
            }
            let now = Instant::now();
            if now >= next_liveness {
                self.check_alive()?;
                next_liveness = now + LIVENESS_INTERVAL;
            }
            if now >= deadline {
                // One last look: the answer may have landed during the liveness check.
                if let Some(response) = self.take_response(seq)? {
                    return expired(response);
                }
                // Withdraw it unless the app took it; exactly one of the two succeeds.
                let withdrawn = queue::withdraw(&self.dir, seq).unwrap_or(false);
                // Answered between the last look and the withdrawal (a command the app answers
                // without taking it, such as `status` or a malformed line, may be answered then).
                if let Some(response) = self.take_response(seq)? {
                    return expired(response);
                }
                return Err(ClientError::Timeout {
                    seq,
                    waited: now - start,
                    fate: if withdrawn {
                        Fate::Withdrawn
                    } else {
                        Fate::Taken
                    },
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
        if !self.ready.pid_is_local() || winit_automation_dropbox::process_alive(self.ready.pid) {
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
        match open_no_follow(&path).and_then(|mut f| f.read_to_string(&mut text)) {
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
            fate: Fate::Withdrawn,
        };
        assert_eq!(
            e.to_string(),
            "no response to command 7 after 250 ms; withdrawn, not carried out"
        );
        assert_eq!(
            e.hint().as_deref(),
            Some(
                "raise --timeout, or check that the app ends its frames (drops or submits each Frame)"
            )
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
