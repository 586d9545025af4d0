//! Input dispatch, in process: commands become the right winit events, key events, text and
//! AccessKit requests, in the right frames, aimed at the centre of the target's visible part; bad
//! targets are refused before anything is dispatched; `--settle` waits for the tree to stop
//! changing. The test app (tests/common/app.rs) records what its frames are handed.
use crate::common;
use crate::common::fixture;

use accesskit::{Action, ActionData, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};
use common::{Handed, TestApp, all, refusal, window_state};
use fixture::Form;
use winit::event::MouseButton;
use winit_automation::Input;
use winit_automation_protocol::{ErrorCode, Failure, NodeLine};

/// The test app showing `tree` at `scale`, its UI reacting to input with `react`.
fn start_app(
    scale: f64,
    tree: TreeUpdate,
    react: impl FnMut(&[Handed]) -> Option<TreeUpdate> + Send + 'static,
) -> TestApp {
    TestApp::builder()
        .name("input-test")
        .window(window_state("Input", scale))
        .tree(tree)
        .react(react)
        .start()
}

/// The test app showing `form`, with a UI that does not react.
fn form_app(form: &Form) -> TestApp {
    start_app(form.scale, form.update(), |_| None)
}

#[test]
fn a_click_moves_to_the_centre_then_presses_and_releases_in_the_same_frame() {
    // Scale 2: the tree is in physical pixels, commands and answers in logical ones.
    let form = Form {
        scale: 2.0,
        ..Form::default()
    };
    let app = form_app(&form);
    let (response, frames) = app.send_taking_frames("click role=button name=Save");
    assert!(response.is_ok(), "{response:?}");
    // Save spans 20..100 x 140..170 logical: its centre is 60,155, or 120,310 physical. The
    // move comes first, so the press lands where it put the pointer.
    assert_eq!(frames.len(), 1, "{frames:?}");
    assert_eq!(
        frames[0].handed,
        [
            Handed::Move(120.0, 310.0),
            Handed::Button(MouseButton::Left, true),
            Handed::Button(MouseButton::Left, false)
        ]
    );
    let body = response.body();
    assert!(body.contains("path pointer\nat 60,155\n"), "{body}");
    assert!(body.contains(" button \"Save\""), "{body}");
    assert!(
        body.starts_with(&format!("frame {}\n", frames[0].number)),
        "the answer names the frame that carried the click: {body}"
    );

    let (_, frames) = app.send_taking_frames("click --right --double 10,20");
    assert_eq!(all(&frames)[0], Handed::Move(20.0, 40.0));
    assert_eq!(
        all(&frames)[1..],
        [
            Handed::Button(MouseButton::Right, true),
            Handed::Button(MouseButton::Right, false),
            Handed::Button(MouseButton::Right, true),
            Handed::Button(MouseButton::Right, false)
        ]
    );
}

#[test]
fn with_a_hover_frame_a_click_and_a_scroll_move_the_pointer_a_frame_earlier() {
    let form = Form::default();
    let app = TestApp::builder()
        .name("input-test")
        .window(window_state("Input", 1.0))
        .tree(form.update())
        .configure(|b| b.hover_frame(true))
        .start();
    let (response, frames) = app.send_taking_frames("click role=button name=Save");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0].handed, [Handed::Move(60.0, 155.0)]);
    assert_eq!(
        frames[1].handed,
        [
            Handed::Button(MouseButton::Left, true),
            Handed::Button(MouseButton::Left, false)
        ]
    );
    assert!(frames[1].number > frames[0].number);
    assert!(
        response
            .body()
            .starts_with(&format!("frame {}\n", frames[1].number)),
        "the answer names the frame of the press: {response:?}"
    );
    let (response, frames) = app.send_taking_frames("scroll name=Volume 0 40");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert!(matches!(frames[0].handed[..], [Handed::Move(..)]));
    assert!(matches!(frames[1].handed[..], [Handed::Wheel(..)]));
}

