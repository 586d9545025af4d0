//! What the snapshot shows as visible, and what a point names, once the app has said what its tree
//! cannot (`Frame::layers`): reported clips hide rows like the tree's own, a layer root is not
//! cut off by its tree ancestors, what lies wholly under a higher layer is left out with a hint,
//! and `get X,Y` names the node painted on top.
use crate::common;
use crate::common::fixture;

use accesskit::{Node, NodeId, Role};
use common::{TestApp, ref_of, window_state};
use fixture::{ids, node, tree};
use winit_automation::Layers;

fn app(nodes: Vec<(u64, Node)>) -> TestApp {
    let update = tree(nodes);
    TestApp::builder()
        .name("visible")
        .window(window_state("Visible", 1.0))
        .tree(update)
        .start()
}

/// A list (1) the tree does not say clips, its rows, and a row (3) that opened a menu (5) reaching
/// below the list.
fn list_with_a_menu() -> TestApp {
    app(vec![
        (0, node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1])),
        (
            1,
            node(
                Role::ScrollView,
                "Files",
                [0.0, 0.0, 200.0, 100.0],
                &[2, 3, 4, 7],
            ),
        ),
        (
            2,
            node(Role::Button, "Row 1", [10.0, 10.0, 190.0, 40.0], &[]),
        ),
        (
            3,
            node(Role::Button, "Row 2", [10.0, 50.0, 190.0, 80.0], &[5]),
        ),
        (
            5,
            node(Role::Menu, "Row menu", [20.0, 80.0, 220.0, 200.0], &[6]),
        ),
        (
            6,
            node(Role::MenuItem, "Delete", [20.0, 150.0, 220.0, 180.0], &[]),
        ),
        (
            4,
            node(Role::Button, "Row 9", [10.0, 150.0, 190.0, 180.0], &[]),
        ),
        (
            7,
            node(Role::Button, "Row 10", [10.0, 200.0, 190.0, 230.0], &[]),
        ),
    ])
}

#[test]
fn rows_outside_a_reported_clip_are_counted_by_the_hint_not_listed() {
    let app = list_with_a_menu();
    // The tree sets no clip: every row counts as visible.
    let before = app.snapshot("");
    assert!(
        before.contains("\"Row 9\"") && before.contains("\"Row 10\""),
        "{before}"
    );
    assert!(!before.contains("items below"), "{before}");
    app.layers(Layers {
        clips: vec![(NodeId(1), None)],
        ..Layers::default()
    });
    let text = app.snapshot("");
    assert!(
        !text.contains("\"Row 9\"") && !text.contains("\"Row 10\""),
        "{text}"
    );
    assert!(
        text.contains("\"Row 1\"") && text.contains("\"Row 2\""),
        "{text}"
    );
    // The menu is not a listed layer here: the list's clip cuts its item off, and the list's
    // one hint counts it with the rows, after the list's last shown node.
    assert!(!text.contains("\"Delete\""), "{text}");
    assert!(
        text.contains(
            "\"Row menu\" bounds=20,80,200x120\n      [3 items below in @e2 scrollview \"Files\"]\n"
        ),
        "{text}"
    );
    // The interactive projection gives the same hint; --raw lists the rows, marked.
    assert!(
        app.snapshot("-i")
            .contains("[3 items below in @e2 scrollview \"Files\"]")
    );
    let raw = app.snapshot("--raw");
    assert!(
        raw.lines()
            .any(|l| l.contains("\"Row 9\"") && l.ends_with(" offscreen")),
        "{raw}"
    );
}

#[test]
fn a_popup_layer_root_is_not_clipped_by_its_scrolled_parent() {
    let app = list_with_a_menu();
    app.layers(Layers {
        order: ids(&[0, 5]),
        clips: vec![(NodeId(1), None)],
        ..Layers::default()
    });
    let text = app.snapshot("");
    // The menu's item lies below the list, but the menu starts its clip afresh from the window.
    assert!(text.contains("menuitem \"Delete\""), "{text}");
    // The rows outside the list's clip are still cut off; the menu's item is not.
    assert!(
        text.contains("      [2 items below in @e2 scrollview \"Files\"]\n"),
        "{text}"
    );
}

