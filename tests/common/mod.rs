//! Shared test code: the in-process test app (`app.rs`), the same app as a child process (for
//! tests that kill it or need it in another process), and small helpers.
//!
//! Tree fixtures live in `fixture.rs`, included by the tests that need them.
#![allow(dead_code, clippy::print_stdout)]

mod app;

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

pub use app::*;

/// The environment variable that puts a test binary in child-app mode.
pub const CHILD_ENV: &str = "WA_TEST_CHILD_APP_DIR";

/// The test app's window id and state.
pub fn test_window() -> (winit::window::WindowId, winit_automation::WindowState) {
    (window_id(), window_state("Test", 1.0))
}

/// The test app in the shape tests/cli.rs uses: started on a given directory, and stopped with
/// what `type` typed. New tests use [`TestApp`] directly.
pub struct InProcessApp(TestApp);

impl InProcessApp {
    pub fn start(dir: &Path) -> InProcessApp {
        InProcessApp(TestApp::builder().dir(dir).start())
    }

    /// Starts the app with its window showing `update`.
    pub fn start_with_tree(
        dir: &Path,
        state: winit_automation::WindowState,
        update: accesskit::TreeUpdate,
    ) -> InProcessApp {
        InProcessApp(
            TestApp::builder()
                .dir(dir)
                .window(state)
                .tree(update)
                .start(),
        )
    }

    /// Stops the app and returns what was typed, in order.
    pub fn stop(self) -> Vec<String> {
        typed(&self.0.stop())
    }
}

/// Entry point of the child-app mode; call it from an `#[ignore]`d test named `child_app`.
pub fn child_app_main() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        panic!("child_app is an entry point for other tests; it needs {CHILD_ENV}");
    };
    TestApp::builder()
        .name("child-app")
        .dir(Path::new(&dir))
        .start()
        .run_until_quit();
}

/// The app as a child process: this test binary re-run in child-app mode.
pub struct ChildApp {
    pub child: Child,
    pub dir: PathBuf,
}

impl ChildApp {
    /// Starts the child and waits until its handshake is published.
    pub fn start(dir: &Path) -> ChildApp {
        let child = Process::new(std::env::current_exe().unwrap())
            .args([
                "--ignored",
                "--exact",
                "child_app",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_ENV, dir)
            .stdout(Stdio::null())
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
