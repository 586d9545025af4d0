//! Traces of real sessions (the custom demo and egui's demo gallery, headless, through the
//! harness's `Spawn::trace`), opened in headless Chromium the way a person opens them: the page
//! lists every step, a step's frame loads, and clicking a step shows the tree diff it caused; an
//! audit's step lists its findings and draws their boxes on its frame.
//!
//! Needs a Vulkan driver (lavapipe) and Chromium (Debian's `chromium`): scripts/setup-system.sh
//! installs both. No skip: a machine without Chromium fails here with the command to run.
use std::path::{Path, PathBuf};

use crate::common::trace_data;

use headless_chrome::protocol::cdp::Page::CaptureScreenshotFormatOption;
use headless_chrome::{Browser, LaunchOptions, Tab};
use serde_json::Value;
use winit_automation_testing::{By, Spawn};

/// A trace may be this large for a session of 20 steps with frames (issue 25).
const MAX_TRACE_BYTES: u64 = 5 << 20;

/// `target/winit-automation/trace-viewer/<name>`, made fresh.
fn out(name: &str) -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("winit-automation").join("trace-viewer");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    let _ = std::fs::remove_file(&file);
    file
}

fn chromium() -> PathBuf {
    let names = ["chromium", "chromium-browser", "google-chrome"];
    std::env::var_os("PATH")
        .and_then(|dirs| {
            std::env::split_paths(&dirs)
                .flat_map(|d| names.map(|n| d.join(n)))
                .find(|p| p.is_file())
        })
        .expect("no Chromium in PATH: run `bash scripts/setup-system.sh` (it installs Debian's chromium)")
}

/// The page, open in a headless Chromium of 1280x800.
fn open(file: &Path) -> (Browser, std::sync::Arc<Tab>) {
    let options = LaunchOptions::default_builder()
        .path(Some(chromium()))
        // Root in a container has no user namespaces for the sandbox.
        .sandbox(false)
        .window_size(Some((1280, 800)))
        .build()
        .expect("launch options");
    let browser = Browser::new(options).expect("Chromium starts");
    let tab = browser.new_tab().expect("a tab");
    tab.navigate_to(&format!("file://{}", file.display()))
        .expect("the trace opens");
    tab.wait_until_navigated().expect("loaded");
    tab.wait_for_element("body[data-ready='1']")
        .expect("the viewer renders");
    (browser, tab)
}

fn eval(tab: &Tab, js: &str) -> Value {
    tab.evaluate(js, false)
        .unwrap_or_else(|e| panic!("{js}: {e}"))
        .value
        .unwrap_or(Value::Null)
}

/// Clicks step `index` in the list, as a person would, and checks it is shown.
fn click_step(tab: &Tab, index: u64) {
    tab.find_element(&format!("#steps .step[data-index='{index}']"))
        .expect("the step's row")
        .click()
        .expect("clicked");
    let selected = eval(
        tab,
        "document.querySelector('#steps .step.selected').dataset.index",
    );
    assert_eq!(selected, Value::from(index.to_string()));
}

/// Waits until the shown step's frame has loaded; its natural width.
fn frame_width(tab: &Tab) -> u64 {
    tab.wait_for_element("img#shot")
        .expect("the step has a frame");
    let js = "new Promise(done => { const i = document.getElementById('shot'); \
              if (i.complete) done(i.naturalWidth); else i.onload = () => done(i.naturalWidth); })";
    let width = tab
        .evaluate(js, true)
        .expect("the frame loads")
        .value
        .unwrap_or(Value::Null);
    width.as_u64().expect("a width")
}

/// The first `click` step whose target's selector holds `target` and whose diff has a line `tag`
/// holding `text`.
fn step_with<'a>(data: &'a Value, target: &str, tag: &str, text: &str) -> &'a Value {
    data["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| {
            s["verb"] == "click"
                && s["targets"][0]["selector"]
                    .as_str()
                    .is_some_and(|t| t.contains(target))
                && s["diff"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|d| d[0] == tag && d[1].as_str().unwrap().contains(text))
        })
        .unwrap_or_else(|| panic!("no click on `{target}` changed `{text}`: {data:#}"))
}

