//! The plugin's render-thread half: one small state behind one lock, used only from the app's
//! frame loop (winit-automation's `Frame` and `Automation`, or an engine adapter's systems).
//!
//! Runs on the render thread: it never blocks, never touches the file system and formats text
//! only on error paths (a refusal's message). Per frame it takes one uncontended lock in
//! [`RenderEnd::open_frame`], one in [`RenderEnd::take_input`] (one `try_recv` per order
//! waiting) and one in [`RenderEnd::end_frame`] or [`RenderEnd::publish`] (the replies held for
//! a press report,
//! an atomic increment, the `try_send`s of scene changes still held back, an atomic store, one
//! `try_send` of the frame's end time, and one more `try_send` when a reply was given). An idle
//! frame allocates nothing (`tests/frame_cost.rs`), nor does an unchanged [`RenderEnd::layers`]
//! or a [`RenderEnd::pointer_hit`]. An adapter's [`RenderEnd::window_pass`] takes one more lock
//! per window pass (allocating only the first time a window announces one).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::TrySendError;

use crate::clock::{Clock, ClockMode};
use crate::idle::Idle;
use crate::pictures::Pictures;
use crate::window::{Layers, WindowState};
use crate::{Handover, Hit, Plan, RenderChannels, Replier, SceneChange, Waker};
use winit_automation_protocol::{Command, ErrorCode, Failure, Verb};

mod deliver;
mod expired;
mod numbers;
mod pictures;
mod windows;

pub use deliver::Injected;

/// The render side of a running plugin.
pub struct RenderEnd {
    dir: PathBuf,
    link: RenderChannels,
    /// Answers given during a frame (published by its `publish` or `end_frame`): no wake-up
    /// needed.
    replier: Replier,
    /// Answers the app gives to [`AppCommand`]s, possibly between frames: they wake the app.
    request_replier: Replier,
    waker: Waker,
    /// Each run of the waker leaves a mark here, for a headless loop to wait on.
    idle: Idle,
    state: Mutex<State>,
    thread: Option<JoinHandle<()>>,
}

/// Everything the render side keeps between calls. The app's frame loop locks it, and so does
/// the thread a published frame is drawn on (pipelined drawing) for that frame's captures; held
/// for microseconds, it is hardly ever contended. It makes winit-automation's `Automation` `Sync` (an egui
/// plugin, say, holds it behind a shared reference).
struct State {
    /// Scene changes that did not fit in the channel, sent first next time.
    /// Scene changes not sent yet, each with the frame that was being built when the app handed
    /// it over (the frame it belongs to, whenever it reaches the service).
    backlog: VecDeque<(u64, SceneChange)>,
    /// Orders taken from the channel whose input is not all delivered yet, in seq order.
    pending: VecDeque<Pending>,
    /// Each window's number, by the app's id for it: every other field and everything the
    /// service thread is told know a window by its number alone.
    numbers: numbers::Numbers,
    /// What the render side knows of each window: the scale factor turns logical points into
    /// physical positions.
    windows: HashMap<u64, WindowState>,
    /// The windows the app says are animating.
    animating: Vec<u64>,
    /// The layers last sent for each window: an equal value is not sent again.
    layers: HashMap<u64, Layers>,
    /// Answers whose last stage pressed: sent when the frame ends, after the app's `pointer_hit`
    /// report, or later for a window whose pass has not run yet ([`Awaiting`]).
    held: Vec<Held>,
    /// The windows whose adapter says when their pass runs ([`RenderEnd::window_pass`]): their
    /// toolkit may handle a press in a later frame than the one that delivered it.
    passes: Vec<u64>,
    /// Resizes delivered, waiting for the window to report the size.
    sizing: Vec<Sizing>,
    /// The open frame's pictures (screenshots waiting for its capture, copies encoded), with
    /// what earlier frames left undrawn.
    pictures: Pictures,
    /// Whether a frame is open (from `open_frame` to `publish` or `end_frame`): one at a time.
    open: bool,
    /// Whether a frame asked to open while one was (it joined): the next frame must come.
    joined: bool,
    /// Whether the open frame's input is all drawn over by a later frame (the app's
    /// `Frame::superseded`).
    superseded: bool,
    /// The windows the app has captured a frame of: a later frame of theirs that ends without a
    /// capture was not drawn (no swapchain image, say), and its screenshots wait for the next.
    captured: Vec<u64>,
    /// The time each frame carries.
    clock: Clock,
}

