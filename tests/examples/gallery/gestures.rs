//! Gestures (since protocol 4): a drag that presses through egui's drag source over its label, a
//! stroke on a canvas, a pinch of two touches, clicks with modifiers, a long press, and drags that
//! wait at their end for an animated list to catch up. egui's own "Drag and Drop", "Painting" and
//! "Multi Touch" demos, and the gallery's own "Gestures" window (examples/shared/gestures.rs).

use super::*;

/// The node lines of a `find` for `selector` (none when nothing matches), in tree order.
fn found(demo: &App, selector: &str) -> Vec<NodeLine> {
    let response = demo.send(&format!("find {selector}"));
    if response.error_code() == Some(ErrorCode::NotFound) {
        return Vec::new();
    }
    NodeLine::all(response.body())
}

/// The node's text: its name, else its text value (egui puts a label's text in its value).
fn text_of(node: &NodeLine) -> String {
    match (&node.name, &node.value) {
        (name, _) if !name.is_empty() => name.clone(),
        (_, Some(value)) => value.as_str().to_owned(),
        _ => String::new(),
    }
}

/// The answer's one line that starts with `prefix` (`via `, `ended `), without the prefix.
fn line_after<'a>(body: &'a str, prefix: &str) -> &'a str {
    body.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in\n{body}"))
}

/// Pixels of `png` inside `[x, y, w, h]` that `keep` holds for.
fn count(png: &Png, [x, y, w, h]: [f64; 4], keep: impl Fn([u8; 3]) -> bool) -> usize {
    let (x0, y0) = (x.ceil() as u32, y.ceil() as u32);
    let (x1, y1) = ((x + w).floor() as u32, (y + h).floor() as u32);
    (y0..y1.min(png.height))
        .flat_map(|py| (x0..x1.min(png.width)).map(move |px| (px, py)))
        .filter(|&(px, py)| keep(png.at(px, py)))
        .count()
}

#[test]
fn an_egui_drag_source_takes_the_press_over_its_label_and_the_item_moves_column() {
    let (demo, _) = gallery();
    let body = demo.ok("click role=button name=\"✋ Drag and Drop\" --settle --timeout 20000");
    added(&body, "window \"✋ Drag and Drop\"");
    // Each item is a label with the drag source's own unnamed node on top of it, beside it in the
    // tree: three columns, A to D, E to G and H to K.
    let s = snapshot(&demo);
    let (ax, ..) = bounds(line_of(&s, "text value=\"Item A\""));
    let (gx, ..) = bounds(line_of(&s, "text value=\"Item G\""));
    let (bx, ..) = bounds(line_of(&s, "text value=\"Item B\""));
    assert!(gx > ax + 20.0 && bx == ax, "{s}");

    let body = demo.ok("drag text=\"Item A\" to text=\"Item G\" --settle --timeout 20000");
    // The press went to the drag source lying over the label, which the answer names.
    let via = node_in(line_after(&body, "via "));
    assert_eq!(via.role, "unknown", "{body}");
    assert_eq!(via.bounds.map(|b| b[0]), Some(ax), "{body}");
    // Item A is in G's column now: the answer's `ended` line and the tree say so, and its old
    // column keeps B, C and D.
    let ended = line_after(&body, "ended ");
    let (end_node, at) = ended
        .rsplit_once(" at ")
        .unwrap_or_else(|| panic!("{body}"));
    assert_eq!(text_of(&node_in(end_node)), "Item A", "{body}");
    assert_eq!(bounds(end_node).0, gx, "{body}");
    let (px, _) = at.split_once(',').unwrap_or_else(|| panic!("{body}"));
    let px: f64 = px.parse().unwrap();
    assert!(px > gx && px < gx + 70.0, "let go in G's column: {body}");
    let s = snapshot(&demo);
    assert_eq!(bounds(line_of(&s, "text value=\"Item A\"")).0, gx, "{s}");
    let first_column: Vec<String> = NodeLine::all(&s)
        .iter()
        .filter(|n| n.role == "text" && n.bounds.is_some_and(|b| b[0] == ax))
        .map(text_of)
        .filter(|t| t.starts_with("Item "))
        .collect();
    assert_eq!(first_column, ["Item B", "Item C", "Item D"], "{s}");
    // egui reported the press on the drag source.
    assert!(body.contains("\nhit verified\n"), "{body}");
    demo.quit();
}

