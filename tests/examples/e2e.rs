//! End to end: each demo runs as a subprocess in a real window under Xvfb, rendering on Vulkan
//! lavapipe, and is driven through the client library the way a test script or an agent would.
//!
//! Needs `xvfb-run` (Debian package `xvfb`) and a Vulkan driver (`mesa-vulkan-drivers`); without
//! them these tests fail and say what to install: nothing here is skipped. The demo binaries are
//! the ones `cargo test --all-features` builds next to this test (the README's test command).
use crate::common::demo;
use crate::common::{
    assert_nodes, bounds, line_of, node_bytes, now, ref_of, refusal, window_lines,
};

use demo::*;
use winit_automation_protocol::ErrorCode;

#[test]
fn the_custom_demo_is_driven_through_the_client_in_a_real_window_under_xvfb() {
    let demo = start("demo", Mode::Window("vulkan"));
    let s = wait_for(&demo, "textbox \"Name\"", "the demo publishes its tree");
    // The window's number is the plugin's own, the same in every run (X11's window id is not).
    let windows = window_lines(&s);
    assert_eq!(windows.len(), 1, "{s}");
    assert!(
        windows[0].starts_with("window 1 \"winit-automation demo\" size=800x600 "),
        "{s}"
    );
    // The form, the list and their refs.
    assert_nodes(&s, &DEMO_FORM);
    assert_nodes(
        &s,
        &[
            "button \"Open dialog\"",
            "list \"Items\"",
            "listitem \"Item 01\"",
        ],
    );
    // The list's hidden rows: one hint, naming the list by a ref to scroll it with.
    let list = ref_of(&s, "list \"Items\"");
    assert!(
        s.contains(&format!("[37 items below in {list} list \"Items\"]")),
        "{s}"
    );
    assert!(
        !s.contains("Item 14"),
        "scrolled-out items are hints, not lines: {s}"
    );

    // Clicking the checkbox toggles it in the next snapshot.
    let checkbox = ref_of(&s, "checkbox \"Subscribe\"");
    let body = demo.ok(&format!("click {checkbox}"));
    assert!(body.contains("path pointer\n"), "{body}");
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "checkbox \"Subscribe\"").contains(" checked"),
        "{s}"
    );
    assert!(line_of(&s, "checkbox \"Subscribe\"").starts_with(&format!("    {checkbox} ")));

    // Typing fills the text field: focus it with a click, then type; fill replaces.
    demo.ok("click role=textbox");
    demo.ok("type \"Ada \\\"the\\\" Countess\"");
    let s = snapshot(&demo);
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
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "textbox \"Name\"").contains("value=\"Grace\""),
        "{s}"
    );

    // Slider through an AccessKit action; the button's effect shows in the status label.
    demo.ok("action name=Volume set_value 80");
    demo.ok("click name=Submit --settle");
    let s = snapshot(&demo);
    assert!(
        s.contains("value=\"Submitted: Grace (subscribe yes, volume 80)\""),
        "{s}"
    );

    // Scrolling the list changes the hidden hints.
    let body = demo.ok("scroll role=list 0 200 --settle");
    let in_list = format!("in {list} list \"Items\"]");
    assert!(
        body.contains(&format!("[6 items above {in_list}")),
        "{body}"
    );
    let s = snapshot(&demo);
    assert!(
        s.contains(&format!("[6 items above {in_list}"))
            && s.contains(&format!("[31 items below {in_list}")),
        "{s}"
    );
    assert!(s.contains("listitem \"Item 14\""), "{s}");
    // An item scrolled out is refused with --no-scroll, not clicked somewhere else.
    let response = demo.send("click name=\"Item 01\" --no-scroll");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Offscreen),
        "{response:?}"
    );
    // Without it, the item's own scroll_into_view action brings it in, and the click lands on it.
    let body = demo.ok("click name=\"Item 01\" --settle");
    assert!(
        body.contains("\npath pointer\nscrolled by its scroll_into_view action\n"),
        "{body}"
    );
    assert!(
        now(&body, "listitem \"Item 01\"").contains(" selected"),
        "{body}"
    );

    // The dialog opens (modal: what is behind it is covered) and closes; its refs go stale.
    demo.ok("click name=\"Open dialog\"");
    let s = wait_for(&demo, "dialog \"Confirm\"", "the dialog opens");
    let ok = ref_of(&s, "button \"OK\"");
    let response = demo.send("click name=Submit");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Covered),
        "{response:?}"
    );
    demo.ok(&format!("click {ok} --settle"));
    let s = snapshot(&demo);
    assert!(!s.contains("dialog \"Confirm\""), "{s}");
    assert!(s.contains("value=\"Confirmed\""), "{s}");
    let message = refusal(&demo.send(&format!("click {ok}")), ErrorCode::StaleRef).message;
    assert!(message.contains("removed"), "{message}");

    // Keys: Tab moves the focus.
    demo.ok("focus name=Subscribe");
    demo.ok("key Tab");
    let s = snapshot(&demo);
    assert!(line_of(&s, "slider \"Volume\"").contains(" focused"), "{s}");

    // A screenshot while the window is being resized: whichever frame it comes from, the PNG is
    // whole and has the size its answer states (demo::screenshot checks that).
    let resize = demo.client().enqueue_line("resize 900 650").unwrap();
    let (body, png) = screenshot(&demo, "resizing");
    assert!(demo.client().wait(resize).unwrap().is_ok());
    assert!(
        [(800, 600), (900, 650)].contains(&(png.width, png.height)),
        "{body}"
    );
    wait_for(&demo, "size=900x650", "the window takes the new size");
    let (_, png) = screenshot(&demo, "resized");
    assert_eq!((png.width, png.height), (900, 650));

    demo.quit();
}

