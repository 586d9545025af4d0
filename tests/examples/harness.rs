//! The test harness (`winit_automation_testing`) on the custom demo, headless: the README's
//! example, what a failing screenshot leaves behind, failures that print the snapshot, and eight
//! apps at once with no cross-talk.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe); the demo binary is the one
//! `cargo test --all-features` builds next to this test.
use crate::common::trace_data;

use std::panic::{AssertUnwindSafe, catch_unwind};

use winit_automation_testing::compare::{Rgba, Tolerance, check_reference_with};
use winit_automation_testing::{App, By, Spawn};

// The README's example, verbatim between the markers (tests/repo/docs.rs keeps them equal).
// As written there, not as rustfmt would lay it out (which takes more than 20 lines).
#[rustfmt::skip]
// README example start
#[test]
fn the_form_is_filled_and_submitted() {
    let app = Spawn::example("demo").headless(800, 600).start();
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    app.get_by_role_and_name("button", "Submit").click();

    let status = app.get(&By::text_contains("Submitted: Ada"));
    assert_eq!(status.value(), Some("Submitted: Ada (subscribe yes, volume 50)"));
    assert!(app.get_by_role_and_name("checkbox", "Subscribe").is_checked());
    insta::assert_snapshot!(app.tree());
    app.screenshot()
        .assert_matches("tests/examples/snapshots/harness_form.png");
}
// README example end

fn demo() -> App {
    Spawn::example("demo").headless(800, 600).start()
}

