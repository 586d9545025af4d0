//! A spawned app in a private drop-box: [`Spawn`] starts it, [`App`] drives it, and dropping the
//! [`App`] kills it and removes the directory, also while a test panics.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::compare::{Rgba, Tolerance, check_reference};
use super::query::By;
use super::script::{RunOptions, RunSummary, Script};
use crate::client::{Client, ClientError, screenshot_path};
use crate::dropbox::DIR_ENV;
use crate::protocol::{
    ActOptions, Button, ClientCode, Code, Coded, Command, KeyChord, Label, NodeLine, NodeRef,
    NodeValue, Point, Projection, Response, SnapshotOptions, Target, Toggled,
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
        })
    }
}

/// Starts an app for a test: `Spawn::example("demo").headless(800, 600).start()`.
///
/// The app gets a fresh private drop-box through `$WINIT_AUTOMATION_DIR` (which
/// [`crate::Builder`] reads by default), its stderr goes to a log that failures print, and it runs
/// in its own process group, so that dropping the [`App`] kills it with anything it started.
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
    /// process group, so dropping the [`App`] kills it too.
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
            .stderr(stderr)
            .process_group(0);
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
        let watchdog = watchdog(child.id());
        let mut app = App {
            child,
            watchdog,
            client: None,
            dir,
            log,
            settle: self.settle,
            screenshots: AtomicU64::new(0),
            _tmp: tmp,
        };
        app.await_first_tree(self.startup, self.timeout, self.wait_for_tree)?;
        Ok(app)
    }
}

