//! The windowed demo's drawing, on a thread of its own (pipelined drawing): the event loop builds
//! each frame, publishes it (its answers go out) and hands the `Frame<Published>` here with its
//! layers, then takes the next command while this thread draws. On a software rasterizer a frame
//! takes milliseconds to draw; the next click does not wait for it.
//!
//! The thread draws frames in order, no faster than a display shows them (60 Hz). Of the frames
//! waiting when it looks, it draws every one a screenshot waits for (`Frame::wants_capture`), at
//! once, and the newest; the others are drawn over before anyone could see them, so it ends them
//! undrawn.

use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use winit::window::{Window, WindowId};
use winit_automation::{Frame, Published, WindowSurface};

use crate::gfx::{Gfx, Layer, Rgba};
use crate::shell::Gpu;

/// What the event loop hands the thread.
enum Job {
    /// A published frame and what it shows (`scale`: physical pixels per logical pixel).
    Draw { frame: Frame<Published>, window: WindowId, layers: Vec<Layer>, scale: f64 },
    /// The window changed size: the surface is configured again before the next frame.
    Resize,
}

/// The most frames a second a display shows, and so the most the thread draws.
const FRAME: Duration = Duration::from_micros(16_667);

impl Job {
    fn wants_capture(&self) -> bool {
        matches!(self, Job::Draw { frame, window, .. } if frame.wants_capture(*window))
    }
}

/// The event loop's end of the drawing thread.
pub struct Painter {
    jobs: Option<Sender<Job>>,
    /// The surface's configuration, as the thread configures it next.
    config: wgpu::SurfaceConfiguration,
    thread: Option<JoinHandle<()>>,
}

impl Painter {
    /// Starts the thread that draws on `screen`, clearing each frame to `clear`.
    pub fn new(gpu: &Gpu, screen: WindowSurface, clear: Rgba) -> Painter {
        let config = screen.config().clone();
        let (device, queue) = (gpu.device.clone(), gpu.queue.clone());
        let gfx = Gfx::new(&device, &queue, config.format);
        let (jobs, inbox) = channel();
        let thread = std::thread::Builder::new()
            .name("demo painter".to_owned())
            .spawn(move || Thread { device, queue, screen, gfx, clear }.run(&inbox))
            .expect("a thread to draw on");
        Painter { jobs: Some(jobs), config, thread: Some(thread) }
    }

    /// Draws `frame` on the thread; never waits for it.
    pub fn draw(&self, frame: Frame<Published>, window: WindowId, layers: Vec<Layer>, scale: f64) {
        self.send(Job::Draw { frame, window, layers, scale });
    }

    /// Follows `window`'s new size; returns the configuration the surface takes.
    pub fn resize(&mut self, window: &Window) -> &wgpu::SurfaceConfiguration {
        let size = window.inner_size();
        (self.config.width, self.config.height) = (size.width.max(1), size.height.max(1));
        self.send(Job::Resize);
        &self.config
    }

    fn send(&self, job: Job) {
        // The thread is gone only if it panicked; its message says why.
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }
}

impl Drop for Painter {
    fn drop(&mut self) {
        // The thread ends once the channel closes and what it holds is drawn.
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The drawing thread's own state.
struct Thread {
    device: wgpu::Device,
    queue: wgpu::Queue,
    screen: WindowSurface,
    gfx: Gfx,
    clear: Rgba,
}

impl Thread {
    fn run(mut self, inbox: &Receiver<Job>) {
        let mut due = Instant::now();
        while let Ok(first) = inbox.recv() {
            let mut jobs = vec![first];
            // No faster than a display shows frames: until the next is due, what comes joins
            // (and the newest is drawn); a frame a screenshot waits for is drawn at once.
            loop {
                jobs.extend(inbox.try_iter());
                let now = Instant::now();
                if now >= due || jobs.iter().any(Job::wants_capture) {
                    break;
                }
                match inbox.recv_timeout(due - now) {
                    Ok(job) => jobs.push(job),
                    Err(_) => break,
                }
            }
            let newest = jobs.iter().rposition(|j| matches!(j, Job::Draw { .. }));
            for (i, job) in jobs.into_iter().enumerate() {
                match job {
                    Job::Resize => _ = self.screen.resize(&self.device),
                    Job::Draw { frame, window, layers, scale } => {
                        if (Some(i) == newest || frame.wants_capture(window))
                            && self.draw(frame, window, &layers, scale)
                        {
                            due = Instant::now() + FRAME;
                        }
                        // Else the frame ends undrawn: a newer one draws over it.
                    }
                }
            }
        }
    }

    /// Draws, captures, submits and presents `frame`; whether it was drawn.
    fn draw(
        &mut self,
        mut frame: Frame<Published>,
        window: WindowId,
        layers: &[Layer],
        scale: f64,
    ) -> bool {
        // No image now (the window is hidden, say): the frame ends undrawn; a screenshot of it
        // waits for the next frame drawn, which the surface asked for.
        let Some(shown) = self.screen.acquire(&self.device) else { return false };
        let texture = self.screen.texture(&shown);
        let view = texture.create_view(&Default::default());
        let size = (texture.width(), texture.height());
        let mut encoder = self.device.create_command_encoder(&Default::default());
        let (device, queue) = (&self.device, &self.queue);
        self.gfx.render(device, queue, &mut encoder, &view, size, scale as f32, self.clear, layers);
        frame.capture(window, device, &mut encoder, texture);
        frame.submit(queue, [encoder.finish()]);
        self.screen.present(device, queue, shown);
        true
    }
}
