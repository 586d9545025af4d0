//! What tracing costs the render thread (issue 25: within 10% of not tracing): its time per frame
//! (the frame, a 1,000-node tree update, the capture call, the frame's end; the app's own submit
//! excluded) over a session of clicks, each carried out and answered, with a trace with frames
//! running against none, interleaved so load drift hits both. Each traced click adds one frame
//! copy (encoded on the render thread, read back and encoded as PNG on the service thread).
//! 1280x800 cleared frames on a real device (lavapipe here). Prints medians and p99 per frame and
//! the ratio of the render thread's whole time for the same clicks; asserts nothing.
//! `bash scripts/bench.sh` runs it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

#[path = "shared/stats.rs"]
mod stats;
use std::time::{Duration, Instant};

#[path = "../tests/common/app.rs"]
mod app;
// Its 1,000-node tree; its render-cost loop is frame.rs's.
#[path = "../tests/common/gpu.rs"]
mod gpu;
#[path = "shared/render_loop.rs"]
#[allow(dead_code)]
mod render_loop;

use app::{TestApp, window_id};
use winit_automation::WindowState;

fn row(what: &str, v: &mut [Duration]) {
    v.sort();
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "| {what} | {:.1} us | {:.1} us | {} frames |",
        us(stats::percentile(v, 0.5)),
        us(stats::percentile(v, 0.99)),
        v.len()
    );
}

/// The render thread's time per frame (frame, a 1,000-node tree update, the capture call, the
/// frame's end) over a session of clicks, each carried out and answered, with a trace with
/// frames running (`traced`) or none: what tracing adds to the frames of a session. 1280x800,
/// cleared frames, on a real device (lavapipe here).
fn session_frames(traced: bool, clicks: usize) -> Vec<Duration> {
    let app = TestApp::builder()
        .name("bench")
        .window(WindowState {
            title: "bench".into(),
            width: 1280.0,
            height: 800.0,
            scale_factor: 1.0,
            focused: true,
        })
        .configure(|b| b.app_screenshots(false))
        .stepped();
    let window = window_id();
    let (device, queue, texture) = gpu::sized_target(1280, 800);
    let client = app.client();
    let mut frame_no = 0u64;
    let mut times = Vec::new();
    let mut one_frame = |times: &mut Vec<Duration>, keep: bool| {
        frame_no += 1;
        let update = render_loop::tree(frame_no % 4);
        let start = Instant::now();
        app.begin_frame();
        let mut frame = app.open_frame();
        frame.tree_update(window, update);
        let mut encoder = device.create_command_encoder(&Default::default());
        gpu::clear(&mut encoder, &texture, wgpu::Color::WHITE);
        frame.capture(window, &device, &mut encoder, &texture);
        let spent = start.elapsed();
        // The app's own submit is not the plugin's cost.
        queue.submit([encoder.finish()]);
        drop(frame);
        let start = Instant::now();
        app.end_frame();
        if keep {
            times.push(spent + start.elapsed());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    for _ in 0..20 {
        one_frame(&mut times, false);
    }
    if traced {
        let seq = client.enqueue_line("trace start --screenshots").unwrap();
        while client.wait(seq).is_err() {}
    }
    for i in 0..clicks + 5 {
        // Buttons of the 1,000-node tree, 20 px apart.
        let seq = client
            .enqueue_line(&format!(
                "click {},{}",
                10 + (i % 40) * 20,
                10 + (i / 40) * 20
            ))
            .unwrap();
        let answer = app
            .dir()
            .join(winit_automation_protocol::response_file(seq));
        while !answer.exists() {
            one_frame(&mut times, i >= 5);
        }
        let _ = client.wait(seq);
        // The frame after the answer, which a trace captures.
        for _ in 0..3 {
            one_frame(&mut times, i >= 5);
        }
    }
    times
}

fn main() {
    println!(
        "machine: {} cores; samples after warm-up; medians and p99",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!("| what | p50 | p99 | samples |");
    println!("|---|---|---|---|");

    // A session to warm up (the first in a process pays for what is set up once), then
    // interleaved in alternating order, so load drift and order hit both alike.
    let _ = session_frames(false, 10);
    let (mut plain, mut traced) = (Vec::new(), Vec::new());
    for rep in 0..4 {
        for with_trace in [rep % 2 == 1, rep % 2 == 0] {
            let frames = session_frames(with_trace, 40);
            if with_trace {
                traced.extend(frames);
            } else {
                plain.extend(frames);
            }
        }
    }
    // The same clicks either way: the render thread's whole time for them (a traced session has
    // more frames, the capture's and the one the next click waits, so a mean per frame would
    // flatter it).
    let total = |v: &[Duration]| v.iter().sum::<Duration>().as_secs_f64();
    let ratio = total(&traced) / total(&plain);
    row(
        "render thread per frame over a session of clicks, no trace (1,000-node tree, 1280x800)",
        &mut plain,
    );
    row(
        "render thread per frame over a session of clicks, trace with frames running",
        &mut traced,
    );
    println!(
        "| tracing with frames: the render thread's whole time for the same clicks, traced / not traced (target <= 1.10) | {ratio:.3} | | {} |",
        if ratio <= 1.10 { "met" } else { "MISSED" }
    );
}