/// A snapshot's window and node lines without the header, the metrics and the refs: those that
/// start node lines, and those hints name covering layers by (`[2 items under @e83 window ..]`).
fn tree_text(body: &str) -> String {
    let mut out = String::new();
    for line in body.lines() {
        if line.starts_with("snapshot ") || line.starts_with("metrics ") {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let rest = line.trim_start();
        let rest = match rest.strip_prefix("@e") {
            Some(r) => r
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start(),
            None if rest.starts_with('[') => &without_refs(rest),
            None => rest,
        };
        let _ = writeln!(out, "{:indent$}{rest}", "");
    }
    out
}

/// A hint line with each ` @eN` left out.
fn without_refs(hint: &str) -> String {
    let mut out = String::with_capacity(hint.len());
    let mut rest = hint;
    while let Some(at) = rest.find(" @e") {
        let digits = rest[at + 3..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len() - at - 3);
        if digits == 0 {
            out.push_str(&rest[..at + 3]);
        } else {
            out.push_str(&rest[..at]);
        }
        rest = &rest[at + 3 + digits..];
    }
    out.push_str(rest);
    out
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

/// A running app, spawned by [`Spawn`]; killed, with its process group, when dropped.
///
/// Queries follow egui_kittest's names: `get_*` finds exactly one node or fails the test with the
/// selector and the interactive snapshot; `query_*` allows none; `get_all_*` / `query_all_*`
/// return every match. Queries read the tree as it is now; actions settle before they return
/// (see [`Spawn::settle_actions`]), and [`App::wait_for`] waits for a node to appear.
#[derive(Debug)]
pub struct App {
    child: Child,
    /// Kills the app's process group if this process dies without dropping the `App` (a
    /// signal, `cargo test` interrupted): see [`watchdog`].
    watchdog: Option<Child>,
    client: Option<Client>,
    dir: PathBuf,
    log: PathBuf,
    settle: bool,
    screenshots: AtomicU64,
    _tmp: tempfile::TempDir,
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
                        if r.body().contains("quality=healthy") {
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

    /// The app's drop-box (private to it; removed when the app is dropped).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The app's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The client connected to the app, for anything this harness does not wrap.
    pub fn client(&self) -> &Client {
        self.client
            .as_ref()
            .expect("connected before the App is handed out")
    }

    /// What the app printed on stderr so far.
    pub fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends a protocol line and returns the answer, `ok` or `error`; fails the test only when no
    /// answer came (the app died, the timeout passed).
    #[track_caller]
    pub fn send(&self, line: &str) -> Response {
        match self.client().send_line(line) {
            Ok(r) => r,
            Err(e) => self.fail(line, &e),
        }
    }

    /// Sends a protocol line that must be answered `ok`; returns the answer's body. An `error`
    /// fails the test with the code, message, hint and the interactive snapshot.
    #[track_caller]
    pub fn ok(&self, line: &str) -> String {
        let r = self.send(line);
        if let Some(refusal) = r.error_text() {
            panic!("`{line}` was refused:\n{refusal}{}", self.context());
        }
        r.body().to_owned()
    }

    /// Sends a command that must be answered `ok`, as [`App::ok`] does a line.
    #[track_caller]
    pub fn ok_command(&self, command: &Command) -> String {
        let r = match self.client().send(command) {
            Ok(r) => r,
            Err(e) => self.fail(&command.to_line(), &e),
        };
        if let Some(refusal) = r.error_text() {
            panic!("`{command}` was refused:\n{refusal}{}", self.context());
        }
        r.body().to_owned()
    }

    /// The options of an action: `--settle` when actions settle.
    pub(crate) fn act_options(&self) -> ActOptions {
        ActOptions {
            settle: self.settle,
            ..ActOptions::default()
        }
    }

    #[track_caller]
    fn fail(&self, line: &str, e: &ClientError) -> ! {
        panic!(
            "`{line}`: no answer: {}\nthe app's stderr:\n{}",
            coded(e),
            self.output()
        )
    }

    /// The interactive snapshot for a failure message (or why there is none).
    fn context(&self) -> String {
        match self.client().send(&interactive_snapshot()) {
            Ok(r) if r.is_ok() => format!("the interactive snapshot now:\n{}", r.body()),
            Ok(r) => format!("no snapshot: {}", r.to_text()),
            Err(e) => format!("no snapshot: {e}"),
        }
    }

    /// The interactive snapshot (`snapshot -i --force`): refs, roles, names, state.
    #[track_caller]
    pub fn snapshot(&self) -> String {
        self.ok_command(&interactive_snapshot())
    }

    /// The interactive tree as text that stays the same from run to run for the same UI, for
    /// `insta::assert_snapshot!`: the window and node lines of `snapshot -i`, without the header,
    /// the metrics and the refs (refs depend on what earlier snapshots showed).
    #[track_caller]
    pub fn tree(&self) -> String {
        self.tree_with("-i")
    }

    /// [`App::tree`] for another projection: `""` (what a person sees), `"-i --bounds"`, ...
    #[track_caller]
    pub fn tree_with(&self, flags: &str) -> String {
        let mut options = match Command::parse(&format!("snapshot {flags}")) {
            Ok(Command::Snapshot(options)) => options,
            Ok(other) => panic!("`{other}` is not a snapshot"),
            Err(e) => panic!("snapshot {flags}: {}", coded(&e)),
        };
        options.force = true;
        tree_text(&self.ok_command(&Command::Snapshot(options)))
    }

    /// Waits until the tree has been unchanged for a few frames.
    #[track_caller]
    pub fn settle(&self) {
        self.ok_command(&Command::Settle {
            frames: None,
            timeout_ms: None,
        });
    }

    /// Presses key chords (`"ctrl+a"`, `"Enter"`) in the focused window.
    #[track_caller]
    pub fn key(&self, chords: &str) -> String {
        let chords = chords.split_whitespace().map(KeyChord::parse);
        let chords = match chords.collect::<Result<Vec<_>, _>>() {
            Ok(chords) => chords,
            Err(e) => panic!("{}", coded(&e)),
        };
        self.ok_command(&Command::Key {
            chords,
            opts: self.act_options(),
        })
    }

    /// Types text into the focused node.
    #[track_caller]
    pub fn type_text(&self, text: &str) -> String {
        self.ok_command(&Command::Type {
            text: text.to_owned(),
            opts: self.act_options(),
        })
    }

    /// Resizes the focused window to this logical size.
    #[track_caller]
    pub fn resize(&self, width: u32, height: u32) -> String {
        self.ok_command(&Command::Resize {
            width,
            height,
            opts: self.act_options(),
        })
    }

    /// Every node that matches, in tree order (none is fine).
    #[track_caller]
    pub fn query_all(&self, by: &By) -> Vec<Node<'_>> {
        let Some(selector) = by.selector() else {
            panic!("a query needs at least one term: By::role(..), By::name(..), ...");
        };
        let body = self.ok_command(&Command::Find { selector });
        NodeLine::all(&body)
            .into_iter()
            .map(|line| Node { app: self, line })
            .collect()
    }

    /// Every node that matches, at least one.
    #[track_caller]
    pub fn get_all(&self, by: &By) -> Vec<Node<'_>> {
        let all = self.query_all(by);
        if all.is_empty() {
            panic!("no node matches {by}\n{}", self.context());
        }
        all
    }

    /// The node that matches, or `None`; several matches fail the test.
    #[track_caller]
    pub fn query(&self, by: &By) -> Option<Node<'_>> {
        let mut all = self.query_all(by);
        if all.len() > 1 {
            panic!(
                "{} nodes match {by}, one was expected (add a term, or .nth(i)):\n{}\n{}",
                all.len(),
                all.iter()
                    .map(|n| n.line.to_string())
                    .collect::<Vec<_>>()
                    .join("\n"),
                self.context()
            );
        }
        all.pop()
    }

    /// The one node that matches; none or several fail the test with the interactive snapshot.
    #[track_caller]
    pub fn get(&self, by: &By) -> Node<'_> {
        match self.query(by) {
            Some(node) => node,
            None => panic!("no node matches {by}\n{}", self.context()),
        }
    }

    /// [`App::get`] by role and exact name: `get_by_role_and_name("button", "Submit")`.
    #[track_caller]
    pub fn get_by_role_and_name(&self, role: &str, name: &str) -> Node<'_> {
        self.get(&By::role(role).and_name(name))
    }

    /// [`App::get`] by exact name (kittest's `get_by_label`).
    #[track_caller]
    pub fn get_by_name(&self, name: &str) -> Node<'_> {
        self.get(&By::name(name))
    }

    /// [`App::get`] by role.
    #[track_caller]
    pub fn get_by_role(&self, role: &str) -> Node<'_> {
        self.get(&By::role(role))
    }

    /// [`App::get`] by name or text value, exactly.
    #[track_caller]
    pub fn get_by_text(&self, text: &str) -> Node<'_> {
        self.get(&By::text(text))
    }

    /// [`App::query`] by role and exact name.
    #[track_caller]
    pub fn query_by_role_and_name(&self, role: &str, name: &str) -> Option<Node<'_>> {
        self.query(&By::role(role).and_name(name))
    }

    /// [`App::query`] by exact name.
    #[track_caller]
    pub fn query_by_name(&self, name: &str) -> Option<Node<'_>> {
        self.query(&By::name(name))
    }

    /// [`App::query`] by name or text value, exactly.
    #[track_caller]
    pub fn query_by_text(&self, text: &str) -> Option<Node<'_>> {
        self.query(&By::text(text))
    }

    /// [`App::get_all`] by role.
    #[track_caller]
    pub fn get_all_by_role(&self, role: &str) -> Vec<Node<'_>> {
        self.get_all(&By::role(role))
    }

    /// [`App::query_all`] by role.
    #[track_caller]
    pub fn query_all_by_role(&self, role: &str) -> Vec<Node<'_>> {
        self.query_all(&By::role(role))
    }

    /// Waits (the app's `wait`, up to 5 s) until exactly one node matches, then returns it.
    #[track_caller]
    pub fn wait_for(&self, by: &By) -> Node<'_> {
        self.wait_line(by, false);
        self.get(by)
    }

    /// Waits (up to 5 s) until no node matches.
    #[track_caller]
    pub fn wait_gone(&self, by: &By) {
        self.wait_line(by, true);
    }

    #[track_caller]
    fn wait_line(&self, by: &By, gone: bool) {
        let Some(selector) = by.selector() else {
            panic!("a query needs at least one term");
        };
        let command = Command::Wait {
            selector,
            gone,
            timeout_ms: None,
        };
        let r = match self.client().send(&command) {
            Ok(r) => r,
            Err(e) => self.fail(&command.to_line(), &e),
        };
        if let Some(refusal) = r.error_text() {
            panic!(
                "{}:\n{refusal}{}",
                if gone {
                    format!("{by} still matches a node after the app's wait (5 s)")
                } else {
                    format!("no node matches {by} after the app's wait (5 s)")
                },
                self.context()
            );
        }
    }

    /// Takes a screenshot of the focused window's next frame.
    #[track_caller]
    pub fn screenshot(&self) -> Screenshot {
        self.screenshot_of(None)
    }

    #[track_caller]
    fn screenshot_of(&self, crop: Option<Target>) -> Screenshot {
        let n = self.screenshots.fetch_add(1, Ordering::Relaxed);
        let label = match Label::new(&format!("test-{n}")) {
            Ok(label) => label,
            Err(e) => unreachable!("test-N is a label: {e}"),
        };
        let body = self.ok_command(&Command::Screenshot { label, crop });
        // `match`es, not closures: a panic in a closure would name this file, not the test's line.
        let path = match screenshot_path(&self.dir, &body) {
            Ok(path) => path,
            Err(why) => panic!("{why}"),
        };
        let image = match Rgba::read(&path) {
            Ok(image) => image,
            Err(e) => panic!("{e}"),
        };
        Screenshot { image, path }
    }

    /// Replays a script (docs/scripts.md; what `winit-automation record` writes) against the
    /// app; a line that does not parse or does not pass fails the test with its line number, the
    /// reason and the interactive snapshot. Screenshot references are relative to the script.
    #[track_caller]
    pub fn run_script(&self, path: impl AsRef<Path>) -> RunSummary {
        let path = path.as_ref();
        let script = match Script::read(path) {
            Ok(script) => script,
            Err(e) => panic!("{}: {e}\nhint: {}", path.display(), e.hint),
        };
        let options = RunOptions {
            base: path.parent().map(Path::to_owned).unwrap_or_default(),
            update: false,
        };
        match script.run(self.client(), &options, |_, _| {}) {
            Ok(summary) => summary,
            Err(failure) => panic!("{}: {failure}", path.display()),
        }
    }

    /// Asks the app to quit and waits (up to 30 s) for the process to exit; fails the test if
    /// it does not.
    #[track_caller]
    pub fn quit(mut self) {
        self.ok_command(&Command::Quit);
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(POLL);
        }
        panic!("the app did not exit after quit:\n{}", self.output());
    }
}