/// A pane holding two windows; "About" (2) over part of "Main" (1).
fn two_windows() -> TestApp {
    app(vec![
        (
            0,
            node(Role::Pane, "root", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
        ),
        (
            1,
            node(Role::Window, "Main", [0.0, 0.0, 400.0, 300.0], &[3, 4, 5]),
        ),
        (
            3,
            node(Role::Button, "Behind", [10.0, 10.0, 90.0, 40.0], &[]),
        ),
        (
            4,
            node(Role::Button, "Also behind", [10.0, 50.0, 90.0, 80.0], &[]),
        ),
        (
            5,
            node(Role::Button, "Beside", [300.0, 10.0, 390.0, 40.0], &[]),
        ),
        (
            2,
            node(Role::Window, "About", [0.0, 0.0, 200.0, 200.0], &[6]),
        ),
        (6, node(Role::Button, "OK", [10.0, 150.0, 90.0, 180.0], &[])),
    ])
}

#[test]
fn a_node_wholly_under_a_higher_window_is_listed_only_in_raw() {
    let app = two_windows();
    let raw = app.snapshot("--raw");
    let behind = ref_of(&raw, "\"Behind\"");
    // Nothing said: everything is listed, no hint.
    let before = app.snapshot("");
    assert!(before.contains("\"Behind\""), "{before}");
    assert!(!before.contains(" under "), "{before}");

    app.layers(Layers {
        order: ids(&[1, 2]),
        ..Layers::default()
    });
    let text = app.snapshot("");
    let about = ref_of(&text, "window \"About\" bounds");
    assert!(
        !text.contains("\"Behind\"") && !text.contains("\"Also behind\""),
        "{text}"
    );
    assert!(text.contains("button \"Beside\""), "{text}");
    assert!(
        text.contains(&format!("      [2 items under {about} window \"About\"]\n")),
        "{text}"
    );
    // The interactive projection leaves them out too.
    let interactive = app.snapshot("-i");
    assert!(!interactive.contains("\"Behind\""), "{interactive}");
    assert!(interactive.contains("[2 items under"), "{interactive}");
    // --raw lists everything, as before (the same text), with the same refs.
    let again = app.ok("snapshot --raw");
    assert!(again.contains("unchanged since frame "), "{again}");
    let raw = app.snapshot("--raw --force");
    assert_eq!(ref_of(&raw, "\"Behind\""), behind, "{raw}");
    // A ref handed out earlier still names the same node.
    assert!(
        app.ok(&format!("get {behind}"))
            .contains("button \"Behind\"")
    );

    // Raised the other way, Main covers About's whole area; nothing of Main is under About.
    app.layers(Layers {
        order: ids(&[2, 1]),
        ..Layers::default()
    });
    let text = app.snapshot("");
    assert!(
        text.contains("\"Behind\"") && !text.contains("\"OK\""),
        "{text}"
    );
    let main = ref_of(&text, "window \"Main\" bounds");
    assert!(
        text.contains(&format!("[1 item under {main} window \"Main\"]")),
        "{text}"
    );
}

#[test]
fn a_point_over_a_popup_names_the_popup_s_node() {
    // The popup (3, item 4) is parented under the button that opened it (1): in tree order the
    // later button (2) lies on top of it.
    let app = app(vec![
        (
            0,
            node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
        ),
        (
            1,
            node(Role::Button, "Open", [10.0, 10.0, 90.0, 40.0], &[3]),
        ),
        (
            3,
            node(Role::Menu, "Edit", [10.0, 40.0, 200.0, 140.0], &[4]),
        ),
        (
            4,
            node(Role::MenuItem, "Copy", [10.0, 40.0, 200.0, 70.0], &[]),
        ),
        (
            2,
            node(Role::Button, "Later", [20.0, 50.0, 150.0, 80.0], &[]),
        ),
    ]);
    assert!(app.ok("get 100,60").contains("button \"Later\""));
    app.layers(Layers {
        order: ids(&[0, 3]),
        ..Layers::default()
    });
    assert!(app.ok("get 100,60").contains("menuitem \"Copy\""));
    // Where the menu has no item, the menu itself.
    assert!(app.ok("get 100,120").contains("menu \"Edit\""));
    // Outside the menu, tree order as before.
    assert!(app.ok("get 50,25").contains("button \"Open\""));
    // The later button lies wholly under the menu: the snapshot leaves it out.
    let text = app.snapshot("");
    assert!(!text.contains("\"Later\""), "{text}");
    assert!(text.contains("[1 item under @e"), "{text}");
    assert!(text.contains("menuitem \"Copy\""), "{text}");
}

#[test]
fn an_opener_under_its_own_popup_gives_the_popup_its_place() {
    let app = app(vec![
        (
            0,
            node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
        ),
        (
            1,
            node(Role::Button, "Open", [10.0, 10.0, 90.0, 40.0], &[3]),
        ),
        (3, node(Role::Menu, "Edit", [0.0, 0.0, 200.0, 140.0], &[4])),
        (
            4,
            node(Role::MenuItem, "Copy", [10.0, 50.0, 190.0, 80.0], &[]),
        ),
        (
            2,
            node(Role::Button, "Later", [20.0, 150.0, 150.0, 180.0], &[]),
        ),
    ]);
    app.layers(Layers {
        order: ids(&[0, 3]),
        ..Layers::default()
    });
    let text = app.snapshot("");
    let body: Vec<&str> = text.lines().skip(2).collect();
    let menu = ref_of(&text, "menu \"Edit\" bounds");
    assert_eq!(body.len(), 5, "{text}");
    assert!(
        body[0].starts_with("  @e") && body[0].contains("window \"w\""),
        "{text}"
    );
    assert!(
        body[1].starts_with(&format!("    {menu} menu \"Edit\"")),
        "{text}"
    );
    assert!(
        body[2].starts_with("      @e") && body[2].contains("\"Copy\""),
        "{text}"
    );
    assert!(
        body[3].starts_with("    @e") && body[3].contains("\"Later\""),
        "{text}"
    );
    assert_eq!(
        body[4],
        format!("    [1 item under {menu} menu \"Edit\"]"),
        "{text}"
    );
    assert!(app.snapshot("--raw").contains("button \"Open\""));
}
