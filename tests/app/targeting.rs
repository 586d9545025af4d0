//! Never the wrong widget, in process: what the app says beyond its tree (`Frame::layers`:
//! layer order, the modal layer, clips) decides what a pointer verb may aim at, and what it
//! reports after a press (`Frame::pointer_hit`) decides whether the answer is `ok` (`hit
//! verified` or `hit unverified`) or `missed`. The test app (tests/common/app.rs) records what its
//! frames are handed: a refusal hands nothing, an answer names what was handed.
use crate::common;
use crate::common::fixture;

use std::time::{Duration, Instant};

use accesskit::{NodeId, Rect, Role, TreeUpdate};
use common::{Handed, PATIENCE, SteppedApp, TestApp, all, window_id, window_state};
use fixture::{ids, node, tree};
use winit::event::MouseButton;
use winit_automation::Layers;
use winit_automation_protocol::{ErrorCode, Response, response_file};

fn app(update: TreeUpdate) -> TestApp {
    TestApp::builder()
        .name("targeting")
        .window(window_state("Targeting", 1.0))
        .tree(update)
        .start()
}

/// A click at (x, y) logical pixels, as the app is handed it (scale 1).
fn clicked_at(x: f64, y: f64) -> Vec<Handed> {
    vec![
        Handed::Move(x, y),
        Handed::Button(MouseButton::Left, true),
        Handed::Button(MouseButton::Left, false),
    ]
}

#[track_caller]
fn clicks(app: &TestApp, line: &str, x: f64, y: f64) -> String {
    let (response, frames) = app.send_taking_frames(line);
    assert!(response.is_ok(), "{line}: {response:?}");
    assert_eq!(all(&frames), clicked_at(x, y), "{line}");
    response.body().to_owned()
}

#[test]
fn a_popup_declared_the_top_layer_covers_later_widgets() {
    // The popup (3, item 4) is parented under the button that opened it (1): in tree order the
    // later button (2) lies on top of it.
    let app = app(tree(vec![
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
    ]));
    // In tree order `Later` covers the middle of `Copy`: the click aims at the strip of `Copy`
    // above it, the largest part left.
    let body = clicks(&app, "click name=Copy", 105.0, 45.0);
    assert!(body.contains("visible 54%\n"), "{body}");

    app.layers(Layers {
        order: ids(&[0, 3]),
        ..Layers::default()
    });
    let why = app.refused("click name=Later", ErrorCode::Covered);
    assert!(why.contains("menuitem \"Copy\""), "{why}");
    clicks(&app, "click name=Copy", 105.0, 55.0);
    // The opener lies outside the popup.
    clicks(&app, "click name=Open", 50.0, 25.0);
}