impl Drop for App {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // The whole group: a wrapper such as xvfb-run and what it started go too.
            if let Some(pid) = i32::try_from(self.child.id())
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        // The app is gone: the watchdog has nothing left to do.
        if let Some(mut w) = self.watchdog.take() {
            let _ = w.kill();
            let _ = w.wait();
        }
    }
}

/// A process that kills the app's process group when this process dies without dropping its
/// [`App`] (killed by a signal, a CI timeout, Ctrl-C on `cargo test`: the app is in a process
/// group of its own, so the terminal's signal never reaches it). It blocks reading a pipe whose
/// only writer is this process (std opens pipes close-on-exec, so no other child holds it); the
/// kernel closes it when this process exits, however it exits, and the read returns. It runs in
/// its own process group too, so the Ctrl-C that stops the tests does not stop it first. No
/// polling: it costs one sleeping `sh` per app. `None` when `sh` cannot be started (the app then
/// only goes when the `App` is dropped).
fn watchdog(app: u32) -> Option<Child> {
    Process::new("sh")
        .arg("-c")
        .arg(format!("cat >/dev/null; kill -KILL -{app} 2>/dev/null"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()
}

/// A node a query found: its line as the app printed it, and actions on it by its ref (which
/// never moves to another node: a node that went away is refused `stale_ref`).
#[derive(Debug, Clone)]
pub struct Node<'a> {
    app: &'a App,
    line: NodeLine,
}

impl Node<'_> {
    /// The node's line, parsed: ref, role, name, value, states, bounds, actions.
    pub fn line(&self) -> &NodeLine {
        &self.line
    }

    /// Its ref, `@e3`.
    pub fn r#ref(&self) -> NodeRef {
        self.line.r#ref
    }

    /// Its short role.
    pub fn role(&self) -> &str {
        &self.line.role
    }

    /// Its accessible name (empty when it has none).
    pub fn name(&self) -> &str {
        &self.line.name
    }

    /// Its value as printed, when it has one.
    pub fn value(&self) -> Option<&str> {
        self.line.value.as_ref().map(NodeValue::as_str)
    }

    /// Whether it is checked.
    pub fn is_checked(&self) -> bool {
        self.line.toggled == Some(Toggled::Checked)
    }

    /// Whether it has the keyboard focus.
    pub fn is_focused(&self) -> bool {
        self.line.focused
    }

    /// Whether it is disabled.
    pub fn is_disabled(&self) -> bool {
        self.line.disabled
    }

    /// The node as it is now (queries return a copy of the line at query time).
    #[track_caller]
    pub fn refresh(&self) -> Self {
        let body = self.app.ok_command(&Command::Get {
            target: self.target(),
        });
        let Some(line) = NodeLine::parse(body.lines().next().unwrap_or_default()) else {
            panic!("`get {}` answered no node line:\n{body}", self.r#ref())
        };
        Node {
            app: self.app,
            line,
        }
    }

    /// It as a target: its ref.
    fn target(&self) -> Target {
        Target::Ref(self.line.r#ref)
    }

    #[track_caller]
    fn click_with(&self, button: Button, double: bool) -> String {
        self.app.ok_command(&Command::Click {
            target: self.target(),
            button,
            double,
            opts: self.app.act_options(),
        })
    }

    /// Clicks it: a verified pointer click (the app says the press reached this node, or the
    /// test fails with `missed`).
    #[track_caller]
    pub fn click(&self) -> String {
        self.click_with(Button::Left, false)
    }

    /// Double-clicks it.
    #[track_caller]
    pub fn double_click(&self) -> String {
        self.click_with(Button::Left, true)
    }

    /// Right-clicks it.
    #[track_caller]
    pub fn right_click(&self) -> String {
        self.click_with(Button::Right, false)
    }

    /// Moves the pointer over it.
    #[track_caller]
    pub fn hover(&self) -> String {
        self.app.ok_command(&Command::Hover {
            target: self.target(),
            opts: self.app.act_options(),
        })
    }

    /// Focuses it and replaces its text with `text`.
    #[track_caller]
    pub fn fill(&self, text: &str) -> String {
        self.app.ok_command(&Command::Fill {
            target: self.target(),
            text: text.to_owned(),
            opts: self.app.act_options(),
        })
    }

    /// Gives it the keyboard focus (AccessKit `focus`).
    #[track_caller]
    pub fn focus(&self) -> String {
        self.app.ok_command(&Command::Focus {
            target: self.target(),
            opts: self.app.act_options(),
        })
    }

    /// Focuses it, then presses key chords.
    #[track_caller]
    pub fn key(&self, chords: &str) -> String {
        self.focus();
        self.app.key(chords)
    }

    /// Focuses it, then types text.
    #[track_caller]
    pub fn type_text(&self, text: &str) -> String {
        self.focus();
        self.app.type_text(text)
    }

    /// Turns the wheel over it by (dx, dy) logical pixels (positive dy shows what is below).
    #[track_caller]
    pub fn scroll(&self, dx: f64, dy: f64) -> String {
        self.app.ok_command(&Command::Scroll {
            target: self.target(),
            dx,
            dy,
            opts: self.app.act_options(),
        })
    }

    /// Drags it onto another node (`node.drag_to(&other)`) or to a point in logical pixels of
    /// its window (`node.drag_to((300.0, 40.0))`).
    #[track_caller]
    pub fn drag_to<'b>(&self, to: impl Into<DragTo<'b>>) -> String {
        let to = match to.into() {
            DragTo::Node(node) => node.target(),
            DragTo::Point(point) => Target::Point(point),
        };
        self.app.ok_command(&Command::Drag {
            from: self.target(),
            to,
            opts: self.app.act_options(),
        })
    }

    /// Requests an AccessKit action by its snake_case name (`"increment"`, `"expand"`), with a
    /// value for the actions that take one (`"set_value"`, `Some("42")`).
    #[track_caller]
    pub fn action(&self, name: &str, value: Option<&str>) -> String {
        let Some(action) = crate::protocol::parse_action(name) else {
            panic!(
                "unknown action {name:?}\nhint: actions are {}",
                crate::protocol::action_names()
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        };
        self.app.ok_command(&Command::Action {
            target: self.target(),
            action,
            value: value.map(str::to_owned),
            opts: self.app.act_options(),
        })
    }

    /// A screenshot cropped to this node.
    #[track_caller]
    pub fn screenshot(&self) -> Screenshot {
        self.app.screenshot_of(Some(self.target()))
    }
}

/// Where [`Node::drag_to`] drags to: another node, or a point in logical pixels (`(x, y)` or a
/// [`Point`]).
#[derive(Debug, Clone, Copy)]
pub enum DragTo<'a> {
    /// Onto this node (its centre, as the app aims).
    Node(&'a Node<'a>),
    /// To this point of the window.
    Point(Point),
}

