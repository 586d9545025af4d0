//! The neutral crates alone drive an app end to end: a frame loop with neither winit nor wgpu
//! (what an engine on another GPU stack would write) starts the service, hands over widget
//! records and RGBA pixels through the link's render end, and answers `snapshot`, `click` and
//! `screenshot` sent by the client library. Its windows' ids are its own (as big as a Wayland
//! surface's address); the drop-box numbers them 1, 2, ... in the order they appear.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use accesskit::{Action, Role};
use winit_automation_client::Client;
use winit_automation_link::{Bounds, FrameImage, Injected, RenderEnd, Step, Widget, WindowState};
use winit_automation_protocol::{Button, Command};
use winit_automation_service::{Options, start};

/// The app's window, by the id it gives the plugin.
const WINDOW: u64 = 94_241_260_025_984;
/// A second window, named after the first, with a smaller id.
const SECOND: u64 = 7;
const WIDTH: u32 = 64;
const HEIGHT: u32 = 32;
/// The counter button, in logical pixels.
const BUTTON: Bounds = Bounds::new(8.0, 8.0, 48.0, 16.0);

/// The frame's pixels: the left half's red channel is the click count, so a screenshot shows
/// which frame it was taken of.
fn pixels(clicks: u8) -> Vec<u8> {
    let mut rgba = Vec::with_capacity((WIDTH * HEIGHT * 4) as usize);
    for _y in 0..HEIGHT {
        for x in 0..WIDTH {
            let red = if x < WIDTH / 2 { clicks } else { 200 };
            rgba.extend_from_slice(&[red, 10, 20, 255]);
        }
    }
    rgba
}

/// A frame loop as an engine would write it: the link's render end only, no window system.
fn run(end: RenderEnd, quit: Arc<AtomicBool>) {
    let mut clicks: u8 = 0;
    let mut pointer = (0.0, 0.0);
    end.window_state(
        WINDOW,
        WindowState::headless("Neutral", f64::from(WIDTH), f64::from(HEIGHT)),
    );
    end.window_state(SECOND, WindowState::headless("Second", 10.0, 10.0));
    while !quit.load(Ordering::SeqCst) {
        end.open_frame();
        for input in end.take_input() {
            match input {
                // Input comes back under the app's own id for the window.
                Injected::Step { window, step, .. } if window == WINDOW => match step {
                    Step::Move { x, y } => pointer = (x, y),
                    Step::Button {
                        button: Button::Left,
                        pressed: false,
                    } if BUTTON.contains(pointer.0, pointer.1) => clicks += 1,
                    Step::Quit => quit.store(true, Ordering::SeqCst),
                    _ => {}
                },
                Injected::Step { window, step, .. } => panic!("{step:?} for window {window}"),
                Injected::AppCommand(request) => drop(request),
            }
        }
        end.widgets(
            WINDOW,
            vec![
                Widget::new("counter", Role::Button, format!("Clicked {clicks}"))
                    .action(Action::Click)
                    .bounds(BUTTON),
            ],
        );
        let mut published = end.publish(true);
        let frame = Arc::new(pixels(clicks));
        end.capture(WINDOW, Some(&mut published), &mut |scale| {
            let frame = Arc::clone(&frame);
            Ok(Box::new(move |visit: &mut dyn FnMut(&FrameImage<'_>)| {
                visit(&FrameImage {
                    width: WIDTH,
                    height: HEIGHT,
                    scale,
                    stride: WIDTH as usize * 4,
                    bgra: false,
                    bytes: &frame,
                });
                Ok(())
            }))
        });
        end.end_frame(Some(published), true);
        end.wait_for_work(Duration::from_millis(200));
    }
}

fn start_app(dir: &Path) -> (JoinHandle<()>, Arc<AtomicBool>) {
    let end = start(Options {
        name: Some("neutral".into()),
        dir: Some(dir.to_owned()),
        capacity: 64,
        max_bytes: Command::DEFAULT_MAX_BYTES,
        reap_after: Duration::from_secs(2),
        response_ttl: Duration::from_secs(60),
        waker: None,
        app_screenshots: false,
        hover_frame: false,
        keys_without_focus: false,
        clock: None,
    })
    .expect("the service starts");
    let quit = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&quit);
    (std::thread::spawn(move || run(end, flag)), quit)
}

/// The red channel of the screenshot's top-left pixel, and its size.
fn first_pixel(png_path: &Path) -> (u8, u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png_path).expect("the screenshot file"),
    ));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut buf).expect("its pixels");
    (buf[0], info.width, info.height)
}

#[test]
fn a_frame_loop_on_the_neutral_crates_answers_snapshot_click_and_screenshot() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("box");
    let (app, quit) = start_app(&dir);
    let client = Client::connect_waiting(Some(&dir), Duration::from_secs(10), |_| {})
        .expect("the app's drop-box is ready");

    // The drop-box is ready before the first frame is drawn: wait for the widget, as a client
    // would, instead of racing the frame loop (a snapshot taken first shows `frame=0`).
    let ready = client
        .send_line(r#"wait role=button name="Clicked 0" --timeout 10000"#)
        .unwrap();
    assert!(ready.is_ok(), "{}", ready.to_text());
    let snapshot = client.send_line("snapshot -i").unwrap();
    assert!(snapshot.is_ok(), "{}", snapshot.to_text());
    assert!(
        snapshot.body().contains(r#"button "Clicked 0""#),
        "the widget record is in the tree:\n{}",
        snapshot.body()
    );
    let windows: Vec<&str> = snapshot
        .body()
        .lines()
        .filter(|l| l.starts_with("window "))
        .collect();
    assert_eq!(
        windows,
        [
            r#"window 1 "Neutral" size=64x32 scale=1 focused"#,
            r#"window 2 "Second" size=10x10 scale=1 focused"#
        ],
        "the windows are numbered in the order they appeared, not by the app's ids"
    );

    let click = client
        .send_line(r#"click role=button name="Clicked 0""#)
        .unwrap();
    assert!(click.is_ok(), "{}", click.to_text());
    let after = client.send_line("snapshot -i").unwrap();
    assert!(
        after.body().contains(r#"button "Clicked 1""#),
        "the click reached the button, and the tree shows it:\n{}",
        after.body()
    );

    let shot = client.send_line("screenshot neutral").unwrap();
    assert!(shot.is_ok(), "{}", shot.to_text());
    let file = winit_automation_client::screenshot_path(&dir, shot.body()).unwrap();
    assert_eq!(
        first_pixel(&file),
        (1, WIDTH, HEIGHT),
        "the PNG holds the frame's own pixels, of the frame after the click"
    );

    let bye = client.send_line("quit").unwrap();
    assert!(bye.is_ok(), "{}", bye.to_text());
    app.join().unwrap();
    assert!(quit.load(Ordering::SeqCst));
    assert!(
        !dir.join("ready.txt").exists(),
        "the service removed ready.txt when the render end was dropped"
    );
}
