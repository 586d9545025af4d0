//! The demos as subprocesses, driven through the client library: in a real window under Xvfb
//! (Vulkan lavapipe) or headless. Included by tests/e2e.rs and tests/gallery.rs with
//! `#[path = "common/demo.rs"] mod demo;` (next to `mod common;`).
#![allow(dead_code)]

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use crate::common::fresh_dir;
use winit_automation::client::Client;
use winit_automation::protocol::Response;

/// A demo running under `xvfb-run` in its own process group.
pub struct Demo {
    pub child: Child,
    pub client: Client,
    pub log: PathBuf,
    pub dir: PathBuf,
    _tmp: tempfile::TempDir,
}

/// A decoded screenshot.
pub struct Png {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Png {
    pub fn read(path: &Path) -> Png {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().expect("a PNG the png crate decodes");
        let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgba).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        rgba.truncate(info.buffer_size());
        Png {
            width: info.width,
            height: info.height,
            rgba,
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

pub fn example(name: &str) -> PathBuf {
    // target/debug/deps/e2e-HASH -> target/debug/examples/NAME
    let exe = std::env::current_exe().unwrap();
    let path = exe
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("examples")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: run the tests with `cargo test --all-features`, which builds the examples",
        path.display()
    );
    path
}

pub fn have(program: &str) -> bool {
    Process::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// How a demo runs.
#[derive(Clone, Copy)]
pub enum Mode {
    /// In a window under Xvfb, on this wgpu backend (`WGPU_BACKEND`).
    Window(&'static str),
    /// `--headless` with `DISPLAY` unset, at this size.
    Headless(u32, u32),
}

impl Demo {
    pub fn start(name: &str) -> Demo {
        Demo::start_in(name, Mode::Window("vulkan"))
    }

    pub fn start_in(name: &str, mode: Mode) -> Demo {
        let (tmp, dir) = fresh_dir();
        let log = tmp.path().join("app.log");
        let mut command = match mode {
            Mode::Window(backend) => {
                assert!(
                    have("xvfb-run") && have("Xvfb"),
                    "xvfb-run is not installed: `apt-get install xvfb` (the end-to-end tests need a virtual X server)"
                );
                let mut c = Process::new("xvfb-run");
                c.args(["-a", "-s", "-screen 0 1280x800x24"])
                    .arg(example(name))
                    .env("WGPU_BACKEND", backend);
                c
            }
            Mode::Headless(w, h) => {
                let mut c = Process::new(example(name));
                c.args(["--headless", "--size", &format!("{w}x{h}")])
                    .env_remove("DISPLAY")
                    .env_remove("WAYLAND_DISPLAY")
                    .env("WGPU_BACKEND", "vulkan");
                c
            }
        };
        let child = command
            .arg("--dir")
            .arg(&dir)
            // Apps that take no `--dir` (eframe_app) find the drop-box here.
            .env("WINIT_AUTOMATION_DIR", &dir)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .process_group(0)
            .spawn()
            .expect("start the demo");
        let mut child = child;
        let client = Demo::connect(&dir, &log, &mut child);
        let mut demo = Demo {
            client,
            child,
            log,
            dir,
            _tmp: tmp,
        };
        demo.check_adapter(match mode {
            Mode::Window(backend) => backend,
            Mode::Headless(..) => "vulkan",
        });
        demo
    }

    /// Takes a screenshot; returns the answer's body and the decoded image (checked against the
    /// size the answer states).
    pub fn screenshot(&self, args: &str) -> (String, Png) {
        let body = self.ok(&format!("screenshot {args}"));
        let file = body
            .lines()
            .find_map(|l| l.strip_prefix("file "))
            .unwrap_or_else(|| panic!("no file line: {body}"));
        let png = Png::read(&self.dir.join(file));
        let size = body.lines().find_map(|l| l.strip_prefix("size ")).unwrap();
        assert_eq!(size, format!("{}x{}", png.width, png.height), "{body}");
        let bytes: usize = body
            .lines()
            .find_map(|l| l.strip_prefix("bytes "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(
            bytes,
            std::fs::metadata(self.dir.join(file)).unwrap().len() as usize
        );
        (body, png)
    }

    /// Waits for the handshake; a demo that never makes it (or exits) is killed, with its whole
    /// process group, before the test fails.
    pub fn connect(dir: &Path, log: &Path, child: &mut Child) -> Client {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(client) = Client::connect(Some(dir)) {
                return client.with_timeout(Duration::from_secs(30));
            }
            let exited = matches!(child.try_wait(), Ok(Some(_)));
            if exited || Instant::now() >= deadline {
                kill_group(child);
                panic!(
                    "the demo never published ready.txt ({}); its output:\n{}",
                    if exited { "it exited" } else { "timed out" },
                    std::fs::read_to_string(log).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    pub fn output(&self) -> String {
        let mut text = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.log) {
            let _ = f.read_to_string(&mut text);
        }
        text
    }

    /// The demo draws on the backend asked for: Vulkan lavapipe unless a test asks for GL (wgpu
    /// falls back to GL silently when no Vulkan driver is installed, and GL renders differently).
    pub fn check_adapter(&mut self, backend: &str) {
        let snapshot = self.wait_for(" backend=", "the app names its adapter");
        let metrics = snapshot
            .lines()
            .find(|l| l.starts_with("metrics "))
            .unwrap()
            .to_owned();
        println!("adapter: {metrics}");
        assert!(
            metrics.contains(&format!("backend={backend}")),
            "the demo is not on {backend} (install mesa-vulkan-drivers for lavapipe): {metrics}\n{}",
            self.output()
        );
    }

    pub fn send(&self, line: &str) -> Response {
        match self.client.send_line(line) {
            Ok(r) => r,
            Err(e) => panic!("{line}: {e}\napp output:\n{}", self.output()),
        }
    }

    pub fn ok(&self, line: &str) -> String {
        let response = self.send(line);
        assert!(response.is_ok(), "{line}: {response:?}");
        response.body().to_owned()
    }

    pub fn snapshot(&self) -> String {
        self.ok("snapshot --force")
    }

    /// Snapshots until one contains `what`.
    pub fn wait_for(&self, what: &str, why: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let s = self.snapshot();
            if s.contains(what) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "{why}: no {what:?} in\n{s}\napp output:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn quit(mut self) {
        let response = self.send("quit");
        assert!(response.is_ok(), "{response:?}");
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the demo did not exit after quit:\n{}", self.output());
    }
}

/// Kills the demo's whole process group: xvfb-run, Xvfb and the demo.
pub fn kill_group(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let pgid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        let _ = rustix::process::kill_process_group(pgid, rustix::process::Signal::KILL);
        let _ = child.wait();
    }
}

impl Drop for Demo {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

/// The ref at the start of the line that contains `what`.
pub fn ref_of(snapshot: &str, what: &str) -> String {
    let line = snapshot
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{snapshot}"));
    line.trim_start()
        .split(' ')
        .next()
        .filter(|r| r.starts_with("@e"))
        .unwrap_or_else(|| panic!("no ref on {line:?}"))
        .to_owned()
}

pub fn line_of<'a>(snapshot: &'a str, what: &str) -> &'a str {
    snapshot
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{snapshot}"))
}

/// The last line that names `what`: in an answer with a diff, the node as it is now (the
/// `target` line above it shows it as it was).
pub fn now<'a>(body: &'a str, what: &str) -> &'a str {
    body.lines()
        .rfind(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{body}"))
}

/// `bounds=X,Y,WxH` of a node line.
pub fn bounds(line: &str) -> (f64, f64, f64, f64) {
    let b = line
        .split(' ')
        .find_map(|t| t.strip_prefix("bounds="))
        .unwrap_or_else(|| panic!("no bounds: {line}"));
    let (xy, wh) = b.rsplit_once(',').unwrap();
    let (x, y) = xy.split_once(',').unwrap();
    let (w, h) = wh.split_once('x').unwrap();
    let n = |v: &str| v.parse::<f64>().unwrap();
    (n(x), n(y), n(w), n(h))
}

/// The node lines of a snapshot (`@eN ...`) and their bytes, newlines included.
pub fn node_bytes(snapshot: &str) -> (usize, usize) {
    let nodes: Vec<&str> = snapshot
        .lines()
        .filter(|l| l.trim_start().starts_with('@'))
        .collect();
    (nodes.len(), nodes.iter().map(|l| l.len() + 1).sum())
}