impl<'a> From<&'a Node<'a>> for DragTo<'a> {
    fn from(node: &'a Node<'a>) -> Self {
        DragTo::Node(node)
    }
}

impl From<Point> for DragTo<'_> {
    fn from(point: Point) -> Self {
        DragTo::Point(point)
    }
}

impl From<(f64, f64)> for DragTo<'_> {
    fn from((x, y): (f64, f64)) -> Self {
        DragTo::Point(Point { x, y })
    }
}

/// An error as every door shows it: `CODE: MESSAGE`, then `hint: HINT` on a line of its own.
fn coded(e: &dyn Coded) -> String {
    match e.hint() {
        Some(hint) => format!("{}: {}\nhint: {hint}", e.code(), e.message()),
        None => format!("{}: {}", e.code(), e.message()),
    }
}

/// `snapshot -i --force`: what failure messages (the harness's and the scripts') and
/// [`App::snapshot`] show.
pub(crate) fn interactive_snapshot() -> Command {
    Command::Snapshot(SnapshotOptions {
        projection: Projection::Interactive,
        force: true,
        ..SnapshotOptions::default()
    })
}

/// A screenshot the app took (the exact frame it drew), decoded.
#[derive(Debug, Clone)]
pub struct Screenshot {
    /// The pixels.
    pub image: Rgba,
    /// The PNG in the app's drop-box (gone once the app is dropped).
    pub path: PathBuf,
}

