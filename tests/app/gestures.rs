//! Gestures, in process (docs/protocol.md section 4.6, "Gestures"): what the app is handed, frame
//! by frame and with the time between stages, for `click --modifiers` and `--hold`, `drag`'s hold,
//! moves, dwell and release, `down`/`move`/`up` with the pointer's state between them, `stroke`,
//! `pinch`; a press that goes through its target's input proxy (`via`) while anything else on top
//! still covers it; and what an expired gesture lets go of. The test app (tests/common/app.rs)
//! records what its frames are handed; a `react` hook here also records when.
use crate::common;
use crate::common::fixture;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use accesskit::{Node, NodeId, Role, TreeUpdate};
use common::{
    Frame, Handed, PATIENCE, SteppedApp, TestApp, all, eventually, window_id, window_state,
};
use fixture::{Form, node, tree};
use winit::event::{MouseButton, TouchPhase};
use winit::keyboard::ModifiersState;
use winit_automation_dropbox::unix_ms_now;
use winit_automation_protocol::{ErrorCode, response_file};

const PRESS: Handed = Handed::Button(MouseButton::Left, true);
const RELEASE: Handed = Handed::Button(MouseButton::Left, false);

/// The form at scale 1, its UI not reacting: Save's centre is 60,155, Volume's 120,110, the
/// Files list's 550,70.
fn form_app() -> TestApp {
    TestApp::builder()
        .name("gestures")
        .window(window_state("Gestures", 1.0))
        .tree(Form::default().update())
        .start()
}

/// Sends a command that must be answered `ok`; returns its body and the frames.
#[track_caller]
fn ok(app: &TestApp, line: &str) -> (String, Vec<Frame>) {
    let (response, frames) = app.send_taking_frames(line);
    assert!(response.is_ok(), "{line}: {response:?}");
    (response.body().to_owned(), frames)
}

/// The handed lists of the frames.
fn handed(frames: &[Frame]) -> Vec<Vec<Handed>> {
    frames.iter().map(|f| f.handed.clone()).collect()
}

/// Whether `later` is the frame right after `earlier` (every frame asks for its input).
fn next(earlier: &Frame, later: &Frame) -> bool {
    later.number == earlier.number + 1
}

/// A frame handed something, as the app's `react` hook saw it: its place among the render loop's
/// frames (every frame counts, handed something or not) and when the hook ran.
#[derive(Debug, Clone)]
struct Seen {
    frame: u64,
    at: Instant,
}

/// What the `react` hook saw, shared with the test: the frames handed something, the frames in
/// which the UI changed its tree, and when each frame's hook ran.
#[derive(Debug, Default)]
struct Log {
    seen: Vec<Seen>,
    changed: Vec<u64>,
    times: Vec<Instant>,
}

impl Log {
    /// The least time that passed between the delivery of `earlier`'s input and of `later`'s:
    /// the plugin times a gate from inside the frame that delivered the stage before it, which
    /// runs after the hook of the frame before it and before `later`'s hook. (Hook to hook could
    /// be shorter: the frames do their work between the input and the hook.)
    fn between(&self, earlier: &Seen, later: &Seen) -> Duration {
        let before = usize::try_from(earlier.frame).unwrap() - 2;
        later.at - self.times[before]
    }
}

type Shared = Arc<Mutex<Log>>;

/// The test app showing `update`, whose UI is `ui`: handed the frame's place and input, it may
/// return a new tree. Every frame handed something is logged with its time.
fn timed_app(
    update: TreeUpdate,
    mut ui: impl FnMut(u64, &[Handed]) -> Option<TreeUpdate> + Send + 'static,
) -> (TestApp, Shared) {
    let log = Shared::default();
    let mine = log.clone();
    let mut frame = 0;
    let app = TestApp::builder()
        .name("gestures")
        .window(window_state("Gestures", 1.0))
        .tree(update)
        .react(move |handed| {
            frame += 1;
            let at = Instant::now();
            let update = ui(frame, handed);
            let mut log = mine.lock().unwrap();
            log.times.push(at);
            if !handed.is_empty() {
                log.seen.push(Seen { frame, at });
            }
            if update.is_some() {
                log.changed.push(frame);
            }
            update
        })
        .start();
    // A frame before the first command's, for [`Log::between`].
    let ran = eventually(PATIENCE, || {
        (!log.lock().unwrap().times.is_empty()).then_some(())
    });
    assert!(ran.is_some(), "the render loop runs");
    (app, log)
}

