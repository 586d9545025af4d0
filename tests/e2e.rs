//! End to end: each demo runs as a subprocess in a real window under Xvfb, rendering on Vulkan
//! lavapipe, and is driven through the client library the way a test script or an agent would.
//!
//! Needs `xvfb-run` (Debian package `xvfb`) and a Vulkan driver (`mesa-vulkan-drivers`); without
//! them these tests fail and say what to install: nothing here is skipped. The demo binaries are
//! the ones `cargo test --all-features` builds next to this test (the README's test command).
#![cfg(all(feature = "automation", feature = "client", feature = "egui"))]

mod common;

use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use common::fresh_dir;
use winit_automation::client::Client;
use winit_automation::protocol::{ErrorCode, Outcome, Response};

/// A demo running under `xvfb-run` in its own process group.
struct Demo {
    child: Child,
    client: Client,
    log: PathBuf,
    dir: PathBuf,
    _tmp: tempfile::TempDir,
}

/// A decoded screenshot.
struct Png {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Png {
    fn read(path: &Path) -> Png {
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

    fn at(&self, x: u32, y: u32) -> [u8; 3] {
        let i = (y * self.width + x) as usize * 4;
        [self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]
    }
}

fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2)
}

fn example(name: &str) -> PathBuf {
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

fn have(program: &str) -> bool {
    Process::new("sh")
        .args(["-c", &format!("command -v {program}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// How a demo runs.
#[derive(Clone, Copy)]
enum Mode {
    /// In a window under Xvfb, on this wgpu backend (`WGPU_BACKEND`).
    Window(&'static str),
    /// `--headless` with `DISPLAY` unset, at this size.
    Headless(u32, u32),
}

impl Demo {
    fn start(name: &str) -> Demo {
        Demo::start_in(name, Mode::Window("vulkan"))
    }

    fn start_in(name: &str, mode: Mode) -> Demo {
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
            .env_remove("WINIT_AUTOMATION_DIR")
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
    fn screenshot(&self, args: &str) -> (String, Png) {
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
    fn connect(dir: &Path, log: &Path, child: &mut Child) -> Client {
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

    fn output(&self) -> String {
        let mut text = String::new();
        if let Ok(mut f) = std::fs::File::open(&self.log) {
            let _ = f.read_to_string(&mut text);
        }
        text
    }

    /// The demo draws on the backend asked for: Vulkan lavapipe unless a test asks for GL (wgpu
    /// falls back to GL silently when no Vulkan driver is installed, and GL renders differently).
    fn check_adapter(&mut self, backend: &str) {
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

    fn send(&self, line: &str) -> Response {
        match self.client.send_line(line) {
            Ok(r) => r,
            Err(e) => panic!("{line}: {e}\napp output:\n{}", self.output()),
        }
    }

    fn ok(&self, line: &str) -> String {
        let response = self.send(line);
        assert!(response.is_ok(), "{line}: {response:?}");
        response.body().to_owned()
    }

    fn snapshot(&self) -> String {
        self.ok("snapshot --force")
    }

    /// Snapshots until one contains `what`.
    fn wait_for(&self, what: &str, why: &str) -> String {
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

    fn quit(mut self) {
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
fn kill_group(child: &mut Child) {
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
fn ref_of(snapshot: &str, what: &str) -> String {
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

fn line_of<'a>(snapshot: &'a str, what: &str) -> &'a str {
    snapshot
        .lines()
        .find(|l| l.contains(what))
        .unwrap_or_else(|| panic!("no line with {what:?} in\n{snapshot}"))
}

#[test]
fn the_custom_demo_is_driven_through_the_client_in_a_real_window() {
    let demo = Demo::start("demo");
    let s = demo.wait_for("textbox \"Name\"", "the demo publishes its tree");
    // The form, the list and their refs.
    for widget in [
        "textbox \"Name\"",
        "checkbox \"Subscribe\" unchecked",
        "slider \"Volume\" value=50",
        "button \"Submit\"",
        "button \"Open dialog\"",
        "list \"Items\"",
        "listitem \"Item 01\"",
    ] {
        assert!(
            line_of(&s, widget).trim_start().starts_with("@e"),
            "{widget}"
        );
    }
    assert!(s.contains("[37 items below]"), "{s}");
    assert!(
        !s.contains("Item 14"),
        "scrolled-out items are hints, not lines: {s}"
    );

    // Clicking the checkbox toggles it in the next snapshot.
    let checkbox = ref_of(&s, "checkbox \"Subscribe\"");
    let body = demo.ok(&format!("click {checkbox}"));
    assert!(body.contains("path pointer\n"), "{body}");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "checkbox \"Subscribe\"").contains(" checked"),
        "{s}"
    );
    assert!(line_of(&s, "checkbox \"Subscribe\"").starts_with(&format!("    {checkbox} ")));

    // Typing fills the text field: focus it with a click, then type; fill replaces.
    demo.ok("click role=textbox");
    demo.ok("type \"Ada \\\"the\\\" Countess\"");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "textbox \"Name\"").contains("value=\"Ada \\\"the\\\" Countess\""),
        "{s}"
    );
    let body = demo.ok("fill role=textbox \"Ada Lovelace\" --settle");
    assert!(
        body.contains("value=\"Ada Lovelace\""),
        "the settle diff: {body}"
    );
    demo.ok("key ctrl+a Backspace");
    demo.ok("type Grace");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "textbox \"Name\"").contains("value=\"Grace\""),
        "{s}"
    );

    // Slider through an AccessKit action; the button's effect shows in the status label.
    demo.ok("action name=Volume set_value 80");
    demo.ok("click name=Submit --settle");
    let s = demo.snapshot();
    assert!(
        s.contains("value=\"Submitted: Grace (subscribe yes, volume 80)\""),
        "{s}"
    );

    // Scrolling the list changes the hidden hints.
    let body = demo.ok("scroll role=list 0 200 --settle");
    assert!(body.contains("[6 items above]"), "{body}");
    let s = demo.snapshot();
    assert!(
        s.contains("[6 items above]") && s.contains("[31 items below]"),
        "{s}"
    );
    assert!(s.contains("listitem \"Item 14\""), "{s}");
    // An item scrolled out is refused, not clicked somewhere else.
    let response = demo.send("click name=\"Item 01\"");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Offscreen),
        "{response:?}"
    );

    // The dialog opens (modal: what is behind it is covered) and closes; its refs go stale.
    demo.ok("click name=\"Open dialog\"");
    let s = demo.wait_for("dialog \"Confirm\"", "the dialog opens");
    let ok = ref_of(&s, "button \"OK\"");
    let response = demo.send("click name=Submit");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Covered),
        "{response:?}"
    );
    demo.ok(&format!("click {ok} --settle"));
    let s = demo.snapshot();
    assert!(!s.contains("dialog \"Confirm\""), "{s}");
    assert!(s.contains("value=\"Confirmed\""), "{s}");
    let response = demo.send(&format!("click {ok}"));
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::StaleRef),
        "{response:?}"
    );
    let Outcome::Error { message, .. } = &response.outcome else {
        unreachable!()
    };
    assert!(message.contains("removed"), "{message}");

    // Keys: Tab moves the focus.
    demo.ok("focus name=Subscribe");
    demo.ok("key Tab");
    let s = demo.snapshot();
    assert!(line_of(&s, "slider \"Volume\"").contains(" focused"), "{s}");

    // A screenshot while the window is being resized: whichever frame it comes from, the PNG is
    // whole and has the size its answer states (Demo::screenshot checks that).
    let resize = demo.client.enqueue_line("resize 900 650").unwrap();
    let (body, png) = demo.screenshot("resizing");
    assert!(demo.client.wait(resize).unwrap().is_ok());
    assert!(
        [(800, 600), (900, 650)].contains(&(png.width, png.height)),
        "{body}"
    );
    demo.wait_for("size=900x650", "the window takes the new size");
    let (_, png) = demo.screenshot("resized");
    assert_eq!((png.width, png.height), (900, 650));

    demo.quit();
}

#[test]
fn the_egui_demo_is_driven_through_the_client_with_egui_s_own_tree() {
    let demo = Demo::start("egui_demo");
    let s = demo.wait_for("button \"Count\"", "egui publishes its AccessKit tree");
    assert!(s.contains("value=\"Clicked 0 times\""), "{s}");
    let count = ref_of(&s, "button \"Count\"");

    // A button click changes a label.
    let body = demo.ok(&format!("click {count} --settle"));
    assert!(
        body.contains("value=\"Clicked 1 times\""),
        "the settle diff: {body}"
    );
    demo.ok(&format!("click {count}"));
    let s = demo.wait_for("Clicked 2 times", "the second click counts");
    assert!(
        line_of(&s, "button \"Count\"")
            .trim_start()
            .starts_with(&count)
    );

    // Typing drives egui's TextEdit: click it, type; fill replaces through ctrl+a.
    demo.ok("click role=textbox");
    demo.ok("type Ada");
    demo.wait_for("value=\"Hello, Ada\"", "typed text reaches the TextEdit");
    demo.ok("fill role=textbox Grace --settle");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "textbox \"Name\"").contains("value=\"Grace\""),
        "{s}"
    );
    assert!(s.contains("value=\"Hello, Grace\""), "{s}");

    // The checkbox toggles; an AccessKit action reaches egui too.
    demo.ok("click role=checkbox --settle");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "checkbox \"Enabled\"").contains("unchecked"),
        "{s}"
    );
    demo.ok("action role=checkbox click --settle");
    let s = demo.snapshot();
    assert!(
        line_of(&s, "checkbox \"Enabled\"").contains(" checked"),
        "{s}"
    );

    demo.quit();
}

