//! Input dispatch, in process: commands become the right winit events, key events, text and
//! AccessKit requests, in the right frames, aimed at the centre of the target's visible part; bad
//! targets are refused before anything is dispatched; `--settle` waits for the tree to stop
//! changing. The render loop here is a test double of a winit app: it records what it is handed.
#![cfg(all(feature = "automation", feature = "client"))]

mod common;
#[path = "common/fixture.rs"]
mod fixture;

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use accesskit::{Action, ActionData, Node, NodeId, Rect, Role, TreeId, TreeInfo, TreeUpdate};
use common::fresh_dir;
use crossbeam_channel::{Receiver, Sender, bounded, unbounded};
use fixture::Form;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::window::WindowId;
use winit_automation::client::Client;
use winit_automation::protocol::{ErrorCode, Outcome, Response};
use winit_automation::{Automation, Input, WindowState};

/// What the app was handed, simplified for comparison.
#[derive(Debug, Clone, PartialEq)]
enum Got {
    Move(f64, f64),
    Button(MouseButton, bool),
    Wheel(f64, f64),
    Text(String),
    Key(String, bool),
    Action(Action, NodeId, Option<ActionData>),
    Resize(f64, f64),
    Quit,
}

/// Each frame that was handed something: its number and what it got.
type Log = Arc<Mutex<Vec<(u64, Vec<Got>)>>>;

/// Reacts to what a frame was handed: returns a new tree to publish, if any.
type React = Box<dyn FnMut(&[Got], u64) -> Option<TreeUpdate> + Send>;

struct App {
    client: Client,
    /// (frame, what it was handed), for frames that were handed something.
    log: Log,
    trees: Sender<TreeUpdate>,
    stop: Sender<()>,
    thread: Option<JoinHandle<()>>,
    _tmp: tempfile::TempDir,
}

fn simplify(input: Input) -> Option<Got> {
    Some(match input {
        Input::Pointer { event, .. } => match event {
            WindowEvent::CursorMoved { position, .. } => Got::Move(position.x, position.y),
            WindowEvent::MouseInput { state, button, .. } => {
                Got::Button(button, state == ElementState::Pressed)
            }
            WindowEvent::MouseWheel {
                delta: MouseScrollDelta::PixelDelta(p),
                ..
            } => Got::Wheel(p.x, p.y),
            other => panic!("unexpected pointer event {other:?}"),
        },
        Input::Text { text, .. } => Got::Text(text),
        Input::Key { key, .. } => Got::Key(key.chord.to_string(), key.is_pressed()),
        Input::Action { request, .. } => {
            Got::Action(request.action, request.target_node, request.data)
        }
        Input::Resize { size, .. } => Got::Resize(size.width, size.height),
        Input::Quit => Got::Quit,
        _ => return None,
    })
}

impl App {
    fn start(scale: f64, tree: TreeUpdate, mut react: React) -> App {
        let (tmp, dir) = fresh_dir();
        let (wake_tx, wake_rx) = bounded::<()>(1);
        let automation = Automation::builder()
            .app_name("input-test")
            .dir(&dir)
            .waker(move || {
                let _ = wake_tx.try_send(());
            })
            .start()
            .unwrap();
        let window = WindowId::from(1);
        automation.window_state(
            window,
            WindowState {
                title: "Input".into(),
                width: 800.0,
                height: 600.0,
                scale_factor: scale,
                focused: true,
            },
        );
        automation.tree_update(window, tree);
        automation.end_frame();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (trees, trees_rx) = unbounded::<TreeUpdate>();
        let (stop, stop_rx) = bounded::<()>(1);
        let thread = {
            let log = log.clone();
            std::thread::spawn(move || {
                render(
                    automation, window, wake_rx, stop_rx, trees_rx, log, &mut react,
                )
            })
        };
        let client = Client::connect(Some(&dir))
            .unwrap()
            .with_timeout(Duration::from_secs(20));
        App {
            client,
            log,
            trees,
            stop,
            thread: Some(thread),
            _tmp: tmp,
        }
    }

    fn form(form: &Form) -> App {
        App::start(form.scale, form.update(), Box::new(|_, _| None))
    }

