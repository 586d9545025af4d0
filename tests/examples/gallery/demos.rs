//! Demo windows opened from the side panel: a multi-line text edit, two scroll areas, a window
//! dragged by its title and closed by its close button, an `egui_extras` table; a scroll area
//! that never stops changing, which a settle names.

use super::*;

#[test]
fn a_text_area_a_scroll_area_a_dragged_window_and_a_table() {
    let (demo, _) = gallery();

    // A multi-line text edit takes newlines, then a key and more text at its cursor.
    let body = demo.ok("click role=button name=\"✏️ TextEdit\" --settle --timeout 20000");
    let window = ref_in(added(&body, "window \"✏️ TextEdit\""));
    let body = demo.ok("fill role=textarea \"One\\nTwo\\nThree\" --settle --timeout 20000");
    assert!(
        now(&body, "textarea").contains("value=\"One\\nTwo\\nThree\" focused"),
        "{body}"
    );
    demo.ok("key Enter --settle --timeout 20000");
    let body = demo.ok("type Four --settle --timeout 20000");
    assert!(
        now(&body, "textarea").contains("value=\"One\\nTwo\\nThree\\nFour\""),
        "{body}"
    );

    // The window's close button (the one in its own subtree) closes it.
    let close = ref_in(line_of(&scope(&demo, &window), "button \"Close window\""));
    let body = demo.ok(&format!("click {close} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    removed(&body, &format!("{window} window"));
    assert!(
        now(&body, "button \"✏️ TextEdit\"").contains("unchecked"),
        "{body}"
    );

    // A scroll area that lays out all its rows and clips them ("Scroll to"): the adapter hands
    // over its clip, so a row past its edge is only counted in a hint, and a click on it with
    // `--no-scroll` is refused `offscreen` instead of landing on whatever lies there. Without it,
    // the click first turns the wheel over the area by what brings the row in, then lands on it.
    let body = demo.ok("click role=button name=\"↕️ Scrolling\" --settle --timeout 20000");
    let window = ref_in(added(&body, "window \"↕️ Scrolling\""));
    demo.ok("click role=button name=\"Scroll to\" --settle --timeout 20000");
    let s = scope(&demo, &window);
    assert!(s.contains("text value=\"This is item 1\""), "{s}");
    assert!(!s.contains("This is item 14\""), "{s}");
    // One hint for the rows below, naming the scroll area's container by a ref.
    assert!(
        s.lines()
            .any(|l| l.trim_start().starts_with('[') && l.contains(" items below in @e")),
        "{s}"
    );
    refusal(
        &demo.send("click text=\"This is item 14\" --no-scroll"),
        ErrorCode::Offscreen,
    );
    let body = demo.ok("click text=\"This is item 14\" --settle --timeout 20000");
    assert!(body.contains("\npath pointer\nscrolled @e"), "{body}");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let s = scope(&demo, &window);
    assert!(s.contains("text value=\"This is item 14\""), "{s}");
    assert!(!s.contains("text value=\"This is item 1\""), "{s}");
    // The demo's own "Scroll to top" scrolls back (egui keeps the offset for the next tab's area).
    let body = demo.ok("click role=button name=\"Scroll to top\" --settle --timeout 20000");
    added(&body, "text value=\"This is item 1\"");
    removed(&body, "text value=\"This is item 14\"");
    let body = demo.ok("click role=button name=\"Scroll a lot of lines\" --settle --timeout 20000");
    added(&body, "text value=\"This is row 1/10000\"");
    assert!(!body.contains("This is row 40/10000"), "{body}");
    let body = demo.ok("scroll text=\"This is row 5/10000\" nth=0 0 540 --settle --timeout 20000");
    assert!(body.contains("\nwheel 0 540\n"), "{body}");
    added(&body, "text value=\"This is row 40/10000\"");
    removed(&body, "text value=\"This is row 1/10000\"");

    // The window dragged by its title moves by the drag's distance.
    let s = scope(&demo, &window);
    let (wx, wy, ww, wh) = bounds(line_of(&s, "window \"↕️ Scrolling\""));
    // egui emits the title strip unnamed; the plugin names it after its window.
    let title = line_of(&s, "titlebar \"↕️ Scrolling\"");
    let (tx, ty, tw, th) = bounds(title);
    let (fx, fy) = (tx + tw / 2.0, ty + th / 2.0);
    let body = demo.ok(&format!(
        "drag role=titlebar name=\"↕️ Scrolling\" to {},{} --settle --timeout 20000",
        fx + 100.0,
        fy - 200.0
    ));
    let (x, y, w, h) = bounds(now(&body, &format!("{window} window")));
    assert!(
        (x - wx - 100.0).abs() <= 1.0 && (y - wy + 200.0).abs() <= 1.0,
        "moved by (100, -200) from {wx},{wy}: {body}"
    );
    assert_eq!((w, h), (ww, wh), "{body}");
    // Its rows moved with it, and its close button, raised with it, closes it.
    let s = scope(&demo, &window);
    assert!(bounds(line_of(&s, "This is row 40/10000")).1 < 600.0, "{s}");
    let close = ref_in(line_of(&s, "button \"Close window\""));
    let body = demo.ok(&format!("click {close} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    removed(&body, &format!("{window} window"));

    // The table demo (`egui_extras::TableBuilder`): its rows are listed cell by cell, and a click
    // on the checkbox in one row's cell lands (the rows share the demo's one flag).
    let body = demo.ok("click role=button name=\"☰ Table\" --settle --timeout 20000");
    added(&body, "window \"☰ Table\"");
    for row in 0..5 {
        added(&body, &format!("text value=\"Row {row} has some long text"));
    }
    let boxes = || body.lines().filter(|l| l.contains("checkbox \"Click me\""));
    assert!(boxes().count() >= 5, "{body}");
    assert!(boxes().all(|l| l.contains("unchecked")), "{body}");
    let body = demo.ok("click role=checkbox name=\"Click me\" nth=1 --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let changed: Vec<_> = body
        .lines()
        .filter(|l| l.starts_with("~ ") && l.contains("checkbox \"Click me\""))
        .collect();
    assert!(
        changed.len() >= 5 && changed.iter().all(|l| l.contains(" checked")),
        "{body}"
    );

    demo.quit();
}

/// A settle that times out names what kept it from settling. egui's "Stick to end" scroll area
/// adds a row in every frame, forever, and asks for the next frame.
#[test]
fn a_settle_that_times_out_names_the_nodes_that_kept_changing() {
    let (demo, _) = gallery();
    demo.ok("click role=button name=\"↕️ Scrolling\" --settle --timeout 20000");
    demo.ok("click role=button name=\"Stick to end\"");
    let message = refusal(&demo.send("settle --timeout 3000"), ErrorCode::NotSettled).message;
    // egui says the window animates (it asked for the next frame).
    assert!(message.ends_with("; animating: window 1"), "{message}");
    let (_, changing) = message
        .split_once("; changing: ")
        .unwrap_or_else(|| panic!("no changing nodes named: {message}"));
    let changing = changing.trim_end_matches("; animating: window 1");
    // A few nodes by ref, then how many more.
    let named: Vec<&str> = changing.split(", ").collect();
    assert!(
        named.len() == 4 && named[3].starts_with("and ") && named[3].ends_with(" more"),
        "{message}"
    );
    assert!(
        named[..3]
            .iter()
            .all(|node| NodeRef::parse(node.split(' ').next().unwrap_or_default()).is_some()),
        "{message}"
    );
    // A node named for its children (`@e248 group children`) keeps its own line; the others'
    // lines change.
    let refs: Vec<&str> = named[..3]
        .iter()
        .filter(|node| !node.ends_with(" children"))
        .map(|node| node.split(' ').next().unwrap_or_default())
        .collect();
    assert!(!refs.is_empty(), "{message}");
    // Each is a node that keeps changing: its line now, and after more frames (another settle
    // that times out) it has moved or is gone.
    let lines = || -> Vec<Option<String>> {
        refs.iter()
            .map(|r| {
                let got = demo.send(&format!("get {r}"));
                got.is_ok()
                    .then(|| got.body().lines().next().unwrap_or_default().to_owned())
            })
            .collect()
    };
    // The list keeps scrolling: a row named a moment ago may be gone already (that is a change
    // too); at least one is still there to watch.
    let before = lines();
    assert!(
        before.iter().any(Option::is_some),
        "the nodes named are in the tree: {before:?}\n{message}"
    );
    let again = demo.send("settle --timeout 1000");
    assert_eq!(again.error_code(), Some(ErrorCode::NotSettled), "{again:?}");
    let after = lines();
    for ((r, b), a) in refs.iter().zip(&before).zip(&after) {
        if b.is_some() {
            assert_ne!(b, a, "{r} did not change\n{message}");
        }
    }
    demo.quit();
}
