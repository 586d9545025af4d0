//! Shared test code, one module of every test binary (`use crate::common`): the in-process test
//! app (`app.rs`, the one driver of an in-process app; a child process runs the same app), the
//! tree fixtures (the tree crate's `fixture`, shared with its unit tests), the examples
//! started through the harness (`demo.rs`), what tests read from answers (`answers.rs`), the CLI's
//! recorder and MCP server as tests drive them, and small helpers. A helper is written here once,
//! not in each test file that needs it.
#![allow(dead_code, clippy::print_stdout)]

mod answers;
mod app;
pub mod cli_binary;
pub mod demo;
pub mod file_with;
pub mod gpu;
pub mod mcp_session;
pub mod recorder;
pub mod trace_data;
pub mod weston;

/// The tree fixtures, shared with the tree crate's own unit tests.
#[allow(unused_imports)] // the examples binary builds no tree
pub use winit_automation_tree::fixture;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

pub use answers::*;
pub use app::*;

/// The environment variable that puts a test binary in child-app mode.
pub const CHILD_ENV: &str = "WA_TEST_CHILD_APP_DIR";

/// The test app started on `dir`, its window ("Test", scale 1) showing `update`.
pub fn showing(dir: &Path, update: accesskit::TreeUpdate) -> TestApp {
    TestApp::builder()
        .dir(dir)
        .window(window_state("Test", 1.0))
        .tree(update)
        .start()
}

/// The environment variable that says which app the child runs ([`ChildKind`]).
const CHILD_KIND_ENV: &str = "WA_TEST_CHILD_APP_KIND";

/// Which app a child process runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChildKind {
    /// The test app with no window, as [`TestApp::builder`] starts it.
    Plain,
    /// The form, whose "Remember me" check box toggles on every left click.
    Form,
}

/// Entry point of the child-app mode, called by the one `#[ignore]`d test named `child_app` in
/// each binary that starts children: runs the app [`ChildKind`] names until it is told to quit.
/// `form` is the form app's entry.
pub fn child_app_main(form: fn(&Path)) {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        panic!("child_app is an entry point for other tests; it needs {CHILD_ENV}");
    };
    // What the plugin logs goes to the child's stderr, as an app's logger would put it.
    let _ = log::set_logger(&StderrLog);
    log::set_max_level(log::LevelFilter::Warn);
    let dir = Path::new(&dir);
    match std::env::var(CHILD_KIND_ENV).as_deref() {
        Ok("form") => form(dir),
        _ => {
            TestApp::builder()
                .name("child-app")
                .dir(dir)
                .start()
                .run_until_quit();
        }
    }
}

/// The child app's logger: the plugin's warnings and errors, a line each, on stderr.
struct StderrLog;

impl log::Log for StderrLog {
    fn enabled(&self, m: &log::Metadata) -> bool {
        m.level() <= log::Level::Warn && m.target().starts_with("winit_automation")
    }

    fn log(&self, r: &log::Record) {
        if self.enabled(r.metadata()) {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "{} {}", r.level(), r.args());
        }
    }

    fn flush(&self) {}
}

/// The app as a child process: this test binary re-run in child-app mode.
pub struct ChildApp {
    pub child: Child,
    pub dir: PathBuf,
}

impl ChildApp {
    /// Starts the plain child and waits until its handshake is published.
    pub fn start(dir: &Path) -> ChildApp {
        ChildApp::start_with(dir, ChildKind::Plain)
    }

    /// Starts the child running `kind` and waits until its handshake is published.
    pub fn start_with(dir: &Path, kind: ChildKind) -> ChildApp {
        ChildApp::start_to(dir, kind, Stdio::inherit())
    }

    /// Starts the child running `kind` with its stderr (the plugin's log) going to `stderr`, and
    /// waits until its handshake is published.
    pub fn start_to(dir: &Path, kind: ChildKind, stderr: Stdio) -> ChildApp {
        let child = Process::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "child_app",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir)
            .env(
                CHILD_KIND_ENV,
                match kind {
                    ChildKind::Plain => "plain",
                    ChildKind::Form => "form",
                },
            )
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .expect("spawn the child app");
        let app = ChildApp {
            child,
            dir: dir.to_owned(),
        };
        app.wait_ready();
        app
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(ready) = winit_automation_client::read_ready(&self.dir)
                && ready.pid == self.child.id()
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the child app never became ready"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ChildApp {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A fresh directory for one test's drop-box, inside a temporary directory.
pub fn fresh_dir() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("box");
    (tmp, dir)
}

/// Polls `f` until it returns `Some`, for at most `limit`.
pub fn eventually<T>(limit: Duration, mut f: impl FnMut() -> Option<T>) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(v) = f() {
            return Some(v);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