    fn send(&self, line: &str) -> Response {
        self.client.send_line(line).unwrap()
    }

    /// Sends a command and returns its response and the frames' input it caused.
    fn run(&self, line: &str) -> (Response, Vec<(u64, Vec<Got>)>) {
        self.log.lock().unwrap().clear();
        let response = self.send(line);
        (response, self.log.lock().unwrap().clone())
    }

    /// Hands the render loop a new tree and returns once a frame carrying it is published.
    fn publish(&self, update: TreeUpdate) {
        let frame = |app: &App| -> u64 {
            let status = app.send("status");
            let line = status
                .body()
                .lines()
                .find(|l| l.starts_with("frame "))
                .unwrap();
            line["frame ".len()..].parse().unwrap()
        };
        let before = frame(self);
        self.trees.send(update).unwrap();
        while frame(self) < before + 2 {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn snapshot_ref(&self, name: &str) -> String {
        let found = self.send(&format!("find name={name:?}"));
        let body = found.body().to_owned();
        body.lines()
            .nth(1)
            .and_then(|l| l.split_whitespace().next())
            .unwrap_or_else(|| panic!("no ref for {name}: {body}"))
            .to_owned()
    }
}

fn render(
    automation: Automation,
    window: WindowId,
    wake: Receiver<()>,
    stop: Receiver<()>,
    trees: Receiver<TreeUpdate>,
    log: Log,
    react: &mut React,
) {
    loop {
        crossbeam_channel::select! {
            recv(wake) -> _ => {}
            recv(stop) -> _ => return,
            default(Duration::from_millis(5)) => {}
        }
        let frame = automation.frame();
        let got: Vec<Got> = automation.begin_frame().filter_map(simplify).collect();
        if let Some(update) = react(&got, frame) {
            automation.tree_update(window, update);
        }
        while let Ok(update) = trees.try_recv() {
            automation.tree_update(window, update);
        }
        if !got.is_empty() {
            log.lock().unwrap().push((frame, got));
        }
        automation.end_frame();
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let _ = self.stop.send(());
        if let Some(t) = self.thread.take() {
            t.join().unwrap();
        }
    }
}

fn all(frames: &[(u64, Vec<Got>)]) -> Vec<Got> {
    frames.iter().flat_map(|(_, g)| g.clone()).collect()
}

#[test]
fn a_click_moves_to_the_centre_then_presses_and_releases_in_a_later_frame() {
    // Scale 2: the tree is in physical pixels, commands and answers in logical ones.
    let form = Form {
        scale: 2.0,
        ..Form::default()
    };
    let app = App::form(&form);
    let (response, frames) = app.run("click role=button name=Save");
    assert!(response.is_ok(), "{response:?}");
    // Save spans 20..100 x 140..170 logical: its centre is 60,155, or 120,310 physical.
    assert_eq!(frames.len(), 2, "{frames:?}");
    assert_eq!(frames[0].1, [Got::Move(120.0, 310.0)]);
    assert_eq!(
        frames[1].1,
        [
            Got::Button(MouseButton::Left, true),
            Got::Button(MouseButton::Left, false)
        ]
    );
    assert!(frames[1].0 > frames[0].0);
    let body = response.body();
    assert!(body.contains("path pointer\nat 60,155\n"), "{body}");
    assert!(body.contains(" button \"Save\""), "{body}");
    assert!(
        body.starts_with(&format!("frame {}\n", frames[1].0)),
        "the answer names the frame that carried the last step: {body}"
    );

    let (_, frames) = app.run("click --right --double 10,20");
    assert_eq!(all(&frames)[0], Got::Move(20.0, 40.0));
    assert_eq!(
        all(&frames)[1..],
        [
            Got::Button(MouseButton::Right, true),
            Got::Button(MouseButton::Right, false),
            Got::Button(MouseButton::Right, true),
            Got::Button(MouseButton::Right, false)
        ]
    );
}

#[test]
fn hover_drag_and_scroll_take_the_pointer_path_with_winit_signs() {
    let app = App::form(&Form::default());
    let (response, frames) = app.run("hover name=Volume");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(all(&frames), [Got::Move(120.0, 110.0)]);

    let (response, frames) = app.run("drag name=Volume to 220,110");
    assert!(response.is_ok(), "{response:?}");
    let got = all(&frames);
    assert_eq!(got.first(), Some(&Got::Move(120.0, 110.0)));
    assert_eq!(got[1], Got::Button(MouseButton::Left, true));
    assert_eq!(got.last(), Some(&Got::Button(MouseButton::Left, false)));
    assert_eq!(got[got.len() - 2], Got::Move(220.0, 110.0));
    assert_eq!(frames.len(), 7, "one step per frame: {frames:?}");

    // Positive dy shows what is below: winit's delta moves the content up, so it is negative.
    let (response, frames) = app.run("scroll role=list 0 60");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        all(&frames),
        [Got::Move(550.0, 70.0), Got::Wheel(0.0, -60.0)]
    );
    assert!(response.body().contains("wheel 0 60\n"));
}

#[test]
fn keys_text_fill_actions_resize_and_quit_take_their_own_paths() {
    let app = App::form(&Form::default());
    let (response, frames) = app.run("key ctrl+a shift+Tab");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(frames.len(), 1);
    assert_eq!(
        frames[0].1,
        [
            Got::Key("ctrl+a".into(), true),
            Got::Key("ctrl+a".into(), false),
            Got::Key("shift+Tab".into(), true),
            Got::Key("shift+Tab".into(), false)
        ]
    );
    assert!(response.body().contains("path key\n"));
    assert!(
        response.body().contains("focus @e"),
        "names the focus: {}",
        response.body()
    );

    let (response, frames) = app.run("type \"héllo \\\"you\\\"\"");
    assert_eq!(all(&frames), [Got::Text("héllo \"you\"".into())]);
    assert!(response.body().contains("path text\n"));

    let (response, frames) = app.run("fill role=textbox new@example.com");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(
        frames.len(),
        2,
        "focus first, then select and replace: {frames:?}"
    );
    assert_eq!(
        frames[0].1,
        [Got::Action(Action::Focus, fixture::EMAIL, None)]
    );
    assert_eq!(
        frames[1].1,
        [
            Got::Key("ctrl+a".into(), true),
            Got::Key("ctrl+a".into(), false),
            Got::Text("new@example.com".into())
        ]
    );

    let (response, frames) = app.run("action name=Volume increment");
    assert!(response.body().contains("path action\n"), "{response:?}");
    assert_eq!(
        all(&frames),
        [Got::Action(Action::Increment, fixture::VOLUME, None)]
    );
    // A text field gets text, even when it looks like a number; a slider gets a number.
    let (_, frames) = app.run("action role=textbox set_value 42");
    assert_eq!(
        all(&frames),
        [Got::Action(
            Action::SetValue,
            fixture::EMAIL,
            Some(ActionData::Value("42".into()))
        )]
    );

    let (response, frames) = app.run("resize 1024 700");
    assert!(response.body().contains("path window\n"), "{response:?}");
    assert_eq!(all(&frames), [Got::Resize(1024.0, 700.0)]);
    let (response, frames) = app.run("quit");
    assert!(response.is_ok());
    assert_eq!(all(&frames), [Got::Quit]);
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

fn refused(app: &App, line: &str, code: ErrorCode) -> String {
    let (response, frames) = app.run(line);
    assert_eq!(response.error_code(), Some(code), "{line}: {response:?}");
    assert!(frames.is_empty(), "{line}: dispatched {frames:?}");
    let Outcome::Error { message, hint, .. } = &response.outcome else {
        unreachable!()
    };
    assert!(!hint.is_empty(), "{line}: no hint");
    message.clone()
}

#[test]
fn covered_disabled_zero_size_and_offscreen_targets_are_refused_before_dispatch() {
    let app = App::start(1.0, hazards(false), Box::new(|_, _| None));
    let why = refused(&app, "click name=Under", ErrorCode::Covered);
    assert!(why.contains("dialog \"Overlay\""), "{why}");
    refused(&app, "click name=Disabled", ErrorCode::Disabled);
    refused(&app, "fill name=Disabled x", ErrorCode::Disabled);
    refused(&app, "click name=Empty", ErrorCode::ZeroSize);
    refused(&app, "hover name=Outside", ErrorCode::Offscreen);
    refused(&app, "click 900,10", ErrorCode::Offscreen);
    let why = refused(
        &app,
        "action name=Under increment",
        ErrorCode::ActionNotSupported,
    );
    assert!(why.contains("it supports: click"), "{why}");
    // Actions need no pointer: a zero-size node can still be focused.
    let (response, _) = app.run("focus name=Empty");
    assert!(response.is_ok(), "{response:?}");
    // A point can be clicked even where nodes overlap.
    let (response, _) = app.run("click 50,20");
    assert!(response.is_ok(), "{response:?}");

    let app = App::start(1.0, hazards(true), Box::new(|_, _| None));
    let why = refused(&app, "click name=Under", ErrorCode::Covered);
    assert!(why.contains("behind the modal dialog \"Overlay\""), "{why}");
}

#[test]
fn a_list_item_scrolled_out_of_its_list_is_offscreen_until_scrolled_into_view() {
    let mut form = Form::default();
    let app = App::form(&form);
    let why = refused(&app, "click name=file-10.txt", ErrorCode::Offscreen);
    assert!(why.contains("outside the visible area"), "{why}");
    // The list shows items 0 to 4; scrolled by 200 it shows 10 to 14.
    form.scroll = 200.0;
    app.publish(form.update());
    let (response, frames) = app.run("click name=file-10.txt");
    assert!(response.is_ok(), "{response:?}");
    assert_eq!(frames[0].1, [Got::Move(550.0, 30.0)]);
}

#[test]
fn a_stale_ref_is_refused_and_nothing_is_dispatched() {
    let mut form = Form::default();
    let app = App::form(&form);
    let save = app.snapshot_ref("Save");
    form.save_label = "Saved".into();
    app.publish(form.update());
    let why = refused(&app, &format!("click {save}"), ErrorCode::StaleRef);
    assert!(why.contains("now named \"Saved\""), "{why}");
}

/// The test app's checkbox: each click on it toggles the tree over the next `frames` frames.
fn checkbox_app(settle_frames: u64) -> App {
    let mut form = Form::default();
    let mut pending = 0;
    App::start(
        1.0,
        form.update(),
        Box::new(move |got, _| {
            if got.contains(&Got::Button(MouseButton::Left, false)) {
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
        }),
    )
}

#[test]
fn settle_answers_after_the_tree_stops_changing_with_the_diff_against_before() {
    let app = checkbox_app(4);
    let (response, _) = app.run("click name=\"Remember me\" --settle --frames 3");
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
    let (response, _) = app.run("click name=\"Remember me\" --settle --timeout 300");
    assert_eq!(
        response.error_code(),
        Some(ErrorCode::NotSettled),
        "{response:?}"
    );
    let Outcome::Error { message, .. } = &response.outcome else {
        unreachable!()
    };
    assert!(message.contains("still changing"), "{message}");
    assert!(
        response.body().contains("slider \"Volume\""),
        "{response:?}"
    );
}

#[test]
fn commands_run_one_at_a_time_each_against_the_tree_the_previous_left() {
    // Clicking the checkbox renames Save to "Saved" in the next frame; a click on "Saved" sent
    // right behind it must wait for that, not fail against the old tree.
    let mut form = Form::default();
    let app = App::start(
        1.0,
        form.update(),
        Box::new(move |got, _| {
            if got.contains(&Got::Button(MouseButton::Left, false)) && form.save_label == "Save" {
                form.save_label = "Saved".into();
                return Some(form.update());
            }
            None
        }),
    );
    let first = app
        .client
        .enqueue_line("click name=\"Remember me\"")
        .unwrap();
    let second = app.client.enqueue_line("click name=Saved").unwrap();
    assert!(app.client.wait(first).unwrap().is_ok());
    let response = app.client.wait(second).unwrap();
    assert!(response.is_ok(), "{response:?}");
}
