//! Process lifecycle: [`Spawn`] starts an app in a private drop-box and waits for its first tree,
//! [`App::quit`] asks it to exit, and dropping the [`App`] kills it with what it started: its
//! process group on Unix, its Job Object on Windows (a watchdog does it when this process dies
//! without dropping it).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use super::app::App;
use super::failure::coded;
use super::watchdog;
use winit_automation_client::Client;
use winit_automation_protocol::{CLOCK_ENV, DIR_ENV};
use winit_automation_protocol::{
    ClientCode, Code, Coded, Command, Quality, SnapshotHeader, SnapshotOptions, TraceCommand,
};

/// How long [`Spawn::start`] waits for the app's first tree by default.
pub const DEFAULT_STARTUP: Duration = Duration::from_secs(60);

/// How long a command waits for its answer by default.
pub const DEFAULT_COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// How often [`Spawn::start`] looks for the first tree, and [`App::wait_until`] re-checks.
const POLL: Duration = Duration::from_millis(10);

/// Why an app could not be started (see [`Spawn::try_start`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum SpawnError {
    /// The program does not exist (an example cargo has not built, a wrong path).
    Missing {
        /// The path looked for.
        program: PathBuf,
        /// What builds it.
        hint: String,
    },
    /// The process could not be started.
    Spawn {
        /// The program.
        program: PathBuf,
        /// The OS error.
        error: std::io::Error,
    },
    /// The app exited before it published its first tree.
    Exited {
        /// Its exit status.
        status: std::process::ExitStatus,
        /// What it printed on stderr.
        output: String,
    },
    /// No first tree within the start-up time.
    TimedOut {
        /// The start-up time.
        after: Duration,
        /// What it had got so far: the connection error, or the last snapshot.
        last: String,
        /// What it printed on stderr.
        output: String,
    },
    /// The private directory could not be made.
    Io(std::io::Error),
    /// [`Spawn::trace`] was asked for and the app did not start a trace: its answer.
    Trace(String),
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::Missing { program, .. } => {
                write!(f, "{} does not exist", program.display())
            }
            SpawnError::Spawn { program, error } => {
                write!(f, "cannot start {}: {error}", program.display())
            }
            SpawnError::Exited { status, output } => write!(
                f,
                "the app exited ({status}) before it published its first tree; its stderr:\n{output}"
            ),
            SpawnError::TimedOut {
                after,
                last,
                output,
            } => write!(
                f,
                "the app published no tree within {after:?} (last: {last}); its stderr:\n{output}"
            ),
            SpawnError::Io(e) => write!(f, "cannot make the app's directory: {e}"),
            SpawnError::Trace(answer) => {
                write!(f, "the app did not start the trace asked for: {answer}")
            }
        }
    }
}

impl std::error::Error for SpawnError {}

impl Coded for SpawnError {
    fn code(&self) -> Code {
        Code::Client(ClientCode::SpawnFailed)
    }
    fn hint(&self) -> Option<String> {
        Some(match self {
            SpawnError::Missing { hint, .. } => hint.clone(),
            SpawnError::Spawn { .. } => "check the program's path and permissions".to_owned(),
            SpawnError::Exited { .. } => {
                "the app's stderr above says why it exited; run it by hand with the same arguments"
                    .to_owned()
            }
            SpawnError::TimedOut { .. } => "check that the app feeds its tree to the plugin \
                (tree_update, widgets or the egui plugin), or raise Spawn::startup"
                .to_owned(),
            SpawnError::Io(_) => "check that the temporary directory is writable".to_owned(),
            SpawnError::Trace(_) => "the app's winit-automation may predate `trace`: update it, \
                or drop Spawn::trace"
                .to_owned(),
        })
    }
}

/// Starts an app for a test: `Spawn::example("demo").headless(800, 600).start()`.
///
/// The app gets a fresh private drop-box through `$WINIT_AUTOMATION_DIR` (which
/// winit-automation's `Builder` reads by default), its stderr goes to a log that failures print, and it runs
/// in its own process group (on Windows, a Job Object of its own), so that dropping the [`App`]
/// kills it with anything it started.
#[derive(Debug, Clone)]
#[must_use = "call start()"]
pub struct Spawn {
    program: PathBuf,
    missing_hint: String,
    /// A command the program runs under (`xvfb-run -a`), and its arguments.
    wrapper: Option<(OsString, Vec<OsString>)>,
    args: Vec<OsString>,
    env: Vec<(OsString, Option<OsString>)>,
    startup: Duration,
    timeout: Duration,
    settle: bool,
    wait_for_tree: bool,
    trace: Tracing,
}