#[test]
fn the_reported_order_decides_between_two_windows() {
    let app = app(tree(vec![
        (
            0,
            node(Role::Pane, "root", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
        ),
        (
            1,
            node(Role::Window, "First", [0.0, 0.0, 200.0, 200.0], &[3]),
        ),
        (
            3,
            node(Role::Button, "A", [100.0, 100.0, 150.0, 130.0], &[]),
        ),
        (
            2,
            node(Role::Window, "Second", [80.0, 80.0, 300.0, 300.0], &[4]),
        ),
        (
            4,
            node(Role::Button, "B", [150.0, 150.0, 190.0, 190.0], &[]),
        ),
    ]));
    // Tree order: Second on top.
    assert!(
        app.refused("click name=A", ErrorCode::Covered)
            .contains("\"Second\"")
    );
    clicks(&app, "click name=B", 170.0, 170.0);
    // The app says First is on top (it was raised).
    app.layers(Layers {
        order: ids(&[2, 1]),
        ..Layers::default()
    });
    clicks(&app, "click name=A", 125.0, 115.0);
    assert!(
        app.refused("click name=B", ErrorCode::Covered)
            .contains("\"First\"")
    );
}

#[test]
fn a_modal_layer_refuses_everything_below_it() {
    let app = app(tree(vec![
        (
            0,
            node(Role::Pane, "root", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
        ),
        (
            1,
            node(Role::Window, "Main", [0.0, 0.0, 400.0, 300.0], &[3]),
        ),
        (
            3,
            node(Role::Button, "Behind", [10.0, 10.0, 90.0, 40.0], &[]),
        ),
        (
            2,
            node(Role::Window, "Confirm", [200.0, 200.0, 380.0, 280.0], &[4]),
        ),
        (
            4,
            node(Role::Button, "Yes", [210.0, 240.0, 290.0, 270.0], &[]),
        ),
    ]));
    // Nothing says the second window is modal: the button behind is clear (nothing lies on it).
    clicks(&app, "click name=Behind", 50.0, 25.0);
    app.layers(Layers {
        order: ids(&[1, 2]),
        modal: Some(NodeId(2)),
        ..Layers::default()
    });
    let why = app.refused("click name=Behind", ErrorCode::Covered);
    assert!(
        why.contains("modal layer") && why.contains("window \"Confirm\""),
        "{why}"
    );
    // The interactive projection lists what takes input: the button behind is only counted, as
    // blocked by the modal; the regular projection still shows it (it is drawn).
    let interactive = app.ok("snapshot -i");
    assert!(!interactive.contains("\"Behind\""), "{interactive}");
    assert!(interactive.contains("button \"Yes\""), "{interactive}");
    assert!(
        interactive.contains("[1 item blocked by the modal @e")
            && interactive.contains(" window \"Confirm\"]"),
        "{interactive}"
    );
    let regular = app.ok("snapshot");
    assert!(regular.contains("button \"Behind\""), "{regular}");
    assert!(!regular.contains("blocked"), "{regular}");
    clicks(&app, "click name=Yes", 250.0, 255.0);
}

#[test]
fn a_row_outside_its_containers_reported_clip_is_offscreen() {
    // The tree sets no clip: every row counts as visible.
    let app = app(tree(vec![
        (0, node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1])),
        (
            1,
            node(Role::ScrollView, "Files", [0.0, 0.0, 200.0, 100.0], &[2, 3]),
        ),
        (
            2,
            node(Role::Button, "Row 1", [10.0, 10.0, 190.0, 40.0], &[]),
        ),
        (
            3,
            node(Role::Button, "Row 9", [10.0, 150.0, 190.0, 180.0], &[]),
        ),
    ]));
    clicks(&app, "click name=\"Row 9\"", 100.0, 165.0);
    app.layers(Layers {
        clips: vec![(NodeId(1), None)],
        ..Layers::default()
    });
    let why = app.refused("click name=\"Row 9\" --no-scroll", ErrorCode::Offscreen);
    assert!(why.contains("outside the visible area"), "{why}");
    clicks(&app, "click name=\"Row 1\"", 100.0, 25.0);
    // A clip rectangle narrower than the container's bounds.
    app.layers(Layers {
        clips: vec![(NodeId(1), Some(Rect::new(0.0, 0.0, 200.0, 8.0)))],
        ..Layers::default()
    });
    app.refused("click name=\"Row 1\" --no-scroll", ErrorCode::Offscreen);
}

/// Two buttons, for the press reports.
fn buttons() -> SteppedApp {
    let app = TestApp::builder()
        .name("targeting")
        .window(window_state("Targeting", 1.0))
        .tree(tree(vec![
            (
                0,
                node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1, 2]),
            ),
            (
                1,
                node(Role::Button, "Save", [20.0, 20.0, 120.0, 60.0], &[]),
            ),
            (
                2,
                node(Role::Button, "Cancel", [140.0, 20.0, 240.0, 60.0], &[]),
            ),
        ]))
        .stepped();
    app.frame(|_| {});
    app
}