/// Takes what the log holds.
fn take(log: &Shared) -> Log {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn modifiers_are_held_around_a_click_and_a_scroll_and_let_go_in_the_next_frame() {
    let app = form_app();
    let (body, frames) = ok(&app, "click name=Save --modifiers shift");
    assert_eq!(
        handed(&frames),
        [
            vec![
                Handed::Modifiers(ModifiersState::SHIFT),
                Handed::Move(60.0, 155.0),
                PRESS,
                RELEASE
            ],
            vec![Handed::Modifiers(ModifiersState::empty())],
        ]
    );
    assert!(next(&frames[0], &frames[1]), "{frames:?}");
    assert!(body.contains("\nbutton left\nmodifiers shift\n"), "{body}");
    assert!(
        body.starts_with(&format!("frame {}\n", frames[1].number)),
        "the answer names the frame that let the modifiers go: {body}"
    );

    // Several, in the canonical order; a wheel turn the same way.
    let (body, frames) = ok(&app, "scroll name=Volume 0 40 --modifiers shift+ctrl");
    let both = ModifiersState::CONTROL | ModifiersState::SHIFT;
    assert_eq!(
        handed(&frames),
        [
            vec![
                Handed::Modifiers(both),
                Handed::Move(120.0, 110.0),
                Handed::Wheel(0.0, -40.0)
            ],
            vec![Handed::Modifiers(ModifiersState::empty())],
        ]
    );
    assert!(
        body.contains("\nwheel 0 40\nmodifiers ctrl+shift\n"),
        "{body}"
    );

    // No modifiers: one frame, no ModifiersChanged at all.
    let (_, frames) = ok(&app, "click name=Save");
    assert_eq!(
        handed(&frames),
        [vec![Handed::Move(60.0, 155.0), PRESS, RELEASE]]
    );
    app.refused(
        "click name=Save --modifiers shift+hyper",
        ErrorCode::BadArgument,
    );
}

#[test]
fn a_long_press_holds_the_button_down_for_its_time_in_frames_of_its_own() {
    let (app, log) = timed_app(Form::default().update(), |_, _| None);
    let asked = Instant::now();
    let (response, frames) = app.send_taking_frames("click name=Save --hold 300");
    let answered = asked.elapsed();
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        handed(&frames),
        [vec![Handed::Move(60.0, 155.0), PRESS], vec![RELEASE]]
    );
    assert!(frames[1].number > frames[0].number + 1, "{frames:?}");
    let log = take(&log);
    let seen = &log.seen;
    assert_eq!(seen.len(), 2, "{seen:?}");
    let held = log.between(&seen[0], &seen[1]);
    assert!(held >= Duration::from_millis(300), "held {held:?}");
    assert!(answered >= Duration::from_millis(300), "{answered:?}");
    let body = response.body();
    assert!(body.contains("\nbutton left held 300ms\n"), "{body}");

    // A long press is one press: not with --double.
    let why = app.refused(
        "click name=Save --double --hold 300",
        ErrorCode::BadArgument,
    );
    assert!(why.contains("--double") && why.contains("--hold"), "{why}");
}

/// A card to drag and a bin to drop it on, and a counter the UI animates after a drop.
fn card_tree(card: (f64, f64), ticks: u64) -> TreeUpdate {
    let (x, y) = card;
    let mut counter = Node::new(Role::Label);
    counter.set_label("Gap");
    counter.set_value(ticks.to_string());
    counter.set_bounds(accesskit::Rect::new(700.0, 10.0, 790.0, 30.0));
    tree(vec![
        (
            0,
            node(Role::Window, "w", [0.0, 0.0, 800.0, 600.0], &[1, 2, 3]),
        ),
        (
            1,
            node(
                Role::Button,
                "Card",
                [x - 50.0, y - 20.0, x + 50.0, y + 20.0],
                &[],
            ),
        ),
        (
            2,
            node(Role::List, "Bin", [400.0, 300.0, 600.0, 500.0], &[]),
        ),
        (3, counter),
    ])
}

