//! Trees, refs and snapshots through the real service thread: the test feeds trees on the render
//! side and asks through the client, as an agent would.
use crate::common;
use crate::common::fixture;

use std::time::Duration;

use accesskit::{Action, Node, NodeId, Role, TreeId, TreeUpdate};
use common::{SteppedApp, TestApp, ref_of, snapshot_frame, window_state};
use fixture::Form;
use winit::window::WindowId;
use winit_automation::{Bounds, Widget, WidgetStates};
use winit_automation_protocol::{ErrorCode, NodeLine, PROTOCOL_VERSION};

/// The test app with no window: the test feeds the plugin itself, as the render thread would.
fn bare() -> SteppedApp {
    TestApp::builder().name("trees").no_window().stepped()
}

/// The test app showing `form` in window 1, "Demo".
fn with_form(form: &Form) -> SteppedApp {
    TestApp::builder()
        .name("trees")
        .window(window_state("Demo", form.scale))
        .tree(form.update())
        .stepped()
}

fn win(n: u64) -> WindowId {
    WindowId::from(n)
}

/// The refs of a text's node lines, in order.
fn refs(text: &str) -> Vec<String> {
    NodeLine::all(text)
        .iter()
        .map(|n| n.r#ref.to_string())
        .collect()
}

#[test]
fn the_three_projections_of_the_form_at_scale_two() {
    let app = with_form(&Form {
        scale: 2.0,
        ..Form::default()
    });
    insta::assert_snapshot!("regular", app.snapshot("--force"));
    insta::assert_snapshot!("interactive", app.snapshot("-i"));
    insta::assert_snapshot!("raw", app.snapshot("--raw"));
    insta::assert_snapshot!("depth_1", app.snapshot("--depth 1"));
    insta::assert_snapshot!("scope_list", app.snapshot("--scope \"role=list\""));
}

/// `-i` is short: a ref, a role, a name and only the state that is not the default; `--bounds`
/// and `--actions` add those fields, which `get` and the other projections always print.
#[test]
fn interactive_lines_are_short_and_bounds_and_actions_come_on_request() {
    let app = with_form(&Form::default());
    let short = app.snapshot("-i");
    let line = |s: &str, what: &str| {
        s.lines()
            .find(|l| l.contains(what))
            .unwrap_or_else(|| panic!("no {what} in {s}"))
            .trim()
            .to_owned()
    };
    let remember = line(&short, "checkbox \"Remember me\"");
    assert!(remember.ends_with("checkbox \"Remember me\""), "{short}");
    assert!(
        !short.contains("bounds=") && !short.contains("actions="),
        "{short}"
    );
    let full = app.snapshot("-i --bounds --actions --force");
    assert!(
        line(&full, "checkbox \"Remember me\"")
            .ends_with("checkbox \"Remember me\" bounds=20,60,150x24 actions=click"),
        "{full}"
    );
    let bounds_only = app.snapshot("-i --bounds --force");
    assert!(
        bounds_only.contains("bounds=") && !bounds_only.contains("actions="),
        "{bounds_only}"
    );
    // Each view has its own memory: a view with other fields is not "unchanged".
    assert!(!app.snapshot("-i --actions").contains("unchanged since"));
    // get and the regular projection print every field.
    let r = remember.split(' ').next().unwrap();
    let details = app.ok(&format!("get {r}"));
    assert!(
        details.contains("bounds=20,60,150x24") && details.contains("actions=click"),
        "{details}"
    );
    let regular = app.snapshot("--force");
    assert!(
        line(&regular, "Remember me").contains(" unchecked bounds="),
        "{regular}"
    );
    // Short enough for an agent: under 40 bytes a node.
    let nodes: Vec<&str> = short
        .lines()
        .filter(|l| l.trim_start().starts_with('@'))
        .collect();
    let bytes: usize = nodes.iter().map(|l| l.len() + 1).sum();
    assert!(
        bytes < 40 * nodes.len(),
        "{bytes} bytes for {} nodes:\n{short}",
        nodes.len()
    );
}

#[test]
fn interactive_is_a_subset_of_regular_which_is_a_subset_of_raw() {
    let app = with_form(&Form::default());
    let (i, r, w) = (
        refs(&app.snapshot("-i")),
        refs(&app.snapshot("--force")),
        refs(&app.snapshot("--raw")),
    );
    assert!(i.iter().all(|x| r.contains(x)), "{i:?} ⊄ {r:?}");
    assert!(r.iter().all(|x| w.contains(x)), "{r:?} ⊄ {w:?}");
    assert!(i.len() < r.len() && r.len() < w.len());
}

#[test]
fn scrolling_the_list_moves_the_hidden_hints() {
    let mut form = Form::default();
    let app = with_form(&form);
    let top = app.snapshot("");
    assert!(
        top.contains("[45 items below in @e6 list \"Files\"]"),
        "{top}"
    );
    assert!(!top.contains("above]"));
    form.scroll = 200.0; // ten items up
    app.open_frame().tree_update(win(1), form.update());
    let middle = app.snapshot("");
    assert!(
        middle.contains("[10 items above in @e6 list \"Files\"]"),
        "{middle}"
    );
    assert!(
        middle.contains("[35 items below in @e6 list \"Files\"]"),
        "{middle}"
    );
    assert!(middle.contains("\"file-10.txt\""));
    assert!(!middle.contains("\"file-09.txt\""));
}

#[test]
fn hostile_labels_stay_on_their_line() {
    let form = Form {
        hostile: format!("{}\n\"\\\u{0}\u{1b}[2J\u{2028}😀", "x".repeat(10_000)),
        ..Form::default()
    };
    let app = with_form(&form);
    let raw = app.snapshot("--raw");
    // One line per node (root, 6 children, 50 items), plus the header and the window line.
    assert_eq!(raw.lines().count(), 2 + 1 + 6 + 50, "{raw}");
    let line = raw.lines().find(|l| l.contains("xxxx")).unwrap();
    assert!(!line.chars().any(char::is_control));
    assert!(
        line.contains("\\n\\\"\\\\\\u0000\\u001b[2J\\u2028😀\""),
        "{}",
        &line[line.len() - 60..]
    );
}

#[test]
fn refs_are_stable_across_updates_and_refuse_removed_renamed_or_retyped_nodes() {
    let mut form = Form::default();
    let app = with_form(&form);
    let first = app.snapshot("");
    let save = ref_of(&first, "\"Save\"");
    let remember = ref_of(&first, "\"Remember me\"");
    let email = ref_of(&first, "\"Email\"");

    // A changed state keeps the ref: the node is the same, with the same role and name.
    form.remember = true;
    app.open_frame().tree_update(win(1), form.update());
    let second = app.snapshot("");
    assert_eq!(ref_of(&second, "\"Remember me\""), remember);
    assert!(second.contains(&format!("{remember} checkbox \"Remember me\" checked")));

    // Renamed: the old ref is refused, the node gets a new one.
    form.save_label = "Save all".into();
    app.open_frame().tree_update(win(1), form.update());
    let r = app.send(&format!("get {save}"));
    assert_eq!(r.error_code(), Some(ErrorCode::StaleRef), "{r:?}");
    let winit_automation_protocol::Outcome::Error { message, .. } = &r.outcome else {
        unreachable!()
    };
    assert!(
        message.contains("was named \"Save\" and is now named \"Save all\""),
        "{message}"
    );
    let renamed = ref_of(&app.snapshot(""), "\"Save all\"");
    assert_ne!(renamed, save);

    // Role changed.
    let mut update = form.update();
    for (id, node) in &mut update.nodes {
        if *id == fixture::EMAIL {
            node.set_role(Role::Button);
        }
    }
    app.open_frame().tree_update(win(1), update);
    let r = app.send(&format!("get {email}"));
    assert_eq!(r.error_code(), Some(ErrorCode::StaleRef), "{r:?}");

    // Removed.
    form.dialog_open = true;
    app.open_frame().tree_update(win(1), form.update());
    let dialog = ref_of(&app.snapshot(""), "dialog \"Confirm\"");
    form.dialog_open = false;
    app.open_frame().tree_update(win(1), form.update());
    let r = app.send(&format!("get {dialog}"));
    assert_eq!(r.error_code(), Some(ErrorCode::StaleRef));
    assert!(r.to_text().contains("was removed"), "{}", r.to_text());

    // An unnamed text node that shows another text (egui gives a position's label the same id
    // whatever it shows: a reordered list) is another node for its ref.
    let mut update = form.update();
    let label = |text: &str| {
        let mut node = Node::new(Role::Label);
        node.set_value(text);
        node.set_bounds(accesskit::Rect::new(20.0, 500.0, 120.0, 520.0));
        node
    };
    let root = update
        .nodes
        .iter_mut()
        .find(|(id, _)| *id == update.tree.as_ref().unwrap().root)
        .map(|(_, n)| n)
        .unwrap();
    root.push_child(NodeId(9000));
    update.nodes.push((NodeId(9000), label("Item A")));
    app.open_frame().tree_update(win(1), update.clone());
    let item = ref_of(&app.snapshot(""), "text value=\"Item A\"");
    let last = update.nodes.len() - 1;
    update.nodes[last].1 = label("Item B");
    app.open_frame().tree_update(win(1), update);
    let r = app.send(&format!("get {item}"));
    assert_eq!(r.error_code(), Some(ErrorCode::StaleRef), "{r:?}");
    let message = r.failure().map(|f| f.message).unwrap_or_default();
    assert!(
        message.contains("showed \"Item A\" and now shows \"Item B\""),
        "{message}"
    );

    // Never handed out.
    assert_eq!(app.error_code("get @e99999"), ErrorCode::NotFound);
    // Refs only grow: no number is reused.
    let all: Vec<u64> = refs(&app.snapshot("--raw"))
        .iter()
        .map(|r| r[2..].parse().unwrap())
        .collect();
    assert!(all.iter().all(|&n| n > 0));
    assert!(all.contains(&renamed[2..].parse().unwrap()));
}

#[test]
fn a_moved_node_keeps_its_ref() {
    let app = bare();
    let tree = |parent_of_b: u64| {
        let mut root = Node::new(Role::Window);
        root.set_children(vec![NodeId(1), NodeId(2)]);
        let mut a = Node::new(Role::Group);
        a.set_label("A");
        let mut b = Node::new(Role::Group);
        b.set_label("B");
        let mut leaf = Node::new(Role::Button);
        leaf.set_label("Leaf");
        if parent_of_b == 1 {
            a.set_children(vec![NodeId(3)]);
        } else {
            b.set_children(vec![NodeId(3)]);
        }
        TreeUpdate {
            nodes: vec![
                (NodeId(0), root),
                (NodeId(1), a),
                (NodeId(2), b),
                (NodeId(3), leaf),
            ],
            tree: Some(accesskit::TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        }
    };
    app.open_frame().tree_update(win(1), tree(1));
    let before = ref_of(&app.snapshot(""), "\"Leaf\"");
    app.open_frame().tree_update(win(1), tree(2));
    let after = app.snapshot("");
    assert_eq!(ref_of(&after, "\"Leaf\""), before);
    assert!(app.ok(&format!("get {before}")).contains("parent @e"));
}

#[test]
fn find_get_and_ambiguous_selectors() {
    let app = with_form(&Form::default());
    let found = app.ok("find role=listitem name~=FILE-0");
    assert!(found.starts_with("matches 10\n"), "{found}");
    assert!(
        app.ok("find role=listitem nth=3")
            .contains("\"file-03.txt\"")
    );
    // A role no node has matches nothing; a value that is no role at all is refused.
    assert!(app.ok("find role=dialog").starts_with("matches 0\n"));
    assert_eq!(app.error_code("find role=nothing"), ErrorCode::BadArgument);

    let r = app.send("get role=listitem");
    assert_eq!(r.error_code(), Some(ErrorCode::Ambiguous));
    assert_eq!(r.body().lines().count(), 50, "the candidates are listed");

    let details = app.ok("get role=checkbox");
    assert!(
        details.contains("checkbox \"Remember me\" unchecked"),
        "{details}"
    );
    assert!(details.contains("window 1\n"));
    // A point in logical pixels hits the deepest node there.
    assert!(app.ok("get 30,150").contains("button \"Save\""));
    assert_eq!(
        app.error_code("get role=button name=Nope"),
        ErrorCode::NotFound
    );
}

#[test]
fn text_selectors_match_a_label_by_its_value_where_name_selectors_do_not() {
    // The hostile label's text is only in its AccessKit value, as egui publishes labels.
    let app = with_form(&Form {
        hostile: "Welcome to the gallery".into(),
        ..Form::default()
    });
    assert!(app.ok("find name~=Welcome").starts_with("matches 0\n"));
    let found = app.ok("find text~=welcome");
    assert!(found.starts_with("matches 1\n"), "{found}");
    assert!(
        found.contains(" text value=\"Welcome to the gallery\""),
        "{found}"
    );
    let label = refs(&found)[0].clone();
    // Exact text: the whole value, case and all.
    assert_eq!(
        refs(&app.ok("find text=\"Welcome to the gallery\"")),
        [label.as_str()]
    );
    assert!(app.ok("find text=Welcome").starts_with("matches 0\n"));
    assert!(
        app.ok("find text=\"welcome to the gallery\"")
            .starts_with("matches 0\n")
    );
    // The name counts too: text= finds the button named Save, text~= the email box by its value.
    assert!(
        app.ok("find text=Save").contains("button \"Save\""),
        "text= matches names"
    );
    let by_value = app.ok("find role=textbox text~=EXAMPLE.com");
    assert!(by_value.contains("textbox \"Email\""), "{by_value}");
    // get resolves by text, to the same node and ref.
    let details = app.ok("get text~=gallery");
    assert!(details.starts_with(&format!("{label} text ")), "{details}");
    assert!(details.contains("node_id 8\n"), "{details}");
    let r = app.send("get text~=zzz");
    assert_eq!(r.error_code(), Some(ErrorCode::NotFound), "{r:?}");
}

#[test]
fn a_node_whose_bounds_are_not_finite_prints_no_bounds_and_hides_none_of_its_children() {
    let app = TestApp::builder()
        .name("trees")
        .window(window_state("Gallery", 1.0))
        .tree(fixture::unbounded_table())
        .stepped();
    let regular = app.snapshot("");
    let table = regular
        .lines()
        .find(|l| l.contains("group \"table\""))
        .unwrap_or_else(|| panic!("no table in\n{regular}"));
    // Neither `bounds=0,0,0x0` nor NaN: no bounds field at all.
    assert!(!table.contains("bounds="), "{table}");
    assert!(table.ends_with(" actions=click"), "{table}");
    // Its children are judged by their own bounds: the finite row and the unbounded one are
    // shown; only the row below the window is cut off (by the window, not by the table).
    let row_one = regular
        .lines()
        .find(|l| l.contains("row \"row one\""))
        .unwrap_or_else(|| panic!("no row one in\n{regular}"));
    assert!(row_one.ends_with(" bounds=10,100,200x20"), "{row_one}");
    let everywhere = regular
        .lines()
        .find(|l| l.contains("row \"row everywhere\""))
        .unwrap_or_else(|| panic!("no unbounded row in\n{regular}"));
    assert!(!everywhere.contains("bounds="), "{everywhere}");
    assert!(!regular.contains("left]"), "{regular}");
    assert!(regular.contains("[1 item below the window]"), "{regular}");
    assert!(!regular.contains("\"row below\""), "{regular}");
    // The raw projection marks only that row off-screen.
    let raw = app.snapshot("--raw");
    let offscreen: Vec<_> = raw.lines().filter(|l| l.ends_with(" offscreen")).collect();
    assert_eq!(offscreen.len(), 1, "{raw}");
    assert!(offscreen[0].contains("\"row below\""), "{raw}");
    // `get` says why the table has no bounds; a point on it hits what lies under it.
    let details = app.ok("get name=table");
    assert!(details.contains("\nbounds_not_finite\n"), "{details}");
    assert!(app.ok("get 50,20").contains("button \"Under\""));
    assert!(app.ok("get 400,300").contains("window \"Gallery\""));
}

#[test]
fn wait_is_answered_when_a_later_frame_satisfies_it() {
    let mut form = Form::default();
    let app = with_form(&form);
    let seq = app
        .client()
        .enqueue_line("wait role=dialog name=Confirm --timeout 20000")
        .unwrap();
    // A pending wait does not hold up later commands, and commands are read in seq order: once
    // this status is answered, the wait has been checked against the tree without the dialog.
    app.ok("status");
    assert!(!app.dir().join(format!("response-{seq}.txt")).exists());
    form.dialog_open = true;
    app.open_frame().tree_update(win(1), form.update());
    let r = app.client().wait(seq).unwrap();
    assert!(r.is_ok(), "{r:?}");
    assert!(r.body().contains("dialog \"Confirm\""));

    // --gone, satisfied at once when nothing matches.
    assert!(
        app.ok("wait role=dialog name=Nope --gone")
            .contains("matches 0")
    );
    // A timeout is its own error, with what matches now.
    let r = app.send("wait role=dialog --gone --timeout 50");
    assert_eq!(r.error_code(), Some(ErrorCode::Timeout));
    assert!(r.body().contains("\"Confirm\""));
}

#[test]
fn several_windows_each_get_their_block() {
    let app = with_form(&Form::default());
    app.automation()
        .window_state(win(2), window_state("Palette", 1.0));
    app.open_frame().widgets(
        win(2),
        vec![
            Widget::new("red", Role::Button, "Red")
                .bounds(Bounds::new(0.0, 0.0, 50.0, 20.0))
                .action(Action::Click),
            Widget::new("blue", Role::Button, "Blue")
                .bounds(Bounds::new(0.0, 30.0, 50.0, 20.0))
                .states(WidgetStates {
                    disabled: true,
                    ..Default::default()
                }),
        ],
    );
    let text = app.snapshot("");
    assert!(text.contains("window 1 \"Demo\""));
    assert!(
        text.contains("window 2 \"Palette\" size=800x600 scale=1 focused\n"),
        "{text}"
    );
    assert!(
        text.contains("button \"Blue\" disabled bounds=0,30,50x20"),
        "{text}"
    );
    let windows = app.ok("windows");
    assert_eq!(windows.lines().count(), 2, "{windows}");
    assert!(app.ok("find role=button").starts_with("matches 3\n"));
    assert!(app.ok("get id=red").contains("author_id \"red\""));

    app.automation().window_closed(win(2));
    assert_eq!(app.ok("windows").lines().count(), 1);
}

#[test]
fn widget_records_become_the_same_kind_of_tree() {
    let app = bare();
    app.automation()
        .window_state(win(1), window_state("Game", 2.0));
    let hud = |health: &str| {
        vec![
            Widget::new("hud", Role::Group, "HUD").bounds(Bounds::new(0.0, 0.0, 800.0, 40.0)),
            Widget::new("health", Role::Label, "Health")
                .parent("hud")
                .value(health)
                .bounds(Bounds::new(10.0, 10.0, 100.0, 20.0)),
            Widget::new("pause", Role::Button, "Pause")
                .parent("hud")
                .bounds(Bounds::new(700.0, 5.0, 80.0, 30.0))
                .action(Action::Click),
            Widget::new("offscreen", Role::Button, "Far away")
                .bounds(Bounds::new(2000.0, 5.0, 80.0, 30.0)),
        ]
    };
    app.open_frame().widgets(win(1), hud("100"));
    insta::assert_snapshot!("widgets", app.snapshot(""));
    let pause = ref_of(&app.snapshot("--force"), "\"Pause\"");
    app.open_frame().widgets(win(1), hud("90"));
    let text = app.snapshot("");
    assert!(text.contains("value=\"90\""));
    assert_eq!(
        ref_of(&text, "\"Pause\""),
        pause,
        "refs survive a new set of records"
    );
}

#[test]
fn an_app_with_no_tree_is_reported_sparse_never_as_an_empty_screen() {
    let app = bare();
    let text = app.snapshot("");
    assert!(
        text.starts_with(&format!(
            "snapshot frame=0 protocol={PROTOCOL_VERSION} quality=sparse\n"
        )),
        "{text}"
    );
    assert!(
        text.contains("warning \"no window has published a tree yet"),
        "{text}"
    );
    app.automation()
        .window_state(win(1), window_state("Empty", 1.0));
    let mut root = Node::new(Role::Window);
    root.set_label("Empty");
    app.open_frame().tree_update(
        win(1),
        TreeUpdate {
            nodes: vec![(NodeId(0), root)],
            tree: Some(accesskit::TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        },
    );
    let text = app.snapshot("");
    assert!(text.contains("quality=sparse"), "{text}");
    assert!(text.contains("the app publishes no accessibility tree (or only its root)"));
}

#[test]
fn an_unchanged_tree_answers_unchanged_and_diff_shows_what_changed() {
    let mut form = Form::default();
    let app = with_form(&form);
    app.end_frame();
    let first = app.snapshot("");
    assert!(first.contains("\"Remember me\""));
    let again = app.snapshot("");
    assert!(again.contains("unchanged since frame "), "{again}");
    assert!(!again.contains("\"Remember me\""));
    assert!(app.snapshot("--force").contains("\"Remember me\""));
    form.remember = true;
    app.open_frame().tree_update(win(1), form.update());
    let diff = app.snapshot("--diff");
    assert!(diff.contains("~ @e"), "{diff}");
    assert!(diff.contains("checkbox \"Remember me\" checked"), "{diff}");
    assert_eq!(
        diff.lines()
            .filter(|l| l.starts_with(['+', '-', '~']))
            .count(),
        1,
        "{diff}"
    );
}

/// `--since FRAME`: the client says which frame it saw, and the answer depends on the app's trees
/// alone. Another client's snapshot in between (which the default "unchanged since" remembers)
/// changes nothing.
#[test]
fn since_answers_from_the_app_s_trees_not_from_another_client_s_snapshots() {
    let mut form = Form::default();
    let app = with_form(&form);
    app.end_frame();
    let first = app.snapshot("-i");
    let seen = snapshot_frame(&first);
    app.snapshot("-i");
    let again = app.snapshot(&format!("-i --since {seen}"));
    assert!(again.contains("unchanged since frame "), "{again}");
    assert!(!again.contains("Remember me"), "{again}");
    assert!(
        app.snapshot(&format!("-i --since {seen} --force"))
            .contains("checkbox \"Remember me\"")
    );

    // A change in a later frame: the tree, or with --diff the change since the frame it saw.
    app.end_frame();
    form.remember = true;
    app.open_frame().tree_update(win(1), form.update());
    app.end_frame();
    let whole = app.snapshot(&format!("-i --since {seen}"));
    assert!(
        whole.contains("checkbox \"Remember me\" checked"),
        "{whole}"
    );
    assert!(whole.contains("textbox \"Email\""), "{whole}");
    let changes = app.snapshot(&format!("-i --since {seen} --diff"));
    let lines: Vec<&str> = changes
        .lines()
        .filter(|l| l.starts_with(['+', '-', '~']))
        .collect();
    assert_eq!(lines.len(), 1, "{changes}");
    assert!(
        lines[0].starts_with("~ @e") && lines[0].ends_with("checkbox \"Remember me\" checked"),
        "{changes}"
    );
    // Up to date now: unchanged since the frame of the change.
    let now = snapshot_frame(&changes);
    let up_to_date = app.snapshot(&format!("-i --since {now}"));
    assert!(
        up_to_date.contains("unchanged since frame "),
        "{up_to_date}"
    );

    // A frame no snapshot of the view saw: the whole tree, saying so.
    let unknown = app.snapshot("--raw --since 0 --diff");
    assert!(
        unknown.contains("whole tree: this view was not snapshotted as of frame 0"),
        "{unknown}"
    );
    assert!(
        unknown.contains("checkbox \"Remember me\" checked"),
        "{unknown}"
    );
}

#[test]
fn diff_and_unchanged_compare_with_the_last_snapshot_of_the_same_view() {
    let mut form = Form::default();
    let app = with_form(&form);
    app.end_frame();
    let regular = app.snapshot("");
    assert!(
        regular.contains("[45 items below in @e6 list \"Files\"]"),
        "{regular}"
    );
    let interactive = app.snapshot("-i");
    assert!(interactive.contains("\"Remember me\""), "{interactive}");
    // Another projection in between does not make the regular one look changed.
    let again = app.snapshot("");
    assert!(again.contains("unchanged since frame "), "{again}");
    app.snapshot("-i");
    let changes = |text: &str| {
        text.lines()
            .filter(|l| l.starts_with(['+', '-', '~']))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    form.remember = true;
    app.open_frame().tree_update(win(1), form.update());
    // Against the regular snapshot, not the interactive one taken after it: one changed line.
    let diff = app.snapshot("--diff");
    let lines = changes(&diff);
    assert_eq!(lines.len(), 1, "{diff}");
    assert!(lines[0].starts_with("~ @e"), "{diff}");
    assert!(
        lines[0].contains("checkbox \"Remember me\" checked"),
        "{diff}"
    );
    // The interactive projection has its own last snapshot, and the same one change.
    let diff = app.snapshot("-i --diff");
    let lines = changes(&diff);
    assert_eq!(lines.len(), 1, "{diff}");
    assert!(
        lines[0].contains("checkbox \"Remember me\" checked"),
        "{diff}"
    );
    // A depth or a scope is a view of its own: the first --diff of one prints the whole view.
    let list = app.snapshot("--scope role=list --diff");
    assert!(changes(&list).is_empty(), "{list}");
    assert!(list.contains("list \"Files\""), "{list}");
    form.scroll = 20.0;
    app.open_frame().tree_update(win(1), form.update());
    let list = app.snapshot("--scope role=list --diff");
    assert!(
        list.contains("+ [1 item above in @e6 list \"Files\"]"),
        "{list}"
    );
    assert!(!list.contains("Remember me"), "{list}");
}

#[test]
fn the_artifacts_follow_the_tree_and_accessibility_txt_is_byte_identical_for_the_same_state() {
    let mut form = Form::default();
    let app = with_form(&form);
    let read = |name: &str| {
        common::eventually(Duration::from_secs(20), || {
            std::fs::read_to_string(app.dir().join(name)).ok()
        })
        .unwrap()
    };
    let a1 = common::eventually(Duration::from_secs(20), || {
        let t = std::fs::read_to_string(app.dir().join("accessibility.txt")).ok()?;
        t.contains("\"Remember me\" unchecked").then_some(t)
    })
    .unwrap();
    form.remember = true;
    app.open_frame().tree_update(win(1), form.update());
    common::eventually(Duration::from_secs(20), || {
        read("accessibility.txt")
            .contains("\"Remember me\" checked")
            .then_some(())
    })
    .unwrap();
    form.remember = false;
    app.open_frame().tree_update(win(1), form.update());
    let a2 = common::eventually(Duration::from_secs(20), || {
        let t = read("accessibility.txt");
        t.contains("\"Remember me\" unchecked").then_some(t)
    })
    .unwrap();
    assert_eq!(a1, a2);
    assert!(read("snapshot.txt").starts_with("snapshot frame="));
    assert!(read("windows.txt").starts_with("window 1 \"Demo\""));
}

#[test]
fn a_ten_thousand_node_tree_and_a_five_thousand_level_tree() {
    let app = bare();
    app.automation()
        .window_state(win(1), window_state("Big", 1.0));
    app.open_frame().tree_update(win(1), fixture::wide(10_000));
    let raw = app.snapshot("--raw");
    assert_eq!(
        raw.lines().filter(|l| l.contains(" button ")).count(),
        10_000
    );
    let regular = app.snapshot("");
    // 600 logical pixels of 10-pixel buttons are visible; the rest is a hint, not a cutoff.
    assert_eq!(
        regular.lines().filter(|l| l.contains(" button ")).count(),
        60
    );
    assert!(
        regular.contains("[9940 items below the window]"),
        "{}",
        &regular[regular.len() - 200..]
    );

    app.automation()
        .window_state(win(2), window_state("Deep", 1.0));
    app.open_frame().tree_update(win(2), fixture::deep(5_000));
    let deep = app.snapshot("--raw --scope \"name=\\\"level 0\\\"\"");
    assert_eq!(
        deep.lines().filter(|l| l.contains("\"level ")).count(),
        5_000
    );
    assert!(
        deep.contains(&format!("{}@e", "  ".repeat(5_000))),
        "indentation follows depth"
    );
}

#[test]
fn an_invalid_update_is_reported_and_the_app_keeps_answering() {
    let app = with_form(&Form::default());
    let mut root = Node::new(Role::Window);
    root.set_children(vec![NodeId(12345)]);
    app.open_frame().tree_update(
        win(1),
        TreeUpdate {
            nodes: vec![(fixture::ROOT, root)],
            tree: None,
            tree_id: TreeId::ROOT,
            focus: fixture::ROOT,
        },
    );
    let text = app.snapshot("");
    assert!(
        text.contains("error=\"the app sent an invalid TreeUpdate"),
        "{text}"
    );
    assert!(
        app.ok("status")
            .contains(&format!("protocol {PROTOCOL_VERSION}\n"))
    );
    app.open_frame()
        .tree_update(win(1), Form::default().update());
    assert!(!app.snapshot("").contains("error="));
}

#[test]
fn a_scoped_snapshot_hides_what_the_scope_s_ancestors_clip() {
    let app = with_form(&Form::default());
    let item = ref_of(&app.snapshot("--raw"), "\"file-30.txt\"");
    let scoped = app.snapshot(&format!("--scope {item}"));
    // The item itself is shown (it was asked for); the whole-tree regular walk hides it.
    assert!(scoped.contains("\"file-30.txt\""));
    let list = app.snapshot("--scope role=list --force");
    assert!(!list.contains("\"file-30.txt\""), "{list}");
    assert!(list.contains("[45 items below in @e6 list \"Files\"]"));
}

#[test]
fn diff_keeps_repeated_hint_lines_apart() {
    let mut form = Form::default();
    let app = with_form(&form);
    app.snapshot("");
    form.scroll = 20.0;
    app.open_frame().tree_update(win(1), form.update());
    let diff = app.snapshot("--diff");
    assert!(
        diff.contains("- [45 items below in @e6 list \"Files\"]"),
        "{diff}"
    );
    assert!(
        diff.contains("+ [44 items below in @e6 list \"Files\"]"),
        "{diff}"
    );
    assert!(
        diff.contains("+ [1 item above in @e6 list \"Files\"]"),
        "{diff}"
    );
}

#[test]
fn a_scope_inside_a_scroll_view_keeps_the_scroll_view_s_clip() {
    let app = bare();
    app.automation()
        .window_state(win(1), window_state("Clip", 1.0));
    let rect = |y0: f64, y1: f64| accesskit::Rect::new(0.0, y0, 100.0, y1);
    let mut root = Node::new(Role::Window);
    root.set_children(vec![NodeId(1)]);
    let mut view = Node::new(Role::ScrollView);
    view.set_bounds(rect(0.0, 100.0));
    view.set_clips_children();
    view.set_children(vec![NodeId(2)]);
    // A group without bounds between the clipping view and its rows.
    let mut group = Node::new(Role::Group);
    group.set_label("Rows");
    group.set_children(vec![NodeId(3), NodeId(4)]);
    let mut near = Node::new(Role::Button);
    near.set_label("Near");
    near.set_bounds(rect(10.0, 30.0));
    let mut far = Node::new(Role::Button);
    far.set_label("Far");
    far.set_bounds(rect(300.0, 320.0));
    app.open_frame().tree_update(
        win(1),
        TreeUpdate {
            nodes: vec![
                (NodeId(0), root),
                (NodeId(1), view),
                (NodeId(2), group),
                (NodeId(3), near),
                (NodeId(4), far),
            ],
            tree: Some(accesskit::TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        },
    );
    let scoped = app.snapshot("--scope name=Rows");
    assert!(scoped.contains("\"Near\""), "{scoped}");
    assert!(!scoped.contains("\"Far\""), "{scoped}");
    // Cut off by the scroll view above the scope, which the hint names by its ref.
    let view = ref_of(&app.ok("find role=scrollview"), "scrollview");
    assert!(
        scoped.contains(&format!("[1 item below in {view} scrollview]")),
        "{scoped}"
    );
}

/// The snapshot formatter writes node lines itself (no `NodeLine` per node: a 10,000-node snapshot
/// has a budget); every line it writes, in every view and in `find` and `get`, reads back as the
/// protocol's `NodeLine` and writes back byte for byte, so the two cannot drift apart.
#[test]
fn every_node_line_the_app_writes_parses_as_a_node_line_and_writes_back_the_same() {
    let app = with_form(&Form {
        // Fractional bounds, a checked box, a scrolled list (cut-off rows), a dialog.
        scale: 1.5,
        remember: true,
        scroll: 13.3,
        dialog_open: true,
        ..Form::default()
    });
    app.automation()
        .window_state(win(2), window_state("States", 1.0));
    app.open_frame().widgets(
        win(2),
        vec![
            Widget::new("off", Role::Button, "Off")
                .bounds(Bounds::new(0.5, 0.25, 50.0, 20.0))
                .action(Action::Click)
                .states(WidgetStates {
                    disabled: true,
                    checked: Some(false),
                    ..Default::default()
                }),
            Widget::new("tree", Role::TreeItem, "Open")
                .bounds(Bounds::new(0.0, 30.0, 50.0, 20.0))
                .states(WidgetStates {
                    selected: Some(true),
                    expanded: Some(true),
                    ..Default::default()
                }),
            Widget::new("shut", Role::TreeItem, "Shut")
                .bounds(Bounds::new(0.0, 60.0, 50.0, 20.0))
                .states(WidgetStates {
                    expanded: Some(false),
                    ..Default::default()
                }),
            Widget::new("gone", Role::Button, "Gone")
                .bounds(Bounds::new(0.0, 90.0, 50.0, 20.0))
                .states(WidgetStates {
                    hidden: true,
                    ..Default::default()
                }),
            Widget::new("far", Role::Button, "Far").bounds(Bounds::new(5000.0, 0.0, 50.0, 20.0)),
            Widget::new("none", Role::Group, "No bounds").value("x \"y\"\nz"),
        ],
    );
    let mut texts = Vec::new();
    for view in [
        "--force",
        "-i --force",
        "-i --bounds --actions --force",
        "--raw --force",
    ] {
        texts.push((view, app.snapshot(view)));
    }
    for query in [
        "find role=listitem",
        "find role=treeitem",
        "get role=checkbox",
    ] {
        texts.push((query, app.ok(query)));
    }
    let mut checked = 0;
    let mut words = std::collections::BTreeSet::new();
    for (view, text) in &texts {
        for line in text.lines().filter(|l| l.trim_start().starts_with("@e")) {
            let parsed =
                NodeLine::parse(line).unwrap_or_else(|| panic!("{view}: {line:?} is no node line"));
            assert_eq!(parsed.to_string(), line.trim_start(), "{view}");
            words.extend(parsed.states());
            checked += 1;
        }
    }
    // The positive control: the views did print lines of every kind the check is about.
    assert!(checked > 60, "{checked} lines: {texts:?}");
    for word in [
        "focused",
        "disabled",
        "checked",
        "unchecked",
        "selected",
        "expanded",
        "collapsed",
        "hidden",
        "offscreen",
    ] {
        assert!(words.contains(word), "no {word} line in {texts:?}");
    }
}

/// A tree view in a scroll view: rows of several items each, cut off below the view's edge, and
/// a wide row cut off on the right. The snapshot says it once per container and direction, after
/// the container's last shown node, naming the container by a ref the agent can scroll, not once
/// per row detached from it; `-i`, which prints no scroll view, still names it.
#[test]
fn cut_off_items_are_one_hint_per_container_and_direction() {
    let app = bare();
    app.automation()
        .window_state(win(1), window_state("Tree", 1.0));
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| accesskit::Rect::new(x0, y0, x1, y1);
    let mut nodes = Vec::new();
    let mut root = Node::new(Role::Window);
    root.set_children(vec![NodeId(1)]);
    nodes.push((NodeId(0), root));
    let mut view = Node::new(Role::ScrollView);
    view.set_label("Tree");
    view.set_bounds(rect(0.0, 0.0, 200.0, 100.0));
    view.set_clips_children();
    // Four rows (groups without bounds of their own), three items each at y = 40 * row + 20 *
    // item: 0..100 is shown, so the first two rows show all three, the third one, the last none.
    let rows: Vec<NodeId> = (0..4).map(|r| NodeId(10 + r)).collect();
    view.set_children(rows.clone());
    nodes.push((NodeId(1), view));
    for (r, &row_id) in rows.iter().enumerate() {
        let mut row = Node::new(Role::Group);
        let items: Vec<NodeId> = (0..3).map(|i| NodeId(100 + 10 * r as u64 + i)).collect();
        row.set_children(items.clone());
        nodes.push((row_id, row));
        for (i, &id) in items.iter().enumerate() {
            let y = 40.0 * r as f64 + 20.0 * i as f64;
            let mut item = Node::new(Role::TreeItem);
            item.set_label(format!("item {r}.{i}"));
            item.add_action(Action::Click);
            item.set_bounds(rect(0.0, y, 150.0, y + 20.0));
            nodes.push((id, item));
        }
    }
    // A row's item wholly to the right of the view.
    let mut right = Node::new(Role::TreeItem);
    right.set_label("far right");
    right.add_action(Action::Click);
    right.set_bounds(rect(300.0, 0.0, 400.0, 20.0));
    nodes.push((NodeId(200), right));
    if let Some((_, row)) = nodes.iter_mut().find(|(id, _)| *id == NodeId(10)) {
        row.push_child(NodeId(200));
    }
    app.open_frame().tree_update(
        win(1),
        TreeUpdate {
            nodes,
            tree: Some(accesskit::TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        },
    );
    let regular = app.snapshot("--force");
    let view_ref = ref_of(&regular, "scrollview \"Tree\"");
    let hints: Vec<&str> = regular
        .lines()
        .filter(|l| l.trim_start().starts_with('['))
        .collect();
    // Two items of the third row and the whole fourth (their groups have no bounds: each item
    // counts): 5 items, one line where the rows would have said it twice; the far-right item of
    // the first row, one more.
    assert_eq!(
        hints,
        [
            format!("      [5 items below in {view_ref} scrollview \"Tree\"]"),
            format!("      [1 item right in {view_ref} scrollview \"Tree\"]"),
        ],
        "{regular}"
    );
    // The hints come after the view's last node, at its children's indentation.
    assert!(
        regular.ends_with(&format!(
            "item 2.0\" bounds=0,80,150x20 actions=click\n      @e13 group\n{}\n{}\n",
            hints[0], hints[1]
        )),
        "{regular}"
    );
    // `-i` prints no scroll view but names it, with the same ref, among its lines at the margin.
    let interactive = app.snapshot("-i");
    assert!(
        interactive.contains(&format!(
            "\n[5 items below in {view_ref} scrollview \"Tree\"]\n"
        )),
        "{interactive}"
    );
    // The ref the hint gave scrolls that view: it resolves to it.
    let got = app.ok(&format!("get {view_ref}"));
    assert!(
        got.starts_with(&format!("{view_ref} scrollview \"Tree\"")),
        "{got}"
    );
}

/// A settings row as egui grids and forms publish it: a text node, then a control with no name
/// of its own. The control carries the text as `label=`, never as its name, and `label=` /
/// `label~=` select it; a named control, a text on another row, and a paragraph are no labels.
#[test]
fn an_unnamed_control_takes_the_label_placed_before_it_in_its_row() {
    let app = bare();
    app.automation()
        .window_state(win(1), window_state("Settings", 1.0));
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| accesskit::Rect::new(x0, y0, x1, y1);
    let text = |value: &str, r: accesskit::Rect| {
        let mut n = Node::new(Role::Label);
        n.set_value(value);
        n.set_bounds(r);
        n
    };
    let control = |role: Role, r: accesskit::Rect| {
        let mut n = Node::new(role);
        n.add_action(Action::Click);
        n.set_bounds(r);
        n
    };
    let mut root = Node::new(Role::Window);
    root.set_children((1..=9).map(NodeId).collect::<Vec<_>>());
    // Row 1: "Snap to grid:" and an unnamed checkbox.
    let snap = text("Snap to grid:", rect(0.0, 0.0, 90.0, 20.0));
    let mut unnamed = control(Role::CheckBox, rect(100.0, 2.0, 116.0, 18.0));
    unnamed.set_toggled(accesskit::Toggled::False);
    // Row 2: a label, and a checkbox in a cell of its own (one container down).
    let show = text("Show grid", rect(0.0, 30.0, 90.0, 50.0));
    let mut cell = Node::new(Role::GenericContainer);
    cell.set_bounds(rect(100.0, 30.0, 200.0, 50.0));
    cell.set_children(vec![NodeId(20)]);
    // Row 3: a label before a named checkbox: the name wins, no label is printed.
    let named_text = text("Grid size:", rect(0.0, 60.0, 90.0, 80.0));
    let mut named = control(Role::CheckBox, rect(100.0, 60.0, 116.0, 80.0));
    named.set_label("Large");
    // Row 4: a two-line paragraph, then a button on its row: not a label.
    let paragraph = text("Read this\nfirst", rect(0.0, 90.0, 90.0, 110.0));
    let lone = control(Role::Button, rect(100.0, 90.0, 150.0, 110.0));
    let mut in_cell = control(Role::CheckBox, rect(100.0, 30.0, 116.0, 50.0));
    in_cell.set_toggled(accesskit::Toggled::True);
    app.open_frame().tree_update(
        win(1),
        TreeUpdate {
            nodes: vec![
                (NodeId(0), root),
                (NodeId(1), snap),
                (NodeId(2), unnamed),
                (NodeId(3), show),
                (NodeId(4), cell),
                (NodeId(5), named_text),
                (NodeId(6), named),
                (NodeId(7), paragraph),
                (NodeId(8), lone),
                (NodeId(9), text("Below", rect(0.0, 200.0, 90.0, 220.0))),
                (NodeId(20), in_cell),
            ],
            tree: Some(accesskit::TreeInfo::new(NodeId(0))),
            tree_id: TreeId::ROOT,
            focus: NodeId(0),
        },
    );
    let interactive = app.snapshot("-i");
    let lines: Vec<&str> = interactive.lines().skip(2).take(4).collect();
    let refs = refs(&interactive);
    assert_eq!(
        lines,
        [
            format!("{} checkbox label=\"Snap to grid:\"", refs[0]),
            format!("{} checkbox label=\"Show grid\" checked", refs[1]),
            format!("{} checkbox \"Large\"", refs[2]),
            format!("{} button", refs[3]),
        ],
        "{interactive}"
    );
    // The line reads back with the label apart from the name.
    let line = NodeLine::parse(lines[0]).expect("a node line");
    assert_eq!(
        (line.name.as_str(), line.label.as_deref()),
        ("", Some("Snap to grid:"))
    );
    // Selectors: exact, contains (any case), and nothing for a text that labels no control.
    let found = app.ok("find label=\"Snap to grid:\"");
    assert!(
        found.starts_with(&format!("matches 1\n{} checkbox", refs[0])),
        "{found}"
    );
    let found = app.ok("find label~=GRID");
    assert_eq!(NodeLine::all(&found).len(), 2, "{found}");
    assert_eq!(app.ok("find label~=first"), "matches 0\n");
    assert_eq!(app.ok("find label=Below"), "matches 0\n");
    // `label` takes `~=` like `name` and `text`; an unknown key names it in its hint.
    let refused = app.send("find lable=Snap");
    assert!(format!("{refused:?}").contains("label="), "{refused:?}");
}
