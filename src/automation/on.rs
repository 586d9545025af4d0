//! The real plugin (feature `automation`). Render-thread side: channels and atomics only.

use std::collections::VecDeque;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, TrySendError};

use winit::dpi::PhysicalPosition;
use winit::event::{
    DeviceId, ElementState, MouseButton, MouseScrollDelta, TouchPhase, WindowEvent,
};
use winit::window::WindowId;

use super::{DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, Request, StartError};
use crate::capture::{Ring, Staged, Wanted};
use crate::dropbox::service::{self, CaptureJob, FromApp, Shared, ToApp};
use crate::dropbox::{DirError, DirLock, dir};
use crate::input::{Input, KeyInput};
use crate::protocol::{Button, Command, ErrorCode, Failure};
use crate::tree::TreeMsg;
use crate::tree::plan::{Plan, Step};
use crate::widget::WindowState;

pub(super) struct BuilderInner {
    name: Option<String>,
    dir: Option<PathBuf>,
    capacity: usize,
    max_bytes: usize,
    reap_after: Duration,
    waker: Option<Arc<dyn Fn() + Send + Sync>>,
    app_screenshots: bool,
}

pub(super) fn new_builder() -> BuilderInner {
    BuilderInner {
        name: None,
        dir: None,
        capacity: DEFAULT_QUEUE_CAPACITY,
        max_bytes: Command::DEFAULT_MAX_BYTES,
        reap_after: DEFAULT_REAP_AFTER,
        waker: None,
        app_screenshots: false,
    }
}

pub(super) fn set_app_screenshots(b: &mut BuilderInner, yes: bool) {
    b.app_screenshots = yes;
}

pub(super) fn set_name(b: &mut BuilderInner, name: String) {
    b.name = Some(name);
}
pub(super) fn set_dir(b: &mut BuilderInner, dir: PathBuf) {
    b.dir = Some(dir);
}
pub(super) fn set_capacity(b: &mut BuilderInner, capacity: usize) {
    b.capacity = capacity;
}
pub(super) fn set_max_bytes(b: &mut BuilderInner, max: usize) {
    b.max_bytes = max;
}
pub(super) fn set_reap_after(b: &mut BuilderInner, after: Duration) {
    b.reap_after = after;
}
pub(super) fn set_waker(b: &mut BuilderInner, waker: Arc<dyn Fn() + Send + Sync>) {
    b.waker = Some(waker);
}

pub(super) struct AutomationInner {
    dir: PathBuf,
    requests: Receiver<ToApp>,
    replies: Sender<FromApp>,
    trees: Sender<TreeMsg>,
    /// Tree messages that did not fit in the channel, sent first next time. Only the render thread
    /// locks it, so the lock is never contended.
    backlog: Mutex<VecDeque<TreeMsg>>,
    frames: Sender<Instant>,
    /// Commands taken from the channel whose input is not all delivered yet, in seq order. Only
    /// the render thread locks it.
    pending: Mutex<VecDeque<Pending>>,
    /// What the render side knows of each window (from `track_window`, `window_event` and
    /// `window_state`): the scale factor turns logical points into physical positions. Only the
    /// render thread locks it.
    windows: Mutex<std::collections::HashMap<u64, WindowState>>,
    waker: Option<Arc<dyn Fn() + Send + Sync>>,
    /// Screenshots delivered this frame, waiting for `capture`; then copies waiting for the frame
    /// to be submitted. Only the render thread locks these.
    wanted: Mutex<Vec<Wanted>>,
    staged: Mutex<Vec<Staged>>,
    ring: Mutex<Ring>,
    captures: Sender<CaptureJob>,
    tick: Sender<()>,
    stop: Sender<()>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
    _lock: DirLock,
}

impl Drop for AutomationInner {
    fn drop(&mut self) {
        let _ = self.stop.try_send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        // The lock is released after the service thread has removed ready.txt.
    }
}

#[derive(Debug)]
pub(super) enum StartErrorKind {
    Dir(DirError),
    Io(PathBuf, std::io::Error),
}

pub(super) fn fmt_start_error(kind: &StartErrorKind, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match kind {
        StartErrorKind::Dir(e) => write!(f, "winit-automation cannot start: {e}"),
        StartErrorKind::Io(dir, e) => write!(
            f,
            "winit-automation cannot start in {}: {e} (hint: check the directory's permissions and free space)",
            dir.display()
        ),
    }
}

pub(super) fn start_error_source(
    kind: &StartErrorKind,
) -> Option<&(dyn std::error::Error + 'static)> {
    match kind {
        StartErrorKind::Dir(e) => Some(e),
        StartErrorKind::Io(_, e) => Some(e),
    }
}

