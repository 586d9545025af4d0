//! Bursts (docs/protocol.md section 4.1, "Bursts: superseded frames"): a frame whose action has
//! another command that draws queued behind it is superseded (the app may skip drawing it); the
//! last frame of a burst and a screenshot's frame never are; every action is still answered after
//! its own frame; and when the command meant to draw over a superseded frame never goes out, the
//! app is woken for a frame that is drawn. Run frame by frame on the test thread (a stepped test
//! app), so which frame carries which command is exact.
use crate::common;
use crate::common::fixture;

use std::time::Duration;

use common::{Handed, PATIENCE, Session, SteppedApp, TestApp, frame_of, window_state};
use fixture::Form;
use winit::event::MouseButton;
use winit_automation_protocol::ErrorCode;

const CLICK: &str = "click name=\"Remember me\"";

fn app() -> SteppedApp {
    let app = TestApp::builder()
        .window(window_state("Bursts", 1.0))
        .tree(Form::default().update())
        .stepped();
    app.frame(|_| {});
    app
}

/// Writes `lines` in one batch, then waits for a `status` behind them: every one of them is read
/// (queued, or sent to the app) once it is answered, since entries are read in seq order.
fn burst(app: &SteppedApp, lines: &[&str]) -> Vec<u64> {
    let batch = app.client().enqueue_lines(lines);
    assert!(batch.stopped.is_none(), "{:?}", batch.stopped);
    app.ok("status");
    batch.seqs
}

/// One frame: what it was handed and whether it was superseded.
fn frame(app: &SteppedApp) -> (Vec<Handed>, bool) {
    let handed = app.begin_frame();
    let superseded = app.open_frame().superseded();
    app.end_frame();
    (handed, superseded)
}

/// Runs frames until one is handed input (between frames, waits for the plugin to wake the app,
/// as it does when it sends a command); what it was handed and whether it was superseded.
fn next_input_frame(app: &SteppedApp) -> (Vec<Handed>, bool) {
    loop {
        let (handed, superseded) = frame(app);
        if !handed.is_empty() {
            return (handed, superseded);
        }
        assert!(app.woken(PATIENCE), "no command came");
    }
}

/// The next frame handed input: one click's press, answered `ok` after that frame. Returns
/// whether it was superseded and the answer's frame.
fn click_frame(app: &SteppedApp, seq: u64) -> (bool, u64) {
    let (handed, superseded) = next_input_frame(app);
    assert_eq!(presses(&handed), 1, "{handed:?}");
    (superseded, answered_frame(app, seq))
}

fn presses(handed: &[Handed]) -> usize {
    handed
        .iter()
        .filter(|h| **h == Handed::Button(MouseButton::Left, true))
        .count()
}

/// The frame of the answer to `seq`, which must be `ok`.
fn answered_frame(app: &Session, seq: u64) -> u64 {
    frame_of(&app.client().wait(seq).unwrap())
}

#[test]
fn in_a_burst_every_click_is_answered_after_its_frame_and_only_the_last_frame_must_be_drawn() {
    let app = app();
    let seqs = burst(&app, &[CLICK, CLICK, CLICK]);
    // The first click went out as soon as it was read, maybe before the others were: whether its
    // frame is superseded depends on that. The second went out with the third behind it.
    let (_, first) = click_frame(&app, seqs[0]);
    let (superseded, second) = click_frame(&app, seqs[1]);
    assert!(
        superseded,
        "the second click's frame is drawn over by the third's"
    );
    let (superseded, third) = click_frame(&app, seqs[2]);
    assert!(!superseded, "the last frame of a burst is drawn");
    // Each answered after its own frame, in order.
    assert!(first < second && second < third, "{first} {second} {third}");
    // A frame with no injected input is never superseded.
    let (handed, superseded) = frame(&app);
    assert!(handed.is_empty() && !superseded);
}

#[test]
fn a_screenshot_in_a_burst_gets_a_frame_that_is_drawn() {
    let app = app();
    let seqs = burst(&app, &[CLICK, CLICK, "screenshot shot", CLICK]);
    click_frame(&app, seqs[0]);
    let (superseded, _) = click_frame(&app, seqs[1]);
    assert!(superseded, "followed by the screenshot: drawn over");
    let (handed, superseded) = next_input_frame(&app);
    assert!(
        matches!(handed.as_slice(), [Handed::Request(line)] if line.starts_with("screenshot")),
        "{handed:?}"
    );
    assert!(!superseded, "a screenshot's frame is never superseded");
    assert!(app.client().wait(seqs[2]).unwrap().is_ok());
    let (superseded, _) = click_frame(&app, seqs[3]);
    assert!(!superseded);
}

