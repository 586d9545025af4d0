//! A headless Weston for the Wayland tests: `weston --backend=headless-backend.so --socket=NAME`
//! in a private `XDG_RUNTIME_DIR` (a temporary directory, mode 0700, as Weston requires), started
//! before the app and ready once its socket accepts a connection (polled against a deadline).
//! Only the app's environment changes: [`Weston::wrap`] gives it `XDG_RUNTIME_DIR` and
//! `WAYLAND_DISPLAY` and removes `DISPLAY`, so the app cannot fall back to X11 (no X server, and
//! Weston runs without Xwayland). Dropping the [`Weston`] stops the one process it started, by
//! its pid.
//!
//! Needs `weston` (Debian's package; scripts/setup-system.sh installs it).
#![allow(dead_code)]

use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use winit_automation_testing::Spawn;

/// The socket's name in the private runtime directory (one Weston per directory).
const SOCKET: &str = "wayland-winit-automation";

/// How long Weston may take to open its socket.
const STARTUP: Duration = Duration::from_secs(30);

/// A running headless Weston, stopped on drop.
pub struct Weston {
    child: Child,
    runtime: tempfile::TempDir,
    log: PathBuf,
}

impl Weston {
    /// Starts Weston with a 1280x800 output (the size the Xvfb tests' screen has) and waits until
    /// its socket accepts a connection; panics with Weston's log when it cannot.
    pub fn start() -> Weston {
        assert!(
            super::demo::have("weston"),
            "weston is not installed: `apt-get install weston` (the Wayland tests run the apps under a headless Weston; scripts/setup-system.sh installs it)"
        );
        let runtime = tempfile::Builder::new()
            .prefix("winit-automation-weston-")
            .tempdir()
            .expect("a temporary runtime directory");
        // Weston refuses a runtime directory others can read.
        std::fs::set_permissions(runtime.path(), std::fs::Permissions::from_mode(0o700))
            .expect("the runtime directory's mode");
        let log = runtime.path().join("weston.log");
        let child = Process::new("weston")
            .arg("--backend=headless-backend.so")
            .arg(format!("--socket={SOCKET}"))
            .args(["--width=1280", "--height=800", "--idle-time=0"])
            .arg(format!("--log={}", log.display()))
            .env("XDG_RUNTIME_DIR", runtime.path())
            .env_remove("DISPLAY")
            .env_remove("WAYLAND_DISPLAY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("weston starts");
        let mut weston = Weston {
            child,
            runtime,
            log,
        };
        weston.wait_for_socket();
        weston
    }

    /// Polls until the socket exists and accepts a connection, Weston exits, or the deadline.
    fn wait_for_socket(&mut self) {
        let socket = self.socket();
        let deadline = Instant::now() + STARTUP;
        loop {
            let is_socket = std::fs::metadata(&socket).is_ok_and(|m| m.file_type().is_socket());
            if is_socket && UnixStream::connect(&socket).is_ok() {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!(
                    "weston exited ({status}) before its socket opened:\n{}",
                    self.log()
                );
            }
            assert!(
                Instant::now() < deadline,
                "weston opened no socket at {} within {STARTUP:?}:\n{}",
                socket.display(),
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The path of Weston's socket.
    pub fn socket(&self) -> PathBuf {
        self.runtime.path().join(SOCKET)
    }

    /// The private runtime directory.
    pub fn runtime_dir(&self) -> &Path {
        self.runtime.path()
    }

    /// Weston's log so far (for a failing test's message).
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_else(|e| format!("(no log: {e})"))
    }

    /// The app's environment for this Weston: its runtime directory and socket, and no `DISPLAY`
    /// (so winit can only choose Wayland).
    pub fn wrap(&self, spawn: Spawn) -> Spawn {
        spawn
            .env("XDG_RUNTIME_DIR", self.runtime.path())
            .env("WAYLAND_DISPLAY", SOCKET)
            .env_remove("DISPLAY")
    }

    /// Starts the example `name` in a window on this Weston, rendering on Vulkan, and checks
    /// the adapter (as `demo::start` does for Xvfb).
    pub fn start_example(&self, name: &str) -> super::demo::App {
        let app = self
            .wrap(super::demo::example(name))
            .env("WGPU_BACKEND", "vulkan")
            .start();
        super::demo::check_adapter(&app, "vulkan");
        app
    }
}

impl Drop for Weston {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // SIGTERM first: Weston then stops its own helper clients and removes its socket.
            if let Some(pid) = i32::try_from(self.child.id())
                .ok()
                .and_then(rustix::process::Pid::from_raw)
            {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::TERM);
            }
            let deadline = Instant::now() + Duration::from_secs(5);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