/// What every trace must show in the browser: its steps, a step's frame, and the diff of the
/// click on `target` that changed `text` (a `tag` line) once that step is clicked. Returns the
/// open tab.
fn check_in_chromium(
    file: &Path,
    target: &str,
    tag: &str,
    text: &str,
) -> (Browser, std::sync::Arc<Tab>) {
    let bytes = std::fs::metadata(file)
        .expect("the trace was written")
        .len();
    assert!(
        bytes < MAX_TRACE_BYTES,
        "{} is {bytes} bytes",
        file.display()
    );
    let html = std::fs::read_to_string(file).unwrap();
    let data = trace_data::trace_data(&html);
    let steps = data["steps"].as_array().unwrap().len();
    assert!(steps >= 20, "a session of 20 steps at least: {steps}");
    let step = step_with(&data, target, tag, text);
    let changed = step["index"].as_u64().unwrap();
    assert_ne!(changed, 1, "the step to click is not the one shown first");

    let (browser, tab) = open(file);
    println!(
        "trace {} ({bytes} bytes, {steps} steps) in {}",
        file.display(),
        chromium().display()
    );
    let rows = eval(&tab, "document.querySelectorAll('#steps .step').length");
    assert_eq!(rows, Value::from(steps), "one row per step");
    let marks = eval(&tab, "document.querySelectorAll('#timeline .mark').length");
    assert_eq!(marks, Value::from(steps), "one timeline mark per step");

    click_step(&tab, changed);
    assert!(frame_width(&tab) > 0, "the step's frame loaded");
    let class = match tag {
        "+" => "add",
        "-" => "del",
        _ => "chg",
    };
    let shown = eval(
        &tab,
        &format!(
            "[...document.querySelectorAll('#diff .{class}')].map(e => e.textContent).join('\\n')"
        ),
    );
    let shown = shown.as_str().unwrap_or_default();
    assert!(
        shown.contains(text),
        "step {changed}'s diff shows `{text}`: {shown}"
    );
    let command = eval(&tab, "document.getElementById('command').textContent");
    assert_eq!(command, step["command"]);
    (browser, tab)
}

#[test]
fn a_trace_of_the_custom_demo_shows_its_steps_frames_and_diffs_in_chromium() {
    let file = out("demo.html");
    let app = Spawn::example("demo")
        .headless(800, 600)
        .trace(&file)
        .start();
    for name in ["Ada", "Grace", "Hedy", "Edsger"] {
        app.get_by_role_and_name("textbox", "Name").fill(name);
        app.get_by_role_and_name("checkbox", "Subscribe").click();
        app.get_by_role_and_name("button", "Submit").click();
        app.get(&By::text_contains(&format!("Submitted: {name}")));
    }
    // A drag: its way is drawn over its frame.
    let volume = app.get_by_role_and_name("slider", "Volume");
    let [x, y, w, h] = volume.line().bounds.expect("the slider's bounds");
    volume.drag_to((x + w - 2.0, y + h / 2.0));
    app.quit();
    let html = std::fs::read_to_string(&file).unwrap();
    let data = trace_data::trace_data(&html);
    let drag = trace_data::first_step(&data, "drag");
    // The pointer's way: the move to the start, then ten moves to the end.
    assert_eq!(drag["path"].as_array().map(Vec::len), Some(11), "{drag:#}");
    let drag = drag["index"].as_u64().unwrap();
    let (_browser, tab) = check_in_chromium(&file, "role=checkbox", "~", "checked");
    // The target's box and the pointer are drawn over a click's frame.
    let boxes = eval(
        &tab,
        "document.querySelectorAll('#overlay .target-box').length",
    );
    assert_eq!(boxes, Value::from(1));
    assert_eq!(
        eval(&tab, "!!document.getElementById('pointer')"),
        Value::Bool(true)
    );
    assert_eq!(
        eval(&tab, "document.querySelectorAll('#overlay #path').length"),
        Value::from(0),
        "a click has no way to draw"
    );
    click_step(&tab, drag);
    assert_eq!(
        eval(&tab, "document.querySelectorAll('#overlay #path').length"),
        Value::from(1),
        "the drag's way is drawn"
    );
}

