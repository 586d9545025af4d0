//! The examples as subprocesses, through the harness's [`App`] (`winit_automation_testing`: a
//! private drop-box, stderr kept for failures, the process group killed on drop): started in a
//! real window under Xvfb (Vulkan lavapipe, or GL llvmpipe) or headless, with the adapter checked
//! on every start; their snapshots and screenshots. What a test reads from an answer's text is in
//! `answers.rs`.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use winit_automation_protocol::ScreenshotAnswer;
pub use winit_automation_testing::App;
use winit_automation_testing::Spawn;

/// A decoded screenshot.
pub struct Png {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Png {
    pub fn read(path: &Path) -> Png {
        let image =
            winit_automation_testing::compare::Rgba::read(path).unwrap_or_else(|e| panic!("{e}"));
        Png {
            width: image.width,
            height: image.height,
            rgba: image.pixels,
        }
    }

    pub fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y * self.width + x) as usize * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }
}

pub fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2)
}

/// The node on `line` (a button on a plain panel) is drawn where its bounds say: the pixel just
/// inside its left edge, halfway down, is not the panel's background 150 px right of it.
#[track_caller]
pub fn assert_drawn(png: &Png, line: &str) {
    let (x, y, w, h) = super::bounds(line);
    let (bx, by) = ((x + 3.0) as u32, (y + h / 2.0) as u32);
    let background = png.at((x + w + 150.0) as u32, by);
    assert!(
        !close(png.at(bx, by), background),
        "the node at {bx},{by} looks like the background {background:?}: {line}"
    );
}

pub fn have(program: &str) -> bool {
    Process::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The custom demo's form as it starts (`examples/demo.rs`), a node line each.
pub const DEMO_FORM: [&str; 4] = [
    "textbox \"Name\"",
    "checkbox \"Subscribe\" unchecked",
    "slider \"Volume\" value=50",
    "button \"Submit\"",
];

/// How an example runs.
#[derive(Clone, Copy)]
pub enum Mode {
    /// In a window under Xvfb, on this wgpu backend (`WGPU_BACKEND`).
    Window(&'static str),
    /// `--headless` with `DISPLAY` unset, at this size.
    Headless(u32, u32),
}

/// The example `name` as these tests start it, before its display: a debug build's start-up on a
/// software adapter gets 120 s, and actions do not settle.
pub fn example(name: &str) -> Spawn {
    Spawn::example(name)
        .startup(Duration::from_secs(120))
        .timeout(Duration::from_secs(30))
        // These tests check each answer themselves (`--settle` where they want it).
        .settle_actions(false)
}

/// Starts the example `name` as `mode` says and checks the adapter it draws on.
pub fn start(name: &str, mode: Mode) -> App {
    let spawn = example(name);
    let spawn = match mode {
        Mode::Window(backend) => {
            assert!(
                have("xvfb-run") && have("Xvfb"),
                "xvfb-run is not installed: `apt-get install xvfb` (the end-to-end tests need a virtual X server)"
            );
            spawn
                .under("xvfb-run", ["-a", "-s", "-screen 0 1280x800x24"])
                .env("WGPU_BACKEND", backend)
        }
        Mode::Headless(w, h) => spawn.headless(w, h).env("WGPU_BACKEND", "vulkan"),
    };
    let app = spawn.start();
    check_adapter(
        &app,
        match mode {
            Mode::Window(backend) => backend,
            Mode::Headless(..) => "vulkan",
        },
    );
    app
}

/// Takes a screenshot; returns the answer's body and the decoded image (checked against the size
/// the answer states).
pub fn screenshot(app: &App, args: &str) -> (String, Png) {
    let body = app.ok(&format!("screenshot {args}"));
    let answer = ScreenshotAnswer::parse(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let file = app.dir().join(answer.file.file_name());
    let png = Png::read(&file);
    assert_eq!(answer.size, Some((png.width, png.height)), "{body}");
    assert_eq!(
        answer.bytes,
        Some(std::fs::metadata(&file).unwrap().len()),
        "{body}"
    );
    (body, png)
}

/// The app draws on the backend asked for: Vulkan lavapipe unless a test asks for GL (wgpu falls
/// back to GL silently when no Vulkan driver is installed, and GL renders differently).
pub fn check_adapter(app: &App, backend: &str) {
    let snapshot = wait_for(app, " backend=", "the app names its adapter");
    let metrics = snapshot
        .lines()
        .find(|l| l.starts_with("metrics "))
        .unwrap()
        .to_owned();
    println!("adapter: {metrics}");
    assert!(
        metrics.contains(&format!("backend={backend}")),
        "the app is not on {backend} (install mesa-vulkan-drivers for lavapipe): {metrics}\n{}",
        app.output()
    );
}

/// The regular snapshot (what a person sees), with refs.
pub fn snapshot(app: &App) -> String {
    app.ok("snapshot --force")
}

/// Snapshots until one contains `what`.
pub fn wait_for(app: &App, what: &str, why: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = snapshot(app);
        if s.contains(what) {
            return s;
        }
        assert!(
            Instant::now() < deadline,
            "{why}: no {what:?} in\n{s}\napp output:\n{}",
            app.output()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