/// The demo's colours (examples/demo.rs): the checkbox box is white unchecked, blue checked.
const PANEL: [u8; 3] = [255, 255, 255];
const ACCENT: [u8; 3] = [37, 99, 235];
const BACKGROUND: [u8; 3] = [245, 246, 248];

/// A point inside the checkbox's box, off the check mark: the node spans 24,112,160x24, the box
/// is its first 20x20 px (from y 114), and the checked mark is a white square in the box's middle.
fn checkbox_box(s: &str) -> (u32, u32) {
    let line = line_of(s, "checkbox \"Subscribe\"");
    assert!(
        line.contains("bounds=24,112,160x24"),
        "the demo's layout moved: {line}"
    );
    (27, 124)
}

#[test]
fn headless_screenshots_with_no_display_show_the_frame_the_tree_describes() {
    let demo = Demo::start_in("demo", Mode::Headless(800, 600));
    let s = demo.wait_for(
        "checkbox \"Subscribe\"",
        "the headless demo publishes its tree",
    );
    let (x, y) = checkbox_box(&s);
    let (body, before) = demo.screenshot("before");
    assert_eq!((before.width, before.height), (800, 600));
    assert!(before.rgba.len() == 800 * 600 * 4);
    let png_bytes = std::fs::metadata(demo.dir.join("screenshot-before.png"))
        .unwrap()
        .len();
    assert!(
        png_bytes * 4 <= 800 * 600 * 4,
        "the PNG is {png_bytes} bytes: {body}"
    );
    assert!(close(before.at(x, y), PANEL), "{:?}", before.at(x, y));
    assert!(
        close(before.at(5, 590), BACKGROUND),
        "{:?}",
        before.at(5, 590)
    );

    demo.ok("click role=checkbox --settle");
    let (_, after) = demo.screenshot("after");
    assert!(
        close(after.at(x, y), ACCENT),
        "checked: {:?}",
        after.at(x, y)
    );

    // Cropped to a node's bounds.
    let (_, crop) = demo.screenshot("box --ref role=checkbox");
    assert_eq!((crop.width, crop.height), (160, 24));
    assert!(
        close(crop.at(x - 24, y - 112), ACCENT),
        "{:?}",
        crop.at(x - 24, y - 112)
    );

    // A hostile label never reaches the app, and names no file outside the directory.
    let response = demo.send("screenshot ../escape");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::BadArgument),
        "{response:?}"
    );
    assert!(!demo.dir.parent().unwrap().join("escape").exists());

    // A resize and a screenshot sent together: the screenshot is of the resized frame.
    let resize = demo.client.enqueue_line("resize 640 480").unwrap();
    let shot = demo.client.enqueue_line("screenshot resized").unwrap();
    assert!(demo.client.wait(resize).unwrap().is_ok());
    let answer = demo.client.wait(shot).unwrap();
    assert!(answer.body().contains("size 640x480\n"), "{answer:?}");
    let resized = Png::read(&demo.dir.join("screenshot-resized.png"));
    assert_eq!((resized.width, resized.height), (640, 480));
    demo.quit();
}

