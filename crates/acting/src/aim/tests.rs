//! The hit test and the target checks on small trees: no thread, no file.

use accesskit::{Action, Role};

use winit_automation_link::SceneChange;
use winit_automation_link::{Bounds, Widget, WidgetStates};
use winit_automation_protocol::{Command, ErrorCode, Failure};
use winit_automation_tree::AppTree;

fn trees(widgets: Vec<Widget>) -> AppTree {
    winit_automation_tree::fixture::one_window(400.0, 300.0, SceneChange::Widgets(1, widgets))
}

fn button(id: &str, x: f64, y: f64) -> Widget {
    Widget::new(id, Role::Button, id)
        .bounds(Bounds::new(x, y, 80.0, 30.0))
        .action(Action::Click)
}

fn click(trees: &mut AppTree, id: &str) -> Result<String, Failure> {
    let plan = crate::plan_of(
        trees,
        &Command::parse(&format!("click id={id}")).unwrap(),
        false,
    )?;
    Ok(plan.expect("a click is planned").summary)
}

#[test]
fn a_clear_target_is_aimed_at_its_centre() {
    let mut t = trees(vec![button("save", 10.0, 10.0)]);
    let summary = click(&mut t, "save").unwrap();
    assert!(summary.contains("50,25"), "{summary}");
}

#[test]
fn a_partly_covered_target_is_aimed_at_the_largest_part_left_visible() {
    // `over` (20..100 x 15..45) covers all of `save` (10..90 x 10..40) but a strip 10 wide on
    // the left (10x30) and one 5 high on top (80x5): the top strip is larger.
    let mut t = trees(vec![button("save", 10.0, 10.0), button("over", 20.0, 15.0)]);
    let summary = click(&mut t, "save").unwrap();
    assert!(summary.contains("at 50,12.5\n"), "{summary}");
    // 10x30 + 70x5 of 80x30 is visible.
    assert!(summary.contains("visible 27%\n"), "{summary}");
    // The node on top is itself clear, and whole.
    let summary = click(&mut t, "over").unwrap();
    assert!(!summary.contains("visible"), "{summary}");
}

#[test]
fn a_wholly_covered_target_is_refused_naming_what_lies_on_top() {
    let big = Widget::new("over", Role::Button, "over")
        .bounds(Bounds::new(0.0, 0.0, 200.0, 100.0))
        .action(Action::Click);
    let mut t = trees(vec![button("save", 10.0, 10.0), big]);
    let err = click(&mut t, "save").unwrap_err();
    assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
    assert!(err.message.contains("\"over\""), "{}", err.message);
    assert!(
        err.message.contains("no part of it is left"),
        "{}",
        err.message
    );
    // Two nodes that leave only a sliver under 2 pixels between them cover it too.
    let left = Widget::new("l", Role::Button, "l")
        .bounds(Bounds::new(0.0, 0.0, 49.0, 100.0))
        .action(Action::Click);
    let right = Widget::new("r", Role::Button, "r")
        .bounds(Bounds::new(50.0, 0.0, 100.0, 100.0))
        .action(Action::Click);
    let mut t = trees(vec![button("save", 10.0, 10.0), left, right]);
    let err = click(&mut t, "save").unwrap_err();
    assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
}

#[test]
fn a_container_overlapping_the_target_does_not_cover_it() {
    let pane = Widget::new("pane", Role::Pane, "").bounds(Bounds::new(0.0, 0.0, 400.0, 300.0));
    let mut t = trees(vec![button("save", 10.0, 10.0), pane]);
    assert!(click(&mut t, "save").is_ok());
}

#[test]
fn a_modal_dialog_shields_everything_outside_it() {
    use winit_automation_tree::fixture::{node, tree};
    let update = |modal: bool| {
        let mut dialog = node(Role::Dialog, "Confirm", [200.0, 200.0, 350.0, 280.0], &[]);
        if modal {
            dialog.set_modal();
        }
        tree(vec![
            (0, node(Role::Window, "", [0.0, 0.0, 400.0, 300.0], &[1, 2])),
            (1, node(Role::Button, "save", [10.0, 10.0, 90.0, 40.0], &[])),
            (2, dialog),
        ])
    };
    let click_save = |t: &mut AppTree| {
        crate::plan_of(
            t,
            &Command::parse("click role=button name=save").unwrap(),
            false,
        )
        .map(|_| ())
    };
    let mut t = trees(vec![]);
    t.apply(SceneChange::Update(1, update(false)));
    // Not modal: the button is clear (the dialog lies elsewhere).
    assert!(click_save(&mut t).is_ok());
    t.apply(SceneChange::Update(1, update(true)));
    let err = click_save(&mut t).unwrap_err();
    assert_eq!(err.code, ErrorCode::Covered, "{}", err.message);
    assert!(err.message.contains("modal"), "{}", err.message);
}

