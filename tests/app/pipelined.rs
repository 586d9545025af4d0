//! Pipelined drawing (docs/integration.md, "Drawing on another thread"): `Frame::publish` lets the
//! next frame open while the published one is still drawn, and a `Frame<Published>` carries the
//! screenshots it owes to whichever thread draws it. Run frame by frame from the test (a stepped
//! test app), with a real wgpu device (Vulkan lavapipe) for the pixels.
use crate::common;
use crate::common::fixture;
use crate::common::gpu;

use common::{PATIENCE, SteppedApp, TestApp, frame_of, window_id, window_state};
use fixture::Form;
use winit::event::{ElementState, WindowEvent};
use winit_automation::{Frame, Input, Published};
use winit_automation_protocol::ScreenshotAnswer;

const CLICK: &str = "click name=\"Remember me\"";

fn app() -> SteppedApp {
    let app = TestApp::builder()
        .window(window_state("Pipelined", 1.0))
        .tree(Form::default().update())
        .configure(|b| b.app_screenshots(false))
        .stepped();
    app.frame(|_| {});
    app
}

/// Opens frames (waiting for the plugin's wake-up between them) until one takes input or, with
/// `shot`, owes a screenshot; returns it published, with its input.
fn next_frame(app: &SteppedApp, shot: bool) -> (Frame<Published>, Vec<Input>) {
    loop {
        let mut frame = app.automation().frame();
        let input: Vec<Input> = frame.input().collect();
        let frame = frame.publish();
        let done = if shot {
            frame.wants_capture(window_id())
        } else {
            !input.is_empty()
        };
        if done {
            return (frame, input);
        }
        drop(frame);
        assert!(app.woken(PATIENCE), "no command came");
    }
}

/// Where the input pressed the left button, in physical pixels.
fn press(input: &[Input]) -> (f64, f64) {
    let mut at = None;
    let mut pressed = None;
    for i in input {
        if let Input::Pointer { event, .. } = i {
            match event {
                WindowEvent::CursorMoved { position, .. } => at = Some((position.x, position.y)),
                WindowEvent::MouseInput {
                    state: ElementState::Pressed,
                    ..
                } => pressed = at,
                _ => {}
            }
        }
    }
    pressed.unwrap_or_else(|| panic!("no press in {input:?}"))
}

/// Whether `at` is on the "Remember me" checkbox (the fixture's bounds at scale 1).
fn on_checkbox((x, y): (f64, f64)) -> bool {
    (20.0..170.0).contains(&x) && (60.0..84.0).contains(&y)
}

#[test]
fn the_next_click_goes_to_the_next_frame_while_the_last_one_is_still_drawn() {
    let app = app();
    let first = app.client().enqueue_line(CLICK).unwrap();
    let (drawing, input) = next_frame(&app, false);
    assert!(on_checkbox(press(&input)), "{input:?}");
    // Answered at its frame's publication, though that frame is not drawn yet.
    assert_eq!(
        frame_of(&app.client().wait(first).unwrap()),
        drawing.number()
    );

    // `drawing` is still held, as a render thread holds the frame it draws: the next command
    // opens the next frame all the same.
    let second = app.client().enqueue_line(CLICK).unwrap();
    let (next, input) = next_frame(&app, false);
    assert!(on_checkbox(press(&input)), "{input:?}");
    let answered = frame_of(&app.client().wait(second).unwrap());
    assert!(
        answered > drawing.number() && answered == next.number(),
        "{answered} after {}",
        drawing.number()
    );
    drop(next);
    drop(drawing);
}

#[test]
fn a_screenshot_gets_its_own_frames_pixels_drawn_on_another_thread_after_later_frames() {
    let (device, queue, texture) = gpu::target();
    let app = app();
    let shot = app.client().enqueue_line("screenshot pipelined").unwrap();
    let (owed, _) = next_frame(&app, true);
    let number = owed.number();

    // The render thread gets the frame and waits before drawing it.
    let (go, wait) = std::sync::mpsc::channel::<()>();
    let render = {
        let (device, queue, texture) = (device.clone(), queue.clone(), texture.clone());
        std::thread::spawn(move || {
            wait.recv().unwrap();
            draw(&device, &queue, &texture, owed, wgpu::Color::RED);
        })
    };

    // Meanwhile the next frame opens, changes the tree, is drawn green and published: it owes
    // no screenshot.
    let mut next = app.automation().frame();
    assert_eq!(next.input().count(), 0);
    let checked = Form {
        remember: true,
        ..Form::default()
    };
    next.tree_update(window_id(), checked.update());
    let next = next.publish();
    assert!(!next.wants_capture(window_id()));
    draw(&device, &queue, &texture, next, wgpu::Color::GREEN);
    assert!(
        app.published_frame() > number,
        "the later frame is published while the screenshot's is not drawn"
    );
    let answer = app
        .dir()
        .join(winit_automation_protocol::response_file(shot));
    assert!(!answer.exists(), "answered before its frame was drawn");

    go.send(()).unwrap();
    render.join().unwrap();
    let response = app.client().wait(shot).unwrap();
    assert_eq!(frame_of(&response), number, "{response:?}");
    let file = ScreenshotAnswer::parse(response.body()).unwrap().file;
    let png = std::fs::read(app.dir().join(file.file_name())).unwrap();
    assert_eq!(
        gpu::first_pixel(&png),
        [255, 0, 0, 255],
        "its own frame's red, not green"
    );
}

/// Draws `frame` (cleared to `color`), captures and submits it.
fn draw(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    mut frame: Frame<Published>,
    color: wgpu::Color,
) {
    let mut encoder = device.create_command_encoder(&Default::default());
    gpu::clear(&mut encoder, texture, color);
    frame.capture(window_id(), device, &mut encoder, texture);
    frame.submit(queue, [encoder.finish()]);
}

#[test]
fn a_screenshot_of_a_frame_ended_undrawn_after_a_later_one_was_published_wakes_the_app_for_it() {
    let (device, queue, texture) = gpu::target();
    let app = app();
    // The window is captured once: an undrawn frame's screenshots then wait for the next frame
    // drawn (a window never captured has them refused).
    let first = app.client().enqueue_line("screenshot one").unwrap();
    let (owed, _) = next_frame(&app, true);
    draw(&device, &queue, &texture, owed, wgpu::Color::RED);
    assert!(app.client().wait(first).unwrap().is_ok());

    let second = app.client().enqueue_line("screenshot two").unwrap();
    let (owed, _) = next_frame(&app, true);
    // While `owed` is on its render thread, a later frame opens and is published.
    let later = app.automation().frame().publish();
    assert!(!later.wants_capture(window_id()));
    drop(later);
    while app.woken(std::time::Duration::ZERO) {}
    // The render thread had no image for `owed`: it ends undrawn. The frame the app asked for
    // (when its surface failed) may be the one published already: the plugin wakes it.
    drop(owed);
    assert!(
        app.woken(PATIENCE),
        "the app is woken for a frame to draw the screenshot"
    );
    // The window moved to a screen of another scale meanwhile: the screenshot is of the frame
    // that draws it, at that frame's scale.
    app.automation()
        .window_state(window_id(), window_state("Pipelined", 2.0));
    let (redrawn, _) = next_frame(&app, true);
    let number = redrawn.number();
    draw(&device, &queue, &texture, redrawn, wgpu::Color::BLUE);
    let response = app.client().wait(second).unwrap();
    assert_eq!(frame_of(&response), number, "{response:?}");
    let answer = ScreenshotAnswer::parse(response.body()).unwrap();
    assert_eq!(answer.scale, Some(2.0), "{response:?}");
}