#[test]
fn a_1920x1080_headless_screenshot_decodes_to_its_stated_size() {
    let demo = Demo::start_in("demo", Mode::Headless(1920, 1080));
    demo.wait_for("button \"Submit\"", "the headless demo publishes its tree");
    let (body, png) = demo.screenshot("full");
    assert_eq!((png.width, png.height), (1920, 1080), "{body}");
    let bytes = std::fs::metadata(demo.dir.join("screenshot-full.png"))
        .unwrap()
        .len();
    assert!(
        bytes * 4 <= 1920 * 1080 * 4,
        "the PNG of the UI is {bytes} bytes"
    );
    demo.quit();
}

#[test]
fn the_gl_blit_path_gives_the_same_pixels_as_the_vulkan_copy_path() {
    let take = |backend: &'static str| {
        let demo = Demo::start_in("demo", Mode::Window(backend));
        let s = demo.wait_for("checkbox \"Subscribe\"", "the demo publishes its tree");
        demo.ok("click role=checkbox --settle");
        let (_, png) = demo.screenshot("path");
        let path = demo.output();
        assert!(
            path.contains(&format!(
                "capture path {}",
                if backend == "gl" { "blit" } else { "copy" }
            )),
            "{path}"
        );
        demo.quit();
        (checkbox_box(&s), png)
    };
    let ((x, y), vulkan) = take("vulkan");
    let (_, gl) = take("gl");
    assert_eq!((vulkan.width, vulkan.height), (gl.width, gl.height));
    assert!(close(vulkan.at(x, y), ACCENT) && close(gl.at(x, y), ACCENT));
    // Flat areas match exactly; anti-aliased edges of text may differ by a little.
    for (px, py) in [(5, 5), (84, 210), (600, 76), (790, 590)] {
        assert!(
            close(vulkan.at(px, py), gl.at(px, py)),
            "at {px},{py}: vulkan {:?}, gl {:?}",
            vulkan.at(px, py),
            gl.at(px, py)
        );
    }
    let differing = vulkan
        .rgba
        .chunks(4)
        .zip(gl.rgba.chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    println!("pixels differing by more than 8 between the paths: {differing}");
    assert!(
        differing * 100 < (vulkan.width * vulkan.height) as usize,
        "{differing} pixels differ"
    );
}

#[test]
fn the_egui_demo_runs_headless_and_its_screenshot_decodes() {
    let demo = Demo::start_in("egui_demo", Mode::Headless(640, 400));
    let s = demo.wait_for("button \"Count\"", "egui publishes its tree headless");
    let count = ref_of(&s, "button \"Count\"");
    let body = demo.ok(&format!("click {count} --settle"));
    assert!(body.contains("value=\"Clicked 1 times\""), "{body}");
    let (_, png) = demo.screenshot("egui");
    assert_eq!((png.width, png.height), (640, 400));
    demo.quit();
}
