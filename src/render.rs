//! The plugin's render-thread half (feature `automation`): one small state behind one lock, used
//! only from the app's frame loop.
//!
//! Runs on the render thread: it never blocks, never touches the file system and never formats
//! text. Per frame it takes one uncontended lock in [`RenderSide::begin_frame`] (one `try_recv`
//! per order waiting) and one in [`RenderSide::end_frame`] (an atomic increment, the `try_send`s of
//! scene changes still held back, an atomic store, one `try_send` of the frame's end time, and one
//! more `try_send` when a reply was given). An idle frame allocates nothing (`tests/frame_cost.rs`).

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::TrySendError;
use winit::dpi::PhysicalPosition;
use winit::event::{
    DeviceId, ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent,
};
use winit::window::WindowId;

use crate::capture::{Ring, Staged, Wanted};
use crate::dropbox::DirLock;
use crate::input::{Input, KeyInput, Request};
use crate::link::{CaptureJob, Claim, Order, Plan, RenderEnds, Replier, SceneChange, Step, Waker};
use crate::protocol::{Button, Command, ErrorCode, Failure};
use crate::widget::WindowState;

/// The render side of a running plugin.
pub(crate) struct RenderSide {
    dir: PathBuf,
    link: RenderEnds,
    /// Answers given during a frame (published by its `end_frame`): no wake-up needed.
    replier: Replier,
    /// Answers the app gives to [`Request`]s, possibly between frames: they wake the app.
    request_replier: Replier,
    waker: Option<Waker>,
    state: Mutex<State>,
    thread: Option<JoinHandle<()>>,
    /// Released after the service thread has removed `ready.txt` (fields drop after `drop`).
    _lock: DirLock,
}

/// Everything the render side keeps between calls. Only the render thread locks it, so the lock
/// is never contended; it exists so that [`crate::Automation`] is `Sync` (an egui plugin, say,
/// holds it behind a shared reference).
struct State {
    /// Scene changes that did not fit in the channel, sent first next time.
    backlog: VecDeque<SceneChange>,
    /// Orders taken from the channel whose input is not all delivered yet, in seq order.
    pending: VecDeque<Pending>,
    /// What the render side knows of each window: the scale factor turns logical points into
    /// physical positions.
    windows: HashMap<u64, WindowState>,
    /// The windows the app says are animating.
    animating: Vec<u64>,
    /// Screenshots delivered this frame, waiting for `capture`.
    wanted: Vec<Wanted>,
    /// Copies encoded this frame, waiting for the frame to be submitted.
    staged: Vec<Staged>,
    ring: Ring,
}

/// An order taken from the channel, with the stages of input still to deliver.
struct Pending {
    seq: u64,
    command: Command,
    /// `None`: the app answers it (it is handed over as a [`Request`]).
    plan: Option<Plan>,
    /// How many stages were delivered.
    next: usize,
    deadline: Option<Instant>,
    claim: Claim,
}