#[test]
fn content_clipped_by_a_scroll_container_is_offscreen() {
    let list = Widget::new("list", Role::List, "list")
        .bounds(Bounds::new(0.0, 0.0, 200.0, 100.0))
        .states(WidgetStates {
            clips_children: true,
            ..WidgetStates::default()
        });
    let below = button("row9", 10.0, 150.0).parent("list");
    let inside = button("row1", 10.0, 10.0).parent("list");
    let mut t = trees(vec![list, inside, below]);
    assert!(click(&mut t, "row1").is_ok());
    let err = click(&mut t, "row9").unwrap_err();
    assert_eq!(err.code, ErrorCode::Offscreen, "{}", err.message);
}

#[test]
fn a_node_with_bounds_that_are_not_finite_covers_nothing_and_is_not_aimed_at() {
    // An interactive cell published after (so on top of) the button, with infinite bounds
    // (which a transform turns into NaN) and one with NaN bounds outright.
    let infinite = Widget::new("cell", Role::Group, "cell")
        .bounds(Bounds::new(
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        ))
        .action(Action::Click);
    let nan = Widget::new("nan", Role::Button, "nan")
        .bounds(Bounds::new(f64::NAN, 10.0, 80.0, 30.0))
        .action(Action::Click);
    // A clipping container with infinite bounds clips nothing: its child stays reachable.
    let table = Widget::new("table", Role::Table, "table")
        .bounds(Bounds::new(0.0, f64::INFINITY, 400.0, 300.0))
        .states(WidgetStates {
            clips_children: true,
            ..WidgetStates::default()
        });
    let row = button("row", 200.0, 200.0).parent("table");
    let mut t = trees(vec![button("save", 10.0, 10.0), infinite, nan, table, row]);
    let summary = click(&mut t, "save").unwrap();
    assert!(summary.contains("50,25"), "{summary}");
    let summary = click(&mut t, "row").unwrap();
    assert!(summary.contains("240,215"), "{summary}");
    for id in ["cell", "nan"] {
        let err = click(&mut t, id).unwrap_err();
        assert_eq!(err.code, ErrorCode::ZeroSize, "{id}: {}", err.message);
        assert!(err.message.contains("not finite"), "{id}: {}", err.message);
    }
}

#[test]
fn a_point_target_never_hits_a_node_whose_bounds_are_not_finite() {
    use accesskit::Node;
    use winit_automation_protocol::Target;
    use winit_automation_tree::fixture::{node, tree};
    // Its raw rect contains every point; its child, with finite bounds, is still hit.
    let everywhere = [
        f64::NEG_INFINITY,
        f64::NEG_INFINITY,
        f64::INFINITY,
        f64::INFINITY,
    ];
    let mut cell = node(Role::Group, "cell", everywhere, &[3]);
    cell.add_action(Action::Click);
    let mut inner = Node::new(Role::Label);
    inner.set_value("inner");
    inner.set_bounds(accesskit::Rect::new(200.0, 200.0, 300.0, 220.0));
    let mut t = trees(vec![]);
    t.apply(SceneChange::Update(
        1,
        tree(vec![
            (0, node(Role::Window, "", [0.0, 0.0, 400.0, 300.0], &[1, 2])),
            (1, node(Role::Button, "save", [10.0, 10.0, 90.0, 40.0], &[])),
            (2, cell),
            (3, inner),
        ]),
    ));
    let get = |t: &mut AppTree, at: &str| t.get(&Target::parse(at).unwrap());
    let line = get(&mut t, "50,25").unwrap();
    assert!(
        line.starts_with("@e") && line.contains("button \"save\""),
        "{line}"
    );
    let line = get(&mut t, "250,210").unwrap();
    assert!(line.contains("value=\"inner\""), "{line}");
    // Nothing else lies at 350,100: the cell is not hit there, the window root is.
    let line = get(&mut t, "350,100").unwrap();
    assert!(line.contains(" window "), "{line}");
    // The cell itself prints no bounds, and `get` says why.
    let cell = get(&mut t, "role=group").unwrap();
    assert!(!cell.contains("bounds="), "{cell}");
    assert!(cell.contains("\nbounds_not_finite\n"), "{cell}");
    // Clicking on the button is clear: the cell covers nothing.
    assert!(crate::plan_of(&mut t, &Command::parse("click role=button").unwrap(), false).is_ok());
}

