//! An ordinary eframe app (crates/egui/examples/eframe_app.rs) with the egui plugin's one line, driven end to
//! end in a real window under Xvfb on Vulkan: eframe owns the event loop, the window and the frame,
//! and the plugin does the rest through egui's hooks. Every case checks its effect in the tree or
//! the pixels.
//!
//! Needs `xvfb-run` (`xvfb`) and a Vulkan driver (`mesa-vulkan-drivers`).
use crate::common::demo;
use crate::common::{bounds, line_of, now, ref_in, window_lines};

use demo::*;
use winit_automation_protocol::ErrorCode;

#[test]
fn an_eframe_app_takes_every_verb_through_the_plugin_under_xvfb() {
    let demo = start("eframe_app", Mode::Window("vulkan"));
    let s = wait_for(&demo, "button \"Greet\"", "the app publishes egui's tree");
    // The window is the root viewport (window 1), with egui's own state: its size, and for a
    // title the program's name (winit cannot read a title back on X11).
    assert!(
        line_of(&s, "window 1 ").contains("\"eframe_app\" size=480x320 scale=1"),
        "{s}"
    );
    demo.ok("settle --timeout 20000");

    // Text: fill focuses the field and types.
    let body = demo.ok("fill role=textbox Ada --settle --timeout 20000");
    assert!(now(&body, "textbox").contains("value=\"Ada\""), "{body}");

    // A click, verified by egui's own hit test.
    let body = demo.ok("click role=button name=Greet --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(body.contains("Hello, Ada!"), "{body}");
    assert!(body.contains("Greeted 1 times"), "{body}");

    // A checkbox, then key chords in the field: select all, type over it, Enter greets.
    let body = demo.ok("click role=checkbox name=Loud --settle --timeout 20000");
    assert!(
        now(&body, "checkbox \"Loud\"").contains(" checked"),
        "{body}"
    );
    // A form row's unnamed checkbox, by the label egui placed before it (`label=`, never its
    // name): the click lands on it and checks it.
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "label=\"Snap to grid:\"").contains("checkbox label="),
        "{s}"
    );
    let body = demo.ok("click role=checkbox label=\"Snap to grid:\" --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "label=\"Snap to grid:\"").contains(" checked"),
        "{body}"
    );
    demo.ok("focus role=textbox --settle --timeout 20000");
    demo.ok("key ctrl+a --settle --timeout 20000");
    let body = demo.ok("type Bob --settle --timeout 20000");
    assert!(now(&body, "textbox").contains("value=\"Bob\""), "{body}");
    let body = demo.ok("key Enter --settle --timeout 20000");
    assert!(body.contains("HELLO, BOB!"), "{body}");
    assert!(body.contains("Greeted 2 times"), "{body}");

    // The slider by its AccessKit action.
    let body = demo.ok("action role=slider set_value 7 --settle --timeout 20000");
    assert!(now(&body, "slider").contains("value=7"), "{body}");

    // A second viewport (`show_viewport_deferred`: eframe opens a second native window) is a
    // second window of the snapshot, with the title the app gave it; a click in it changes what
    // the first one shows.
    let body = demo.ok("click role=button name=Settings --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let s = wait_for(
        &demo,
        "checkbox \"Sparkles\"",
        "the settings window publishes its tree",
    );
    // Windows are numbered in the order they appear: the root first, then this one.
    let windows = window_lines(&s);
    assert_eq!(windows.len(), 2, "{s}");
    assert!(windows[0].starts_with("window 1 \"eframe_app\" "), "{s}");
    assert!(
        windows[1].starts_with("window 2 \"Settings\" size=240x120"),
        "{s}"
    );
    // Its pass runs in a redraw of its own, after the frame that handed the input over: the
    // answer waits for that pass's report, so the hit is verified there too.
    let body = demo.ok("click role=checkbox name=Sparkles --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "checkbox \"Sparkles\"").contains(" checked"),
        "{body}"
    );
    assert!(now(&body, "Sparkles: ").contains("Sparkles: on"), "{body}");
    // Its frame is read back through egui's path too: a screenshot cropped to its checkbox.
    let s = snapshot(&demo);
    let sparkles = line_of(&s, "checkbox \"Sparkles\"");
    let (_, _, w, h) = bounds(sparkles);
    let (body, png) = screenshot(&demo, &format!("--ref {}", ref_in(sparkles)));
    // The crop takes whole pixels: the node's bounds, rounded outward.
    assert!(
        (f64::from(png.width) - w).abs() <= 1.0 && (f64::from(png.height) - h).abs() <= 1.0,
        "{w}x{h}: {body}"
    );

    // An immediate viewport (drawn inside the root's pass) is a window too; its button closes it.
    demo.ok("click role=button name=About --settle --timeout 20000");
    let s = wait_for(
        &demo,
        "A greeter, driven from outside.",
        "the about window publishes its tree",
    );
    let windows = window_lines(&s);
    assert_eq!(windows.len(), 3, "{s}");
    assert!(
        windows[2].starts_with("window 3 \"About\" size=200x80"),
        "{s}"
    );
    // eframe reads no immediate viewport back: a screenshot of it is refused, with the reason.
    let close_button = ref_in(line_of(&s, "button \"Close\""));
    let response = demo.send(&format!("screenshot --ref {close_button}"));
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Unsupported),
        "{response:?}"
    );
    assert!(
        response.to_text().contains("immediate viewport (window 3)"),
        "the message names the window by its number: {response:?}"
    );
    demo.ok("click role=button name=Close --settle --timeout 20000");
    demo.ok("wait text=\"A greeter, driven from outside.\" --gone --timeout 20000");
    let s = snapshot(&demo);
    assert_eq!(window_lines(&s).len(), 2, "{s}");
    // Opened again, the same viewport is a new window: a closed window's number is never
    // given again.
    demo.ok("click role=button name=About --settle --timeout 20000");
    let s = wait_for(
        &demo,
        "A greeter, driven from outside.",
        "the about window opens again",
    );
    let windows = window_lines(&s);
    assert_eq!(windows.len(), 3, "{s}");
    assert!(windows[2].starts_with("window 4 \"About\" "), "{s}");
    demo.ok("click role=button name=Close --settle --timeout 20000");
    demo.ok("wait text=\"A greeter, driven from outside.\" --gone --timeout 20000");

    // A screenshot of the presented frame, through egui's screenshot path: the window's size, and
    // the button drawn where the tree says it is (its fill is not the panel's background).
    let s = snapshot(&demo);
    let (_, png) = screenshot(&demo, "greeter");
    assert_eq!((png.width, png.height), (480, 320));
    assert_drawn(&png, line_of(&s, "button \"Greet\""));

    demo.quit();
}
