//! `examples/minimal.rs` driven end to end, the way a newcomer's copy of it would be: started as a
//! subprocess (headless with `DISPLAY` unset, and in a window under Xvfb on Vulkan and on GL),
//! snapshotted through the client library, its button clicked, and the tree and the screenshot's
//! pixels checked for the new clear colour.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`) and, for the windowed runs, `xvfb-run` (`xvfb`);
//! `scripts/setup-system.sh` installs both. Without them these tests fail and say so. The example
//! binary is the one `cargo test --all-features` builds next to this test.
#![cfg(all(feature = "automation", feature = "client"))]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command as Process, Stdio};
use std::time::{Duration, Instant};

use winit_automation::client::Client;

/// The clear colours the example switches between, as the sRGB bytes a screenshot holds.
const BLUE: [u8; 3] = [0, 0, 255];
const YELLOW: [u8; 3] = [255, 255, 0];

/// The example running in its own process group (so xvfb-run, Xvfb and the app die together).
struct Minimal {
    child: Child,
    client: Client,
    dir: PathBuf,
    log: PathBuf,
    _tmp: tempfile::TempDir,
}

/// How the example runs.
enum Mode {
    /// `--headless` with `DISPLAY` unset.
    Headless,
    /// In a window under `xvfb-run`, on this wgpu backend (`WGPU_BACKEND`): `vulkan` takes
    /// `FrameTarget`'s copy path, `gl` its blit path.
    Window(&'static str),
}

impl Minimal {
    fn start(mode: Mode) -> Minimal {
        let tmp = tempfile::tempdir().unwrap();
        let (dir, log) = (tmp.path().join("box"), tmp.path().join("app.log"));
        let (mut command, backend) = match mode {
            Mode::Headless => {
                let mut c = Process::new(example());
                c.arg("--headless")
                    .env_remove("DISPLAY")
                    .env_remove("WAYLAND_DISPLAY");
                (c, "vulkan")
            }
            Mode::Window(backend) => {
                assert!(
                    have("xvfb-run") && have("Xvfb"),
                    "xvfb-run is not installed: run `bash scripts/setup-system.sh` (or `apt-get install xvfb xauth`)"
                );
                let mut c = Process::new("xvfb-run");
                c.args(["-a", "-s", "-screen 0 1280x800x24"]).arg(example());
                (c, backend)
            }
        };
        let mut child = command
            .arg("--dir")
            .arg(&dir)
            .env("WGPU_BACKEND", backend)
            .env_remove("WINIT_AUTOMATION_DIR")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .process_group(0)
            .spawn()
            .expect("start examples/minimal");
        // Polls for the handshake (ready.txt); an app that exits or never gets there is killed.
        let deadline = Instant::now() + Duration::from_secs(120);
        let client = loop {
            let error = match Client::connect(Some(&dir)) {
                Ok(client) => break client.with_timeout(Duration::from_secs(30)),
                Err(e) => e,
            };
            if matches!(child.try_wait(), Ok(Some(_))) || Instant::now() >= deadline {
                kill_group(&mut child);
                panic!(
                    "the example never published ready.txt ({error}); its output:\n{}\n(a binary from a \
                     feature-off build says so above: `cargo test --all-features`, with no target \
                     filter, rebuilds the examples, or `cargo build --all-features --example minimal`)",
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let app = Minimal {
            child,
            client,
            dir,
            log,
            _tmp: tmp,
        };
        // The adapter in use, so a silent fall-back (wgpu takes GL when no Vulkan driver is
        // installed) is visible in the test output and fails here.
        let snapshot = app.wait_for("button \"Switch\"");
        let metrics = snapshot
            .lines()
            .find(|l| l.starts_with("metrics "))
            .unwrap();
        println!("adapter: {metrics}");
        assert!(
            metrics.contains(&format!("backend={backend}")),
            "the example is not on {backend} (install mesa-vulkan-drivers for lavapipe): {metrics}\n{}",
            app.output()
        );
        app
    }

    fn output(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends `line` and returns the body of its `ok` answer.
    fn ok(&self, line: &str) -> String {
        let response = match self.client.send_line(line) {
            Ok(r) => r,
            Err(e) => panic!("{line}: {e}\napp output:\n{}", self.output()),
        };
        assert!(response.is_ok(), "{line}: {response:?}");
        response.body().to_owned()
    }

    /// Snapshots until one contains `what` (the first frames may not have run yet).
    fn wait_for(&self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let snapshot = self.ok("snapshot --force");
            if snapshot.contains(what) {
                return snapshot;
            }
            assert!(
                Instant::now() < deadline,
                "no {what:?} in\n{snapshot}\napp output:\n{}",
                self.output()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A screenshot's pixel at the centre of the frame, as sRGB bytes.
    fn centre_pixel(&self, label: &str) -> [u8; 3] {
        let body = self.ok(&format!("screenshot {label}"));
        let file = body
            .lines()
            .find_map(|l| l.strip_prefix("file "))
            .unwrap_or_else(|| panic!("no file line: {body}"));
        let file = std::fs::File::open(self.dir.join(file)).unwrap();
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info().expect("a PNG the png crate decodes");
        let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgba).unwrap();
        assert_eq!(
            (info.color_type, info.bit_depth),
            (png::ColorType::Rgba, png::BitDepth::Eight)
        );
        let i = ((info.height / 2 * info.width + info.width / 2) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    }

    fn quit(mut self) {
        self.ok("quit");
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the example did not exit after quit:\n{}", self.output());
    }
}

impl Drop for Minimal {
    fn drop(&mut self) {
        kill_group(&mut self.child);
    }
}

fn kill_group(child: &mut Child) {
    if let Ok(None) = child.try_wait() {
        let pgid = rustix::process::Pid::from_raw(child.id() as i32).unwrap();
        let _ = rustix::process::kill_process_group(pgid, rustix::process::Signal::KILL);
        let _ = child.wait();
    }
}

/// target/debug/deps/minimal-HASH -> target/debug/examples/minimal
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(Path::parent).unwrap();
    let path = path.join("examples").join("minimal");
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

/// Within 2 of each other per channel: 0 and 255 are exact on lavapipe and llvmpipe (Mesa 22.3),
/// the margin is for a driver that dithers.
fn close(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 2)
}

/// Snapshot, click the button by its ref, and see the label and the cleared pixels change.
fn switches_its_colour(app: Minimal) {
    let before = app.wait_for("text \"Colour: blue\"");
    let pixel = app.centre_pixel("blue");
    assert!(close(pixel, BLUE), "before the click: {pixel:?}");
    let switch = before
        .lines()
        .find(|l| l.contains("button \"Switch\""))
        .and_then(|l| l.split_whitespace().next())
        .filter(|r| r.starts_with("@e"))
        .unwrap_or_else(|| panic!("no ref on the button in\n{before}"))
        .to_owned();
    let body = app.ok(&format!("click {switch}"));
    assert!(body.contains("path pointer\n"), "{body}");
    // The click is answered after the frame that applied it published its records.
    let after = app.ok("snapshot --force");
    assert!(after.contains("text \"Colour: yellow\""), "{after}");
    assert!(!after.contains("Colour: blue"), "{after}");
    let pixel = app.centre_pixel("yellow");
    assert!(close(pixel, YELLOW), "after the click: {pixel:?}");
    app.quit();
}

#[test]
fn the_minimal_example_switches_its_colour_headless() {
    switches_its_colour(Minimal::start(Mode::Headless));
}

#[test]
fn the_minimal_example_switches_its_colour_in_a_window_on_vulkan() {
    switches_its_colour(Minimal::start(Mode::Window("vulkan")));
}

#[test]
fn the_minimal_example_switches_its_colour_in_a_window_on_gl_through_the_blit() {
    switches_its_colour(Minimal::start(Mode::Window("gl")));
}