#[test]
fn hover_drag_and_scroll_take_the_pointer_path_with_winit_signs() {
    let app = form_app(&Form::default());
    let (response, frames) = app.send_taking_frames("hover name=Volume");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Move(120.0, 110.0)]);

    let (response, frames) = app.send_taking_frames("drag name=Volume to 220,110");
    assert!(response.is_ok(), "{response:?}");
    let got = all(&frames);
    assert_eq!(got.first(), Some(&Handed::Move(120.0, 110.0)));
    assert_eq!(got[1], Handed::Button(MouseButton::Left, true));
    assert_eq!(got.last(), Some(&Handed::Button(MouseButton::Left, false)));
    assert_eq!(got[got.len() - 2], Handed::Move(220.0, 110.0));
    // A move, the press, ten moves (the default --steps), the release: each in a frame of its
    // own, and the answer a frame later.
    assert_eq!(got.len(), 13, "{got:?}");
    let with_input = frames.iter().filter(|f| !f.handed.is_empty()).count();
    assert_eq!(with_input, 13, "one step per frame: {frames:?}");

    // Positive dy shows what is below: winit's delta moves the content up, so it is negative.
    let (response, frames) = app.send_taking_frames("scroll role=list 0 60");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        all(&frames),
        [Handed::Move(550.0, 70.0), Handed::Wheel(0.0, -60.0)]
    );
    assert!(response.body().contains("wheel 0 60\n"));
}

#[test]
fn keys_text_fill_actions_resize_and_quit_take_their_own_paths() {
    let app = form_app(&Form::default());
    let (response, frames) = app.send_taking_frames("key ctrl+a shift+Tab");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(frames.len(), 1);
    assert_eq!(
        frames[0].handed,
        [
            Handed::Key("ctrl+a".into(), true),
            Handed::Key("ctrl+a".into(), false),
            Handed::Key("shift+Tab".into(), true),
            Handed::Key("shift+Tab".into(), false)
        ]
    );
    assert!(response.body().contains("path key\n"));
    assert!(
        response.body().contains("focus @e"),
        "names the focus: {}",
        response.body()
    );

    let (response, frames) = app.send_taking_frames("type \"héllo \\\"you\\\"\"");
    assert_eq!(all(&frames), [Handed::Text("héllo \"you\"".into())]);
    assert!(response.body().contains("path text\n"));

    let (response, frames) = app.send_taking_frames("fill role=textbox new@example.com");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        frames.len(),
        2,
        "focus first, then select and replace: {frames:?}"
    );
    assert_eq!(
        frames[0].handed,
        [Handed::Action(Action::Focus, fixture::EMAIL, None)]
    );
    assert_eq!(
        frames[1].handed,
        [
            Handed::Key("ctrl+a".into(), true),
            Handed::Key("ctrl+a".into(), false),
            Handed::Text("new@example.com".into())
        ]
    );

    let (response, frames) = app.send_taking_frames("action name=Volume increment");
    assert!(response.body().contains("path action\n"), "{response:?}");
    assert_eq!(
        all(&frames),
        [Handed::Action(Action::Increment, fixture::VOLUME, None)]
    );
    // A text field gets text, even when it looks like a number; a slider gets a number.
    let (_, frames) = app.send_taking_frames("action role=textbox set_value 42");
    assert_eq!(
        all(&frames),
        [Handed::Action(
            Action::SetValue,
            fixture::EMAIL,
            Some(ActionData::Value("42".into()))
        )]
    );

    let (response, frames) = app.send_taking_frames("resize 1024 700");
    assert!(response.body().contains("path window\n"), "{response:?}");
    assert_eq!(all(&frames), [Handed::Resize(1024.0, 700.0)]);
    let (response, frames) = app.send_taking_frames("quit");
    assert!(response.is_ok());
    assert_eq!(all(&frames), [Handed::Quit]);
}

/// A window with a button under a modal-less overlay, a disabled button, a zero-size node and a
/// button outside the window.
fn hazards(modal: bool) -> TreeUpdate {
    let mut root = Node::new(Role::Window);
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    root.set_children(vec![NodeId(2), NodeId(3), NodeId(4), NodeId(5), NodeId(6)]);
    let button = |name: &str, r: Rect| {
        let mut b = Node::new(Role::Button);
        b.set_label(name);
        b.set_bounds(r);
        b.add_action(Action::Click);
        b
    };
    let under = button("Under", Rect::new(10.0, 10.0, 110.0, 40.0));
    let mut disabled = button("Disabled", Rect::new(10.0, 100.0, 110.0, 130.0));
    disabled.set_disabled();
    let mut empty = button("Empty", Rect::new(10.0, 200.0, 10.0, 230.0));
    empty.add_action(Action::Focus);
    let outside = button("Outside", Rect::new(900.0, 10.0, 1000.0, 40.0));
    let mut overlay = Node::new(Role::Dialog);
    overlay.set_label("Overlay");
    overlay.set_bounds(Rect::new(0.0, 0.0, 400.0, 80.0));
    if modal {
        overlay.set_modal();
        overlay.set_bounds(Rect::new(500.0, 300.0, 700.0, 400.0));
    }
    TreeUpdate {
        nodes: vec![
            (NodeId(1), root),
            (NodeId(2), under),
            (NodeId(3), disabled),
            (NodeId(4), empty),
            (NodeId(5), outside),
            (NodeId(6), overlay),
        ],
        tree: Some(TreeInfo::new(NodeId(1))),
        tree_id: TreeId::ROOT,
        focus: NodeId(1),
    }
}