#[test]
fn a_stroke_paints_its_path_and_a_pinch_zooms_the_multi_touch_arrow() {
    let (demo, _) = gallery();

    // egui's Painting demo: a canvas that draws the pressed pointer's way.
    let body = demo.ok("click role=button name=\"🖊️ Painting\" --settle --timeout 20000");
    let window = ref_in(added(&body, "window \"🖊️ Painting\""));
    let canvas = scope(&demo, &window)
        .lines()
        .filter(|l| l.contains(" unknown ") && l.contains("actions=focus"))
        .map(bounds)
        .max_by(|a, b| (a.2 * a.3).total_cmp(&(b.2 * b.3)))
        .unwrap_or_else(|| panic!("no canvas in {window}"));
    let (cx, cy, cw, ch) = canvas;
    // A zigzag through the canvas's inside.
    let points: Vec<(f64, f64)> = [(0.15, 0.2), (0.4, 0.7), (0.6, 0.3), (0.85, 0.8)]
        .iter()
        .map(|(fx, fy)| ((cx + fx * cw).round(), (cy + fy * ch).round()))
        .collect();
    let (_, before) = screenshot(&demo, "before-stroke");
    let line: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let body = demo.ok(&format!(
        "stroke {} --settle --timeout 20000",
        line.join(" ")
    ));
    assert!(body.contains("\nhit "), "{body}");
    let (_, after) = screenshot(&demo, "after-stroke");
    // Along each segment (its ends left out), a pixel within one of the path turned the
    // stroke's green (egui's default stroke is rgb(25, 200, 100), antialiased on the dark canvas).
    let green = |[r, g, b]: [u8; 3]| g > 60 && g > r + 30 && g > b + 20;
    let (mut on_path, mut samples) = (0, 0);
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        for i in 1..20 {
            let t = f64::from(i) / 20.0;
            let (x, y) = (x0 + t * (x1 - x0), y0 + t * (y1 - y0));
            samples += 1;
            let near = [-1.0, 0.0, 1.0].iter().flat_map(|dx| {
                [-1.0, 0.0, 1.0]
                    .iter()
                    .map(move |dy| ((x + dx).round() as u32, (y + dy).round() as u32))
            });
            if near
                .clone()
                .any(|(px, py)| green(after.at(px, py)) && after.at(px, py) != before.at(px, py))
            {
                on_path += 1;
            }
        }
    }
    println!("stroke: {on_path} of {samples} points along it painted");
    assert!(
        on_path * 10 >= samples * 9,
        "{on_path} of {samples} points along the stroke painted: {body}"
    );
    // Away from the path, the canvas is as it was.
    let corner = [cx + 4.0, cy + ch - 40.0, 30.0, 30.0];
    assert_eq!(
        count(&after, corner, green),
        0,
        "the canvas's bottom left corner stays empty"
    );
    // The demo's button closes its window again.
    let body = demo.ok("click role=button name=\"🖊️ Painting\" --settle --timeout 20000");
    removed(&body, &format!("{window} window"));

    // egui's Multi Touch demo zooms its arrow by a pinch's two touches. It springs back half a
    // second after the fingers lift: the screenshot right after the pinch still shows it zoomed.
    let body = demo.ok("click role=button name=\"👌 Multi Touch\" --settle --timeout 20000");
    let window = ref_in(added(&body, "window \"👌 Multi Touch\""));
    let s = scope(&demo, &window);
    let canvas = s
        .lines()
        .find(|l| l.contains(" unknown ") && l.contains("actions=focus"))
        .unwrap_or_else(|| panic!("no canvas in {s}"));
    let area = {
        let (x, y, w, h) = bounds(canvas);
        [x, y, w, h]
    };
    let white = |p: [u8; 3]| p.iter().all(|&c| c > 150);
    let (_, before) = screenshot(&demo, "before-pinch");
    let body = demo.ok(&format!("pinch {} 2", ref_in(canvas)));
    assert!(body.contains("\npath touch\n"), "{body}");
    let (_, after) = screenshot(&demo, "after-pinch");
    let (was, is) = (count(&before, area, white), count(&after, area, white));
    println!("arrow: {was} pixels before the pinch, {is} after");
    assert!(
        was > 50 && is * 2 > was * 3,
        "the arrow zoomed: {was} pixels before, {is} after: {body}"
    );
    demo.quit();
}

/// The rows of the Gestures window that say `selected`, by number.
fn selected_rows(demo: &App) -> Vec<usize> {
    let rows = found(demo, "role=button name~=\"Row \"");
    let rows: Vec<&NodeLine> = rows
        .iter()
        .filter(|n| n.name.starts_with("Row ") && n.name.len() == 5)
        .collect();
    assert_eq!(rows.len(), 5, "{rows:?}");
    for row in &rows {
        assert_eq!(row.selected, row.has("checked"), "{row:?}");
    }
    rows.iter()
        .filter(|n| n.selected)
        .map(|n| n.name[4..].parse().unwrap())
        .collect()
}