#[test]
fn the_egui_demo_is_driven_through_the_client_with_egui_s_own_tree_under_xvfb() {
    let demo = start("egui_demo", Mode::Window("vulkan"));
    let s = wait_for(
        &demo,
        "button \"Count\"",
        "egui publishes its AccessKit tree",
    );
    assert!(s.contains("value=\"Clicked 0 times\""), "{s}");
    let count = ref_of(&s, "button \"Count\"");

    // A button click changes a label.
    let body = demo.ok(&format!("click {count} --settle"));
    assert!(
        body.contains("value=\"Clicked 1 times\""),
        "the settle diff: {body}"
    );
    demo.ok(&format!("click {count}"));
    let s = wait_for(&demo, "Clicked 2 times", "the second click counts");
    assert!(
        line_of(&s, "button \"Count\"")
            .trim_start()
            .starts_with(&count)
    );

    // A burst of clicks queued at once: frames the next click draws over are not drawn
    // (`Frame::superseded`), and egui still takes every click.
    let lines = vec![format!("click {count}"); 20];
    let batch = demo.client().enqueue_lines(&lines);
    assert!(batch.stopped.is_none(), "{:?}", batch.stopped);
    for seq in batch.seqs {
        let response = demo.client().wait(seq).unwrap();
        assert!(response.is_ok(), "{response:?}");
    }
    wait_for(&demo, "Clicked 22 times", "every click of the burst counts");
    // The last frame of the burst is drawn: a screenshot gets a frame.
    screenshot(&demo, "after-burst");

    // Typing drives egui's TextEdit: click it, type; fill replaces through ctrl+a.
    demo.ok("click role=textbox");
    demo.ok("type Ada");
    wait_for(
        &demo,
        "value=\"Hello, Ada\"",
        "typed text reaches the TextEdit",
    );
    demo.ok("fill role=textbox Grace --settle");
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "textbox \"Name\"").contains("value=\"Grace\""),
        "{s}"
    );
    assert!(s.contains("value=\"Hello, Grace\""), "{s}");

    // The checkbox toggles; an AccessKit action reaches egui too.
    demo.ok("click role=checkbox --settle");
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "checkbox \"Enabled\"").contains("unchecked"),
        "{s}"
    );
    demo.ok("action role=checkbox click --settle");
    let s = snapshot(&demo);
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
    let demo = start("demo", Mode::Headless(800, 600));
    let s = wait_for(
        &demo,
        "checkbox \"Subscribe\"",
        "the headless demo publishes its tree",
    );
    let windows = window_lines(&s);
    assert_eq!(windows.len(), 1, "{s}");
    assert!(
        windows[0].starts_with("window 1 \"winit-automation demo (headless)\" size=800x600 "),
        "{s}"
    );
    let (x, y) = checkbox_box(&s);
    // The interactive projection costs an agent under 40 bytes a node (it was ~100 with bounds
    // and actions on every line, which `--bounds --actions` still give).
    let (nodes, bytes) = node_bytes(&demo.ok("snapshot -i --force"));
    assert!(
        nodes >= 19 && bytes < 40 * nodes,
        "{bytes} bytes for {nodes} nodes"
    );
    let (_, full) = node_bytes(&demo.ok("snapshot -i --bounds --actions --force"));
    assert!(
        full > 2 * bytes,
        "{full} bytes with bounds and actions, {bytes} without"
    );
    let (body, before) = screenshot(&demo, "before");
    assert_eq!((before.width, before.height), (800, 600));
    assert!(before.rgba.len() == 800 * 600 * 4);
    let png_bytes = std::fs::metadata(demo.dir().join("screenshot-before.png"))
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
    let (_, after) = screenshot(&demo, "after");
    assert!(
        close(after.at(x, y), ACCENT),
        "checked: {:?}",
        after.at(x, y)
    );

    // Cropped to a node's bounds.
    let (_, crop) = screenshot(&demo, "box --ref role=checkbox");
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
    assert!(!demo.dir().parent().unwrap().join("escape").exists());

    // A resize and a screenshot sent together: the screenshot is of the resized frame.
    let resize = demo.client().enqueue_line("resize 640 480").unwrap();
    let shot = demo.client().enqueue_line("screenshot resized").unwrap();
    assert!(demo.client().wait(resize).unwrap().is_ok());
    let answer = demo.client().wait(shot).unwrap();
    assert!(answer.body().contains("size 640x480\n"), "{answer:?}");
    let resized = Png::read(&demo.dir().join("screenshot-resized.png"));
    assert_eq!((resized.width, resized.height), (640, 480));
    demo.quit();
}