#[test]
fn covered_disabled_zero_size_and_offscreen_targets_are_refused_before_dispatch() {
    let app = start_app(1.0, hazards(false), |_| None);
    let why = app.refused("click name=Under", ErrorCode::Covered);
    assert!(why.contains("dialog \"Overlay\""), "{why}");
    app.refused("click name=Disabled", ErrorCode::Disabled);
    app.refused("fill name=Disabled x", ErrorCode::Disabled);
    app.refused("click name=Empty", ErrorCode::ZeroSize);
    app.refused("hover name=Outside", ErrorCode::Offscreen);
    app.refused("click 900,10", ErrorCode::Offscreen);
    let why = app.refused("action name=Under increment", ErrorCode::ActionNotSupported);
    assert!(why.contains("it supports: click"), "{why}");
    // Actions need no pointer: a zero-size node can still be focused.
    let (response, _) = app.send_taking_frames("focus name=Empty");
    assert!(response.is_ok(), "{response:?}");
    // A point can be clicked even where nodes overlap.
    let (response, _) = app.send_taking_frames("click 50,20");
    assert!(response.is_ok(), "{response:?}");

    let app = start_app(1.0, hazards(true), |_| None);
    let why = app.refused("click name=Under", ErrorCode::Covered);
    assert!(why.contains("behind the modal dialog \"Overlay\""), "{why}");
}

#[test]
fn a_node_whose_bounds_are_not_finite_covers_nothing_and_is_not_aimed_at() {
    // The table lies on top of the button in paint order, and its infinite bounds would contain
    // every point: it must not cover the button, nor anything else in the window.
    let app = start_app(1.0, fixture::unbounded_table(), |_| None);
    let (response, frames) = app.send_taking_frames("click name=Under");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames)[0], Handed::Move(60.0, 25.0));
    assert_eq!(
        all(&frames)[1..],
        [
            Handed::Button(MouseButton::Left, true),
            Handed::Button(MouseButton::Left, false)
        ]
    );
    // A row inside it, with bounds of its own, is clear too (the table clips nothing).
    let (response, frames) = app.send_taking_frames("hover name=\"row one\"");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Move(110.0, 110.0)]);
    // The table itself, and its unbounded row, have no area to aim at.
    for line in ["click name=table", "hover name=\"row everywhere\""] {
        let why = app.refused(line, ErrorCode::ZeroSize);
        assert!(why.contains("bounds that are not finite"), "{line}: {why}");
    }
}

#[test]
fn a_label_whose_text_is_its_value_is_clicked_by_text() {
    let app = form_app(&Form {
        hostile: "Welcome to the gallery".into(),
        ..Form::default()
    });
    // The label at 20,200 (300x20) has no name; its text is in its value.
    let why = app.refused("click name~=Welcome", ErrorCode::NotFound);
    assert!(why.contains("no node matches"), "{why}");
    for line in [
        "click text~=welcome",
        "click text=\"Welcome to the gallery\"",
    ] {
        let (response, frames) = app.send_taking_frames(line);
        assert!(response.is_ok(), "{line}: {response:?}");
        assert_eq!(all(&frames)[0], Handed::Move(170.0, 210.0), "{line}");
    }
}