#[test]
fn a_drag_holds_moves_over_frames_and_lets_go_once_the_tree_held_still() {
    // The card follows the pointer while the button is down; once it reaches the bin, the UI
    // animates (the counter changes in every frame) for 150 ms, as a list opening a gap does.
    let mut down = false;
    let mut animating_until = None;
    let mut ticks = 0;
    let mut card = (70.0, 40.0);
    let (app, log) = timed_app(card_tree(card, 0), move |_, handed| {
        let mut changed = false;
        for h in handed {
            match *h {
                PRESS => down = true,
                RELEASE => down = false,
                Handed::Move(x, y) if down => {
                    card = (x, y);
                    changed = true;
                    if (x, y) == (500.0, 400.0) {
                        animating_until = Some(Instant::now() + Duration::from_millis(150));
                    }
                }
                _ => {}
            }
        }
        if animating_until.is_some_and(|until| Instant::now() < until) {
            // An animated frame takes the app a millisecond to draw.
            std::thread::sleep(Duration::from_millis(1));
            ticks += 1;
            changed = true;
        }
        changed.then(|| card_tree(card, ticks))
    });
    let (response, frames) = app.send_taking_frames("drag name=Card to name=Bin");
    assert!(response.is_ok(), "{response:?}");
    let log = take(&log);

    // The move to FROM, the press in the next frame, ten moves, the release.
    let (a, b) = ((70.0, 40.0), (500.0, 400.0));
    let mut want = vec![vec![Handed::Move(a.0, a.1)], vec![PRESS]];
    for i in 1..=10 {
        let t = f64::from(i) / 10.0;
        want.push(vec![Handed::Move(
            a.0 + (b.0 - a.0) * t,
            a.1 + (b.1 - a.1) * t,
        )]);
    }
    want.push(vec![RELEASE]);
    assert_eq!(handed(&frames), want);
    assert!(next(&frames[0], &frames[1]), "{frames:?}");
    for pair in frames[2..12].windows(2) {
        assert!(pair[1].number > pair[0].number, "a frame each: {frames:?}");
    }

    // Paced: the hold before the first move, at least a step's time between moves.
    let seen = &log.seen;
    assert_eq!(seen.len(), 13, "{seen:?}");
    let hold = log.between(&seen[1], &seen[2]);
    assert!(hold >= Duration::from_millis(100), "hold {hold:?}");
    for pair in seen[2..12].windows(2) {
        let step = log.between(&pair[0], &pair[1]);
        assert!(step >= Duration::from_millis(16), "step {step:?}");
    }
    // Let go once the tree held still for 3 frames after the animation, well before the dwell's
    // bound (1000 ms after the last move).
    let (last_move, release) = (&seen[11], &seen[12]);
    let last_change = *log
        .changed
        .iter()
        .filter(|&&f| f < release.frame)
        .max()
        .expect("the UI changed");
    assert!(
        last_change > last_move.frame,
        "the animation ran after the last move: {:?} {last_move:?}",
        log.changed
    );
    assert!(
        release.frame > last_change + 3,
        "released in frame {}, the tree last changed in {last_change}",
        release.frame
    );
    let dwelt = release.at - last_move.at;
    assert!(
        dwelt >= Duration::from_millis(150) && dwelt < Duration::from_millis(900),
        "{dwelt:?}"
    );

    // The answer: where it pressed, where it let go, and where the card ended up.
    let body = response.body();
    assert!(body.contains("path pointer\nat 70,40\ntarget @e"), "{body}");
    assert!(body.contains("\nto 500,400\nto_target @e"), "{body}");
    assert!(body.contains(" list \"Bin\""), "{body}");
    let ended = body
        .lines()
        .last()
        .filter(|l| l.starts_with("ended @e"))
        .unwrap_or_else(|| panic!("the last line says where the card is: {body}"));
    assert!(
        ended.contains(" button \"Card\" bounds=450,380,100x40") && ended.ends_with(" at 500,400"),
        "{ended}"
    );
    // The card followed the pointer: the answer's last frame holds the moved card.
    assert!(body.contains("\nhit unverified\nended "), "{body}");
}