impl Spawn {
    /// An app binary. For a binary of the package under test, integration tests have its path
    /// at compile time: `Spawn::binary(env!("CARGO_BIN_EXE_myapp"))`.
    pub fn binary(path: impl AsRef<Path>) -> Spawn {
        let program = path.as_ref().to_owned();
        Spawn {
            missing_hint: "build it first (`cargo build`), or pass the right path".to_owned(),
            program,
            wrapper: None,
            args: Vec::new(),
            env: Vec::new(),
            startup: DEFAULT_STARTUP,
            timeout: DEFAULT_COMMAND_TIMEOUT,
            settle: true,
            wait_for_tree: true,
            trace: Tracing::ForArtifacts,
        }
    }

    /// An example of the package under test, as cargo built it for this test run: `cargo test`
    /// builds every example whose required features are on, next to the test binaries
    /// (`target/<profile>/examples/<name>`).
    pub fn example(name: &str) -> Spawn {
        // target/<profile>/deps/<test>-<hash> -> target/<profile>/examples/<name>
        let program = std::env::current_exe()
            .ok()
            .and_then(|exe| Some(exe.parent()?.parent()?.join("examples").join(name)))
            .unwrap_or_else(|| PathBuf::from(name));
        let mut spawn = Spawn::binary(program);
        spawn.missing_hint = format!(
            "cargo builds examples for `cargo test` when their required features are on (`cargo test --features ...`), or run `cargo build --example {name}`"
        );
        spawn
    }

    /// Adds an argument.
    pub fn arg(mut self, arg: impl Into<OsString>) -> Spawn {
        self.args.push(arg.into());
        self
    }

    /// Adds arguments.
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Spawn {
        self.args.extend(args.into_iter().map(Into::into));
        self
    }

    /// Sets an environment variable for the app.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Spawn {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    /// Starts the app on the virtual clock (`WINIT_AUTOMATION_CLOCK=virtual`): its time stands
    /// still from its first frame until the test moves it ([`App::clock`](crate::App::clock)),
    /// so the same commands see the same times, the same frames.
    pub fn virtual_clock(self) -> Spawn {
        self.env(CLOCK_ENV, "virtual")
    }

    /// Removes an environment variable for the app.
    pub fn env_remove(mut self, key: impl Into<OsString>) -> Spawn {
        self.env.push((key.into(), None));
        self
    }

    /// Headless, the way this crate's examples take it: adds `--headless --size WxH` and removes
    /// `DISPLAY` and `WAYLAND_DISPLAY`, so the app cannot open a window by mistake. An app with
    /// other flags takes [`Spawn::arg`] and [`Spawn::env`] instead.
    pub fn headless(mut self, width: u32, height: u32) -> Spawn {
        self.args.push("--headless".into());
        self.args.push("--size".into());
        self.args.push(format!("{width}x{height}").into());
        self.env.push(("DISPLAY".into(), None));
        self.env.push(("WAYLAND_DISPLAY".into(), None));
        self
    }

    /// Runs the app under another program, found in `PATH`: `.under("xvfb-run", ["-a"])` runs
    /// `xvfb-run -a <app> <args>`, a window on a virtual X server. The wrapper is in the app's
    /// process group (or job), so dropping the [`App`] kills it too.
    pub fn under<I: IntoIterator<Item = S>, S: Into<OsString>>(
        mut self,
        wrapper: impl Into<OsString>,
        args: I,
    ) -> Spawn {
        self.wrapper = Some((wrapper.into(), args.into_iter().map(Into::into).collect()));
        self
    }

    /// How long to wait for the first tree (default 60 s: a debug build on a software adapter
    /// can take a while).
    pub fn startup(mut self, limit: Duration) -> Spawn {
        self.startup = limit;
        self
    }

    /// How long each command waits for its answer (default 30 s).
    pub fn timeout(mut self, limit: Duration) -> Spawn {
        self.timeout = limit;
        self
    }

    /// Whether actions (`click`, `fill`, ...) wait for the tree to settle before they return
    /// (default on, so the next query sees their effect, as kittest's `run()` does), and
    /// [`Spawn::start`] waits for it after the first tree (egui shows its windows from its second
    /// frame). Turn it off for an app that never stops animating (each settle would wait 5 s for
    /// nothing), and call [`App::settle`] or [`App::wait_for`].
    pub fn settle_actions(mut self, settle: bool) -> Spawn {
        self.settle = settle;
        self
    }

    /// Whether [`Spawn::start`] waits for a healthy tree (default on). Off, it returns once the
    /// app answers, for apps that publish no accessibility tree.
    pub fn wait_for_tree(mut self, wait: bool) -> Spawn {
        self.wait_for_tree = wait;
        self
    }

