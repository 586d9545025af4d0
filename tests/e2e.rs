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
    _tmp: tempfile::TempDir,
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

impl Demo {
    fn start(name: &str) -> Demo {
        assert!(
            have("xvfb-run") && have("Xvfb"),
            "xvfb-run is not installed: `apt-get install xvfb` (the end-to-end tests need a virtual X server)"
        );
        let (tmp, dir) = fresh_dir();
        let log = tmp.path().join("app.log");
        let child = Process::new("xvfb-run")
            .args(["-a", "-s", "-screen 0 1280x800x24"])
            .arg(example(name))
            .arg("--dir")
            .arg(&dir)
            .env_remove("WINIT_AUTOMATION_DIR")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .process_group(0)
            .spawn()
            .expect("start xvfb-run");
        let mut demo = Demo {
            client: Demo::connect(&dir, &log),
            child,
            log,
            _tmp: tmp,
        };
        demo.check_adapter();
        demo
    }

    fn connect(dir: &Path, log: &Path) -> Client {
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            if let Ok(client) = Client::connect(Some(dir)) {
                return client.with_timeout(Duration::from_secs(30));
            }
            assert!(
                Instant::now() < deadline,
                "the demo never published ready.txt; its output:\n{}",
                std::fs::read_to_string(log).unwrap_or_default()
            );
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

    /// The demo draws on Vulkan lavapipe, not the GL fallback (which renders differently).
    fn check_adapter(&mut self) {
        let snapshot = self.wait_for(" backend=", "the app names its adapter");
        let metrics = snapshot
            .lines()
            .find(|l| l.starts_with("metrics "))
            .unwrap()
            .to_owned();
        println!("adapter: {metrics}");
        assert!(
            metrics.contains("backend=vulkan"),
            "the demo is not on Vulkan (install mesa-vulkan-drivers for lavapipe): {metrics}\n{}",
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

impl Drop for Demo {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            // The whole group: xvfb-run, Xvfb and the demo.
            let pgid = rustix::process::Pid::from_raw(self.child.id() as i32).unwrap();
            let _ = rustix::process::kill_process_group(pgid, rustix::process::Signal::KILL);
            let _ = self.child.wait();
        }
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