#[test]
fn a_drag_with_no_dwell_lets_go_in_the_frame_after_its_last_move() {
    let app = form_app();
    let (body, frames) = ok(
        &app,
        "drag name=Volume to 300,110 --steps 2 --hold 0 --dwell 0",
    );
    assert_eq!(
        handed(&frames),
        [
            vec![Handed::Move(120.0, 110.0)],
            vec![PRESS],
            vec![Handed::Move(210.0, 110.0)],
            vec![Handed::Move(300.0, 110.0)],
            vec![RELEASE],
        ]
    );
    assert!(next(&frames[3], &frames[4]), "{frames:?}");
    // Dragged to a point: where it let go, no `to_target`; the slider stays where it is.
    assert!(body.contains("\nto 300,110\nhit unverified\n"), "{body}");
    assert!(!body.contains("to_target"), "{body}");
    assert!(
        body.ends_with(" at 120,110\n") && body.contains("\nended @e"),
        "{body}"
    );

    // With the default dwell, the release waits for 3 frames after the dwell began, in which
    // nothing changed: several frames with no input come between.
    let (_, frames) = ok(&app, "drag name=Volume to 300,110 --steps 2 --hold 0");
    assert_eq!(frames.len(), 5, "{frames:?}");
    assert_eq!(frames[4].handed, [RELEASE]);
    assert!(
        frames[4].number >= frames[3].number + 4,
        "released too early: {frames:?}"
    );

    // From a point, no `ended` line; modifiers are let go after the drag's last frame.
    let (body, frames) = ok(
        &app,
        "drag 120,110 to 300,110 --steps 1 --hold 0 --dwell 0 --modifiers alt",
    );
    assert_eq!(
        handed(&frames),
        [
            vec![
                Handed::Modifiers(ModifiersState::ALT),
                Handed::Move(120.0, 110.0)
            ],
            vec![PRESS],
            vec![Handed::Move(300.0, 110.0)],
            vec![RELEASE],
            vec![Handed::Modifiers(ModifiersState::empty())],
        ]
    );
    assert!(
        body.contains("\nmodifiers alt\n") && !body.contains("ended"),
        "{body}"
    );

    let why = app.refused(
        "drag name=Volume to 300,110 --steps 0",
        ErrorCode::BadArgument,
    );
    assert!(why.contains("--steps 0"), "{why}");
}

#[test]
fn down_move_and_up_keep_the_button_down_between_commands() {
    let app = form_app();
    let why = app.refused("up", ErrorCode::PointerState);
    assert_eq!(why, "the left button is not down (down: none)");

    let (body, frames) = ok(&app, "down name=Save");
    assert_eq!(handed(&frames), [vec![Handed::Move(60.0, 155.0), PRESS]]);
    assert!(
        body.contains("\nbutton left down\nhit unverified\n"),
        "{body}"
    );
    let why = app.refused("down 10,10", ErrorCode::PointerState);
    assert_eq!(why, "the left button is down already");

    // Three moves from where the pointer is, a frame each.
    let (body, frames) = ok(&app, "move 300,200 --steps 3");
    let (from, to) = ((60.0, 155.0), (300.0, 200.0));
    let moves: Vec<Vec<Handed>> = (1..=3)
        .map(|i| {
            let t = f64::from(i) / 3.0;
            vec![Handed::Move(
                from.0 + (to.0 - from.0) * t,
                from.1 + (to.1 - from.1) * t,
            )]
        })
        .collect();
    assert_eq!(handed(&frames), moves);
    assert!(body.ends_with("at 300,200\nbuttons left down\n"), "{body}");

    let (body, frames) = ok(&app, "up");
    assert_eq!(handed(&frames), [vec![RELEASE]]);
    assert!(
        body.ends_with("path pointer\nreleased at 300,200\nbutton left\n"),
        "{body}"
    );
    app.refused("up", ErrorCode::PointerState);

    // Modifiers given to `down` are held until `up`, and let go in the frame after the release.
    let (body, frames) = ok(&app, "down name=Save --modifiers ctrl");
    assert_eq!(
        handed(&frames),
        [vec![
            Handed::Move(60.0, 155.0),
            Handed::Modifiers(ModifiersState::CONTROL),
            PRESS
        ]]
    );
    assert!(
        body.contains("\nbutton left down\nmodifiers ctrl\n"),
        "{body}"
    );
    let (_, frames) = ok(&app, "up");
    assert_eq!(
        handed(&frames),
        [
            vec![RELEASE],
            vec![Handed::Modifiers(ModifiersState::empty())]
        ]
    );
    assert!(next(&frames[0], &frames[1]), "{frames:?}");

    // A `down` that waits for its target is planned more than once (until the target held
    // still): only the plan whose order goes out presses.
    let (_, frames) = ok(&app, "down name=Save --wait 2000");
    assert_eq!(handed(&frames).concat().last(), Some(&PRESS), "{frames:?}");
    // While `down` holds the left button, a gesture that would press it again is refused.
    app.refused("click name=Save", ErrorCode::PointerState);
    app.refused("drag name=Save to 300,200", ErrorCode::PointerState);
    app.refused("stroke 300,200 310,200", ErrorCode::PointerState);
    let (_, frames) = ok(&app, "up");
    assert_eq!(handed(&frames), [vec![RELEASE]]);
    app.refused("up", ErrorCode::PointerState);
}

