//! The windowed examples on Wayland: the custom demo (examples/demo.rs) and the eframe app
//! (crates/egui/examples/eframe_app.rs), each in a real window of a headless Weston (`common::weston`),
//! rendering on Vulkan lavapipe, driven as under Xvfb: the tree with its window line, a click
//! and its effect, a screenshot of the exact frame, a resize, quit. The app's environment has no
//! `DISPLAY` and Weston runs without Xwayland, so winit can only have chosen its Wayland backend.
//!
//! The window is `window 1` as under X11: the plugin numbers windows itself (winit's Wayland
//! window id is a surface's address).
//!
//! Needs `weston` (Debian's package) and a Vulkan driver (`mesa-vulkan-drivers`).
use crate::common::demo;
use crate::common::weston::Weston;
use crate::common::{assert_nodes, line_of, now, ref_of, window_lines};

use demo::*;

/// The demo's colours (examples/demo.rs; tests/examples/e2e.rs checks the same under Xvfb).
const ACCENT: [u8; 3] = [37, 99, 235];
const BACKGROUND: [u8; 3] = [245, 246, 248];

/// The snapshot's one window line, window 1's.
fn window_line(s: &str) -> &str {
    let windows = window_lines(s);
    assert_eq!(windows.len(), 1, "{s}");
    assert!(windows[0].starts_with("window 1 "), "{s}");
    windows[0]
}

/// The app ran on Wayland: its environment named Weston's socket and no X display, and it never
/// said it could not connect.
fn on_wayland(app: &App, weston: &Weston) {
    let output = app.output();
    assert!(
        !output.contains("XOpenDisplay") && !output.contains("X11"),
        "the app tried X11:\n{output}"
    );
    assert!(
        weston.socket().exists(),
        "weston's socket is gone:\n{}",
        weston.log()
    );
}

#[test]
fn the_custom_demo_is_driven_in_a_wayland_window_under_weston() {
    let weston = Weston::start();
    let demo = weston.start_example("demo");
    let s = wait_for(
        &demo,
        "checkbox \"Subscribe\"",
        "the demo publishes its tree on Wayland",
    );
    println!("window: {}", window_line(&s));
    assert!(
        window_line(&s).contains("\"winit-automation demo\" size=800x600 scale=1"),
        "{s}"
    );
    assert_nodes(&s, &DEMO_FORM);

    // A click by ref, through the pointer, and its effect in the tree. The custom demo reports no
    // pointer hits to the plugin, so its answer says `hit unverified` (as under Xvfb) and the
    // tree's change is the check; the eframe app's clicks below are `hit verified`.
    let checkbox = ref_of(&s, "checkbox \"Subscribe\"");
    let body = demo.ok(&format!("click {checkbox} --settle"));
    println!("click: {body}");
    assert!(body.contains("path pointer\n"), "{body}");
    assert!(body.contains("\nhit "), "{body}");
    assert!(
        now(&body, "checkbox \"Subscribe\"").contains(" checked"),
        "{body}"
    );

    // The exact frame, on the copy path (the surface texture copied out; the app logs the path it
    // chose): the window's size, the checked box in the accent colour, the background's colour.
    let (body, png) = screenshot(&demo, "wayland");
    assert_eq!((png.width, png.height), (800, 600), "{body}");
    let output = demo.output();
    println!("{}", line_of(&output, "capture path"));
    assert!(output.contains("capture path copy"), "{output}");
    let s = snapshot(&demo);
    let line = line_of(&s, "checkbox \"Subscribe\"");
    assert!(line.contains("bounds=24,112,160x24"), "{line}");
    assert!(close(png.at(27, 124), ACCENT), "{:?}", png.at(27, 124));
    assert!(close(png.at(5, 590), BACKGROUND), "{:?}", png.at(5, 590));

    // A resize: answered, the window line takes the size, and so does the next frame. On Wayland
    // the window takes the size at once and winit sends no `Resized` for it: the demo's shell
    // handles the size `request_inner_size` returns as one (examples/shared/shell.rs).
    let body = demo.ok("resize 900 650");
    println!("resize: {body}");
    let s = wait_for(&demo, "size=900x650", "the window takes the new size");
    assert!(window_line(&s).contains(" size=900x650 "), "{s}");
    let (_, png) = screenshot(&demo, "resized");
    assert_eq!((png.width, png.height), (900, 650));

    on_wayland(&demo, &weston);
    let status = demo.quit_status();
    assert!(status.success(), "the demo exited with {status}");
}

#[test]
fn the_eframe_app_is_driven_in_a_wayland_window_under_weston() {
    let weston = Weston::start();
    let app = weston.start_example("eframe_app");
    let s = wait_for(
        &app,
        "button \"Greet\"",
        "the app publishes egui's tree on Wayland",
    );
    println!("window: {}", window_line(&s));
    // The title eframe gave the window (winit reads it back on Wayland; on X11 the plugin names
    // the program instead).
    assert!(
        window_line(&s).contains("\"eframe app\" size=480x320 scale=1"),
        "{s}"
    );
    assert!(
        line_of(&s, "button \"Greet\"")
            .trim_start()
            .starts_with("@e"),
        "{s}"
    );
    app.ok("settle --timeout 20000");

    // A click verified by egui's own hit test, and its effect.
    app.ok("fill role=textbox Ada --settle --timeout 20000");
    let body = app.ok("click role=button name=Greet --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(body.contains("Hello, Ada!"), "{body}");
    assert!(body.contains("Greeted 1 times"), "{body}");

    // The presented frame through egui's screenshot path: the window's size, and the button
    // drawn where the tree says it is (its fill is not the panel's background).
    let s = snapshot(&app);
    let (body, png) = screenshot(&app, "wayland");
    assert_eq!((png.width, png.height), (480, 320), "{body}");
    assert_drawn(&png, line_of(&s, "button \"Greet\""));

    // A resize: answered, and the window line shows the new size.
    let body = app.ok("resize 600 400 --timeout 20000");
    println!("resize: {body}");
    let s = wait_for(&app, "size=600x400", "the window takes the new size");
    assert!(window_line(&s).contains(" size=600x400 "), "{s}");
    let (_, png) = screenshot(&app, "resized");
    assert_eq!((png.width, png.height), (600, 400));

    on_wayland(&app, &weston);
    let status = app.quit_status();
    assert!(status.success(), "the eframe app exited with {status}");
}