    /// Writes a trace of the test to `file` (one HTML file: every command with its answer, the
    /// tree diff it caused and the frame after it; docs/testing.md) when the app quits or is
    /// dropped, pass or fail. A relative path is relative to the test's working directory (the
    /// package's root under `cargo test`).
    ///
    /// Without it the app still records a trace, without frames, which a failing test writes
    /// with its other artifacts.
    pub fn trace(mut self, file: impl Into<PathBuf>) -> Spawn {
        self.trace = Tracing::To(file.into());
        self
    }

    /// Records no trace at all, not even the one a failure's artifacts would hold (they then have
    /// the tree and the last screenshot only). For benchmarks, whose figures should be the app's
    /// and the drop-box's, without the trace's work after each command.
    pub fn untraced(mut self) -> Spawn {
        self.trace = Tracing::Off;
        self
    }

    /// Starts the app and waits for its first tree (then for the tree to settle, see
    /// [`Spawn::settle_actions`]); panics with the reason and the app's stderr when it cannot.
    #[track_caller]
    pub fn start(self) -> App {
        match self.try_start() {
            Ok(app) => app,
            Err(e) => panic!("{}", coded(&e)),
        }
    }

    /// Starts the app and waits for its first tree.
    pub fn try_start(self) -> Result<App, SpawnError> {
        // A passing test leaves no artifacts, not even an earlier failing run's.
        super::artifacts::clear();
        if !self.program.exists() {
            return Err(SpawnError::Missing {
                program: self.program,
                hint: self.missing_hint,
            });
        }
        let tmp = tempfile::Builder::new()
            .prefix("winit-automation-test-")
            .tempdir()
            .map_err(SpawnError::Io)?;
        let dir = tmp.path().join("box");
        let log = tmp.path().join("app.log");
        let stderr = std::fs::File::create(&log).map_err(SpawnError::Io)?;
        let mut process = match &self.wrapper {
            Some((wrapper, args)) => {
                if !in_path(wrapper) {
                    return Err(SpawnError::Missing {
                        program: PathBuf::from(wrapper),
                        hint: "install it, or put it in PATH".to_owned(),
                    });
                }
                let mut p = Process::new(wrapper);
                p.args(args).arg(&self.program);
                p
            }
            None => Process::new(&self.program),
        };
        process
            .args(&self.args)
            .env(DIR_ENV, &dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut process, 0);
        for (key, value) in &self.env {
            match value {
                Some(v) => process.env(key, v),
                None => process.env_remove(key),
            };
        }
        let child = process.spawn().map_err(|error| SpawnError::Spawn {
            program: self.program.clone(),
            error,
        })?;
        let watchdog = watchdog::start(&child);
        let mut app = App {
            child,
            watchdog,
            client: None,
            dir,
            log,
            settle: self.settle,
            screenshots: AtomicU64::new(0),
            trace: None,
            _tmp: tmp,
        };
        app.await_first_tree(self.startup, self.timeout, self.wait_for_tree)?;
        app.start_trace(self.trace)?;
        Ok(app)
    }
}

/// What trace a [`Spawn`]ed app records.
#[derive(Debug, Clone)]
enum Tracing {
    /// One without frames, which only a failure's artifacts use.
    ForArtifacts,
    /// One with frames, written to this file when the app goes.
    To(PathBuf),
    /// None ([`Spawn::untraced`]).
    Off,
}

/// Whether `program` names a file in one of `PATH`'s folders (or is a path that exists).
fn in_path(program: &std::ffi::OsStr) -> bool {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return path.exists();
    }
    std::env::var_os("PATH")
        .is_some_and(|dirs| std::env::split_paths(&dirs).any(|d| d.join(program).is_file()))
}