#[test]
fn a_stroke_presses_at_its_first_point_moves_a_frame_each_and_lets_go_at_its_last() {
    let (app, log) = timed_app(Form::default().update(), |_, _| None);
    let (response, frames) = app.send_taking_frames("stroke 500,300 550,300 550,350 500,350");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        handed(&frames),
        [
            vec![Handed::Move(500.0, 300.0), PRESS],
            vec![Handed::Move(550.0, 300.0)],
            vec![Handed::Move(550.0, 350.0)],
            vec![Handed::Move(500.0, 350.0)],
            vec![RELEASE],
        ]
    );
    assert!(next(&frames[3], &frames[4]), "{frames:?}");
    let log = take(&log);
    for pair in log.seen[..4].windows(2) {
        let step = log.between(&pair[0], &pair[1]);
        assert!(step >= Duration::from_millis(16), "step {step:?}");
    }
    let body = response.body();
    assert!(
        body.contains("path pointer\nat 500,300\nthrough 550,300 550,350 500,350\nbutton left\n"),
        "{body}"
    );

    let (response, _) = app.send_taking_frames("stroke 500,300");
    let failure = response.failure().expect("refused");
    assert_eq!(failure.code, ErrorCode::MissingArgument, "{failure:?}");
    assert_eq!(failure.message, "a stroke needs two points at least");
}

#[test]
fn a_pinch_is_two_touches_that_start_move_over_eight_frames_and_end() {
    let app = form_app();
    let (body, frames) = ok(&app, "pinch name=Files 2");
    // The list's centre is 550,70; the fingers start 40 either side and end 80 either side.
    let fingers = |t: f64, phase| {
        let spread = 40.0 * (1.0 + t);
        vec![
            Handed::Touch(1, phase, 550.0 - spread, 70.0),
            Handed::Touch(2, phase, 550.0 + spread, 70.0),
        ]
    };
    let mut want = vec![fingers(0.0, TouchPhase::Started)];
    for i in 1..=8 {
        want.push(fingers(f64::from(i) / 8.0, TouchPhase::Moved));
    }
    want.push(fingers(1.0, TouchPhase::Ended));
    assert_eq!(handed(&frames), want);
    assert!(
        body.contains("path touch\nat 550,70\ntarget @e")
            && body.ends_with("\nfingers 80 apart to 160 apart\n"),
        "{body}"
    );
    let why = app.refused("pinch name=Files 0", ErrorCode::BadArgument);
    assert!(why.contains("above 0"), "{why}");

    // A two-finger pan: the fingers keep their distance and their centre moves by DX,DY.
    let (body, frames) = ok(&app, "pinch name=Files 1 --pan 0,40");
    let got = handed(&frames);
    assert_eq!(
        got.first(),
        Some(&vec![
            Handed::Touch(1, TouchPhase::Started, 510.0, 70.0),
            Handed::Touch(2, TouchPhase::Started, 590.0, 70.0),
        ])
    );
    assert_eq!(
        got.last(),
        Some(&vec![
            Handed::Touch(1, TouchPhase::Ended, 510.0, 110.0),
            Handed::Touch(2, TouchPhase::Ended, 590.0, 110.0),
        ])
    );
    assert!(
        body.ends_with("\nfingers 80 apart to 80 apart\npan 0,40\n"),
        "{body}"
    );
    // Fingers that would leave the window are refused, with nothing handed over.
    let why = app.refused("pinch name=Files 1 --pan 0,-80", ErrorCode::BadArgument);
    assert!(why.contains("outside the window"), "{why}");
}

