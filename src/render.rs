//! The plugin's render-thread half (feature `automation`): one small state behind one lock, used
//! only from the app's frame loop.
//!
//! Runs on the render thread: it never blocks, never touches the file system and never formats
//! text. Per frame it takes one uncontended lock in [`RenderSide::begin_frame`] (one `try_recv`
//! per order waiting) and one in [`RenderSide::end_frame`] (the replies held for a press report,
//! an atomic increment, the `try_send`s of scene changes still held back, an atomic store, one
//! `try_send` of the frame's end time, and one more `try_send` when a reply was given). An idle
//! frame allocates nothing (`tests/frame_cost.rs`), nor does an unchanged [`RenderSide::layers`]
//! or a [`RenderSide::pointer_hit`].

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Instant;

use crossbeam_channel::TrySendError;
use winit::event::WindowEvent;
use winit::window::WindowId;

use crate::capture::{Ring, Staged, Wanted};
use crate::dropbox::DirLock;
use crate::input::{Input, Request};
use crate::link::{
    CaptureJob, Claim, Hit, Order, Plan, RenderEnds, Replier, SceneChange, Step, Waker,
};
use crate::protocol::{Command, ErrorCode, Failure, Verb};
use crate::widget::{Layers, WindowState};

mod events;
use events::{expired, to_input};

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
    /// Scene changes not sent yet, each with the frame that was being built when the app handed
    /// it over (the frame it belongs to, whenever it reaches the service).
    backlog: VecDeque<(u64, SceneChange)>,
    /// Orders taken from the channel whose input is not all delivered yet, in seq order.
    pending: VecDeque<Pending>,
    /// What the render side knows of each window: the scale factor turns logical points into
    /// physical positions.
    windows: HashMap<u64, WindowState>,
    /// The windows the app says are animating.
    animating: Vec<u64>,
    /// The layers last sent for each window: an equal value is not sent again.
    layers: HashMap<u64, Layers>,
    /// Answers whose last stage pressed this frame: sent by `end_frame`, after the app's
    /// `pointer_hit` report.
    held: Vec<Held>,
    /// Screenshots delivered this frame, waiting for `capture`.
    wanted: Vec<Wanted>,
    /// Copies encoded this frame, waiting for the frame to be submitted.
    staged: Vec<Staged>,
    ring: Ring,
    /// Set by `publish` (the frame's tree is complete, its answers are out before the drawing):
    /// the frame it published, and whether the whole frame reached the channel. `end_frame` then
    /// only hands over the frame's screenshot copies.
    published_early: Option<(u64, bool)>,
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
    /// What the app reported for its press ([`RenderSide::pointer_hit`]).
    reported: Option<Option<accesskit::NodeId>>,
    /// Whether this frame delivered its press (reports are taken until `end_frame`).
    pressed_now: bool,
}

/// A delivered order's answer, held until the frame that pressed ends.
struct Held {
    seq: u64,
    verb: Verb,
    summary: String,
    hit: Hit,
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
                layers: HashMap::new(),
                held: Vec::new(),
                wanted: Vec::new(),
                staged: Vec::new(),
                ring: Ring::new(),
                published_early: None,
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
                reported: None,
                pressed_now: false,
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
                let scale = scale_of(&state.windows, plan.window);
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
            let scale = scale_of(&state.windows, plan.window);
            let mut captured = false;
            p.pressed_now = plan.press.as_ref().is_some_and(|c| c.stage == p.next);
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
                let (seq, verb) = (p.seq, p.command.verb());
                match plan.press.take() {
                    // Pressed this frame: the app reports what took it before the frame ends.
                    Some(check) if p.pressed_now => state.held.push(Held {
                        seq,
                        verb,
                        summary,
                        hit: Hit {
                            check,
                            reported: p.reported,
                        },
                    }),
                    Some(check) => self.replier.send_hit(
                        seq,
                        verb,
                        Ok(summary),
                        Some(Hit {
                            check,
                            reported: p.reported,
                        }),
                    ),
                    None => self.replier.send(seq, verb, Ok(summary)),
                }
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