/// Runs frames until `line` is answered; in each frame, after its input, the app reports
/// `report(pressed)` as the node that took the press (`pressed`: the frame was handed one), or
/// nothing. Returns the answer and everything handed.
fn reporting(
    app: &SteppedApp,
    line: &str,
    report: impl Fn(bool) -> Option<Option<NodeId>>,
) -> (Response, Vec<Handed>) {
    let seq = app.client().enqueue_line(line).unwrap();
    let answer = app.dir().join(response_file(seq));
    let deadline = Instant::now() + PATIENCE;
    let mut handed = Vec::new();
    while !answer.exists() {
        assert!(Instant::now() < deadline, "{line} was never answered");
        let got = app.begin_frame();
        let pressed = got.iter().any(|h| matches!(h, Handed::Button(_, true)));
        if let Some(node) = report(pressed) {
            app.open_frame().pointer_hit(window_id(), node);
        }
        handed.extend(got);
        app.end_frame();
        // Paced like an app drawing every few milliseconds; the loop's condition is the barrier.
        std::thread::sleep(Duration::from_millis(5));
    }
    (app.client().wait(seq).unwrap(), handed)
}

#[test]
fn a_press_another_node_took_is_answered_missed() {
    let app = buttons();
    let (response, handed) = reporting(&app, "click name=Save", |pressed| {
        pressed.then_some(Some(NodeId(2)))
    });
    // Delivered once, and the answer says it went elsewhere.
    assert_eq!(handed, clicked_at(70.0, 40.0));
    let failure = response.failure().expect("missed");
    assert_eq!(failure.code, ErrorCode::Missed, "{}", failure.message);
    assert!(
        failure
            .message
            .starts_with("the press at 70,40 was taken by @e")
            && failure.message.contains("button \"Cancel\"")
            && failure.message.contains(", not by @e"),
        "{}",
        failure.message
    );
    assert!(failure.body.contains("path pointer\n"), "{}", failure.body);

    // A drag presses in its second frame; the report there decides its answer at the end.
    let (response, handed) = reporting(&app, "drag name=Save to 300,200", |pressed| {
        pressed.then_some(None)
    });
    // A move, the press, ten moves, the release.
    assert_eq!(handed.len(), 13, "every stage once: {handed:?}");
    let failure = response.failure().expect("missed");
    assert_eq!(failure.code, ErrorCode::Missed, "{}", failure.message);
    assert!(
        failure.message.contains("taken by no node"),
        "{}",
        failure.message
    );
}

#[test]
fn a_press_the_target_took_is_verified_and_one_not_reported_is_not() {
    let app = buttons();
    let (response, handed) = reporting(&app, "click name=Save", |pressed| {
        pressed.then_some(Some(NodeId(1)))
    });
    assert_eq!(handed, clicked_at(70.0, 40.0));
    assert!(response.is_ok(), "{response:?}");
    assert!(
        response.body().ends_with("button left\nhit verified\n"),
        "{}",
        response.body()
    );

    // Reports in frames that delivered no press are ignored: the press itself went unreported.
    let (response, handed) = reporting(&app, "click name=Save", |pressed| {
        (!pressed).then_some(Some(NodeId(2)))
    });
    assert_eq!(handed, clicked_at(70.0, 40.0));
    assert!(response.is_ok(), "{response:?}");
    assert!(
        response.body().ends_with("hit unverified\n"),
        "{}",
        response.body()
    );

    // Verbs with no press say nothing about a hit.
    let (response, handed) = reporting(&app, "hover name=Cancel", |_| Some(Some(NodeId(1))));
    assert_eq!(handed, [Handed::Move(190.0, 40.0)]);
    assert!(
        response.is_ok() && !response.body().contains("hit "),
        "{response:?}"
    );
}

