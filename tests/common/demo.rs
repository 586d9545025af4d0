//! The examples as subprocesses, through the harness's [`App`] (`winit_automation_testing`: a
//! private drop-box, stderr kept for failures, the process group killed on drop): started in a
//! real window under Xvfb (Vulkan lavapipe, or GL llvmpipe) or headless, with the adapter checked
//! on every start; and what these tests read from its answers.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use winit_automation_protocol::{NodeLine, ScreenshotAnswer};
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

pub fn have(program: &str) -> bool {
    Process::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

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

/// The ref of the node on the line that contains `what`.
pub fn ref_of(snapshot: &str, what: &str) -> String {
    node_in(line_of(snapshot, what)).r#ref.to_string()
}

/// The node of a line of a snapshot or a `find` answer, of a diff (`~ @eN ...`) or an action's
/// `target @eN ...` line.
pub fn node_in(line: &str) -> NodeLine {
    NodeLine::parse(line)
        .or_else(|| {
            let (_, rest) = line.trim_start().split_once(' ')?;
            NodeLine::parse(rest)
        })
        .unwrap_or_else(|| panic!("no node on {line:?}"))
}

pub fn line_of<'a>(snapshot: &'a str, what: &str) -> &'a str {
    snapshot
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{snapshot}"))
}

/// The window lines of a snapshot (`window <n> ...`), in order.
pub fn window_lines(snapshot: &str) -> Vec<&str> {
    snapshot
        .lines()
        .filter(|l| l.starts_with("window "))
        .collect()
}

/// The last line that names `what`: in an answer with a diff, the node as it is now (the
/// `target` line above it shows it as it was).
pub fn now<'a>(body: &'a str, what: &str) -> &'a str {
    body.lines()
        .rfind(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{body}"))
}

/// `bounds=X,Y,WxH` of the node on a line ([`node_in`]).
pub fn bounds(line: &str) -> (f64, f64, f64, f64) {
    match node_in(line).bounds {
        Some([x, y, w, h]) => (x, y, w, h),
        None => panic!("no bounds: {line}"),
    }
}

/// The node lines of a snapshot (`@eN ...`) and their bytes, newlines included.
pub fn node_bytes(snapshot: &str) -> (usize, usize) {
    let nodes: Vec<&str> = snapshot
        .lines()
        .filter(|l| l.trim_start().starts_with('@'))
        .collect();
    (nodes.len(), nodes.iter().map(|l| l.len() + 1).sum())
}