impl App {
    fn await_first_tree(
        &mut self,
        startup: Duration,
        timeout: Duration,
        wait_for_tree: bool,
    ) -> Result<(), SpawnError> {
        let deadline = Instant::now() + startup;
        let mut last = String::from("no answer yet");
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Err(SpawnError::Exited {
                    status,
                    output: self.output(),
                });
            }
            if self.client.is_none() {
                match Client::connect(Some(&self.dir)) {
                    Ok(c) => self.client = Some(c.with_timeout(timeout)),
                    Err(e) => last = e.to_string(),
                }
            }
            if let Some(client) = &self.client {
                let regular = Command::Snapshot(SnapshotOptions {
                    force: true,
                    ..SnapshotOptions::default()
                });
                match client.send(&regular) {
                    Ok(r) if r.is_ok() => {
                        if !wait_for_tree {
                            return Ok(());
                        }
                        let healthy = SnapshotHeader::of(r.body())
                            .is_ok_and(|h| h.quality == Quality::Healthy);
                        if healthy {
                            // The first tree may be a first frame only: egui, for one, shows
                            // its windows from the second. Queries right after `start` see the
                            // UI once it has stopped changing (an app that never does is
                            // handed out when the settle gives up).
                            if self.settle {
                                let _ = client.send(&Command::Settle {
                                    frames: None,
                                    timeout_ms: None,
                                });
                            }
                            return Ok(());
                        }
                        last = r.body().to_owned();
                    }
                    Ok(r) => last = r.to_text(),
                    Err(e) => last = e.to_string(),
                }
            }
            if Instant::now() >= deadline {
                return Err(SpawnError::TimedOut {
                    after: startup,
                    last,
                    output: self.output(),
                });
            }
            std::thread::sleep(POLL);
        }
    }

    /// Starts the test's trace; with `file` (and frames) as [`Spawn::trace`] asked.
    fn start_trace(&mut self, tracing: Tracing) -> Result<(), SpawnError> {
        let file = match tracing {
            Tracing::Off => return Ok(()),
            Tracing::ForArtifacts => None,
            Tracing::To(file) => Some(file),
        };
        let start = Command::Trace(TraceCommand::Start {
            screenshots: file.is_some(),
            // The trace only a failure's artifacts would use gives way to a test's own.
            replaceable: file.is_none(),
        });
        match self.client().send(&start) {
            Ok(r) if r.is_ok() => {
                self.trace = Some(super::app::Traced { file });
                Ok(())
            }
            // The test asked for a trace: it gets one or the reason.
            Ok(r) if file.is_some() => Err(SpawnError::Trace(r.to_text())),
            Err(e) if file.is_some() => Err(SpawnError::Trace(e.to_string())),
            // Only the artifacts of a failure would have used it.
            _ => Ok(()),
        }
    }

    /// Writes the trace to the file [`Spawn::trace`] named and ends it; a warning on stderr
    /// when it cannot.
    fn finish_trace(&mut self) {
        let Some(file) = self.trace.take().and_then(|t| t.file) else {
            return;
        };
        let stop = Command::Trace(TraceCommand::Stop { file: file.clone() });
        match self.client().send(&stop) {
            Ok(r) if r.is_ok() => {}
            Ok(r) => eprintln!(
                "winit-automation: the trace was not written to {}:\n{}",
                file.display(),
                r.to_text()
            ),
            Err(e) => eprintln!(
                "winit-automation: the trace was not written to {}: {e}",
                file.display()
            ),
        }
    }

    /// Asks the app to quit and waits (up to 30 s) for the process to exit; fails the test if
    /// it does not. The trace [`Spawn::trace`] asked for is written first.
    #[track_caller]
    pub fn quit(self) {
        self.quit_status();
    }

    /// [`App::quit`], returning the app's exit status: `assert!(app.quit_status().success())`
    /// checks that it also exited cleanly.
    #[track_caller]
    pub fn quit_status(mut self) -> std::process::ExitStatus {
        self.finish_trace();
        self.ok_command(&Command::Quit);
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            std::thread::sleep(POLL);
        }
        panic!("the app did not exit after quit:\n{}", self.output());
    }
}

impl App {
    /// Asks the app to quit and waits up to `within` for it to exit: its exit status, or why
    /// not (the app is then killed, as dropping an `App` does). [`App::quit_status`] without
    /// failing the test, for a runner that starts and ends many apps (the CLI's `test`).
    pub fn try_quit(mut self, within: Duration) -> Result<std::process::ExitStatus, String> {
        self.finish_trace();
        if let Err(e) = self.client().send(&Command::Quit) {
            return match self.child.try_wait() {
                Ok(Some(status)) => Ok(status),
                _ => Err(format!("quit was not answered: {e}")),
            };
        }
        let deadline = Instant::now() + within;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Ok(status);
            }
            if Instant::now() >= deadline {
                return Err(format!(
                    "the app did not exit within {} ms of quit",
                    within.as_millis()
                ));
            }
            std::thread::sleep(POLL);
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.finish_trace();
            // The whole group: a wrapper such as xvfb-run and what it started go too.
            #[cfg(unix)]
            if let Some(pid) = i32::try_from(self.child.id())
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // Unix: the app is gone, the watchdog has nothing left to do. Windows: closing the job
        // kills what the app started and left running.
        if let Some(w) = self.watchdog.take() {
            watchdog::end(w);
        }
    }
}