#[test]
fn an_action_with_wait_acts_once_its_target_appears_and_without_it_is_refused_at_once() {
    // A button that appears 10 frames after the app is handed F1, as a dialog fades in.
    let scene = |later: bool| {
        let mut nodes = vec![
            (0, node(Role::Window, "w", [0.0, 0.0, 400.0, 300.0], &[1])),
            (1, node(Role::Button, "Open", [10.0, 10.0, 90.0, 40.0], &[])),
        ];
        if later {
            nodes[0].1.push_child(NodeId(2));
            nodes.push((
                2,
                node(Role::Button, "Later", [100.0, 100.0, 180.0, 130.0], &[]),
            ));
        }
        tree(nodes)
    };
    let mut since_f1: Option<u32> = None;
    let app = TestApp::builder()
        .name("targeting")
        .window(window_state("Targeting", 1.0))
        .tree(scene(false))
        .react(move |handed| {
            if handed.contains(&Handed::Key("F1".into(), true)) {
                since_f1 = Some(0);
            }
            let n = since_f1.as_mut()?;
            *n += 1;
            (*n == 10).then(|| scene(true))
        })
        .start();
    // Without --wait: refused at once, nothing handed.
    let why = app.refused("click name=Later", ErrorCode::NotFound);
    assert!(!why.contains("after waiting"), "{why}");
    assert!(app.ok("key F1").contains("keys F1"));
    // With it: the click waits for the button, then lands on it.
    let body = clicks(&app, "click name=Later --wait 5000", 140.0, 115.0);
    assert!(body.contains("button \"Later\""), "{body}");
    // A target that never comes is refused at the end with the check that failed.
    let started = Instant::now();
    let why = app.refused("click name=Never --wait 300", ErrorCode::NotFound);
    assert!(why.starts_with("after waiting "), "{why}");
    assert!(started.elapsed() >= Duration::from_millis(300));
    // One no frame can lift is refused at once, wait or not.
    let why = app.refused("click @e999 --wait 5000", ErrorCode::NotFound);
    assert!(!why.contains("after waiting"), "{why}");
}

/// A window whose adapter announces its passes (`Frame::window_pass`: egui's deferred viewports,
/// which run in redraws of their own) may handle a press in a later frame than the one that
/// handed it over. The answer waits for that window's next pass and its report: verified or
/// missed as in the frame of the press; a window whose pass never comes is answered `hit
/// unverified` once the wait is over.
#[test]
fn a_press_waits_for_its_window_s_next_pass_when_the_adapter_announces_passes() {
    let app = buttons();
    app.open_frame().window_pass(window_id());
    app.end_frame();
    for (took, verified) in [(NodeId(1), true), (NodeId(2), false)] {
        let seq = app.client().enqueue_line("click name=Save").unwrap();
        // Frames, with no pass of the window, until one hands the press over.
        let deadline = Instant::now() + PATIENCE;
        while !app
            .frame(|_| {})
            .iter()
            .any(|h| matches!(h, Handed::Button(_, true)))
        {
            assert!(Instant::now() < deadline, "the press was never handed over");
        }
        let pressed_in = app.published_frame();
        // The window's pass comes in a later frame, and reports what took the press.
        let response = app.frames_until_answered(seq, |frame| {
            frame.window_pass(window_id());
            frame.pointer_hit(window_id(), Some(took));
        });
        // Without the wait, the answer would have gone with the press's frame, unverified.
        if verified {
            let body = response.body();
            assert!(body.ends_with("hit verified\n"), "{response:?}");
            assert!(body.starts_with("frame "), "{response:?}");
            let answered_in = response
                .frame()
                .unwrap_or_else(|| panic!("no frame in {body:?}"));
            assert!(answered_in > pressed_in, "{pressed_in}: {body}");
        } else {
            let failure = response.failure().expect("missed");
            assert_eq!(failure.code, ErrorCode::Missed, "{}", failure.message);
            assert!(
                failure.message.contains("button \"Cancel\""),
                "{}",
                failure.message
            );
        }
    }
    // No pass comes: the answer goes once the wait is over, unverified.
    let seq = app.client().enqueue_line("click name=Save").unwrap();
    let response = app.frames_until_answered(seq, |_| {});
    assert!(
        response.body().ends_with("hit unverified\n"),
        "{response:?}"
    );
}