fn default_name() -> String {
    std::env::current_exe()
        .ok()
        .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "app".to_owned())
}

pub(super) fn start(b: BuilderInner) -> Result<AutomationInner, StartError> {
    let dir = dir::resolve_dir(b.dir.as_deref());
    let app_name = b.name.unwrap_or_else(default_name);
    let err = |kind| StartError { kind };
    dir::prepare(&dir).map_err(|e| err(StartErrorKind::Dir(e)))?;
    let lock = dir::lock(&dir, &app_name).map_err(|e| err(StartErrorKind::Dir(e)))?;
    let ends = service::start(service::Config {
        dir: dir.clone(),
        app_name,
        queue_capacity: b.capacity,
        max_command_bytes: b.max_bytes,
        reap_after: b.reap_after,
        waker: b.waker.clone(),
        app_screenshots: b.app_screenshots,
    })
    .map_err(|e| err(StartErrorKind::Io(dir.clone(), e)))?;
    Ok(AutomationInner {
        dir,
        requests: ends.requests,
        replies: ends.replies,
        trees: ends.trees,
        backlog: Mutex::new(VecDeque::new()),
        frames: ends.frames,
        pending: Mutex::new(VecDeque::new()),
        windows: Mutex::new(std::collections::HashMap::new()),
        waker: b.waker,
        wanted: Mutex::new(Vec::new()),
        staged: Mutex::new(Vec::new()),
        ring: Mutex::new(Ring::new()),
        captures: ends.captures,
        tick: ends.tick,
        stop: ends.stop,
        shared: ends.shared,
        thread: Some(ends.thread),
        _lock: lock,
    })
}

/// A command taken from the channel, with the stages of input still to deliver.
enum Pending {
    /// The plugin carries it out: one stage per frame, answered with `summary` after the last.
    Planned {
        seq: u64,
        command: Command,
        plan: Plan,
        next: usize,
    },
    /// The app answers it.
    Forward(Request),
}

pub(super) type InputsInner = std::vec::IntoIter<Input>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl AutomationInner {
    fn replier(&self) -> Replier {
        Replier {
            replies: self.replies.clone(),
            shared: self.shared.clone(),
            waker: self.waker.clone(),
        }
    }
}

pub(super) fn begin_frame(a: &AutomationInner) -> InputsInner {
    let mut pending = lock(&a.pending);
    while let Ok(ToApp { seq, command, plan }) = a.requests.try_recv() {
        pending.push_back(match plan {
            Some(plan) => Pending::Planned {
                seq,
                command,
                plan,
                next: 0,
            },
            None => Pending::Forward(Request {
                inner: RequestInner {
                    seq,
                    command,
                    replier: Some(a.replier()),
                },
            }),
        });
    }
    if pending.is_empty() {
        return Vec::new().into_iter();
    }
    let windows = lock(&a.windows);
    let mut out = Vec::new();
    // One stage per command per frame; a command's next stage (and every later command) waits for
    // the next frame, so the app sees each stage as the frame's input.
    while let Some(front) = pending.front_mut() {
        match front {
            Pending::Forward(_) => {
                if let Some(Pending::Forward(request)) = pending.pop_front() {
                    out.push(Input::Request(request));
                }
            }
            Pending::Planned {
                plan,
                next,
                seq,
                command,
            } => {
                let window = WindowId::from(plan.window);
                let scale = windows
                    .get(&plan.window)
                    .map_or(1.0, |s| s.scale_factor)
                    .max(f64::MIN_POSITIVE);
                let mut captured = false;
                if let Some(stage) = plan.stages.get_mut(*next) {
                    for step in stage.drain(..) {
                        match step {
                            Step::Capture { file, crop } => {
                                captured = true;
                                lock(&a.wanted).push(Wanted {
                                    seq: *seq,
                                    command: command.clone(),
                                    window: plan.window,
                                    file,
                                    crop,
                                });
                            }
                            step => out.push(to_input(window, scale, step)),
                        }
                    }
                }
                *next += 1;
                if *next < plan.stages.len() {
                    break;
                }
                if !captured {
                    // A screenshot is answered by the service thread once its PNG is written.
                    let summary = std::mem::take(&mut plan.summary);
                    a.replier().send(*seq, command, Ok(summary));
                }
                pending.pop_front();
            }
        }
    }
    out.into_iter()
}