impl Screenshot {
    /// Compares it with a reference PNG under egui_kittest's default tolerance (threshold 0.6,
    /// no failed pixel); see [`Screenshot::assert_matches_with`].
    #[track_caller]
    pub fn assert_matches(&self, reference: impl AsRef<Path>) {
        self.assert_matches_with(reference, Tolerance::default());
    }

    /// Compares it with a reference PNG. On a mismatch, writes `<name>.new.png` (this image) and
    /// `<name>.diff.png` (failed pixels red) next to the reference and fails the test; with
    /// `UPDATE_SNAPSHOTS=1` it writes the reference instead. A missing reference fails (and
    /// writes `<name>.new.png`) unless `UPDATE_SNAPSHOTS` is set.
    #[track_caller]
    pub fn assert_matches_with(&self, reference: impl AsRef<Path>, tolerance: Tolerance) {
        if let Err(message) = check_reference(&self.image, reference.as_ref(), tolerance) {
            panic!("{message}");
        }
    }

    /// The colour of one pixel, `[r, g, b, a]`; `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        self.image.pixel(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trees_for_insta_carry_no_refs_hints_included() {
        let body = "snapshot frame=3 protocol=1 quality=healthy\n\
                    window 1 \"Gallery\" size=1280x800 scale=1 focused\n  \
                    @e37 button \"Widget Gallery\" checked\n  \
                    [11 items below]\n  \
                    [1 item under @e83 window \"Widget Gallery\"]\n    \
                    @e90 text value=\"mail me @e5\"\n  \
                    [2 items blocked by the modal @e7 dialog \"a @e9 b\"]\n\
                    metrics frames=3 fps=0\n";
        assert_eq!(
            tree_text(body),
            "window 1 \"Gallery\" size=1280x800 scale=1 focused\n  \
             button \"Widget Gallery\" checked\n  \
             [11 items below]\n  \
             [1 item under window \"Widget Gallery\"]\n    \
             text value=\"mail me @e5\"\n  \
             [2 items blocked by the modal dialog \"a b\"]\n"
        );
    }
}
