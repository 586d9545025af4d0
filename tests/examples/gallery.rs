//! egui's own demo gallery (examples/egui_gallery.rs: `egui_demo_lib::DemoWindows`) as a test bed
//! for pointer targeting on a real UI: overlapping windows, popups above later widgets, modals.
//! The egui adapter hands over egui's layers, its modal layer and the widget that took each press
//! (`winit_automation_egui::EguiScene`); every case checks its effect in the tree. Menus and the
//! context menu are in gallery/menus.rs; the text area, scroll area, window drag and table demos
//! in gallery/demos.rs; gestures (a drag through egui's drag source, a stroke, a pinch, clicks
//! with modifiers, a long press, a drag over an animated list) in gallery/gestures.rs; the virtual clock (repeatable frames, a tooltip's delay) in
//! gallery/clock.rs; what an agent pays (the interactive projection's bytes, an action's answer, a
//! capped snapshot) in gallery/agent_cost.rs.
//!
//! Headless (no display needed), with a Vulkan driver (`mesa-vulkan-drivers`). The gallery binary
//! is the one `cargo test --all-features` builds next to this test.
use crate::common::demo;
use crate::common::{bounds, line_of, node_in, now, ref_in, ref_of_nth, refusal};

mod agent_cost;
mod audit;
mod clock;
mod demos;
mod gestures;
mod menus;

use demo::*;
use winit_automation_protocol::{ErrorCode, NodeLine, NodeRef};

/// The gallery headless, at the window size of its windowed mode, once its layout has settled.
fn gallery() -> (App, String) {
    let demo = start("egui_gallery", Mode::Headless(1280, 800));
    wait_for(
        &demo,
        "checkbox \"Checkbox\"",
        "the gallery publishes its tree",
    );
    // egui sizes its windows over the first frames (and fades them in): act on the settled
    // layout, not on bounds that are about to change.
    demo.ok("settle --timeout 20000");
    let s = snapshot(&demo);
    (demo, s)
}

// Timeouts: an unoptimized gallery frame takes ~140 ms on lavapipe (7 frames a second, fewer on
// a loaded machine), and a settle waits out egui's window fades; 20 s leaves room on slow CI.