impl Drop for RenderSide {
    fn drop(&mut self) {
        let _ = self.link.stop.try_send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl RenderSide {
    pub fn new(
        dir: PathBuf,
        service: crate::link::ServiceThread,
        waker: Option<Waker>,
        lock: DirLock,
    ) -> RenderSide {
        let replier = Replier {
            replies: service.ends.replies.clone(),
            counters: service.ends.counters.clone(),
            waker: None,
        };
        let request_replier = Replier {
            waker: waker.clone(),
            ..replier.clone()
        };
        RenderSide {
            dir,
            link: service.ends,
            replier,
            request_replier,
            waker,
            state: Mutex::new(State {
                backlog: VecDeque::new(),
                pending: VecDeque::new(),
                windows: HashMap::new(),
                animating: Vec::new(),
                wanted: Vec::new(),
                staged: Vec::new(),
                ring: Ring::new(),
            }),
            thread: Some(service.thread),
            _lock: lock,
        }
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic in the app while the lock was held leaves nothing half-done that matters here.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn wake(&self) {
        if let Some(waker) = &self.waker {
            waker();
        }
    }

    /// This frame's input: one stage of every order in turn. A command's next stage (and every
    /// later command) waits for the next frame, so the app sees each stage as the frame's input.
    ///
    /// Deadlines: an order not started by its deadline is dropped (answered `expired` here, or
    /// already by the service when it withdrew it first); one started and not finished by then
    /// has its remaining stages dropped and is answered `expired` with what was delivered.
    pub fn begin_frame(&self) -> std::vec::IntoIter<Input> {
        let mut guard = self.state();
        let state = &mut *guard;
        while let Ok(Order {
            seq,
            command,
            plan,
            deadline,
            claim,
        }) = self.link.orders.try_recv()
        {
            state.pending.push_back(Pending {
                seq,
                command,
                plan,
                next: 0,
                deadline,
                claim,
            });
        }
        if state.pending.is_empty() {
            return Vec::new().into_iter();
        }
        let now = Instant::now();
        let mut out = Vec::new();
        while let Some(p) = state.pending.front_mut() {
            let late = p.deadline.is_some_and(|d| d <= now);
            if p.next == 0 {
                // Not started: it starts only before its deadline, and only if the service has
                // not withdrawn it.
                if late {
                    if p.claim.withdraw() {
                        let total = p.plan.as_ref().map_or(1, |plan| plan.stages.len());
                        self.replier
                            .send(p.seq, p.command.verb(), Err(expired(0, total)));
                    }
                    state.pending.pop_front();
                    continue;
                }
                if !p.claim.take() {
                    state.pending.pop_front();
                    continue;
                }
            } else if late && let Some(plan) = &mut p.plan {
                // Started, not finished: the rest is not delivered, except what lets go of a button
                // or key the delivered part pressed (the app must not be left with it held).
                let window = WindowId::from(plan.window);
                let scale = state
                    .windows
                    .get(&plan.window)
                    .map_or(1.0, |s| s.scale_factor)
                    .max(f64::MIN_POSITIVE);
                // A release whose press is among the dropped steps is dropped with it.
                let mut dropped_presses: Vec<Step> = Vec::new();
                for stage in plan.stages.iter_mut().skip(p.next) {
                    for step in stage.drain(..) {
                        match &step {
                            Step::Button { pressed: true, .. }
                            | Step::Key { pressed: true, .. } => {
                                dropped_presses.push(step);
                            }
                            Step::Button { pressed: false, .. }
                            | Step::Key { pressed: false, .. } => {
                                match dropped_presses.iter().position(|p| releases(&step, p)) {
                                    Some(i) => {
                                        dropped_presses.swap_remove(i);
                                    }
                                    None => out.push(to_input(window, scale, step)),
                                }
                            }
                            _ => {}
                        }
                    }
                }
                self.replier.send(
                    p.seq,
                    p.command.verb(),
                    Err(expired(p.next, plan.stages.len())),
                );
                state.pending.pop_front();
                continue;
            }
            let Some(plan) = &mut p.plan else {
                if let Some(p) = state.pending.pop_front() {
                    out.push(Input::Request(Request::new(
                        p.seq,
                        p.command,
                        self.request_replier.clone(),
                    )));
                }
                continue;
            };
            let window = WindowId::from(plan.window);
            let scale = state
                .windows
                .get(&plan.window)
                .map_or(1.0, |s| s.scale_factor)
                .max(f64::MIN_POSITIVE);
            let mut captured = false;
            if let Some(stage) = plan.stages.get_mut(p.next) {
                for step in stage.drain(..) {
                    match step {
                        Step::Capture { file, crop } => {
                            captured = true;
                            state.wanted.push(Wanted {
                                seq: p.seq,
                                command: p.command.clone(),
                                window: plan.window,
                                file,
                                crop,
                            });
                        }
                        step => out.push(to_input(window, scale, step)),
                    }
                }
            }
            p.next += 1;
            if p.next < plan.stages.len() {
                break;
            }
            if !captured {
                // A screenshot is answered by the service thread once its PNG is written.
                let summary = std::mem::take(&mut plan.summary);
                self.replier.send(p.seq, p.command.verb(), Ok(summary));
            }
            state.pending.pop_front();
        }
        out.into_iter()
    }

    pub fn wants_capture(&self, window: u64) -> bool {
        self.state().wanted.iter().any(|w| w.window == window)
    }

    /// Encodes a copy of `texture` for each screenshot of `window` waiting for this frame.
    pub fn capture(
        &self,
        window: u64,
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) {
        let mut guard = self.state();
        let state = &mut *guard;
        if state.wanted.is_empty() {
            return;
        }
        let (mine, rest): (Vec<Wanted>, Vec<Wanted>) = std::mem::take(&mut state.wanted)
            .into_iter()
            .partition(|w| w.window == window);
        state.wanted = rest;
        let scale = state.windows.get(&window).map_or(1.0, |s| s.scale_factor);
        for w in mine {
            match crate::capture::check(texture) {
                Ok(bgra) => {
                    let staged = crate::capture::stage(
                        &mut state.ring,
                        w,
                        scale,
                        bgra,
                        device,
                        encoder,
                        texture,
                    );
                    state.staged.push(staged);
                }
                Err(failure) => self.replier.send(w.seq, w.command.verb(), Err(failure)),
            }
        }
    }

    /// Publishes the frame being built: answers given during it are written now.
    pub fn end_frame(&self) {
        let frame = self.link.counters.building.fetch_add(1, Ordering::SeqCst);
        let (stages_left, flushed, replied_for_next) = {
            let mut guard = self.state();
            let state = &mut *guard;
            let flushed = self.flush_backlog(&mut state.backlog);
            let mut replied = false;
            if flushed {
                // Published first, then announced: the service, woken by the frame's end, reads
                // this frame.
                self.link.counters.published.store(frame, Ordering::SeqCst);
                replied = self.finish_captures(state, frame);
            }
            (!state.pending.is_empty(), flushed, replied)
        };
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

    /// After the frame is published: copies go to the service thread to be read back; screenshots
    /// the app did not capture this frame are answered with the reason (stamped with the next
    /// frame; returns whether any was).
    fn finish_captures(&self, state: &mut State, frame: u64) -> bool {
        let mut replied = false;
        for s in std::mem::take(&mut state.staged) {
            let (seq, verb) = (s.wanted.seq, s.wanted.command.verb());
            let job = CaptureJob {
                seq,
                verb,
                frame,
                file: s.wanted.file.clone(),
                crop: s.wanted.crop,
                read: s.into_reader(&state.ring),
            };
            if self.link.captures.try_send(job).is_err() {
                replied = true;
                self.replier.send(
                    seq,
                    verb,
                    Err(Failure::new(
                        ErrorCode::AppError,
                        "the screenshot could not be handed to the service thread",
                        "the app is shutting down, or too many screenshots are waiting; try again",
                    )),
                );
            }
        }
        for w in std::mem::take(&mut state.wanted) {
            replied = true;
            self.replier.send(
                w.seq,
                w.command.verb(),
                Err(Failure::new(
                    ErrorCode::Unsupported,
                    format!("the app did not hand window {}'s frame to Automation::capture", w.window),
                    "call Automation::capture with the frame's texture before submitting each frame (see the README)",
                )),
            );
        }
        replied
    }

    /// Sends what the backlog holds, in order; returns whether it is empty now.
    fn flush_backlog(&self, backlog: &mut VecDeque<SceneChange>) -> bool {
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

    /// Hands a scene change to the service thread (behind whatever is still held back).
    pub fn send_scene(&self, msg: SceneChange) {
        let mut state = self.state();
        state.backlog.push_back(msg);
        self.flush_backlog(&mut state.backlog);
    }

    /// Records a window's state and sends it when it changed. `create`: a window not known yet is
    /// added (from `track_window` and `window_state`); otherwise it is ignored (events of a window
    /// the app never told the plugin about).
    pub fn update_window(&self, window: u64, create: bool, change: impl FnOnce(&mut WindowState)) {
        let mut guard = self.state();
        let state = &mut *guard;
        if !create && !state.windows.contains_key(&window) {
            return;
        }
        let entry = state.windows.entry(window).or_insert_with(|| WindowState {
            title: String::new(),
            width: 0.0,
            height: 0.0,
            scale_factor: 1.0,
            focused: false,
        });
        let before = entry.clone();
        change(entry);
        if *entry != before {
            let msg = SceneChange::State(window, entry.clone());
            state.backlog.push_back(msg);
            self.flush_backlog(&mut state.backlog);
        }
    }

    pub fn window_event(&self, window: u64, event: &WindowEvent) {
        match event {
            WindowEvent::Resized(size) => self.update_window(window, false, |s| {
                let logical = size.to_logical::<f64>(s.scale_factor);
                s.width = logical.width;
                s.height = logical.height;
            }),
            WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
                self.update_window(window, false, |s| {
                    // The physical size stays until the Resized that follows.
                    let (w, h) = (s.width * s.scale_factor, s.height * s.scale_factor);
                    s.scale_factor = *scale_factor;
                    s.width = w / scale_factor;
                    s.height = h / scale_factor;
                })
            }
            WindowEvent::Focused(focused) => {
                self.update_window(window, false, |s| s.focused = *focused)
            }
            WindowEvent::Destroyed => self.window_closed(window),
            _ => {}
        }
    }

    /// Records whether a window is animating; sends it only when it changed, so calling it every
    /// frame costs a lock and a comparison.
    pub fn animating(&self, window: u64, on: bool) {
        let mut guard = self.state();
        let state = &mut *guard;
        if state.animating.contains(&window) == on {
            return;
        }
        if on {
            state.animating.push(window);
        } else {
            state.animating.retain(|w| *w != window);
        }
        state.backlog.push_back(SceneChange::Animating(window, on));
        self.flush_backlog(&mut state.backlog);
    }

    pub fn window_closed(&self, window: u64) {
        {
            let mut state = self.state();
            state.windows.remove(&window);
            state.animating.retain(|w| *w != window);
        }
        self.send_scene(SceneChange::Closed(window));
    }

    pub fn frame(&self) -> u64 {
        self.link.counters.building()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

/// Whether `release` lets go of what `press` pressed.
fn releases(release: &Step, press: &Step) -> bool {
    match (release, press) {
        (Step::Button { button: a, .. }, Step::Button { button: b, .. }) => a == b,
        (Step::Key { chord: a, .. }, Step::Key { chord: b, .. }) => a == b,
        _ => false,
    }
}

/// The answer to an order whose deadline passed after `delivered` of its `total` input stages.
fn expired(delivered: usize, total: usize) -> Failure {
    if delivered == 0 {
        Failure::new(
            ErrorCode::Expired,
            "its deadline passed before the app's next frame took it; it was not carried out",
            "its client has given up on it; send it again with a longer --timeout if it is still wanted",
        )
    } else {
        Failure::new(
            ErrorCode::Expired,
            format!(
                "its deadline passed after {delivered} of its {total} input stages were delivered; the rest was dropped (but for the release of anything pressed)"
            ),
            "it was partly carried out: check the app's state before sending it again",
        )
    }
}

fn to_input(window: WindowId, scale: f64, step: Step) -> Input {
    let device_id = DeviceId::dummy();
    let button = |b: Button| match b {
        Button::Left => MouseButton::Left,
        Button::Right => MouseButton::Right,
        Button::Middle => MouseButton::Middle,
    };
    let state = |pressed: bool| {
        if pressed {
            ElementState::Pressed
        } else {
            ElementState::Released
        }
    };
    let pointer = |event| Input::Pointer { window, event };
    match step {
        Step::Move { x, y } => pointer(WindowEvent::CursorMoved {
            device_id,
            position: PhysicalPosition::new(x * scale, y * scale),
        }),
        Step::Button { button: b, pressed } => pointer(WindowEvent::MouseInput {
            device_id,
            state: state(pressed),
            button: button(b),
        }),
        // winit: positive deltas move the content right and down (revealing what is above);
        // the protocol's positive dy reveals what is below.
        Step::Wheel { dx, dy } => pointer(WindowEvent::MouseWheel {
            device_id,
            delta: MouseScrollDelta::PixelDelta(PhysicalPosition::new(-dx * scale, -dy * scale)),
            phase: TouchPhase::Moved,
        }),
        Step::Text(text) => Input::Text { window, text },
        Step::Key { chord, pressed } => Input::Key {
            window,
            key: KeyInput {
                chord,
                state: state(pressed),
            },
        },
        Step::Action {
            node,
            tree,
            action,
            data,
            widget,
        } => Input::Action {
            window,
            request: accesskit::ActionRequest {
                action,
                target_tree: tree,
                target_node: node,
                data,
            },
            widget,
        },
        Step::Resize { width, height } => Input::Resize {
            window,
            size: winit::dpi::LogicalSize::new(f64::from(width), f64::from(height)),
        },
        Step::Quit => Input::Quit,
        // Taken out by begin_frame before it gets here.
        Step::Capture { .. } => Input::Quit,
    }
}