/// An order taken from the channel, with the stages of input still to deliver.
struct Pending {
    seq: u64,
    command: Command,
    /// `None`: the app answers it (it is handed over as an [`AppCommand`]).
    plan: Option<Plan>,
    /// How many stages were delivered.
    next: usize,
    /// When the last stage went out, on the frames' clock (a gate's time counts from there: on
    /// the virtual clock, a long press's hold is virtual time).
    stage_at: Option<std::time::Duration>,
    deadline: Option<Instant>,
    handover: Handover,
    /// Another command that draws follows it ([`Order::followed`]).
    followed: bool,
    /// What the app reported for its press ([`RenderEnd::pointer_hit`]).
    reported: Option<Option<accesskit::NodeId>>,
    /// Set when its press is delivered: reports are taken until it is given up.
    awaiting: Option<Awaiting>,
}

/// A delivered press whose report the plugin still takes. A frame's end gives it up, unless the
/// press's window is one whose pass the adapter announces ([`RenderEnd::window_pass`]) and its
/// pass has not run since the press: egui runs a deferred viewport's pass in a winit redraw of
/// its own, after the frame that delivered the input. Then it waits for that pass, for at least
/// [`HIT_FRAMES`] frames and [`HIT_WAIT`] (a hidden window runs no pass; its answer then says
/// `hit unverified`).
#[derive(Debug, Clone, Copy)]
struct Awaiting {
    /// The press's window ran its pass since the press was delivered.
    seen: bool,
    waited: Waited,
}

impl Awaiting {
    fn new() -> Awaiting {
        Awaiting {
            seen: false,
            waited: Waited::new(),
        }
    }

    /// Whether a frame that ends keeps waiting (counting the frame) rather than giving it up.
    fn waits_past_frame(&mut self, window: u64, passes: &[u64]) -> bool {
        let waits =
            !self.seen && passes.contains(&window) && !self.waited.outlasts(HIT_FRAMES, HIT_WAIT);
        if waits {
            self.waited.frames += 1;
        }
        waits
    }
}

/// How long, and for at least how many frames, a press waits for its window's pass.
const HIT_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
const HIT_FRAMES: u32 = 3;

/// What the render side waits for over frames (a press's window pass, a resized window): since
/// when, and how many frames were published meanwhile. A window system or toolkit answers within
/// a frame or two or a few milliseconds, so a wait ends only once both bounds have passed.
#[derive(Debug, Clone, Copy)]
struct Waited {
    frames: u32,
    since: Instant,
}

impl Waited {
    fn new() -> Waited {
        Waited {
            frames: 0,
            since: Instant::now(),
        }
    }

    /// Whether the wait has lasted at least `frames` frames and `wait`.
    fn outlasts(&self, frames: u32, wait: std::time::Duration) -> bool {
        self.frames >= frames && self.since.elapsed() >= wait
    }
}

/// A delivered `resize`, answered once the window reports the size it asked for.
struct Sizing {
    seq: u64,
    verb: Verb,
    summary: String,
    window: u64,
    /// The logical size asked for.
    size: (u32, u32),
    /// Frames published since the resize was delivered, and when it was.
    waited: Waited,
}

/// How long, and for at least how many frames, a `resize` waits for the window to report its new
/// size before it is refused: a window system applies a size asynchronously (X11 answers within
/// a frame or two), an app that ignores `Input::Resize` never does.
const RESIZE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);
const RESIZE_FRAMES: u32 = 3;

/// A delivered order's answer, held until the frame that pressed ends (or its window's pass ran,
/// [`Awaiting`]).
struct Held {
    seq: u64,
    verb: Verb,
    summary: String,
    hit: Hit,
    awaiting: Awaiting,
}