#[test]
fn modifier_clicks_select_rows_and_a_long_press_confirms() {
    let (demo, s) = gallery();
    assert!(s.contains("window \"Gestures\""), "{s}");
    assert!(selected_rows(&demo).is_empty());

    // ctrl-click toggles one row, shift-click selects the range from the row last clicked
    // without shift (Row 4) to this one, in place of the selection; a click selects one row.
    let body =
        demo.ok("click role=button name=\"Row 2\" --modifiers ctrl --settle --timeout 20000");
    assert!(body.contains("\nmodifiers ctrl\n"), "{body}");
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert_eq!(selected_rows(&demo), [2]);
    demo.ok("click role=button name=\"Row 4\" --modifiers ctrl --settle --timeout 20000");
    assert_eq!(selected_rows(&demo), [2, 4]);
    let body =
        demo.ok("click role=button name=\"Row 1\" --modifiers shift --settle --timeout 20000");
    assert!(body.contains("\nmodifiers shift\n"), "{body}");
    assert_eq!(selected_rows(&demo), [1, 2, 3, 4]);
    demo.ok("click role=button name=\"Row 4\" --modifiers ctrl --settle --timeout 20000");
    assert_eq!(selected_rows(&demo), [1, 2, 3]);
    demo.ok("click role=button name=\"Row 5\" --settle --timeout 20000");
    assert_eq!(selected_rows(&demo), [5]);

    // "Hold to confirm" does nothing on a click; held for 800 ms (it wants 600), it confirms.
    let hold = "role=button name=\"Hold to confirm\"";
    let body = demo.ok(&format!("click {hold} --settle --timeout 20000"));
    assert!(body.contains("\nhit verified\n"), "{body}");
    assert!(found(&demo, "text=Confirmed").is_empty(), "{body}");
    let response = demo.send(&format!("click {hold} --hold 800 --settle --timeout 20000"));
    demo.ok("wait text=Confirmed --timeout 20000");
    let body = response
        .error_text()
        .map_or_else(|| response.body().to_owned(), |e| panic!("refused: {e}"));
    assert!(body.contains("\nbutton left held 800ms\n"), "{body}");
    assert!(body.contains("\nhit verified\n"), "{body}");
    demo.quit();
}

#[test]
fn a_drag_waits_for_the_animated_list_and_drops_the_word_where_it_let_go() {
    let (demo, _) = gallery();
    let words = |demo: &App| -> Vec<(String, f64)> {
        let mut rows: Vec<(String, f64)> = found(demo, "role=listitem")
            .iter()
            .map(|n| (n.name.clone(), n.bounds.expect("bounds")[1]))
            .collect();
        // The tree lists them in the list's order, top to bottom.
        assert!(rows.windows(2).all(|w| w[0].1 < w[1].1), "{rows:?}");
        rows.sort_by(|a, b| a.1.total_cmp(&b.1));
        rows
    };
    let before = words(&demo);
    let names: Vec<&str> = before.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["alpha", "beta", "gamma", "delta"]);
    let gamma_y = before[2].1;

    // The default drag: the rows slide out of the way as the pointer passes, and the drag waits
    // at gamma's slot until they hold still, so alpha drops into it.
    let body = demo
        .ok("drag role=listitem name=alpha to role=listitem name=gamma --settle --timeout 20000");
    assert!(body.contains("\nhit verified\n"), "{body}");
    let ended = node_in(line_after(&body, "ended ").rsplit_once(" at ").unwrap().0);
    assert_eq!(ended.name, "alpha", "{body}");
    assert_eq!(ended.bounds.map(|b| b[1]), Some(gamma_y), "{body}");
    let after = words(&demo);
    let names: Vec<&str> = after.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["beta", "gamma", "alpha", "delta"], "{body}");
    assert_eq!(after[2].1, gamma_y);

    // A drag that lets go at once, in one step, with no hold: answered, wherever the word lands
    // (the list judges the drop from rows still sliding).
    let body = demo.ok(
        "drag role=listitem name=alpha to role=listitem name=beta --dwell 0 --steps 1 --hold 0 --settle --timeout 20000",
    );
    assert!(body.contains("\nended "), "{body}");
    let now = words(&demo);
    assert_eq!(now.len(), 4);
    assert_eq!(now[3].0, "delta", "{body}");

    // The same gesture in parts: delta pressed, carried onto the top word over a few frames,
    // held there until the rows stop sliding, let go: it takes the top slot.
    let top = &now[0].0;
    let body = demo.ok("down role=listitem name=delta");
    assert!(body.contains("\nhit verified\n"), "{body}");
    demo.ok(&format!("move role=listitem name={top} --steps 6"));
    demo.ok("settle --timeout 20000");
    demo.ok("up --settle --timeout 20000");
    let names: Vec<String> = words(&demo).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names[0], "delta", "{names:?}");
    assert_eq!(&names[1], top, "{names:?}");
    demo.quit();
}