/// A label with its input proxy on top (an unnamed button of the same bounds beside it, as egui
/// puts a drag source over its label), a label under a button of another container, and a small
/// button under a larger one beside it.
fn proxies() -> TreeUpdate {
    tree(vec![
        (
            0,
            node(
                Role::Window,
                "w",
                [0.0, 0.0, 400.0, 300.0],
                &[1, 2, 3, 5, 6, 7],
            ),
        ),
        (1, node(Role::Label, "Item", [10.0, 10.0, 110.0, 40.0], &[])),
        (2, node(Role::Button, "", [10.0, 10.0, 110.0, 40.0], &[])),
        (
            3,
            node(Role::Label, "Other", [10.0, 110.0, 110.0, 140.0], &[]),
        ),
        (
            5,
            node(Role::GenericContainer, "", [0.0, 100.0, 400.0, 200.0], &[4]),
        ),
        (
            4,
            node(Role::Button, "Blocker", [10.0, 110.0, 110.0, 140.0], &[]),
        ),
        (
            6,
            node(Role::Button, "Small", [200.0, 10.0, 240.0, 30.0], &[]),
        ),
        (
            7,
            node(Role::Button, "Wide", [190.0, 5.0, 300.0, 50.0], &[]),
        ),
    ])
}

#[test]
fn a_press_goes_through_its_target_s_own_input_proxy_and_anything_else_on_top_covers() {
    let app = TestApp::builder()
        .name("gestures")
        .window(window_state("Proxies", 1.0))
        .tree(proxies())
        .start();
    let (body, frames) = ok(&app, "click name=Item");
    assert_eq!(all(&frames), [Handed::Move(60.0, 25.0), PRESS, RELEASE]);
    let via = body
        .lines()
        .find(|l| l.starts_with("via @e"))
        .unwrap_or_else(|| panic!("{body}"));
    assert!(via.contains(" button ") && !via.contains('"'), "{via}");
    assert!(body.contains(" text \"Item\""), "{body}");
    // A drag from the label presses through it too.
    let (body, _) = ok(
        &app,
        "drag name=Item to 300,250 --steps 1 --hold 0 --dwell 0",
    );
    assert!(body.contains("\nvia @e"), "{body}");

    // A button of another container lies on top of the other label: it covers it.
    let why = app.refused("click name=Other", ErrorCode::Covered);
    assert!(why.contains("\"Blocker\""), "{why}");
    // A larger button beside an interactive target covers it: the target takes presses itself.
    let why = app.refused("click name=Small", ErrorCode::Covered);
    assert!(why.contains("\"Wide\""), "{why}");
}

#[test]
fn a_press_the_proxy_took_is_verified() {
    let app = TestApp::builder()
        .name("gestures")
        .window(window_state("Proxies", 1.0))
        .tree(proxies())
        .stepped();
    app.frame(|_| {});
    let line = "click name=Item";
    let seq = app.client().enqueue_line(line).unwrap();
    let answer = app.dir().join(response_file(seq));
    let deadline = Instant::now() + PATIENCE;
    while !answer.exists() {
        assert!(Instant::now() < deadline, "{line} was never answered");
        let got = app.begin_frame();
        if got.contains(&PRESS) {
            // The proxy took it, as egui's drag source takes a press on its label.
            app.open_frame().pointer_hit(window_id(), Some(NodeId(2)));
        }
        app.end_frame();
        std::thread::sleep(Duration::from_millis(5));
    }
    let response = app.client().wait(seq).unwrap();
    assert!(response.is_ok(), "{response:?}");
    assert!(
        response.body().ends_with("button left\nhit verified\n"),
        "{response:?}"
    );
}