    /// Takes the screenshots of `window` waiting for this frame, for the toolkit to answer with
    /// the frame's pixels once it has read them back itself.
    pub fn capture_later(&self, window: u64) -> Option<crate::capture::Later> {
        let mut guard = self.state();
        let state = &mut *guard;
        if !state.wanted.iter().any(|w| w.window == window) {
            return None;
        }
        let (mine, rest): (Vec<Wanted>, Vec<Wanted>) = std::mem::take(&mut state.wanted)
            .into_iter()
            .partition(|w| w.window == window);
        state.wanted = rest;
        Some(crate::capture::Later {
            wanted: mine,
            frame: self.link.counters.building.load(Ordering::SeqCst) + 1,
            scale: state.windows.get(&window).map_or(1.0, |s| s.scale_factor),
            captures: self.link.captures.clone(),
            replier: self.request_replier.clone(),
        })
    }

    /// Publishes the frame being built before it is drawn: its tree is complete, so the answers
    /// given during it are written now, not after the GPU work. `end_frame` then only hands over
    /// the frame's screenshot copies. A second call in one frame does nothing.
    pub fn publish(&self) {
        let (stages_left, flushed) = {
            let mut guard = self.state();
            let state = &mut *guard;
            if state.published_early.is_some() {
                return;
            }
            let (frame, flushed) = self.publish_locked(state);
            state.published_early = Some((frame, flushed));
            (!state.pending.is_empty(), flushed)
        };
        self.after_publish(stages_left, flushed, false);
    }

    /// Ends the frame after it was submitted: publishes it (unless `publish` did) and hands its
    /// screenshot copies to the service thread.
    pub fn end_frame(&self) {
        let (stages_left, flushed, replied_for_next, early) = {
            let mut guard = self.state();
            let state = &mut *guard;
            let (frame, flushed, early) = match state.published_early.take() {
                Some((frame, flushed)) => (frame, flushed, true),
                None => {
                    let (frame, flushed) = self.publish_locked(state);
                    (frame, flushed, false)
                }
            };
            // Copies are handed over once their frame is published (else next time).
            let replied = flushed && self.finish_captures(state, frame);
            (!state.pending.is_empty(), flushed, replied, early)
        };
        if early {
            if replied_for_next {
                // An answer waits for the next frame, which must come.
                self.wake();
            }
            return;
        }
        self.after_publish(stages_left, flushed, replied_for_next);
    }