#[test]
fn when_the_command_meant_to_draw_over_a_frame_never_goes_out_the_app_is_woken_to_draw() {
    let app = app();
    // The third click is refused at its turn (nothing is named so), so nothing draws over the
    // second click's frame.
    let seqs = burst(&app, &[CLICK, CLICK, "click name=Nowhere"]);
    click_frame(&app, seqs[0]);
    // The second click went out with the first one's answer, and the app was woken for it; the
    // service answers this `status` after that.
    app.ok("status");
    while app.woken(Duration::ZERO) {}
    let (handed, superseded) = frame(&app);
    assert_eq!(presses(&handed), 1);
    assert!(superseded, "the refused click was queued behind it");
    let refused = app.client().wait(seqs[2]).unwrap();
    assert_eq!(
        refused.error_code(),
        Some(ErrorCode::NotFound),
        "{refused:?}"
    );
    assert!(
        app.woken(PATIENCE),
        "the app is woken for a frame that is drawn"
    );
    let (handed, superseded) = frame(&app);
    assert!(handed.is_empty() && !superseded, "that frame is drawn");
    assert!(app.client().wait(seqs[1]).unwrap().is_ok());
}

#[test]
fn a_scroll_step_whose_action_expires_before_its_turn_still_gets_its_picture_drawn() {
    // The row lies below what the list shows: the hover first turns the wheel over the list, in
    // a frame the hover's own frame draws over. Its deadline passes while that frame is built,
    // so the hover never goes out after the step, and no frame of its own comes.
    let app = app();
    let unix_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64
    };
    // Room for a loaded machine to read and plan the hover before its deadline.
    let deadline = unix_ms() + 5000;
    let seq = app
        .client()
        .enqueue_line(&format!("hover name=file-10.txt --deadline {deadline}"))
        .unwrap();
    let handed = loop {
        let handed = app.begin_frame();
        if !handed.is_empty() {
            break handed;
        }
        app.end_frame();
        assert!(app.woken(PATIENCE), "no command came");
    };
    assert!(
        handed.iter().any(|h| matches!(h, Handed::Wheel(..))),
        "{handed:?}"
    );
    assert!(
        app.open_frame().superseded(),
        "the step's frame is drawn over by the action's"
    );
    // The frame is still being built when the deadline passes.
    while unix_ms() <= deadline + 5 {
        std::thread::sleep(Duration::from_millis(
            deadline + 6 - unix_ms().min(deadline + 6),
        ));
    }
    while app.woken(Duration::ZERO) {}
    app.end_frame();
    // The client, past its deadline, says so itself (the service answers `expired`).
    let expired = app.client().wait(seq);
    assert!(
        matches!(&expired, Err(e) if e.to_string().contains("deadline")),
        "{expired:?}"
    );
    assert!(
        app.woken(PATIENCE),
        "the app is woken for a frame that draws the step's effect"
    );
    let (handed, superseded) = frame(&app);
    assert!(handed.is_empty() && !superseded, "that frame is drawn");
}

#[test]
fn a_burst_past_the_in_progress_limit_is_read_from_its_listing_and_each_click_answered_once() {
    // 150 clicks at once: the service reads 64, and the rest from the same listing as answers
    // make room (no file event comes for them after they were written).
    let app = TestApp::builder()
        .window(window_state("Bursts", 1.0))
        .tree(Form::default().update())
        .start();
    let lines = vec![CLICK; 150];
    let batch = app.client().enqueue_lines(&lines);
    assert!(batch.stopped.is_none(), "{:?}", batch.stopped);
    let frames: Vec<u64> = batch
        .seqs
        .iter()
        .map(|&seq| answered_frame(&app, seq))
        .collect();
    assert!(
        frames.windows(2).all(|w| w[0] < w[1]),
        "each in a frame of its own, in order: {frames:?}"
    );
    let handed = common::all(&app.take_frames());
    assert_eq!(presses(&handed), 150, "each click pressed once");
    let left: Vec<String> = std::fs::read_dir(app.dir())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| {
            n.starts_with("command-") || n.starts_with("taken-") || n.starts_with("response-")
        })
        .collect();
    assert!(
        left.is_empty(),
        "nothing left and no second answer: {left:?}"
    );
}