/// The message of a test failure the closure causes.
fn failure(f: impl FnOnce()) -> String {
    let panic = catch_unwind(AssertUnwindSafe(f)).expect_err("it should fail");
    panic
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn a_changed_pixel_fails_the_screenshot_with_a_diff_image() {
    let app = demo();
    let shot = app.get_by_role_and_name("button", "Submit").screenshot();
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("submit.png");
    // The reference is this very frame but for one pixel of the button's flat fill, whose colour
    // is changed (a pixel on a glyph's edge could pass as anti-aliasing, as in egui_kittest).
    let mut changed = shot.image.clone();
    let (x, y) = (4, changed.height / 2);
    assert_eq!(changed.pixel(x - 1, y), changed.pixel(x, y), "a flat fill");
    let [r, g, b, a] = changed.pixel(x, y).unwrap();
    changed.set_pixel(x, y, [255 - r, 255 - g, 255 - b, a]);
    changed.write(&reference).unwrap();

    // `check_reference_with(.., false)` is what `assert_matches` runs without UPDATE_SNAPSHOTS,
    // which a developer may have set for this run.
    let message = check_reference_with(&shot.image, &reference, Tolerance::default(), false)
        .expect_err("one changed pixel fails");
    assert!(message.contains("1 of"), "{message}");
    let diff = Rgba::read(tmp.path().join("submit.diff.png")).unwrap();
    assert_eq!(
        diff.pixel(x, y),
        Some([255, 0, 0, 255]),
        "the changed pixel is red"
    );
    let new = Rgba::read(tmp.path().join("submit.new.png")).unwrap();
    assert_eq!(new, shot.image, "the .new.png is what the app drew");
    // The unchanged reference passes, and the leftovers of the failure go.
    shot.image.write(&reference).unwrap();
    shot.assert_matches(&reference);
    assert!(!tmp.path().join("submit.diff.png").exists());
    assert!(!tmp.path().join("submit.new.png").exists());
}

#[test]
fn failures_name_the_selector_and_print_the_interactive_snapshot() {
    let app = demo();
    let message = failure(|| {
        app.get_by_role_and_name("button", "Cancel");
    });
    assert!(
        message.contains(r#"no node matches role=button name="Cancel""#),
        "{message}"
    );
    assert!(
        message.contains(r#"button "Submit""#),
        "the snapshot: {message}"
    );

    // A role no snapshot prints: the same code, message and hint as in every other front end.
    let message = failure(|| {
        app.get_by_role("buton");
    });
    assert!(
        message.contains("error bad_argument: unknown role \"buton\""),
        "{message}"
    );
    assert!(
        message.contains("hint: did you mean role=button"),
        "{message}"
    );

    let message = failure(|| {
        app.get_by_role("button");
    });
    assert!(message.contains("2 nodes match role=button"), "{message}");
    assert!(message.contains(r#"button "Open dialog""#), "{message}");

    // A refused action says why, with the app's code.
    app.get_by_role_and_name("button", "Open dialog").click();
    let message = failure(|| {
        app.get_by_role_and_name("button", "Submit").click();
    });
    assert!(message.contains("covered"), "{message}");
    assert!(message.contains("dialog"), "{message}");
    app.get_by_role_and_name("button", "Cancel").click();
    assert!(app.query_by_role_and_name("button", "Cancel").is_none());
    assert_eq!(app.get_by_text("Cancelled").name(), "Status");
}

/// Where the test failure the closure causes says it happened.
fn failure_location(f: impl FnOnce()) -> String {
    use std::sync::{Arc, Mutex};
    let at = Arc::new(Mutex::new(String::new()));
    let seen = at.clone();
    // Other tests' panics (in other threads) still reach the hook they would have reached.
    let previous = Arc::new(std::panic::take_hook());
    let others = previous.clone();
    let me = std::thread::current().id();
    std::panic::set_hook(Box::new(move |info| match info.location() {
        Some(l) if std::thread::current().id() == me => {
            *seen.lock().unwrap() = format!("{}:{}", l.file(), l.line());
        }
        _ => others(info),
    }));
    let outcome = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(Box::new(move |info| previous(info)));
    assert!(outcome.is_err(), "it should fail");
    at.lock().unwrap().clone()
}

#[test]
fn failures_point_at_the_test_line() {
    let app = demo();
    let tmp = tempfile::tempdir().unwrap();
    let script = tmp.path().join("bad.script");
    std::fs::write(&script, "clik role=button\n").unwrap();
    let line = line!() + 1;
    let at = failure_location(|| _ = app.run_script(&script));
    assert_eq!(
        at,
        format!("tests/examples/harness.rs:{line}"),
        "a script that does not parse"
    );
    let line = line!() + 1;
    let at = failure_location(|| _ = app.get_by_role_and_name("button", "Nope"));
    assert_eq!(at, format!("tests/examples/harness.rs:{line}"), "a query");
}

#[test]
fn queries_read_the_state_actions_change() {
    let app = demo();
    let volume = app.get_by_role_and_name("slider", "Volume");
    assert_eq!(volume.value(), Some("50"));
    volume.action("increment", None);
    assert_eq!(volume.refresh().value(), Some("55"), "the demo's step is 5");
    let items = app.get_all_by_role("listitem");
    assert!(items.len() >= 10, "{} items", items.len());
    assert_eq!(items[0].name(), "Item 01");
    assert!(
        !app.query_all(&By::role("listitem").and_name_contains("Item 4"))
            .is_empty()
    );
    let name = app.get_by_role_and_name("textbox", "Name");
    name.type_text("Grace");
    assert_eq!(name.refresh().value(), Some("Grace"));
    assert!(name.refresh().is_focused());
}

#[test]
fn a_node_is_dragged_to_a_point_as_well_as_to_a_node() {
    let app = demo();
    let volume = app.get_by_role_and_name("slider", "Volume");
    assert_eq!(volume.value(), Some("50"));
    let [x, y, w, h] = volume.line().bounds.expect("find prints bounds");
    // To a point near the right end of the track: the thumb follows the pointer.
    volume.drag_to((x + w * 0.9, y + h / 2.0));
    let dragged: f64 = volume
        .refresh()
        .value()
        .and_then(|v| v.parse().ok())
        .expect("a number");
    assert!(dragged >= 80.0, "the volume is {dragged} after the drag");
    // And to a node: the Name field is centred over the track, so the volume goes back to the
    // middle.
    let name = app.get_by_role_and_name("textbox", "Name");
    volume.drag_to(&name);
    let back: f64 = volume
        .refresh()
        .value()
        .and_then(|v| v.parse().ok())
        .expect("a number");
    assert!(
        back < dragged && (back - 50.0).abs() <= 5.0,
        "the volume is {back} after dragging to the Name field"
    );
}

#[test]
fn the_mouse_keeps_the_button_down_between_commands() {
    let app = demo();
    let volume = app.get_by_role_and_name("slider", "Volume");
    let [x, y, w, h] = volume.line().bounds.expect("find prints bounds");
    let value = |node: &winit_automation_testing::Node<'_>| -> f64 {
        node.refresh()
            .value()
            .and_then(|v| v.parse().ok())
            .expect("a number")
    };
    let mouse = app.mouse();
    let pressed = mouse.down(&volume);
    assert!(pressed.contains("button left down\n"), "{pressed}");
    // While the button is down the thumb follows the pointer, and the test can look.
    mouse.move_to((x + w * 0.1, y + h / 2.0));
    let held = value(&volume);
    assert!(held <= 20.0, "the volume is {held} with the button down");
    let released = mouse.up();
    assert!(released.contains("button left\n"), "{released}");
    assert_eq!(value(&volume), held, "letting go keeps the value");
    // Nothing is down now: another `up` is refused, and fails the test.
    let why = failure(|| {
        mouse.up();
    });
    assert!(why.contains("pointer_state"), "{why}");
}

#[test]
fn eight_headless_apps_at_once_do_not_hear_each_other() {
    let threads: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let app = demo();
                let who = format!("User {i}");
                app.get_by_role_and_name("textbox", "Name").fill(&who);
                app.get_by_role_and_name("button", "Submit").click();
                let status = app.get(&By::text_contains("Submitted:"));
                let said = status.value().unwrap_or_default().to_owned();
                (app.dir().to_owned(), app.pid(), who, said)
            })
        })
        .collect();
    let results: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    for (dir, pid, who, status) in &results {
        assert!(
            status.starts_with(&format!("Submitted: {who} ")),
            "{pid} in {} says {status:?}",
            dir.display()
        );
    }
    let dirs: std::collections::BTreeSet<_> = results.iter().map(|r| &r.0).collect();
    assert_eq!(dirs.len(), 8, "each app has its own directory");
    // Dropped: every app is gone, and its directory with it.
    for (dir, ..) in &results {
        assert!(!dir.exists(), "{} is left behind", dir.display());
    }
}