#[test]
fn a_trace_of_the_egui_gallery_shows_its_steps_frames_and_diffs_in_chromium() {
    let file = out("gallery.html");
    let app = Spawn::example("egui_gallery")
        .headless(1280, 800)
        .trace(&file)
        .start();
    // Open and close demo windows from the side panel: each opening adds its window to the tree.
    for demo in [
        "💭 Modals",
        "😀 Completion",
        "🖊️ Painting",
        "🔤 Font Book",
        "✋ Drag and Drop",
    ] {
        let button = app.get_by_role_and_name("button", demo);
        button.click();
        app.get(&By::role("window").and_name(demo));
        button.click();
    }
    app.quit();
    let (_browser, tab) =
        check_in_chromium(&file, "😀 Completion", "+", "window \"😀 Completion\"");
    // The picture a person sees, for the README.
    let png = tab
        .capture_screenshot(CaptureScreenshotFormatOption::Png, None, None, true)
        .expect("a screenshot of the page");
    let shot = out("viewer.png");
    std::fs::write(&shot, png).unwrap();
    println!("the viewer: {}", shot.display());
}

#[test]
fn an_audit_step_shows_its_findings_over_its_frame_in_chromium() {
    let file = out("audit.html");
    let app = Spawn::example("egui_audit")
        .headless(640, 480)
        .trace(&file)
        .start();
    app.settle();
    let answer = app.audit().run();
    assert!(!answer.findings.is_empty(), "{answer}");
    app.quit();
    let data = trace_data::trace_data(&std::fs::read_to_string(&file).unwrap());
    let step = trace_data::first_step(&data, "audit");
    // The step holds each finding (its rule and node line) and the frame of the window audited.
    let held: Vec<(&str, &str)> = step["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["rule"].as_str().unwrap(), f["node"].as_str().unwrap()))
        .collect();
    let lines: Vec<String> = answer.findings.iter().map(|f| f.node.to_string()).collect();
    let wanted: Vec<(&str, &str)> = answer
        .findings
        .iter()
        .zip(&lines)
        .map(|(f, line)| (f.rule.as_str(), line.as_str()))
        .collect();
    assert_eq!(held, wanted, "{step:#}");
    assert!(
        step["image"].as_u64().is_some(),
        "the frame after it: {step:#}"
    );

    // In the browser: the findings listed, each box drawn over the frame with its criterion.
    let (_browser, tab) = open(&file);
    click_step(&tab, step["index"].as_u64().unwrap());
    assert!(frame_width(&tab) > 0, "the audit's frame loaded");
    let listed = eval(
        &tab,
        "[...document.querySelectorAll('.findings li')].map(e => e.textContent).join('\\n')",
    );
    let listed: Vec<&str> = listed.as_str().unwrap_or_default().lines().collect();
    assert_eq!(listed.len(), answer.findings.len(), "{listed:#?}");
    for (shown, finding) in listed.iter().zip(&answer.findings) {
        let (number, _) = finding.rule.criterion();
        assert!(
            shown.starts_with(&format!("{} {number} ", finding.rule))
                && shown.contains(&finding.evidence)
                && shown.ends_with(&finding.node.to_string()),
            "{shown}"
        );
    }
    let boxed = answer.findings.iter().filter(|f| f.node.bounds.is_some());
    assert_eq!(
        eval(
            &tab,
            "document.querySelectorAll('#overlay .finding-box').length"
        ),
        Value::from(boxed.count())
    );
    let labels = eval(
        &tab,
        "[...document.querySelectorAll('.finding-label')].map(e => e.textContent).join('\\n')",
    );
    assert!(
        labels
            .as_str()
            .unwrap_or_default()
            .lines()
            .any(|l| l == "4.1.2"),
        "{labels}"
    );
}
