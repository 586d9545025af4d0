//! A small app for the tests: the real plugin and service thread, driven by a render loop that
//! consumes the channels the way a winit app would, without a window or a GPU.
//!
//! It has one window (id 1, 800x600). The plugin answers the actions itself; the loop records the
//! text input it is handed and stops on `quit`. `screenshot`, which the app answers itself:
//! - `screenshot fail`: answers the error `app_error` (to test the error path);
//! - `screenshot drop`: drops the request unanswered (to test `not_handled`);
//! - `screenshot LABEL`: writes a small file as `screenshot-LABEL.png` and answers `file <name>`.
#![allow(dead_code, clippy::print_stdout)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded};
use winit_automation::protocol::{Command, ErrorCode, Failure};
use winit_automation::{Automation, Input};

/// The test app's window.
pub fn test_window() -> (winit::window::WindowId, winit_automation::WindowState) {
    (
        winit::window::WindowId::from(1),
        winit_automation::WindowState {
            title: "Test".into(),
            width: 800.0,
            height: 600.0,
            scale_factor: 1.0,
            focused: true,
        },
    )
}

/// The environment variable that puts a test binary in child-app mode.
pub const CHILD_ENV: &str = "WA_TEST_CHILD_APP_DIR";

/// Runs the render loop until `quit` or `stop`; returns what `type` commands typed, in order.
pub fn render_loop(automation: Automation, wake: Receiver<()>, stop: Receiver<()>) -> Vec<String> {
    let mut typed = Vec::new();
    let mut quit = false;
    while !quit {
        crossbeam_channel::select! {
            recv(wake) -> _ => {}
            recv(stop) -> _ => break,
            default(Duration::from_millis(20)) => {}
        }
        for input in automation.begin_frame() {
            let request = match input {
                Input::Text { text, .. } => {
                    typed.push(text);
                    continue;
                }
                Input::Quit => {
                    quit = true;
                    continue;
                }
                Input::Request(request) => request,
                _ => continue,
            };
            match request.command().clone() {
                Command::Screenshot { label, .. } if label.as_str() == "fail" => {
                    request.reply(Err(Failure::new(
                        ErrorCode::AppError,
                        "the test app cannot take screenshots named fail",
                        "this is the test app's error path",
                    )))
                }
                Command::Screenshot { label, .. } if label.as_str() == "drop" => drop(request),
                Command::Screenshot { label, .. } => {
                    let dir = automation.dir().unwrap();
                    std::fs::write(dir.join(label.file_name()), b"\x89PNG fake").unwrap();
                    request.reply(Ok(format!("file {}", label.file_name())));
                }
                other => request.reply(Ok(format!("echo {}", other.to_line()))),
            }
        }
        automation.end_frame();
    }
    typed
}

/// The app running on a thread of the test process.
pub struct InProcessApp {
    stop: crossbeam_channel::Sender<()>,
    thread: Option<JoinHandle<Vec<String>>>,
}

impl InProcessApp {
    pub fn start(dir: &Path) -> InProcessApp {
        Self::start_with(dir, |b| b)
    }

    /// Starts the app with one window showing `update`.
    pub fn start_with_tree(
        dir: &Path,
        state: winit_automation::WindowState,
        update: accesskit::TreeUpdate,
    ) -> InProcessApp {
        Self::start_inner(dir, |b| b, Some((state, update)))
    }

    pub fn start_with(
        dir: &Path,
        configure: impl FnOnce(winit_automation::Builder) -> winit_automation::Builder,
    ) -> InProcessApp {
        Self::start_inner(dir, configure, None)
    }

    fn start_inner(
        dir: &Path,
        configure: impl FnOnce(winit_automation::Builder) -> winit_automation::Builder,
        tree: Option<(winit_automation::WindowState, accesskit::TreeUpdate)>,
    ) -> InProcessApp {
        let (wake_tx, wake_rx) = bounded(1);
        let builder = Automation::builder()
            .app_name("test-app")
            .app_screenshots(true)
            .dir(dir)
            .waker(move || {
                let _ = wake_tx.try_send(());
            });
        let automation = configure(builder).start().expect("the test app starts");
        let (window, state) = test_window();
        automation.window_state(window, state);
        if let Some((state, update)) = tree {
            let window = winit::window::WindowId::from(1);
            automation.window_state(window, state);
            automation.tree_update(window, update);
        }
        let (stop, stop_rx) = bounded(1);
        let thread = std::thread::spawn(move || render_loop(automation, wake_rx, stop_rx));
        InProcessApp {
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the loop (dropping the plugin) and returns what was typed, in order.
    pub fn stop(mut self) -> Vec<String> {
        let _ = self.stop.send(());
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for InProcessApp {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = self.stop.send(());
            let _ = thread.join();
        }
    }
}

/// Entry point of the child-app mode; call it from an `#[ignore]`d test named `child_app`.
pub fn child_app_main() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        panic!("child_app is an entry point for other tests; it needs {CHILD_ENV}");
    };
    let (wake_tx, wake_rx) = bounded(1);
    let automation = Automation::builder()
        .app_name("child-app")
        .app_screenshots(true)
        .dir(&dir)
        .waker(move || {
            let _ = wake_tx.try_send(());
        })
        .start()
        .expect("the child app starts");
    let (window, state) = test_window();
    automation.window_state(window, state);
    let (_stop_tx, stop_rx) = bounded::<()>(1);
    render_loop(automation, wake_rx, stop_rx);
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
            if let Ok(ready) = winit_automation::client::read_ready(&self.dir)
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
