//! Screenshots in process, on a real wgpu device (Vulkan lavapipe, no window): BGRA becomes RGBA,
//! sRGB bytes are kept, and a texture that cannot be read back is an error answer, never a hang.
use crate::common;
use crate::common::gpu;

use std::time::{Duration, Instant};

use common::{SteppedApp, TestApp, refusal, window_id};
use winit_automation::WindowState;
use winit_automation_protocol::{ErrorCode, Response, ScreenshotAnswer};

/// The test app with a 64x32 window whose screenshots the plugin takes (from the texture handed
/// to `capture`), run frame by frame from the test.
fn capture_app() -> SteppedApp {
    TestApp::builder()
        .window(WindowState {
            title: "capture".into(),
            width: 64.0,
            height: 32.0,
            scale_factor: 1.0,
            focused: true,
        })
        .configure(|b| b.app_screenshots(false))
        .stepped()
}

/// Runs frames that clear `texture` to `rgba` and hand it to `capture`, until `line` is answered.
fn shoot(
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
    line: &str,
) -> (Response, Vec<u8>) {
    let (device, queue) = gpu::device();
    let app = capture_app();
    let texture = gpu::texture(&device, format, usage);
    let seq = app.client().enqueue_line(line).unwrap();
    let mut slowest = Duration::ZERO;
    let response = app.frames_until_answered(seq, |frame| {
        let mut encoder = device.create_command_encoder(&Default::default());
        // 0.5 in linear light; an sRGB target stores it as 188.
        let color = wgpu::Color {
            r: 0.5,
            g: 0.0,
            b: 1.0,
            a: 1.0,
        };
        gpu::clear(&mut encoder, &texture, color);
        let start = Instant::now();
        frame.capture(window_id(), &device, &mut encoder, &texture);
        queue.submit([encoder.finish()]);
        slowest = slowest.max(start.elapsed());
    });
    println!("slowest capture + submit on the render thread: {slowest:?}");
    // A refusal names no file.
    let png = match ScreenshotAnswer::parse(response.body()) {
        Ok(answer) => std::fs::read(app.dir().join(answer.file.file_name())).unwrap(),
        Err(_) => Vec::new(),
    };
    (response, png)
}

#[test]
fn bgra_frames_become_rgba_and_srgb_bytes_are_kept() {
    let (response, png) = shoot(
        wgpu::TextureFormat::Bgra8UnormSrgb,
        wgpu::TextureUsages::COPY_SRC,
        "screenshot bgra",
    );
    assert!(response.is_ok(), "{response:?}");
    assert!(response.body().contains("size 64x32\n"), "{response:?}");
    // Linear 0.5 encoded as sRGB is 188; red first, as PNG wants.
    let [r, g, b, a] = gpu::first_pixel(&png);
    assert!(
        r.abs_diff(188) <= 1 && g == 0 && b == 255 && a == 255,
        "{r} {g} {b} {a}"
    );

    let (response, png) = shoot(
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureUsages::COPY_SRC,
        "screenshot rgba",
    );
    assert!(response.is_ok(), "{response:?}");
    let [r, g, b, _] = gpu::first_pixel(&png);
    assert!(r.abs_diff(128) <= 1 && g == 0 && b == 255, "{r} {g} {b}");
}

/// What an `unsupported` refusal says: its message and hint.
fn refused_because(response: &Response) -> String {
    let failure = refusal(response, ErrorCode::Unsupported);
    format!("{} / {}", failure.message, failure.hint)
}

#[test]
fn a_texture_that_cannot_be_read_back_is_an_error_answer() {
    let (response, _) = shoot(
        wgpu::TextureFormat::Rgba8Unorm,
        wgpu::TextureUsages::empty(),
        "screenshot nocopy",
    );
    let why = refused_because(&response);
    assert!(
        why.contains("COPY_SRC") && why.contains("FrameTarget"),
        "{why}"
    );

    let (response, _) = shoot(
        wgpu::TextureFormat::Rgba16Float,
        wgpu::TextureUsages::COPY_SRC,
        "screenshot float",
    );
    assert!(refused_because(&response).contains("Rgba16Float"));
}

#[test]
fn an_app_that_never_hands_over_its_frame_gets_a_clear_answer() {
    let app = TestApp::builder()
        .configure(|b| b.app_screenshots(false))
        .stepped();
    let seq = app.client().enqueue_line("screenshot").unwrap();
    let why = refused_because(&app.frames_until_answered(seq, |_| {}));
    assert!(why.contains("Frame::capture"), "{why}");
}

#[test]
fn a_screenshot_waits_for_the_next_drawn_frame_when_a_captured_window_skips_one() {
    // An app whose swapchain image is missing for a frame (a resize, a timeout) ends it without
    // drawing; a window it has captured before keeps its screenshot for the next frame it draws.
    let (device, queue, texture) = gpu::target();
    let app = capture_app();
    let draw = |frame: &mut winit_automation::Frame| {
        let mut encoder = device.create_command_encoder(&Default::default());
        frame.capture(window_id(), &device, &mut encoder, &texture);
        queue.submit([encoder.finish()]);
    };
    let first = app.client().enqueue_line("screenshot one").unwrap();
    assert!(app.frames_until_answered(first, draw).is_ok());
    let second = app.client().enqueue_line("screenshot two").unwrap();
    // Frames that draw nothing until one has the screenshot waiting, then three more.
    let deadline = Instant::now() + common::PATIENCE;
    let mut skipped = 0;
    while skipped < 4 {
        assert!(
            Instant::now() < deadline,
            "the screenshot never reached a frame"
        );
        app.frame(|frame| {
            if frame.wants_capture(window_id()) {
                skipped += 1;
            }
        });
    }
    let answer = app
        .dir()
        .join(winit_automation_protocol::response_file(second));
    assert!(
        !answer.exists(),
        "answered without a frame drawn: {:?}",
        std::fs::read_to_string(&answer)
    );
    let response = app.frames_until_answered(second, draw);
    assert!(response.is_ok(), "{response:?}");
    assert!(ScreenshotAnswer::parse(response.body()).is_ok());
}