/// The form in a stepped app whose first frame has run.
fn stepped_form() -> SteppedApp {
    let app = TestApp::builder()
        .name("gestures")
        .window(window_state("Gestures", 1.0))
        .tree(Form::default().update())
        .stepped();
    app.frame(|_| {});
    app
}

/// Runs frames until one is handed something `started` accepts; returns what they were handed.
#[track_caller]
fn frames_until(app: &SteppedApp, started: impl Fn(&Handed) -> bool) -> Vec<Handed> {
    let mut handed = Vec::new();
    let got = eventually(Duration::from_secs(10), || {
        handed.extend(app.frame(|_| {}));
        handed.iter().any(&started).then_some(())
    });
    assert!(got.is_some(), "{handed:?}");
    handed
}

/// Sleeps until the Unix time `deadline_ms` has passed.
fn sleep_past(deadline_ms: u64) {
    let past =
        Instant::now() + Duration::from_millis(deadline_ms.saturating_sub(unix_ms_now()) + 5);
    while Instant::now() <= past {
        std::thread::sleep(past - Instant::now() + Duration::from_millis(1));
    }
}

#[test]
fn an_expired_gesture_lets_go_of_its_button_modifiers_and_fingers() {
    let app = stepped_form();
    let client = app.client();

    // A long press with shift held, cut by its deadline while the button is down.
    let deadline = unix_ms_now() + 1500;
    client
        .enqueue_line(&format!(
            "click name=Save --hold 10000 --modifiers shift --deadline {deadline}"
        ))
        .unwrap();
    let handed = frames_until(&app, |h| *h == PRESS);
    assert_eq!(
        handed,
        [
            Handed::Modifiers(ModifiersState::SHIFT),
            Handed::Move(60.0, 155.0),
            PRESS
        ]
    );
    sleep_past(deadline);
    assert_eq!(
        app.frame(|_| {}),
        [RELEASE, Handed::Modifiers(ModifiersState::empty())]
    );

    // A pinch cut once its fingers are down: both are lifted.
    let deadline = unix_ms_now() + 1500;
    client
        .enqueue_line(&format!("pinch name=Files 2 --deadline {deadline}"))
        .unwrap();
    let handed = frames_until(&app, |h| matches!(h, Handed::Touch(..)));
    assert_eq!(
        handed,
        [
            Handed::Touch(1, TouchPhase::Started, 510.0, 70.0),
            Handed::Touch(2, TouchPhase::Started, 590.0, 70.0)
        ]
    );
    sleep_past(deadline);
    let lifted = app.frame(|_| {});
    assert!(
        matches!(
            lifted[..],
            [
                Handed::Touch(1, TouchPhase::Ended, ..),
                Handed::Touch(2, TouchPhase::Ended, ..)
            ]
        ),
        "{lifted:?}"
    );
}

#[test]
fn a_down_that_expires_before_its_frame_leaves_no_button_down() {
    let app = stepped_form();
    let client = app.client();
    // Planned and sent at once, but no frame takes it before its deadline.
    let deadline = unix_ms_now() + 1000;
    let seq = client
        .enqueue_line(&format!("down name=Save --deadline {deadline}"))
        .unwrap();
    sleep_past(deadline);
    let handed = app.frame(|_| {});
    assert!(!handed.contains(&PRESS), "nothing pressed: {handed:?}");
    // Answered `expired` (by the app, or by the service that withdrew it: the client reads
    // that as its fate).
    match client.wait(seq) {
        Ok(answer) => assert_eq!(answer.error_code(), Some(ErrorCode::Expired), "{answer:?}"),
        Err(e) => assert!(format!("{e:?}").contains("Expired"), "{e:?}"),
    }
    // The app holds no button: `up` is refused, and a `down` goes out again.
    let up = client.send_line("up").unwrap();
    assert_eq!(up.error_code(), Some(ErrorCode::PointerState), "{up:?}");
    let seq = client.enqueue_line("down name=Save").unwrap();
    let handed = frames_until(&app, |h| *h == PRESS);
    assert!(handed.contains(&PRESS), "{handed:?}");
    assert!(client.wait(seq).unwrap().is_ok());
}