    /// The frame's answers and scene changes go out: held press answers, the frame number, the
    /// backlog; the frame is published when all of it reached the channel. Returns the frame and
    /// whether it was published.
    fn publish_locked(&self, state: &mut State) -> (u64, bool) {
        // The answers held for the app's press report go with this frame (stamped with it).
        for held in state.held.drain(..) {
            self.replier
                .send_hit(held.seq, held.verb, Ok(held.summary), Some(held.hit));
        }
        for p in state.pending.iter_mut() {
            p.pressed_now = false;
        }
        let frame = self.link.counters.building.fetch_add(1, Ordering::SeqCst);
        let flushed = self.flush_backlog(&mut state.backlog);
        if flushed {
            // Published first, then announced: the service, woken by the frame's end, reads
            // this frame.
            self.link.counters.published.store(frame, Ordering::SeqCst);
        }
        (frame, flushed)
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

    /// Sends a window's layers when they differ from the last ones sent (copying them only then).
    pub fn layers(&self, window: u64, layers: &Layers) {
        let mut guard = self.state();
        let state = &mut *guard;
        let last = state.layers.get(&window);
        if last.map_or(layers.is_empty(), |l| same_layers(l, layers)) {
            return;
        }
        match state.layers.get_mut(&window) {
            Some(l) => l.clone_from(layers),
            None => {
                state.layers.insert(window, layers.clone());
            }
        }
        state.backlog.push_back((
            self.link.counters.building(),
            SceneChange::Layers(window, layers.clone()),
        ));
        self.flush_backlog(&mut state.backlog);
    }

    /// Records which node took the press this frame delivered to `window`; ignored in a frame
    /// that delivered none.
    pub fn pointer_hit(&self, window: u64, node: Option<accesskit::NodeId>) {
        let mut guard = self.state();
        let state = &mut *guard;
        for held in state.held.iter_mut() {
            if held.hit.check.window == window {
                held.hit.check.record(&mut held.hit.reported, node);
            }
        }
        for p in state.pending.iter_mut().filter(|p| p.pressed_now) {
            if let Some(check) = p.plan.as_ref().and_then(|plan| plan.press.as_ref())
                && check.window == window
            {
                check.record(&mut p.reported, node);
            }
        }
    }

    /// Hands a scene change to the service thread (behind whatever is still held back).
    pub fn send_scene(&self, msg: SceneChange) {
        let mut state = self.state();
        state
            .backlog
            .push_back((self.link.counters.building(), msg));
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
            state
                .backlog
                .push_back((self.link.counters.building(), msg));
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
        state.backlog.push_back((
            self.link.counters.building(),
            SceneChange::Animating(window, on),
        ));
        self.flush_backlog(&mut state.backlog);
    }

    pub fn window_closed(&self, window: u64) {
        {
            let mut state = self.state();
            state.windows.remove(&window);
            state.animating.retain(|w| *w != window);
            state.layers.remove(&window);
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
/// The scale factor of a window (1 until the app reports one): logical points to physical pixels.
fn scale_of(windows: &HashMap<u64, WindowState>, window: u64) -> f64 {
    windows
        .get(&window)
        .map_or(1.0, |s| s.scale_factor)
        .max(f64::MIN_POSITIVE)
}

/// Whether `release` lets go of what `press` pressed.
fn releases(release: &Step, press: &Step) -> bool {
    match (release, press) {
        (Step::Button { button: a, .. }, Step::Button { button: b, .. }) => a == b,
        (Step::Key { chord: a, .. }, Step::Key { chord: b, .. }) => a == b,
        _ => false,
    }
}

/// Whether two layer reports say the same, comparing rectangles bit for bit: a NaN in a clip (an
/// app's unfinished layout) is the same NaN next frame, not a change to send again.
fn same_layers(a: &Layers, b: &Layers) -> bool {
    let bits = |r: &Option<accesskit::Rect>| r.map(|r| [r.x0, r.y0, r.x1, r.y1].map(f64::to_bits));
    a.order == b.order
        && a.modal == b.modal
        && a.clips.len() == b.clips.len()
        && a.clips
            .iter()
            .zip(&b.clips)
            .all(|((i, r), (j, q))| i == j && bits(r) == bits(q))
}

#[cfg(test)]
mod tests {
    use super::*;
    use accesskit::{NodeId, Rect};

    #[test]
    fn a_nan_clip_is_the_same_next_frame_and_a_moved_clip_is_not() {
        let with = |r: Rect| Layers {
            order: vec![NodeId(1)],
            modal: None,
            clips: vec![(NodeId(2), Some(r))],
        };
        let nan = with(Rect::new(f64::NAN, 0.0, 10.0, 10.0));
        assert!(
            nan != nan.clone(),
            "PartialEq alone would send it every frame"
        );
        assert!(same_layers(&nan, &nan.clone()));
        let a = with(Rect::new(0.0, 0.0, 10.0, 10.0));
        assert!(same_layers(&a, &a.clone()));
        assert!(!same_layers(&a, &with(Rect::new(0.0, 0.0, 10.0, 11.0))));
        assert!(!same_layers(&a, &nan));
        assert!(!same_layers(&a, &Layers::default()));
    }
}