pub(super) fn next_input(inputs: &mut InputsInner) -> Option<Input> {
    inputs.next()
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

pub(super) fn wants_capture(a: &AutomationInner, window: u64) -> bool {
    lock(&a.wanted).iter().any(|w| w.window == window)
}

pub(super) fn capture(
    a: &AutomationInner,
    window: u64,
    device: &wgpu::Device,
    encoder: &mut wgpu::CommandEncoder,
    texture: &wgpu::Texture,
) {
    let mine: Vec<Wanted> = {
        let mut wanted = lock(&a.wanted);
        if wanted.is_empty() {
            return;
        }
        let (mine, rest) = std::mem::take(&mut *wanted)
            .into_iter()
            .partition(|w| w.window == window);
        *wanted = rest;
        mine
    };
    let scale = lock(&a.windows)
        .get(&window)
        .map_or(1.0, |s| s.scale_factor);
    let mut ring = lock(&a.ring);
    for w in mine {
        match crate::capture::check(texture) {
            Ok(bgra) => {
                let staged =
                    crate::capture::stage(&mut ring, w, scale, bgra, device, encoder, texture);
                lock(&a.staged).push(staged);
            }
            Err(failure) => a.replier().send(w.seq, &w.command, Err(failure)),
        }
    }
}

/// After the frame is published: copies go to the service thread to be read back; screenshots
/// the app did not capture this frame are answered with the reason.
fn finish_captures(a: &AutomationInner, frame: u64) {
    let staged = std::mem::take(&mut *lock(&a.staged));
    if !staged.is_empty() {
        let ring = lock(&a.ring);
        for s in staged {
            let (seq, command, file, crop) = (
                s.wanted.seq,
                s.wanted.command.clone(),
                s.wanted.file.clone(),
                s.wanted.crop,
            );
            let job = CaptureJob {
                seq,
                verb: command.verb(),
                frame,
                file,
                crop,
                read: s.into_reader(&ring),
            };
            if let Err(e) = a.captures.try_send(job) {
                let job = e.into_inner();
                a.replier().send(
                    job.seq,
                    &command,
                    Err(Failure::new(
                        ErrorCode::AppError,
                        "the screenshot could not be handed to the service thread",
                        "the app is shutting down, or too many screenshots are waiting; try again",
                    )),
                );
            }
        }
    }
    let missed = std::mem::take(&mut *lock(&a.wanted));
    for w in missed {
        a.replier().send(
            w.seq,
            &w.command,
            Err(Failure::new(
                ErrorCode::Unsupported,
                format!("the app did not hand window {}'s frame to Automation::capture", w.window),
                "call Automation::capture with the frame's texture before submitting each frame (see the README)",
            )),
        );
    }
}

/// Records a window's state on the render side and sends it when it changed. `create`: a window
/// not known yet is added (from `track_window` and `window_state`); otherwise it is ignored (events
/// of a window the app never told the plugin about).
fn update_window(
    a: &AutomationInner,
    window: u64,
    create: bool,
    change: impl FnOnce(&mut WindowState),
) {
    let mut windows = lock(&a.windows);
    if !create && !windows.contains_key(&window) {
        return;
    }
    let entry = windows.entry(window).or_insert_with(|| WindowState {
        title: String::new(),
        width: 0.0,
        height: 0.0,
        scale_factor: 1.0,
        focused: false,
    });
    let before = entry.clone();
    change(entry);
    if *entry != before {
        let state = entry.clone();
        drop(windows);
        send_tree(a, TreeMsg::State(window, state));
    }
}

pub(super) fn track_window(a: &AutomationInner, window: &winit::window::Window) {
    let scale = window.scale_factor();
    let size = window.inner_size().to_logical::<f64>(scale);
    let title = window.title();
    let focused = window.has_focus();
    update_window(a, u64::from(window.id()), true, |s| {
        s.title = title;
        s.width = size.width;
        s.height = size.height;
        s.scale_factor = scale;
        s.focused = focused;
    });
}

pub(super) fn window_event(a: &AutomationInner, window: u64, event: &WindowEvent) {
    match event {
        WindowEvent::Resized(size) => update_window(a, window, false, |s| {
            let logical = size.to_logical::<f64>(s.scale_factor);
            s.width = logical.width;
            s.height = logical.height;
        }),
        WindowEvent::ScaleFactorChanged { scale_factor, .. } => {
            update_window(a, window, false, |s| {
                // The physical size stays until the Resized that follows.
                let (w, h) = (s.width * s.scale_factor, s.height * s.scale_factor);
                s.scale_factor = *scale_factor;
                s.width = w / scale_factor;
                s.height = h / scale_factor;
            })
        }
        WindowEvent::Focused(focused) => update_window(a, window, false, |s| s.focused = *focused),
        WindowEvent::Destroyed => {
            lock(&a.windows).remove(&window);
            send_tree(a, TreeMsg::Closed(window));
        }
        _ => {}
    }
}

/// Sends what the backlog holds, in order; returns whether it is empty now.
fn flush_backlog(a: &AutomationInner, backlog: &mut VecDeque<TreeMsg>) -> bool {
    while let Some(msg) = backlog.pop_front() {
        match a.trees.try_send(msg) {
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

fn send_tree(a: &AutomationInner, msg: TreeMsg) {
    let mut backlog = a.backlog.lock().unwrap_or_else(|p| p.into_inner());
    backlog.push_back(msg);
    flush_backlog(a, &mut backlog);
}

pub(super) fn tree_update(a: &AutomationInner, window: u64, update: accesskit::TreeUpdate) {
    send_tree(a, TreeMsg::Update(window, update));
}

pub(super) fn widgets(a: &AutomationInner, window: u64, widgets: Vec<crate::Widget>) {
    send_tree(a, TreeMsg::Widgets(window, widgets));
}

pub(super) fn window_state(a: &AutomationInner, window: u64, state: crate::WindowState) {
    update_window(a, window, true, |s| *s = state);
}

pub(super) fn adapter(a: &AutomationInner, gpu: crate::GpuInfo) {
    send_tree(a, TreeMsg::Gpu(gpu));
}

pub(super) fn surface(a: &AutomationInner, window: u64, surface: crate::SurfaceInfo) {
    send_tree(a, TreeMsg::Surface(window, surface));
}

pub(super) fn window_closed(a: &AutomationInner, window: u64) {
    lock(&a.windows).remove(&window);
    send_tree(a, TreeMsg::Closed(window));
}

pub(super) fn end_frame(a: &AutomationInner) {
    let frame = a.shared.building.fetch_add(1, Ordering::SeqCst);
    let stages_left = !lock(&a.pending).is_empty();
    if let (true, Some(waker)) = (stages_left, &a.waker) {
        // Input stages remain: the next frame must come even if nothing else asks for it.
        waker();
    }
    let flushed = {
        let mut backlog = a.backlog.lock().unwrap_or_else(|p| p.into_inner());
        flush_backlog(a, &mut backlog)
    };
    if !flushed {
        // Part of this frame's tree is still on this side: publishing now would let a response
        // overtake its tree. A later end_frame publishes this frame along with its own.
        return;
    }
    // Published first, then announced: the service, woken by the frame's end, reads this frame.
    a.shared.published.store(frame, Ordering::SeqCst);
    finish_captures(a, frame);
    // Metrics (fps and frame intervals) and the settle clock: a full channel drops the sample.
    let _ = a.frames.try_send(Instant::now());
    if a.shared.replied.swap(false, Ordering::SeqCst) {
        // Full means a wake-up is already pending, which reads the published frame when it runs.
        let _ = a.tick.try_send(());
    }
}

pub(super) fn frame(a: &AutomationInner) -> u64 {
    a.shared.building.load(Ordering::SeqCst)
}

pub(super) fn dir(a: &AutomationInner) -> Option<&Path> {
    Some(&a.dir)
}

struct Replier {
    replies: Sender<FromApp>,
    shared: Arc<Shared>,
    /// A reply waits for the frame it is stamped with; an app that draws only on demand is asked
    /// for that frame.
    waker: Option<Arc<dyn Fn() + Send + Sync>>,
}

impl Replier {
    fn send(self, seq: u64, command: &Command, result: Result<String, Failure>) {
        // The flag goes up before the send, so an end_frame racing with this reply either sees it
        // and wakes the service, or has already published the frame the reply is stamped with.
        self.shared.replied.store(true, Ordering::SeqCst);
        let frame = self.shared.building.load(Ordering::SeqCst);
        // Never full: at most IN_FLIGHT requests are outstanding and the channel holds IN_FLIGHT.
        // Disconnected: the service has stopped and already answered this seq `shutting_down`.
        let _ = self.replies.try_send(FromApp {
            seq,
            verb: command.verb(),
            frame,
            result,
        });
        if let Some(waker) = &self.waker {
            waker();
        }
    }
}

pub(super) struct RequestInner {
    seq: u64,
    command: Command,
    replier: Option<Replier>,
}

impl Drop for RequestInner {
    fn drop(&mut self) {
        if let Some(replier) = self.replier.take() {
            replier.send(
                self.seq,
                &self.command,
                Err(Failure::new(
                    ErrorCode::NotHandled,
                    format!("the app received {} and dropped it without answering", self.command.verb()),
                    "the app's frame loop must reply to every automation request; see the README's integration section",
                )),
            );
        }
    }
}

pub(super) fn seq(r: &RequestInner) -> u64 {
    r.seq
}

pub(super) fn command(r: &RequestInner) -> &Command {
    &r.command
}

pub(super) fn reply(mut r: RequestInner, result: Result<String, Failure>) {
    if let Some(replier) = r.replier.take() {
        replier.send(r.seq, &r.command, result);
    }
}