#[test]
fn the_gallery_s_widgets_take_clicks_drags_values_and_text() {
    let (demo, s) = gallery();
    // What the interactive projection costs an agent: gallery/agent_cost.rs.
    assert!(
        line_of(&s, "checkbox \"Checkbox\"").contains("unchecked"),
        "{s}"
    );

    // A button: "Click me!" flips the value the checkbox shows. egui says which widget took the
    // press, so the hit is verified.
    let body = demo.ok("click role=button name=\"Click me!\" nth=0 --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "checkbox \"Checkbox\"").contains(" checked"),
        "{body}"
    );

    // The checkbox itself, then a radio button.
    let body = demo.ok("click role=checkbox name=Checkbox --settle --timeout 20000");
    assert!(
        now(&body, "checkbox \"Checkbox\"").contains("unchecked"),
        "{body}"
    );
    let body = demo.ok("click role=radio name=Second --settle --timeout 20000");
    assert!(
        now(&body, "radio \"Second\"").contains(" checked"),
        "{body}"
    );
    assert!(
        now(&body, "radio \"First\"").contains("unchecked"),
        "{body}"
    );

    // The slider by its AccessKit action, then by a drag to its right end.
    let body = demo.ok("action role=slider name=Slider set_value 100 --settle --timeout 20000");
    assert!(
        now(&body, "slider \"Slider\"").contains("value=100 "),
        "{body}"
    );
    let s = snapshot(&demo);
    let slider = line_of(&s, "slider \"Slider\"");
    let (x, y, w, h) = bounds(slider);
    let body = demo.ok(&format!(
        "drag role=slider name=Slider to {},{} --settle --timeout 20000",
        x + w,
        y + h / 2.0
    ));
    assert!(
        now(&body, "slider \"Slider\"").contains("value=360 "),
        "{body}"
    );

    // The single-line text edit (the second textbox: the code example's comes first).
    let body = demo.ok("fill role=textbox nth=1 \"Hello gallery\" --settle --timeout 20000");
    assert!(
        body.contains("textbox value=\"Hello gallery\" focused"),
        "{body}"
    );

    // The combo box opens a popup that lies over the rows below it: its item "First" lies on
    // the slider. The popup is parented under the combo box, before the slider in tree order, so
    // by the tree alone the slider covers the item (`covered ... by @eN slider "Slider"`); egui's
    // layer order, which the adapter hands over, puts the popup on top and the click goes in.
    let body = demo.ok("click role=combobox name=\"Take your pick\" --settle --timeout 20000");
    assert!(body.contains("+ ") && body.contains("listbox"), "{body}");
    let s = snapshot(&demo);
    let first = ref_of_nth(&s, "button \"First\"", 1);
    let body = demo.ok(&format!("click {first} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "combobox \"Take your pick\"").contains("value=\"First\""),
        "{body}"
    );
    assert!(
        body.contains("- ") && body.contains("listbox"),
        "closed: {body}"
    );
    assert!(now(&body, "radio \"First\"").contains(" checked"), "{body}");

    // A collapsing header opens. Its content holds a spinner, which animates for as long as it
    // shows, so this waits for the content rather than settling; closing it again stops it.
    let header = "role=disclosuretriangle name~=\"Click to see\"";
    demo.ok(&format!("click {header}"));
    demo.ok("wait text~=\"It's a \" --timeout 20000");
    let s = snapshot(&demo);
    assert!(
        line_of(&s, "disclosuretriangle \"Click to see").contains("expanded"),
        "{s}"
    );
    demo.ok(&format!("click {header}"));
    demo.ok("wait text~=\"It's a \" --gone --timeout 20000");

    // A button below the side panel's edge: the click turns the wheel over the panel's list by
    // what brings it in, then lands on it: it is checked, and the windows it opens appear.
    let s = snapshot(&demo);
    assert!(!s.contains("\"Window Resize Test\""), "{s}");
    refusal(
        &demo.send("click role=button name=\"Window Resize Test\" --no-scroll"),
        ErrorCode::Offscreen,
    );
    let body = demo.ok("click role=button name=\"Window Resize Test\" --settle --timeout 20000");
    assert!(body.contains("\npath pointer\nscrolled @e"), "{body}");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "button \"Window Resize Test\"").contains(" checked"),
        "{body}"
    );
    added(&body, "window \"↔️ resizable + scroll\"");

    // The side panel is scrolled to its end now: its hint names the container by a ref the agent
    // can scroll with (egui gives it no bounds; it is aimed at within its reported clip).
    let s = demo.ok("snapshot -i --force");
    let hint = s
        .lines()
        .find(|l| l.trim_start().starts_with('[') && l.contains(" items above in @e"))
        .unwrap_or_else(|| panic!("no hint of the rows above: {s}"));
    let container = hint
        .split(" in ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("no ref in {hint}"));
    let body = demo.ok(&format!(
        "scroll {container} 0 -400 --settle --timeout 20000"
    ));
    assert!(body.contains("\nwheel 0 -400\n"), "{body}");
    let s = demo.ok("snapshot -i --force");
    assert!(
        s.lines().any(|l| l.trim_start().starts_with('[')
            && l.contains(&format!(" items below in {container} "))),
        "{s}"
    );

    demo.quit();
}