/// A pointer action on a row scrolled out of its list first turns the wheel over the list by what
/// brings the row in (its far edge 8 pixels inside), then acts on the row where it now lies, and
/// its answer says what was scrolled. `--no-scroll` refuses it before anything is dispatched; a
/// list that does not move when scrolled gets one turn, and the refusal says what was tried.
#[test]
fn a_list_item_scrolled_out_of_its_list_is_scrolled_into_view_then_clicked() {
    let mut form = Form::default();
    let scale = form.scale;
    let app = start_app(scale, form.update(), move |handed| {
        let mut turned = false;
        for h in handed {
            if let Handed::Wheel(_, dy) = h {
                // winit's sign: a negative delta shows what is below.
                form.scroll = (form.scroll - dy / scale).clamp(0.0, 900.0);
                turned = true;
            }
        }
        turned.then(|| form.update())
    });
    let why = app.refused("click name=file-10.txt --no-scroll", ErrorCode::Offscreen);
    assert!(why.contains("outside the visible area"), "{why}");

    // The row lies at 220..240 under a list showing 20..120: 128 brings it to 92..112.
    let (response, frames) = app.send_taking_frames("click name=file-10.txt");
    assert!(response.is_ok(), "{response:?}");
    let list = app.found_ref("name=\"Files\"");
    assert!(
        response.body().contains(&format!(
            "path pointer\nscrolled {list} list \"Files\" by 0,128\nat 550,102\n"
        )),
        "{}",
        response.body()
    );
    // One turn over the list's centre, then the click where the row now is.
    let handed = all(&frames);
    assert_eq!(
        handed[..2],
        [Handed::Move(550.0, 70.0), Handed::Wheel(0.0, -128.0)],
        "{handed:?}"
    );
    assert!(
        handed.ends_with(&[
            Handed::Move(550.0, 102.0),
            Handed::Button(MouseButton::Left, true),
            Handed::Button(MouseButton::Left, false),
        ]),
        "{handed:?}"
    );
    // The tree says so too: the row is in the list's view.
    let s = app.snapshot("");
    assert!(
        s.contains("listitem \"file-10.txt\" bounds=400,92,300x20"),
        "{s}"
    );

    // A list that ignores the wheel: one turn, then the refusal names it.
    let form = Form::default();
    let still = form_app(&form);
    let (response, frames) = still.send_taking_frames("hover name=file-10.txt");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::Offscreen),
        "{response:?}"
    );
    let failure = response.failure().expect("refused");
    assert!(
        failure
            .message
            .contains(" list \"Files\" by 0,128 did not move it"),
        "{}",
        failure.message
    );
    let wheels = all(&frames)
        .iter()
        .filter(|h| matches!(h, Handed::Wheel(..)))
        .count();
    assert_eq!(wheels, 1, "{frames:?}");
}

#[test]
fn a_stale_ref_is_refused_and_nothing_is_dispatched() {
    let mut form = Form::default();
    let app = form_app(&form);
    let save = app.found_ref("name=\"Save\"");
    form.save_label = "Saved".into();
    app.publish(form.update());
    let why = app.refused(&format!("click {save}"), ErrorCode::StaleRef);
    assert!(why.contains("now named \"Saved\""), "{why}");
}

/// The test app's checkbox: each click on it toggles the tree over the next `frames` frames.
fn checkbox_app(settle_frames: u64) -> TestApp {
    let mut form = Form::default();
    let mut pending = 0;
    start_app(1.0, form.update(), move |handed| {
        if handed.contains(&Handed::Button(MouseButton::Left, false)) {
            pending = settle_frames;
        }
        if pending == 0 {
            return None;
        }
        pending -= 1;
        // Volume changes on each of these frames, then remember flips on the last one.
        form.volume += 1.0;
        if pending == 0 {
            form.remember = !form.remember;
        }
        Some(form.update())
    })
}

#[test]
fn settle_answers_after_the_tree_stops_changing_with_the_diff_against_before() {
    let app = checkbox_app(4);
    let (response, _) = app.send_taking_frames("click name=\"Remember me\" --settle --frames 3");
    assert!(response.is_ok(), "{response:?}");
    let body = response.body();
    assert!(body.contains("path pointer\n"), "{body}");
    assert!(body.contains("settled frame "), "{body}");
    assert!(
        body.contains("~ @") && body.contains("checkbox \"Remember me\" checked"),
        "the diff shows the checkbox's new state: {body}"
    );
    // Nothing changes now: a bare settle answers with an unchanged tree.
    let response = app.send("settle --frames 2");
    assert!(response.is_ok(), "{response:?}");
    assert!(response.body().contains("no changes\n"), "{response:?}");
}