impl Drop for RenderEnd {
    #[allow(
        clippy::disallowed_methods,
        reason = "the plugin's end: the service thread removes ready.txt and answers what is left"
    )]
    fn drop(&mut self) {
        let _ = self.link.stop.try_send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl RenderEnd {
    /// Creates the render side over a running service thread: `dir` is the drop-box directory,
    /// `waker` asks the app for a frame, and `idle` is what [`RenderEnd::wait_for_work`] waits on.
    /// Frames start on the `clock` given.
    pub fn new(
        dir: PathBuf,
        service: crate::ServiceThread,
        waker: Waker,
        idle: Idle,
        clock: ClockMode,
    ) -> RenderEnd {
        let replier = Replier {
            replies: service.ends.replies.clone(),
            counters: service.ends.counters.clone(),
            waker: None,
        };
        let request_replier = Replier {
            waker: Some(waker.clone()),
            ..replier.clone()
        };
        RenderEnd {
            dir,
            link: service.ends,
            replier,
            request_replier,
            waker,
            idle,
            state: Mutex::new(State {
                backlog: VecDeque::new(),
                pending: VecDeque::new(),
                numbers: numbers::Numbers::default(),
                windows: HashMap::new(),
                animating: Vec::new(),
                layers: HashMap::new(),
                held: Vec::new(),
                passes: Vec::new(),
                sizing: Vec::new(),
                pictures: Pictures::default(),
                open: false,
                joined: false,
                superseded: false,
                captured: Vec::new(),
                clock: Clock::new(clock),
            }),
            thread: Some(service.thread),
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic in the app while the lock was held leaves nothing half-done that matters here.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wake(&self) {
        (self.waker)();
    }

    /// Waits until the waker runs (work for a frame) or `timeout` passes: a headless loop's idle
    /// time, between frames, never inside one.
    pub fn wait_for_work(&self, timeout: std::time::Duration) {
        self.idle.wait(timeout);
    }

    /// The frame's answers and scene changes go out: held press answers, the frame number, the
    /// backlog; the frame is published when all of it reached the channel. Returns the frame and
    /// whether it was published.
    fn publish_locked(&self, state: &mut State) -> (u64, bool) {
        self.check_sizes(state);
        // The answers held for the app's press report go with this frame (stamped with it),
        // unless their window's pass is still to run.
        let passes = &state.passes;
        let mut i = 0;
        while i < state.held.len() {
            let held = &mut state.held[i];
            if held
                .awaiting
                .waits_past_frame(held.hit.check.window, passes)
            {
                i += 1;
                continue;
            }
            // In order, and without a new vector while others still wait.
            let held = state.held.remove(i);
            self.replier
                .send_hit(held.seq, held.verb, Ok(held.summary), Some(held.hit));
        }
        for p in state.pending.iter_mut() {
            let window = p.plan.as_ref().and_then(|plan| plan.press.as_ref());
            if let (Some(a), Some(check)) = (&mut p.awaiting, window)
                && a.waits_past_frame(check.window, passes)
            {
                continue;
            }
            p.awaiting = None;
        }
        state.clock.share(&self.link.counters.clock);
        let frame = self.link.counters.building.fetch_add(1, Ordering::SeqCst);
        let flushed = self.flush_backlog(&mut state.backlog);
        if flushed {
            // Published first, then announced: the service, woken by the frame's end, reads
            // this frame.
            self.link.counters.published.store(frame, Ordering::SeqCst);
        }
        (frame, flushed)
    }

    /// Answers each delivered `resize` whose window reports the size it asked for (within a
    /// pixel: a fractional scale factor rounds), and refuses one still waiting after
    /// [`RESIZE_WAIT`] and [`RESIZE_FRAMES`], naming the size the window has.
    fn check_sizes(&self, state: &mut State) {
        if state.sizing.is_empty() {
            return;
        }
        let windows = &state.windows;
        state.sizing.retain_mut(|s| {
            let Some(current) = windows.get(&s.window).map(|w| (w.width, w.height)) else {
                self.replier.send(
                    s.seq,
                    s.verb,
                    Err(Failure::new(
                        ErrorCode::NotApplied,
                        format!("window {} closed before it took the size", s.window),
                        "resize a window that is open (windows lists them)",
                    )),
                );
                return false;
            };
            let (w, h) = (f64::from(s.size.0), f64::from(s.size.1));
            if (current.0 - w).abs() <= 1.0 && (current.1 - h).abs() <= 1.0 {
                self.replier
                    .send(s.seq, s.verb, Ok(std::mem::take(&mut s.summary)));
                return false;
            }
            s.waited.frames += 1;
            if !s.waited.outlasts(RESIZE_FRAMES, RESIZE_WAIT) {
                return true;
            }
            let (cw, ch) = current;
            self.replier.send(
                s.seq,
                s.verb,
                Err(Failure::new(
                    ErrorCode::NotApplied,
                    format!(
                        "the window is still {}x{} after {} ms and {} frames: the app did not apply the resize to {}x{}",
                        cw.round(),
                        ch.round(),
                        s.waited.since.elapsed().as_millis(),
                        s.waited.frames,
                        s.size.0,
                        s.size.1
                    ),
                    "the app applies Input::Resize (winit: Window::request_inner_size; headless: its texture and Automation::window_state) and the plugin sees the new size (Automation::window_event's Resized, or window_state); a window manager may also refuse or clamp the size",
                )),
            );
            false
        });
    }

    /// Outside the lock, after a frame is published (or could not be).
    fn after_publish(&self, stages_left: bool, flushed: bool, replied_for_next: bool) {
        if stages_left || !flushed || replied_for_next {
            // Input stages remain, part of this frame's tree is still on this side (publishing
            // now would let a response overtake its tree), or an answer waits for the next frame:
            // the next frame must come even if nothing else asks for it. The app's waker runs
            // outside the lock.
            self.wake();
        }
        if !flushed {
            return;
        }
        // Metrics (fps and frame intervals) and the settle clock: a full channel drops the sample.
        let _ = self.link.frame_ends.try_send(Instant::now());
        if self.link.counters.replied.swap(false, Ordering::SeqCst) {
            // Full means a wake-up is already pending, which reads the published frame when it runs.
            let _ = self.link.tick.try_send(());
        }
    }

    /// Sends what the backlog holds, in order; returns whether it is empty now.
    fn flush_backlog(&self, backlog: &mut VecDeque<(u64, SceneChange)>) -> bool {
        while let Some(msg) = backlog.pop_front() {
            match self.link.scene.try_send(msg) {
                Ok(()) => {}
                Err(TrySendError::Full(msg)) => {
                    backlog.push_front(msg);
                    return false;
                }
                // The service is gone (the app is shutting down): nothing to keep.
                Err(TrySendError::Disconnected(_)) => backlog.clear(),
            }
        }
        true
    }

    /// The open frame's time (the last frame's between frames), read after its input was taken
    /// (a `clock` command moves it there), and the step since the frame before. On the real clock
    /// it follows the wall clock; on the virtual clock it moves only in steps (`clock.rs`).
    pub fn frame_time(&self) -> (std::time::Duration, std::time::Duration) {
        self.state().clock.frame_time()
    }

    /// How the clock stands: its mode, whether the virtual one is paused (a frame the app asks
    /// for by itself, for an animation, would show nothing new), the open frame's time, the step.
    pub fn clock(&self) -> crate::ClockReading {
        let frames = self.link.counters.building();
        self.state().clock.reading(frames)
    }

    /// The number of the frame being built (1 before the first frame is published).
    pub fn frame_number(&self) -> u64 {
        self.link.counters.building()
    }

    /// The drop-box directory; always `Some` (the feature-off build's answers `None`).
    pub fn dir(&self) -> Option<&Path> {
        Some(&self.dir)
    }
}

impl State {
    /// Whether answers wait for frames to come: input stages left to deliver, resizes waiting
    /// for their window's size, or presses for their window's pass.
    fn waits_for_frames(&self) -> bool {
        !self.pending.is_empty() || !self.sizing.is_empty() || !self.held.is_empty()
    }
}

/// The scale factor of a window (1 until the app reports one): logical points to physical pixels.
fn scale_of(windows: &HashMap<u64, WindowState>, window: u64) -> f64 {
    windows
        .get(&window)
        .map_or(1.0, |s| s.scale_factor)
        .max(f64::MIN_POSITIVE)
}