/// `screenshot --refs` draws each node of the `-i` projection onto the image: its box outlined
/// and its ref in a label on the top left corner. Read back from the pixels: at three nodes whose
/// labels nothing else overlaps, the label's text pixels are exactly the font's glyphs of the ref
/// `-i` prints for that node; and every node's box has its outline at its top left.
#[test]
fn a_screenshot_with_refs_shows_each_interactive_ref_at_its_box() {
    let (demo, _) = gallery();
    let (_, png) = screenshot(&demo, "refs --refs");
    // The refs and boxes the screenshot drew (the tree is settled: the same frame's).
    let interactive = demo.ok("snapshot -i --bounds --force");
    let nodes: Vec<(String, [f64; 4])> = NodeLine::all(&interactive)
        .into_iter()
        .filter_map(|n| Some((n.r#ref.to_string(), n.bounds?)))
        .collect();
    assert!(nodes.len() > 100, "{interactive}");
    let rgb = |x: i64, y: i64| {
        let at = (y as usize * png.width as usize + x as usize) * 4;
        [png.rgba[at], png.rgba[at + 1], png.rgba[at + 2]]
    };
    const MARK: [u8; 3] = [255, 0, 255];
    const TEXT: [u8; 3] = [255, 255, 255];
    let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x < png.width as i64 && y < png.height as i64;
    // Scale 1: a label is 8 pixels a glyph and 1 of padding around, on the box's top left
    // corner: above it where there is room, kept inside the image.
    let label = |r: &str, [x, y, ..]: [f64; 4]| {
        let (x, y) = (x.round() as i64, y.round() as i64);
        let w = 8 * r.len() as i64 + 2;
        let x = x.min(png.width as i64 - w).max(0);
        let y = if y >= 10 { y - 10 } else { y };
        [x, y, x + w, y + 10]
    };
    let overlaps =
        |a: [i64; 4], b: [i64; 4]| a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
    let boxed = |[x, y, w, h]: [f64; 4]| {
        let (x, y) = (x.round() as i64, y.round() as i64);
        [
            x,
            y,
            x + (w.round() as i64).max(1),
            y + (h.round() as i64).max(1),
        ]
    };
    let mut checked = 0;
    for (i, (r, bounds)) in nodes.iter().enumerate() {
        let l = label(r, *bounds);
        let alone = nodes.iter().enumerate().all(|(j, (other, b))| {
            i == j || (!overlaps(l, boxed(*b)) && !overlaps(l, label(other, *b)))
        });
        if !alone || !inside(l[0], l[1]) || !inside(l[2] - 1, l[3] - 1) {
            continue;
        }
        for (k, c) in r.chars().enumerate() {
            let glyph = font8x8::legacy::BASIC_LEGACY[c as usize];
            for (row, bits) in glyph.iter().enumerate() {
                for col in 0..8 {
                    let (x, y) = (l[0] + 1 + 8 * k as i64 + col, l[1] + 1 + row as i64);
                    let want = if bits & (1 << col) != 0 { TEXT } else { MARK };
                    assert_eq!(rgb(x, y), want, "{r}: glyph {c:?} at {x},{y}");
                }
            }
        }
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert_eq!(
        checked, 3,
        "three labels that nothing overlaps: {interactive}"
    );
    // Every node's box is outlined from its top left corner, in the mark's colour.
    for (r, bounds) in &nodes {
        let [x, y, ..] = boxed(*bounds);
        if inside(x, y) {
            assert_eq!(rgb(x, y), MARK, "{r} at {x},{y}");
        }
    }
    demo.quit();
}

#[test]
fn windows_stack_in_egui_s_order_and_a_modal_blocks_what_lies_below_it() {
    let (demo, _) = gallery();

    // The widget gallery window lies over the right edge of the code example's: the code
    // example's close button, under it, is refused and named what covers it.
    let close = "role=button name=\"Close window\" nth=1";
    let message = refusal(&demo.send(&format!("click {close}")), ErrorCode::Covered).message;
    assert!(message.contains("is covered at"), "{message}");

    // A click on the code example's own text raises its window; its close button is now on
    // top, and a click on it closes the window.
    let body = demo.ok("click text=\"Arthur is 42\" nth=0 --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let body = demo.ok(&format!("click {close} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        body.lines()
            .any(|l| l.starts_with("- ") && l.contains("window \"⌨️ Code Example\"")),
        "the window closed: {body}"
    );

    // A modal: what lies below it is refused `covered`, naming the modal layer (by the tree
    // alone the click would be dispatched, and egui's backdrop would take the press: `missed`);
    // once it is closed, the same click goes through.
    demo.ok("click role=button name~=Modals --settle --timeout 20000");
    let body = demo.ok("click role=button name=\"Open User Modal\" --settle --timeout 20000");
    assert!(body.contains("+ ") && body.contains("dialog"), "{body}");
    let click_me = "click role=button name=\"Click me!\" nth=0";
    let message = refusal(&demo.send(click_me), ErrorCode::Covered).message;
    assert!(message.contains("below the modal layer"), "{message}");
    let body = demo.ok("click role=button name=Cancel --settle --timeout 20000");
    assert!(body.contains("- ") && body.contains("dialog"), "{body}");
    let body = demo.ok(&format!("{click_me} --settle --timeout 20000"));
    assert!(
        now(&body, "checkbox \"Checkbox\"").contains(" checked"),
        "{body}"
    );

    demo.quit();
}

#[test]
fn a_half_covered_title_bar_takes_its_click_on_the_part_left_visible() {
    let (demo, _) = gallery();
    // The widget gallery's window dragged left over the middle of the code example's title bar.
    demo.ok("drag role=titlebar name~=\"Widget Gallery\" to 640,58 --settle --timeout 20000");
    let close = "role=button name=\"Close window\" nth=1";
    refusal(&demo.send(&format!("click {close}")), ErrorCode::Covered);
    // The title bar's centre is covered: the click lands on its left part, which a person would
    // click, and the press is verified.
    let body = demo.ok("click role=titlebar name~=\"Code Example\" --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let visible: u32 = body
        .lines()
        .find_map(|l| l.strip_prefix("visible ")?.strip_suffix('%')?.parse().ok())
        .unwrap_or_else(|| panic!("no visible line in {body}"));
    assert!((10..90).contains(&visible), "{body}");
    let at = body.lines().find_map(|l| l.strip_prefix("at ")).unwrap();
    let x: f64 = at.split(',').next().unwrap().parse().unwrap();
    assert!(
        x < 462.0,
        "aimed at {at}, under the widget gallery's window"
    );
    // The click raised the window: its close button is on top now, and closes it.
    let body = demo.ok(&format!("click {close} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    removed(&body, "window \"⌨️ Code Example\"");
    demo.quit();
}

/// The same gallery in a real window under Xvfb on Vulkan (the window's own size, scale and
/// focus, input delivered while egui-winit also listens): a popup's item over a later widget and a
/// window raised by a click take their clicks, verified.
#[test]
fn in_a_window_a_popup_item_and_a_raised_window_take_their_clicks_under_xvfb() {
    let demo = start("egui_gallery", Mode::Window("vulkan"));
    wait_for(
        &demo,
        "checkbox \"Checkbox\"",
        "the gallery publishes its tree",
    );
    demo.ok("settle --timeout 20000");

    demo.ok("click role=combobox name=\"Take your pick\" --settle --timeout 20000");
    let s = snapshot(&demo);
    let third = ref_of_nth(&s, "button \"Third\"", 1);
    let body = demo.ok(&format!("click {third} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(
        now(&body, "combobox \"Take your pick\"").contains("value=\"Third\""),
        "{body}"
    );

    let close = "role=button name=\"Close window\" nth=1";
    refusal(&demo.send(&format!("click {close}")), ErrorCode::Covered);
    demo.ok("click text=\"Arthur is 42\" nth=0 --settle --timeout 20000");
    let body = demo.ok(&format!("click {close} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    removed(&body, "window \"⌨️ Code Example\"");

    demo.quit();
}

/// The line of an answer's diff that adds a node with `what` (`+ @eN ...`).
fn added<'a>(body: &'a str, what: &str) -> &'a str {
    body.lines()
        .find(|l| l.starts_with("+ ") && l.contains(what))
        .unwrap_or_else(|| panic!("nothing with {what:?} added in\n{body}"))
}

/// The line of an answer's diff that removes a node with `what` (`- @eN ...`).
fn removed<'a>(body: &'a str, what: &str) -> &'a str {
    body.lines()
        .find(|l| l.starts_with("- ") && l.contains(what))
        .unwrap_or_else(|| panic!("nothing with {what:?} removed in\n{body}"))
}

/// A snapshot of one node's subtree.
fn scope(demo: &App, target: &str) -> String {
    demo.ok(&format!("snapshot --force --scope {target}"))
}