#[test]
fn a_tree_that_never_stops_changing_is_not_settled_at_the_timeout() {
    // Changes on every frame for a long time.
    let app = checkbox_app(100_000);
    let (response, _) = app.send_taking_frames("click name=\"Remember me\" --settle --timeout 300");
    let failure = refusal(&response, ErrorCode::NotSettled);
    let message = failure.message;
    assert!(message.contains("still changing"), "{message}");
    // The refusal is of the wait, not of the click: the hint says the click was carried out.
    assert!(
        failure
            .hint
            .starts_with("the click was carried out and the body has what changed so far; "),
        "{}",
        failure.hint
    );
    assert!(
        response.body().contains("slider \"Volume\""),
        "{response:?}"
    );
    // It names what kept changing: the slider, by the ref `find` gives it, its value one step
    // apart in the last frames; nothing else changed, and no window said it animates.
    let found = app.ok("find role=slider");
    let volume = &NodeLine::all(&found)[0];
    let (_, named) = message
        .split_once("; changing: ")
        .unwrap_or_else(|| panic!("no changing part: {message}"));
    let (before, after) = named
        .strip_prefix(&format!("{} slider \"Volume\" value ", volume.r#ref))
        .and_then(|values| values.split_once(" -> "))
        .unwrap_or_else(|| panic!("the slider is not named: {message}"));
    let (before, after): (f64, f64) = (before.parse().unwrap(), after.parse().unwrap());
    assert_eq!(after - before, 1.0, "{message}");
    assert!(!message.contains("animating"), "{message}");
}

#[test]
fn commands_run_one_at_a_time_each_against_the_tree_the_previous_left() {
    // Clicking the checkbox renames Save to "Saved" in the next frame; a click on "Saved" sent
    // right behind it must wait for that, not fail against the old tree.
    let mut form = Form::default();
    let app = start_app(1.0, form.update(), move |handed| {
        if handed.contains(&Handed::Button(MouseButton::Left, false)) && form.save_label == "Save" {
            form.save_label = "Saved".into();
            return Some(form.update());
        }
        None
    });
    let first = app
        .client()
        .enqueue_line("click name=\"Remember me\"")
        .unwrap();
    let second = app.client().enqueue_line("click name=Saved").unwrap();
    assert!(app.client().wait(first).unwrap().is_ok());
    let response = app.client().wait(second).unwrap();
    assert!(response.is_ok(), "{response:?}");
}

#[test]
fn type_and_text_keys_with_nothing_focused_are_refused_and_type_once_a_text_field_has_the_focus() {
    // The form as a toolkit sends it when nothing inside has the focus: the focus on the root.
    let mut unfocused = Form::default().update();
    unfocused.focus = fixture::ROOT;
    let app = start_app(1.0, unfocused, |_| None);
    let why = app.refused("type hello", ErrorCode::NoFocus);
    assert!(why.contains("nothing has the keyboard focus"), "{why}");
    let hint = refusal(&app.send("type hello"), ErrorCode::NoFocus).hint;
    assert!(hint.contains("focus TARGET"), "{hint}");
    // Keys that only type or delete text are refused the same way, and nothing is handed.
    for line in ["key a", "key shift+a Space", "key Backspace", "key Delete"] {
        let why = app.refused(line, ErrorCode::NoFocus);
        assert!(why.contains("would edit no text"), "{line}: {why}");
    }
    // Other keys are still delivered: Tab moves the focus in, Enter and Escape act on the window,
    // shortcuts need no focused node; so does a sequence that holds one of them.
    let (response, frames) = app.send_taking_frames("key Tab");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        all(&frames),
        [
            Handed::Key("Tab".into(), true),
            Handed::Key("Tab".into(), false)
        ]
    );
    for line in ["key ctrl+s", "key Escape", "key Enter", "key a Tab"] {
        let (response, frames) = app.send_taking_frames(line);
        assert!(response.is_ok(), "{line}: {response:?}");
        assert!(!frames.is_empty(), "{line}: nothing handed");
    }
    // Once the text field has the focus, the text goes to it as before.
    let mut focused = Form::default().update();
    focused.focus = fixture::EMAIL;
    app.publish(focused);
    let (response, frames) = app.send_taking_frames("type hello");
    assert!(response.is_ok(), "{response:?}");
    assert!(
        response.body().contains("focus @e") && response.body().contains("textbox \"Email\""),
        "{}",
        response.body()
    );
    assert_eq!(all(&frames), [Handed::Text("hello".into())]);
    // No refused text arrives later either.
    let texts: Vec<Handed> = all(&app.stop())
        .into_iter()
        .filter(|h| matches!(h, Handed::Text(_)))
        .collect();
    assert!(texts.is_empty(), "{texts:?}");
}

#[test]
fn an_app_that_reads_keys_without_a_focus_gets_text_keys_with_nothing_focused_and_is_told() {
    // A game reads its keyboard whatever has the focus (`Builder::keys_without_focus`).
    let mut unfocused = Form::default().update();
    unfocused.focus = fixture::ROOT;
    let app = TestApp::builder()
        .name("keys-game")
        .window(window_state("Game", 1.0))
        .tree(unfocused)
        .configure(|b| b.keys_without_focus(true))
        .start();
    let (response, frames) = app.send_taking_frames("key d");
    assert!(response.is_ok(), "{response:?}");
    assert!(
        response
            .body()
            .ends_with("keys d\nno focus: sent to the app\n"),
        "{}",
        response.body()
    );
    assert_eq!(
        all(&frames),
        [
            Handed::Key("d".into(), true),
            Handed::Key("d".into(), false)
        ]
    );
    // Text is still refused: `type` writes into a field, and none has the focus.
    app.refused("type hello", ErrorCode::NoFocus);
    // A key that needs no focus says nothing of it.
    let (response, _) = app.send_taking_frames("key Enter");
    assert!(!response.body().contains("no focus"), "{}", response.body());
}

#[test]
fn type_is_never_refused_where_the_tree_cannot_say_where_text_goes() {
    // No tree at all.
    let app = TestApp::builder().name("input-test").start();
    let (response, frames) = app.send_taking_frames("type a");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Text("a".into())]);
    // Only a root (a placeholder tree, or an app that draws its own controls).
    let mut root = Node::new(Role::Window);
    root.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    app.publish(TreeUpdate {
        nodes: vec![(NodeId(0), root)],
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    });
    let (response, frames) = app.send_taking_frames("type b");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Text("b".into())]);
    // A root that is itself the text field.
    let mut editor = Node::new(Role::MultilineTextInput);
    editor.set_bounds(Rect::new(0.0, 0.0, 800.0, 600.0));
    editor.set_children(vec![NodeId(1)]);
    let mut line = Node::new(Role::TextRun);
    line.set_bounds(Rect::new(0.0, 0.0, 800.0, 20.0));
    app.publish(TreeUpdate {
        nodes: vec![(NodeId(0), editor), (NodeId(1), line)],
        tree: Some(TreeInfo::new(NodeId(0))),
        tree_id: TreeId::ROOT,
        focus: NodeId(0),
    });
    let (response, frames) = app.send_taking_frames("type c");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Text("c".into())]);
    // Widget records, none of them focused: records may leave the focus out.
    app.feed(|_, frame| {
        frame.widgets(
            common::window_id(),
            vec![
                winit_automation::Widget::new("name", Role::TextInput, "Name")
                    .bounds(winit_automation::Bounds::new(10.0, 10.0, 200.0, 30.0)),
            ],
        );
    });
    let (response, frames) = app.send_taking_frames("type d");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Handed::Text("d".into())]);
    app.stop();
}