#[test]
fn disabled_hidden_and_zero_size_targets_are_refused_with_their_reason() {
    let disabled = button("off", 10.0, 10.0).states(WidgetStates {
        disabled: true,
        ..WidgetStates::default()
    });
    let hidden = button("gone", 10.0, 50.0).states(WidgetStates {
        hidden: true,
        ..WidgetStates::default()
    });
    let flat = Widget::new("flat", Role::Button, "flat")
        .bounds(Bounds::new(10.0, 100.0, 0.0, 0.0))
        .action(Action::Click);
    let mut t = trees(vec![disabled, hidden, flat]);
    assert_eq!(click(&mut t, "off").unwrap_err().code, ErrorCode::Disabled);
    assert_eq!(
        click(&mut t, "gone").unwrap_err().code,
        ErrorCode::Offscreen
    );
    assert_eq!(click(&mut t, "flat").unwrap_err().code, ErrorCode::ZeroSize);
}

/// Layers: what the app says beyond the tree (paint order, the modal layer, clips).
mod layers {
    use accesskit::{Node, NodeId, Rect, Role, TreeId, TreeUpdate};

    use super::trees;
    use winit_automation_link::Layers;
    use winit_automation_link::SceneChange;
    use winit_automation_protocol::{Command, ErrorCode, Failure};
    use winit_automation_tree::AppTree;
    use winit_automation_tree::fixture::{node, tree};

    /// A window showing `nodes` (the first is the root) at scale 1.
    fn window(nodes: Vec<(u64, Node)>) -> AppTree {
        let mut t = trees(vec![]);
        t.apply(SceneChange::Update(1, tree(nodes)));
        t
    }

    fn layers(t: &mut AppTree, order: &[u64], modal: Option<u64>, clips: Vec<(u64, Option<Rect>)>) {
        t.apply(SceneChange::Layers(
            1,
            Layers {
                order: order.iter().map(|&id| NodeId(id)).collect(),
                modal: modal.map(NodeId),
                clips: clips.into_iter().map(|(id, r)| (NodeId(id), r)).collect(),
            },
        ));
    }

    fn click(t: &mut AppTree, name: &str) -> Result<String, Failure> {
        let plan = crate::plan_of(
            t,
            &Command::parse(&format!("click name={name:?}")).unwrap(),
            false,
        )?;
        Ok(plan.expect("a click is planned").summary)
    }

    fn refused(t: &mut AppTree, name: &str, code: ErrorCode) -> String {
        let err = click(t, name).unwrap_err();
        assert_eq!(err.code, code, "{name}: {}", err.message);
        err.message
    }

