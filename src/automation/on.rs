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

use super::{DEFAULT_QUEUE_CAPACITY, DEFAULT_REAP_AFTER, Request, StartError};
use crate::dropbox::service::{self, FromApp, Shared, ToApp};
use crate::dropbox::{DirError, DirLock, dir};
use crate::protocol::{Command, ErrorCode, Failure};
use crate::tree::TreeMsg;

pub(super) struct BuilderInner {
    name: Option<String>,
    dir: Option<PathBuf>,
    capacity: usize,
    max_bytes: usize,
    reap_after: Duration,
    waker: Option<Arc<dyn Fn() + Send + Sync>>,
}

pub(super) fn new_builder() -> BuilderInner {
    BuilderInner {
        name: None,
        dir: None,
        capacity: DEFAULT_QUEUE_CAPACITY,
        max_bytes: Command::DEFAULT_MAX_BYTES,
        reap_after: DEFAULT_REAP_AFTER,
        waker: None,
    }
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
        waker: b.waker,
    })
    .map_err(|e| err(StartErrorKind::Io(dir.clone(), e)))?;
    Ok(AutomationInner {
        dir,
        requests: ends.requests,
        replies: ends.replies,
        trees: ends.trees,
        backlog: Mutex::new(VecDeque::new()),
        frames: ends.frames,
        tick: ends.tick,
        stop: ends.stop,
        shared: ends.shared,
        thread: Some(ends.thread),
        _lock: lock,
    })
}

pub(super) type RequestsInner<'a> = &'a AutomationInner;

pub(super) fn requests(a: &AutomationInner) -> RequestsInner<'_> {
    a
}

pub(super) fn next_request(a: &mut RequestsInner<'_>) -> Option<Request> {
    let ToApp { seq, command } = a.requests.try_recv().ok()?;
    Some(Request {
        inner: RequestInner {
            seq,
            command,
            replier: Some(Replier {
                replies: a.replies.clone(),
                shared: a.shared.clone(),
            }),
        },
    })
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
    send_tree(a, TreeMsg::State(window, state));
}

pub(super) fn adapter(a: &AutomationInner, gpu: crate::GpuInfo) {
    send_tree(a, TreeMsg::Gpu(gpu));
}

pub(super) fn surface(a: &AutomationInner, window: u64, surface: crate::SurfaceInfo) {
    send_tree(a, TreeMsg::Surface(window, surface));
}

pub(super) fn window_closed(a: &AutomationInner, window: u64) {
    send_tree(a, TreeMsg::Closed(window));
}

pub(super) fn end_frame(a: &AutomationInner) {
    let frame = a.shared.building.fetch_add(1, Ordering::SeqCst);
    let flushed = {
        let mut backlog = a.backlog.lock().unwrap_or_else(|p| p.into_inner());
        flush_backlog(a, &mut backlog)
    };
    if !flushed {
        // Part of this frame's tree is still on this side: publishing now would let a response
        // overtake its tree. A later end_frame publishes this frame along with its own.
        return;
    }
    // Metrics only (fps and frame intervals): a full channel drops the sample.
    let _ = a.frames.try_send(Instant::now());
    a.shared.published.store(frame, Ordering::SeqCst);
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