#[test]
fn a_settle_waits_while_a_window_says_it_is_animating() {
    let form = Form::default();
    let app = TestApp::builder()
        .window(window_state("Animating", 1.0))
        .tree(form.update())
        .stepped();
    app.frame(|_| {});
    let window = common::window_id();
    // The tree never changes, but the window animates in every frame: no settle.
    let seq = app
        .client()
        .enqueue_line("settle --frames 2 --timeout 300")
        .unwrap();
    let response = app.frames_until_answered(seq, |frame| frame.animating(window, true));
    let failure = refusal(&response, ErrorCode::NotSettled);
    let message = failure.message;
    assert!(
        message.contains("a window was still animating"),
        "{message}"
    );
    assert!(
        failure.hint.starts_with("something animates"),
        "{}",
        failure.hint
    );
    assert!(
        message.ends_with("; animating: window 1"),
        "it names the window that animates: {message}"
    );
    // The animation ends: two unchanged frames after it, the tree has settled.
    let seq = app
        .client()
        .enqueue_line("settle --frames 2 --timeout 20000")
        .unwrap();
    let mut frames = 0;
    let response = app.frames_until_answered(seq, |frame| {
        frames += 1;
        frame.animating(window, frames < 5);
    });
    assert!(response.is_ok(), "{response:?}");
    assert!(
        frames >= 6,
        "settled {frames} frames in, before the animation ended"
    );
}