    /// A popup (3, item 4) parented under the button that opened it (1), overlapping a later
    /// button (2).
    fn popup() -> AppTree {
        window(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
            ),
            (
                1,
                node(Role::Button, "open", [10.0, 10.0, 90.0, 40.0], &[3]),
            ),
            (
                3,
                node(Role::Menu, "menu", [10.0, 40.0, 200.0, 140.0], &[4]),
            ),
            (
                4,
                node(Role::MenuItem, "Copy", [10.0, 40.0, 200.0, 70.0], &[]),
            ),
            (
                2,
                node(Role::Button, "later", [20.0, 50.0, 150.0, 80.0], &[]),
            ),
        ])
    }

    #[test]
    fn without_layers_tree_order_is_paint_order() {
        let mut t = popup();
        assert!(click(&mut t, "later").is_ok());
        // `later` is on top of `Copy` (tree order): the click aims at the strip of `Copy` above
        // it, the largest part left.
        let aimed = "at 105,45\nvisible 54%\n";
        let summary = click(&mut t, "Copy").unwrap();
        assert!(summary.contains(aimed), "{summary}");
        // Ids the tree does not hold say nothing: still tree order.
        layers(&mut t, &[99], Some(98), vec![(97, None)]);
        assert!(click(&mut t, "later").is_ok());
        assert!(click(&mut t, "Copy").unwrap().contains(aimed));
    }

    #[test]
    fn a_higher_layer_covers_later_nodes_of_lower_ones() {
        let mut t = popup();
        layers(&mut t, &[0, 3], None, vec![]);
        let why = refused(&mut t, "later", ErrorCode::Covered);
        assert!(
            why.contains("\"Copy\""),
            "covered by the popup's item: {why}"
        );
        let summary = click(&mut t, "Copy").unwrap();
        assert!(summary.contains("at 105,55\n"), "{summary}");
        // Nodes under no listed root lie below every listed layer: the same without the root.
        layers(&mut t, &[3], None, vec![]);
        assert_eq!(refused(&mut t, "later", ErrorCode::Covered), why);
        assert!(click(&mut t, "Copy").is_ok());
        // The opener lies where the popup does not: clear.
        assert!(click(&mut t, "open").is_ok());
    }

    /// Two windows (1 with button 3, 2 with button 4), overlapping; 2 is later in the tree.
    fn two_windows() -> AppTree {
        window(vec![
            (
                0,
                node(Role::Pane, "root", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
            ),
            (
                1,
                node(Role::Window, "first", [0.0, 0.0, 200.0, 200.0], &[3]),
            ),
            (
                3,
                node(Role::Button, "a", [100.0, 100.0, 150.0, 130.0], &[]),
            ),
            (
                2,
                node(Role::Window, "second", [80.0, 80.0, 300.0, 300.0], &[4]),
            ),
            (
                4,
                node(Role::Button, "b", [150.0, 150.0, 190.0, 190.0], &[]),
            ),
        ])
    }

    #[test]
    fn the_reported_order_decides_which_window_is_on_top() {
        let mut t = two_windows();
        let why = refused(&mut t, "a", ErrorCode::Covered);
        assert!(why.contains("\"second\""), "{why}");
        assert!(click(&mut t, "b").is_ok());
        layers(&mut t, &[2, 1], None, vec![]);
        assert!(click(&mut t, "a").is_ok());
        let why = refused(&mut t, "b", ErrorCode::Covered);
        assert!(why.contains("\"first\""), "{why}");
    }

    #[test]
    fn a_modal_layer_blocks_every_layer_below_it() {
        let mut t = two_windows();
        // A tooltip layer (5) above the modal one takes input; the modal layer itself does.
        let tip = node(Role::Tooltip, "tip", [300.0, 0.0, 400.0, 40.0], &[6]);
        t.apply(SceneChange::Update(
            1,
            TreeUpdate {
                nodes: vec![
                    (
                        NodeId(0),
                        node(Role::Pane, "root", [0.0, 0.0, 400.0, 300.0], &[1, 2, 5]),
                    ),
                    (NodeId(5), tip),
                    (
                        NodeId(6),
                        node(Role::Button, "more", [310.0, 5.0, 390.0, 35.0], &[]),
                    ),
                ],
                tree: None,
                tree_id: TreeId::ROOT,
                focus: NodeId(0),
            },
        ));
        layers(&mut t, &[1, 2, 5], Some(2), vec![]);
        let why = refused(&mut t, "a", ErrorCode::Covered);
        assert!(
            why.contains("modal layer") && why.contains("\"second\""),
            "{why}"
        );
        assert!(click(&mut t, "b").is_ok());
        assert!(click(&mut t, "more").is_ok());
        // A layer above the modal one takes input, and covers what it lies on.
        layers(&mut t, &[2, 1, 5], Some(2), vec![]);
        assert!(click(&mut t, "a").is_ok());
        let why = refused(&mut t, "b", ErrorCode::Covered);
        assert!(!why.contains("modal") && why.contains("\"first\""), "{why}");
        // A modal root the order leaves out is the top layer.
        layers(&mut t, &[1], Some(2), vec![]);
        assert!(click(&mut t, "b").is_ok());
        assert!(refused(&mut t, "a", ErrorCode::Covered).contains("modal layer"));
        assert!(refused(&mut t, "more", ErrorCode::Covered).contains("modal layer"));
    }

    #[test]
    fn a_reported_clip_scrolls_rows_out() {
        let mut t = window(vec![
            (0, node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1])),
            (
                1,
                node(Role::List, "list", [0.0, 0.0, 200.0, 100.0], &[2, 3, 4]),
            ),
            (
                2,
                node(Role::Button, "row1", [10.0, 10.0, 190.0, 40.0], &[]),
            ),
            (
                3,
                node(Role::Button, "row2", [10.0, 60.0, 190.0, 90.0], &[]),
            ),
            (
                4,
                node(Role::Button, "row5", [10.0, 150.0, 190.0, 180.0], &[]),
            ),
        ]);
        // The tree says nothing clips: every row is in the window.
        for row in ["row1", "row2", "row5"] {
            assert!(click(&mut t, row).is_ok(), "{row}");
        }
        layers(&mut t, &[], None, vec![(1, None)]);
        assert!(click(&mut t, "row2").is_ok());
        refused(&mut t, "row5", ErrorCode::Offscreen);
        layers(
            &mut t,
            &[],
            None,
            vec![(1, Some(Rect::new(0.0, 0.0, 200.0, 50.0)))],
        );
        assert!(click(&mut t, "row1").is_ok());
        refused(&mut t, "row2", ErrorCode::Offscreen);
        // Back to nothing said.
        layers(&mut t, &[], None, vec![]);
        assert!(click(&mut t, "row5").is_ok());
    }

    #[test]
    fn a_layer_root_is_not_clipped_by_its_tree_ancestors() {
        let mut list = node(Role::List, "list", [0.0, 0.0, 200.0, 100.0], &[2]);
        list.set_clips_children();
        let mut t = window(vec![
            (0, node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1])),
            (1, list),
            (
                2,
                node(Role::Button, "row", [10.0, 10.0, 190.0, 40.0], &[3]),
            ),
            (
                3,
                node(Role::Menu, "menu", [10.0, 120.0, 150.0, 200.0], &[4]),
            ),
            (
                4,
                node(Role::MenuItem, "Paste", [10.0, 120.0, 150.0, 150.0], &[]),
            ),
        ]);
        refused(&mut t, "Paste", ErrorCode::Offscreen);
        layers(&mut t, &[3], None, vec![]);
        assert!(click(&mut t, "Paste").is_ok());
    }

    #[test]
    fn a_listed_layer_root_covers_whatever_its_role() {
        // A plain group (3) drawn as a popup over the button (2) that lies under it.
        let mut t = window(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
            ),
            (
                1,
                node(Role::Button, "opener", [10.0, 10.0, 90.0, 40.0], &[3]),
            ),
            (
                2,
                node(Role::Button, "under", [10.0, 50.0, 90.0, 80.0], &[]),
            ),
            (
                3,
                node(Role::Group, "popup", [0.0, 45.0, 200.0, 120.0], &[]),
            ),
        ]);
        assert!(
            click(&mut t, "under").is_ok(),
            "tree order alone: a group covers nothing"
        );
        layers(&mut t, &[0, 3], None, vec![]);
        let why = refused(&mut t, "under", ErrorCode::Covered);
        assert!(why.contains("popup"), "{why}");
    }

    #[test]
    fn a_popup_listed_above_a_modal_dialog_is_not_behind_it() {
        // A modal dialog (1) and, outside it in the tree, a menu (3) it opened, item 4.
        let mut dialog = node(Role::Dialog, "Settings", [50.0, 50.0, 350.0, 250.0], &[2]);
        dialog.set_modal();
        let mut t = window(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 3]),
            ),
            (1, dialog),
            (
                2,
                node(Role::Button, "apply", [60.0, 200.0, 140.0, 230.0], &[]),
            ),
            (
                3,
                node(Role::Menu, "menu", [100.0, 100.0, 200.0, 160.0], &[4]),
            ),
            (
                4,
                node(Role::MenuItem, "large", [100.0, 100.0, 200.0, 130.0], &[]),
            ),
        ]);
        let why = refused(&mut t, "large", ErrorCode::Covered);
        assert!(why.contains("modal"), "{why}");
        layers(&mut t, &[0, 1, 3], None, vec![]);
        assert!(click(&mut t, "large").is_ok());
        assert!(click(&mut t, "apply").is_ok());
    }
}

mod proxies;