/// egui's own demo windows (egui_demo_lib), which egui shows from its second frame: `start`
/// hands the app out once its tree has settled, and `tree()` holds no refs, not even in the hints
/// that name a covering window.
#[test]
fn the_gallery_is_ready_when_start_returns_and_its_tree_has_no_refs() {
    let app = Spawn::example("egui_gallery").headless(1280, 800).start();
    // In the "Code Example" window, which the first frame does not show.
    app.get(&By::role("textbox").and_text("Arthur")).fill("Ada");
    assert!(
        app.query_by_text("Ada is 42").is_some(),
        "{}",
        app.snapshot()
    );
    let tree = app.tree();
    assert!(tree.contains(" under window "), "{tree}");
    let refs = tree
        .match_indices("@e")
        .filter(|(i, _)| tree[i + 2..].starts_with(|c: char| c.is_ascii_digit()))
        .count();
    assert_eq!(refs, 0, "{tree}");
}

#[test]
fn an_app_goes_when_the_test_process_is_killed() {
    if std::env::var_os("HARNESS_KILLED_PARENT").is_some() {
        // The test process that gets killed: it starts a demo, says its pid, and waits.
        let app = demo();
        println!("app pid {}", app.pid());
        std::thread::sleep(std::time::Duration::from_secs(60));
        return;
    }
    use std::io::BufRead;
    let mut parent = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "harness::an_app_goes_when_the_test_process_is_killed",
            "--nocapture",
        ])
        .env("HARNESS_KILLED_PARENT", "1")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let out = std::io::BufReader::new(parent.stdout.take().unwrap());
    let pid: u32 = out
        .lines()
        .map_while(Result::ok)
        .find_map(|l| l.strip_prefix("app pid ").map(|p| p.parse().unwrap()))
        .expect("the killed process started its app");
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    assert!(alive(pid));
    // SIGKILL: no destructor runs in the test process.
    parent.kill().unwrap();
    parent.wait().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while alive(pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "the app {pid} outlived its test process"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A failing test leaves what a person needs to see why in `target/winit-automation/<test>/`,
/// named in the failure message: the tree as snapshots show it, the commands the app answered
/// so far (the journal, and the trace to open in a browser), and a screenshot with the refs drawn
/// on it. A test that starts an app again (as a
/// passing run does) leaves none.
#[test]
fn a_failure_leaves_the_tree_the_journal_and_a_screenshot_in_a_named_folder() {
    let app = demo();
    app.get_by_role_and_name("checkbox", "Subscribe").click();
    let message = failure(|| {
        app.get_by_role_and_name("button", "Cancel");
    });
    let folder = message
        .lines()
        .find_map(|l| l.strip_prefix("artifacts (tree, journal, trace, screenshot): "))
        .unwrap_or_else(|| panic!("no artifacts named in:\n{message}"));
    let folder = std::path::PathBuf::from(folder);
    assert!(
        folder.ends_with(
            "winit-automation/harness-a_failure_leaves_the_tree_the_journal_and_a_screenshot_in_a_named_folder"
        ),
        "{}",
        folder.display()
    );
    let read = |name: &str| std::fs::read_to_string(folder.join(name)).unwrap();
    let snapshot = read("snapshot.txt");
    let subscribe = snapshot
        .lines()
        .find(|l| l.contains("checkbox \"Subscribe\""))
        .unwrap_or_else(|| panic!("{snapshot}"));
    assert!(subscribe.contains(" checked"), "{snapshot}");
    assert!(read("snapshot-i.txt").contains("button \"Submit\""));
    // The click the test made, as the app journaled it.
    let journal = read("journal.txt");
    assert!(
        journal.contains("\"click @e")
            && journal.contains("target role=checkbox name=\"Subscribe\""),
        "{journal}"
    );
    // The trace of the test so far, to open in a browser (tests/examples/trace_viewer.rs opens some):
    // the click is a step, with the checkbox it checked in its diff.
    let data = trace_data::trace_data(&read("trace.html"));
    let click = trace_data::first_step(&data, "click");
    assert_eq!(
        click["targets"][0]["selector"],
        "role=checkbox name=\"Subscribe\""
    );
    assert!(
        click["diff"].as_array().unwrap().iter().any(|d| d[0] == "~"
            && d[1]
                .as_str()
                .unwrap()
                .contains("checkbox \"Subscribe\" focused checked")),
        "{click:#}"
    );
    // The screenshot is the window's, with the refs' magenta marks on it.
    let shot = Rgba::read(folder.join("screenshot.png")).unwrap();
    assert_eq!((shot.width, shot.height), (800, 600));
    let marked = shot
        .pixels
        .chunks_exact(4)
        .filter(|p| p[..3] == [255, 0, 255])
        .count();
    assert!(marked > 100, "{marked} marked pixels");
    drop(app);
    // The next start of this test's app clears the folder.
    let _again = demo();
    assert!(!folder.exists(), "{}", folder.display());
}

/// A screenshot that does not match its reference fails with the artifacts of any failure, and
/// the mismatch's own images beside them, taken while the app still runs.
#[test]
fn a_screenshot_mismatch_leaves_the_artifacts_and_its_new_and_diff_images() {
    let app = demo();
    let tmp = tempfile::tempdir().unwrap();
    let reference = tmp.path().join("form.png");
    let shot = app.screenshot();
    // A black reference of the same size: every pixel fails.
    Rgba::filled(shot.image.width, shot.image.height, [0, 0, 0, 255])
        .write(&reference)
        .unwrap();
    if winit_automation_testing::compare::update_requested() {
        // UPDATE_SNAPSHOTS in this run: the reference is written instead, and there is no failure.
        shot.assert_matches(&reference);
        assert_eq!(Rgba::read(&reference).unwrap(), shot.image);
        return;
    }
    let message = failure(|| shot.assert_matches(&reference));
    assert!(message.contains("pixels"), "{message}");
    let folder = message
        .lines()
        .find_map(|l| l.strip_prefix("artifacts (tree, journal, trace, screenshot): "))
        .unwrap_or_else(|| panic!("no artifacts named in:\n{message}"));
    let folder = std::path::Path::new(folder);
    assert_eq!(
        Rgba::read(folder.join("form.new.png")).unwrap(),
        shot.image,
        "the image that failed"
    );
    assert!(folder.join("form.diff.png").exists());
    assert!(
        std::fs::read_to_string(folder.join("snapshot-i.txt"))
            .unwrap()
            .contains("button \"Submit\"")
    );
    let steps =
        trace_data::trace_data(&std::fs::read_to_string(folder.join("trace.html")).unwrap());
    assert!(
        steps["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["verb"] == "screenshot"),
        "the screenshot is a step: {steps:#}"
    );
}