#[test]
fn a_refusal_hint_names_only_actions_the_node_lists() {
    let form = Form::default();
    let app = form_app(&form);
    // A row scrolled out of its list; the rows list only `click`.
    let response = app.send("click name=\"file-40.txt\"");
    let hint = refusal(&response, ErrorCode::Offscreen).hint;
    assert!(!hint.contains("scroll_into_view"), "{hint}");
    assert!(hint.contains("scroll"), "{hint}");
}

#[test]
fn a_frame_opened_while_one_is_open_joins_it_takes_no_input_and_publishes_nothing() {
    let (app, seq) = key_waiting();
    let automation = app.automation();
    let mut open = automation.frame();
    let number = open.number();
    let mut joined = automation.frame();
    assert_eq!(joined.input().count(), 0, "the joined frame took input");
    let taken: Vec<Input> = open.input().collect();
    assert!(
        !taken.is_empty() && taken.iter().all(|i| matches!(i, Input::Key { .. })),
        "the open frame keeps the key: {taken:?}"
    );
    // Publishing and ending the joined frame does nothing: the open frame is still being built.
    drop(joined.publish());
    assert_eq!(automation.frame_number(), number);
    drop(open);
    assert_eq!(automation.frame_number(), number + 1);
    // A frame was asked for while one was open: the next one is asked for now.
    assert!(app.woken(common::PATIENCE), "no frame follows the join");
    let response = app.client().wait(seq).unwrap();
    let body = response.body();
    assert!(
        response.is_ok() && body.contains(&format!("frame {number}\n")),
        "{response:?}"
    );
}

#[test]
fn a_resize_is_answered_once_the_window_has_the_size_and_refused_when_the_app_ignores_it() {
    // An app that applies it (the window reports the size): `ok`, and the window has it.
    let app = TestApp::builder().start();
    let response = app.send("resize 1024 700");
    assert!(response.is_ok(), "{response:?}");
    let windows = app.ok("windows");
    assert!(windows.contains("size=1024x700"), "{windows}");
    // An app whose loop ignores `Input::Resize`: refused, naming the size the window still has.
    let app = TestApp::builder().ignores_resize().start();
    let response = app.send("resize 1024 700");
    let Failure { message, hint, .. } = refusal(&response, ErrorCode::NotApplied);
    assert!(
        message.contains("still 800x600") && message.contains("1024x700"),
        "{message}"
    );
    assert!(hint.contains("Input::Resize"), "{hint}");
    let windows = app.ok("windows");
    assert!(windows.contains("size=800x600"), "{windows}");
}

#[test]
fn a_frame_that_never_asks_for_input_leaves_it_for_the_next_frame() {
    // A setup frame that only hands over a tree (the test harness's first frame did this) must
    // not swallow a command: `quit` was answered and never seen by the app's loop.
    let (app, seq) = key_waiting();
    let automation = app.automation();
    let mut frame = automation.frame();
    frame.tree_update(common::window_id(), Form::default().update());
    frame.finish();
    let answer = app
        .dir()
        .join(winit_automation_protocol::response_file(seq));
    assert!(!answer.exists(), "answered though no frame took the key");
    let mut frame = automation.frame();
    let taken: Vec<Input> = frame.input().collect();
    assert!(
        !taken.is_empty() && taken.iter().all(|i| matches!(i, Input::Key { .. })),
        "the next frame that asks gets the key: {taken:?}"
    );
    frame.finish();
    assert!(app.client().wait(seq).unwrap().is_ok());
}

/// A stepped app past its first frame, with a `key Escape` the render side has been handed
/// (its waker ran) and no frame has taken yet; and the key's seq.
fn key_waiting() -> (common::SteppedApp, u64) {
    let app = TestApp::builder()
        .window(window_state("Keyed", 1.0))
        .tree(Form::default().update())
        .stepped();
    app.frame(|_| {});
    let seq = app.client().enqueue_line("key Escape").unwrap();
    assert!(
        app.woken(common::PATIENCE),
        "the key never reached the render side"
    );
    (app, seq)
}