#[test]
fn a_1920x1080_headless_screenshot_decodes_to_its_stated_size() {
    let demo = start("demo", Mode::Headless(1920, 1080));
    wait_for(
        &demo,
        "button \"Submit\"",
        "the headless demo publishes its tree",
    );
    let (body, png) = screenshot(&demo, "full");
    assert_eq!((png.width, png.height), (1920, 1080), "{body}");
    let bytes = std::fs::metadata(demo.dir().join("screenshot-full.png"))
        .unwrap()
        .len();
    assert!(
        bytes * 4 <= 1920 * 1080 * 4,
        "the PNG of the UI is {bytes} bytes"
    );
    demo.quit();
}

#[test]
fn the_gl_blit_path_gives_the_same_pixels_as_the_vulkan_copy_path_under_xvfb() {
    let take = |backend: &'static str| {
        let demo = start("demo", Mode::Window(backend));
        let s = wait_for(
            &demo,
            "checkbox \"Subscribe\"",
            "the demo publishes its tree",
        );
        demo.ok("click role=checkbox --settle");
        let (_, png) = screenshot(&demo, "path");
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

/// Headless, egui is given its screen in points: after ctrl+= (egui's zoom in) its widgets are
/// larger and its screen is still the frame's 640x400 pixels (given in pixels, egui laid out a
/// screen 10% larger and the UI was cut off). And egui's timers keep to the wall clock while the
/// app idles: the demo's 2-second "Rest" ends while nothing else draws a frame (on a frame
/// clock it lasted as many idle wake-ups as it had frames).
#[test]
fn the_egui_demo_headless_zooms_within_its_frame_and_keeps_egui_s_timers() {
    let demo = start("egui_demo", Mode::Headless(640, 400));
    let s = wait_for(
        &demo,
        "button \"Count\"",
        "egui publishes its tree headless",
    );
    let (_, _, w, _) = bounds(line_of(&s, "button \"Count\""));
    let body = demo.ok("key ctrl+= --settle");
    let (_, _, zoomed, _) = bounds(now(&body, "button \"Count\""));
    assert!((zoomed / w - 1.1).abs() < 0.02, "{w} -> {zoomed}: {body}");
    let s = snapshot(&demo);
    assert!(line_of(&s, "window 1 ").contains(" size=640x400 "), "{s}");
    let (_, png) = screenshot(&demo, "zoomed");
    assert_eq!((png.width, png.height), (640, 400));

    let body = demo.ok("click role=button name=Rest --settle");
    assert!(body.contains("text value=\"Resting\""), "{body}");
    assert!(
        now(&body, "button \"Rest\"").contains(" disabled "),
        "{body}"
    );
    // No command draws a frame meanwhile: the app wakes for egui's own timer.
    demo.ok("wait text=Rested --timeout 15000");
    let s = snapshot(&demo);
    assert!(!line_of(&s, "button \"Rest\"").contains("disabled"), "{s}");
    demo.quit();
}

#[test]
fn the_egui_demo_runs_headless_and_its_screenshot_decodes() {
    let demo = start("egui_demo", Mode::Headless(640, 400));
    let s = wait_for(
        &demo,
        "button \"Count\"",
        "egui publishes its tree headless",
    );
    let count = ref_of(&s, "button \"Count\"");
    let body = demo.ok(&format!("click {count} --settle"));
    assert!(body.contains("value=\"Clicked 1 times\""), "{body}");
    let (_, png) = screenshot(&demo, "egui");
    assert_eq!((png.width, png.height), (640, 400));
    demo.quit();
}
