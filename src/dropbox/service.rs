//! The service thread: owns the drop-box while the app runs.
//!
//! It watches the directory (inotify through `notify`, or polling when that is unavailable), reads
//! complete command entries in seq order, answers what it can answer itself, forwards the rest to
//! the render thread through a bounded channel, and writes each response once the render side has
//! published the frame that carried the command out. All file I/O and formatting happen here.
//!
//! Exactly one response per entry: an entry's seq is either being parsed, in flight (forwarded and
//! not yet answered), deferred (a service-side command waiting for earlier actions), or answered
//! and removed. The response is published before the entry is removed.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender, TrySendError, bounded, select};

use super::publish::publish;
use super::queue::{self, Entry};
use super::ready::{Ready, unix_ms_now};
use crate::protocol::{
    Command, ErrorCode, Failure, PROTOCOL_VERSION, READY_FILE, Response, Side, Verb, quote,
    response_file,
};
use crate::tree::plan::{DEFAULT_SETTLE_FRAMES, Plan};
use crate::tree::{TreeMsg, Trees, diff};

/// How many commands may be forwarded to the render side and not yet answered. It is also the
/// capacity of both channels, so the render side's `try_send` of a reply can never find them full.
pub(crate) const IN_FLIGHT: usize = 64;

/// How often the directory is re-listed when inotify is working (a safety net for lost events).
const SAFETY_RESCAN: Duration = Duration::from_millis(500);
/// How often the directory is re-listed when it cannot be watched.
const POLL_INTERVAL: Duration = Duration::from_millis(5);
/// How long `wait` waits when the command names no `--timeout`.
pub(crate) const DEFAULT_WAIT: Duration = Duration::from_secs(5);
/// The least time between two publications of `snapshot.txt`, `accessibility.txt` and `windows.txt`
/// while the trees keep changing.
const ARTIFACT_INTERVAL: Duration = Duration::from_millis(100);
/// Capacity of the tree channel; the render side keeps what does not fit and sends it next frame.
pub(crate) const TREE_CHANNEL: usize = 256;

/// A command on its way to the render thread, with the input that carries it out (`None` for a
/// command the app answers itself).
pub(crate) struct ToApp {
    pub seq: u64,
    pub command: Command,
    pub plan: Option<Plan>,
}

/// The render side's answer.
pub(crate) struct FromApp {
    pub seq: u64,
    pub verb: Verb,
    /// The frame that carried the command out; the response waits until it is published.
    pub frame: u64,
    pub result: Result<String, Failure>,
}

/// A frame's pixels as the GPU left them in the mapped staging buffer, lent for the time of a
/// call: 8-bit RGBA (or BGRA when `bgra`), sRGB-encoded bytes as the frame held them, rows
/// `stride` bytes apart (padded to wgpu's 256-byte copy alignment).
pub(crate) struct Frame<'a> {
    pub width: u32,
    pub height: u32,
    /// Physical pixels per logical pixel.
    pub scale: f64,
    pub stride: usize,
    pub bgra: bool,
    pub bytes: &'a [u8],
}

/// Reads a frame back: waits for the GPU, then lends the mapped pixels to the visitor (no copy of
/// the whole image is made), then unmaps.
pub(crate) type Reader = Box<dyn FnOnce(&mut dyn FnMut(&Frame<'_>)) -> Result<(), Failure> + Send>;

/// A screenshot on its way to disk. The render side encoded the copy and submitted it; `read`
/// waits for the GPU and returns the pixels, on the service thread (never on the render thread).
pub(crate) struct CaptureJob {
    pub seq: u64,
    pub verb: Verb,
    /// The frame the pixels come from (published when the job is sent).
    pub frame: u64,
    /// `screenshot-<label>.png`.
    pub file: String,
    /// x, y, width, height in logical pixels.
    pub crop: Option<[f64; 4]>,
    pub read: Reader,
}

/// State shared with the render side through atomics only.
pub(crate) struct Shared {
    /// The frame the render side is building (starts at 1).
    pub building: AtomicU64,
    /// The last frame the render side published (0 before the first).
    pub published: AtomicU64,
    /// Whether a reply was sent since the last `end_frame`.
    pub replied: AtomicBool,
}

/// What the service needs to start.
pub(crate) struct Config {
    pub dir: PathBuf,
    pub app_name: String,
    pub queue_capacity: usize,
    pub max_command_bytes: usize,
    pub reap_after: Duration,
    pub waker: Option<Arc<dyn Fn() + Send + Sync>>,
    /// `screenshot` goes to the app as a request instead of being captured by the plugin.
    pub app_screenshots: bool,
}

/// The render side's ends of the channels.
pub(crate) struct RenderEnds {
    pub requests: Receiver<ToApp>,
    pub trees: Sender<TreeMsg>,
    pub frames: Sender<Instant>,
    pub replies: Sender<FromApp>,
    pub captures: Sender<CaptureJob>,
    pub tick: Sender<()>,
    pub stop: Sender<()>,
    pub shared: Arc<Shared>,
    pub thread: std::thread::JoinHandle<()>,
}

struct Service {
    cfg: Config,
    started: Instant,
    started_unix_ms: u64,
    shared: Arc<Shared>,
    requests: Sender<ToApp>,
    replies: Receiver<FromApp>,
    captures: Receiver<CaptureJob>,
    tick: Receiver<()>,
    stop: Receiver<()>,
    fs_events: Receiver<()>,
    tree_msgs: Receiver<TreeMsg>,
    frame_ends: Receiver<Instant>,
    trees: Trees,
    /// `wait` commands not yet satisfied.
    waits: BTreeMap<u64, PendingWait>,
    /// Answered, but the entry could not be removed (a non-empty directory planted as an entry):
    /// never read again while it exists.
    stuck: std::collections::BTreeSet<u64>,
    /// Responses whose publication failed (disk full): retried, and their entries are not read
    /// again meanwhile, so nothing runs twice.
    unwritten: BTreeMap<u64, Response>,
    waits_dirty: bool,
    artifacts_dirty: bool,
    artifacts_at: Option<Instant>,
    watching: bool,
    _watcher: Option<notify::RecommendedWatcher>,
    /// Forwarded to the render side (or settling) and not yet answered: seq to verb. Commands are
    /// carried out one at a time, in seq order, so this holds at most one action.
    in_flight: BTreeMap<u64, Verb>,
    /// For in-flight actions sent with `--settle`: their options and the tree text before them.
    settle_opts: HashMap<u64, (crate::protocol::ActOptions, String)>,
    /// Actions carried out (and standalone `settle`s) waiting for the tree to stop changing.
    settling: BTreeMap<u64, Settling>,
    /// The frame that carried the last change of the trees.
    last_change: u64,
    /// Answers from the render side waiting for their frame to be published.
    held: BTreeMap<u64, FromApp>,
    /// Service-side commands waiting for earlier actions to be answered.
    deferred: BTreeMap<u64, Command>,
    /// Entries without their final newline: when first seen at this length.
    incomplete: HashMap<u64, (Instant, u64)>,
    dirty: bool,
    waiting_on_disk: usize,
    answered: u64,
}

struct Settling {
    verb: Verb,
    /// The answer so far (`frame N` and the action's summary).
    body: String,
    before: String,
    frames: u32,
    /// The frame the action was carried out in (for `settle`, the frame when it arrived).
    from_frame: u64,
    started: Instant,
    deadline: Instant,
    /// The last published frame after which the app was asked for another frame.
    woken_at: u64,
}

struct PendingWait {
    selector: crate::protocol::Selector,
    gone: bool,
    started: Instant,
    deadline: Instant,
}

/// Creates the directory, takes over its queue, publishes `ready.txt` and starts the thread.
pub(crate) fn start(cfg: Config) -> Result<RenderEnds, std::io::Error> {
    let dir = cfg.dir.clone();
    let stuck = recover(&dir)?;
    let (requests_tx, requests_rx) = bounded(IN_FLIGHT);
    let (replies_tx, replies_rx) = bounded(IN_FLIGHT);
    let (captures_tx, captures_rx) = bounded(IN_FLIGHT);
    let (tick_tx, tick_rx) = bounded(1);
    let (stop_tx, stop_rx) = bounded(1);
    let (fs_tx, fs_rx) = bounded(1);
    let (trees_tx, trees_rx) = bounded(TREE_CHANNEL);
    let (frames_tx, frames_rx) = bounded(256);
    let watcher = super::watch::watch(&dir, fs_tx, |name| name.starts_with("command-"));
    // Without a watcher its sender is gone; a disconnected receiver would be ready forever.
    let fs_rx = if watcher.is_some() {
        fs_rx
    } else {
        crossbeam_channel::never()
    };
    if watcher.is_none() {
        log::warn!(
            "winit-automation: cannot watch {}; polling every {:?}",
            dir.display(),
            POLL_INTERVAL
        );
    }
    let shared = Arc::new(Shared {
        building: AtomicU64::new(1),
        published: AtomicU64::new(0),
        replied: AtomicBool::new(false),
    });
    let started_unix_ms = unix_ms_now();
    let ready = Ready {
        protocol: PROTOCOL_VERSION,
        pid: std::process::id(),
        app: cfg.app_name.clone(),
        crate_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_unix_ms,
        queue_capacity: cfg.queue_capacity,
        max_command_bytes: cfg.max_command_bytes,
    };
    let mut service = Service {
        cfg,
        started: Instant::now(),
        started_unix_ms,
        shared: shared.clone(),
        requests: requests_tx,
        replies: replies_rx,
        captures: captures_rx,
        tick: tick_rx,
        stop: stop_rx,
        fs_events: fs_rx,
        tree_msgs: trees_rx,
        frame_ends: frames_rx,
        trees: Trees::default(),
        waits: BTreeMap::new(),
        stuck,
        unwritten: BTreeMap::new(),
        waits_dirty: false,
        artifacts_dirty: true,
        artifacts_at: None,
        watching: watcher.is_some(),
        _watcher: watcher,
        in_flight: BTreeMap::new(),
        settle_opts: HashMap::new(),
        settling: BTreeMap::new(),
        last_change: 0,
        held: BTreeMap::new(),
        deferred: BTreeMap::new(),
        incomplete: HashMap::new(),
        dirty: true,
        waiting_on_disk: 0,
        answered: 0,
    };
    publish(&dir, READY_FILE, ready.to_text().as_bytes())?;
    // start() returns once the thread runs (and so carries its name): callers and tests can rely on
    // it existing. This waits once, at start-up, never per frame.
    let (running_tx, running_rx) = bounded::<()>(1);
    let thread = std::thread::Builder::new()
        .name("automation-svc".into())
        .spawn(move || {
            let _ = running_tx.send(());
            service.run()
        })
        .inspect_err(|_| {
            let _ = fs::remove_file(dir.join(READY_FILE));
        })?;
    let _ = running_rx.recv();
    Ok(RenderEnds {
        requests: requests_rx,
        trees: trees_tx,
        frames: frames_tx,
        replies: replies_tx,
        captures: captures_tx,
        tick: tick_tx,
        stop: stop_tx,
        shared,
        thread,
    })
}

/// Takes over a directory left by a previous run: removes temporaries, answers that run's unread
/// responses by deleting them, and answers its leftover commands with `stale_command`, never running
/// them (they were meant for a UI that no longer exists).
fn recover(dir: &Path) -> std::io::Result<std::collections::BTreeSet<u64>> {
    let mut stuck = std::collections::BTreeSet::new();
    let listing = queue::scan(dir)?;
    for temp in &listing.temps {
        let _ = fs::remove_file(dir.join(temp));
    }
    let _ = fs::remove_file(dir.join(READY_FILE));
    for &seq in &listing.responses {
        if !listing.commands.contains(&seq) {
            let _ = fs::remove_file(dir.join(response_file(seq)));
        }
    }
    for &seq in &listing.commands {
        // A response next to its entry is the real answer: the previous run crashed between
        // publishing it and removing the entry. Keep it.
        if !listing.responses.contains(&seq) {
            let failure = Failure::new(
                ErrorCode::StaleCommand,
                "this command was left by a previous run of the app and was not carried out",
                "send it again now that the app has restarted",
            );
            publish(
                dir,
                &response_file(seq),
                Response::error(seq, None, failure).to_text().as_bytes(),
            )?;
        }
        if let Err(e) = remove_entry(dir, seq) {
            log::error!("winit-automation: cannot remove command {seq}: {e}");
            stuck.insert(seq);
        }
    }
    Ok(stuck)
}

/// Removes an answered entry: a file, a symlink (never its target), a FIFO, or an empty directory
/// planted in its place.
fn remove_entry(dir: &Path, seq: u64) -> std::io::Result<()> {
    let path = dir.join(crate::protocol::command_file(seq));
    match queue::remove_command(dir, seq) {
        Err(e) if path.is_dir() => fs::remove_dir(&path).map_err(|_| e),
        other => other,
    }
}

/// The verb of an unparsable command, if its first word is one.
fn guess_verb(bytes: &[u8]) -> Option<Verb> {
    let text = String::from_utf8_lossy(bytes);
    Verb::parse(text.split([' ', '\t', '\r', '\n']).next()?)
}

impl Service {
    fn run(&mut self) {
        loop {
            let timeout = self.next_timeout();
            select! {
                recv(self.fs_events) -> _ => self.dirty = true,
                recv(self.replies) -> reply => {
                    if let Ok(reply) = reply {
                        self.held.insert(reply.seq, reply);
                    }
                }
                recv(self.captures) -> job => {
                    if let Ok(job) = job {
                        self.capture(job);
                    }
                }
                recv(self.tree_msgs) -> msg => {
                    if let Ok(msg) = msg {
                        self.apply_tree(msg);
                    }
                }
                recv(self.frame_ends) -> at => {
                    if let Ok(at) = at {
                        self.trees.frame_ended(at);
                    }
                }
                recv(self.tick) -> _ => {}
                recv(self.stop) -> _ => break,
                default(timeout) => self.dirty = true,
            }
            while let Ok(reply) = self.replies.try_recv() {
                self.held.insert(reply.seq, reply);
            }
            if !self.unwritten.is_empty() {
                self.retry_unwritten();
            }
            self.flush(false);
            if self.dirty {
                self.dirty = false;
                self.scan();
            }
            self.check_waits();
            if self.check_settles() {
                // The settled command no longer holds up the ones behind it.
                self.flush(false);
            }
            self.publish_artifacts(false);
        }
        self.shutdown();
    }

    fn apply_tree(&mut self, msg: TreeMsg) {
        if self.trees.apply(msg) {
            self.artifacts_dirty = true;
            self.waits_dirty = true;
            // The frame being built carries this change.
            self.last_change = self.shared.building.load(Ordering::SeqCst);
        }
    }

    /// Drains the tree channel, so the mirror holds every update sent before the published frame.
    fn drain_trees(&mut self) {
        while let Ok(msg) = self.tree_msgs.try_recv() {
            self.apply_tree(msg);
        }
        while let Ok(at) = self.frame_ends.try_recv() {
            self.trees.frame_ended(at);
        }
    }

    fn published(&self) -> u64 {
        self.shared.published.load(Ordering::SeqCst)
    }

    /// Answers the waits whose condition now holds or whose time is up.
    fn check_waits(&mut self) {
        let now = Instant::now();
        let due: Vec<u64> = self
            .waits
            .iter()
            .filter(|(_, w)| self.waits_dirty || now >= w.deadline)
            .map(|(s, _)| *s)
            .collect();
        self.waits_dirty = false;
        for seq in due {
            let Some(w) = self.waits.remove(&seq) else {
                continue;
            };
            if let Some(found) = self.trees.wait_check(&w.selector, w.gone) {
                let body = format!("frame {}\n{found}", self.published());
                self.answer(Response::ok(seq, Some(Verb::Wait), body));
            } else if now >= w.deadline {
                let failure =
                    self.trees
                        .wait_timeout(&w.selector, w.gone, now.duration_since(w.started));
                self.fail(seq, Some(Verb::Wait), failure);
            } else {
                self.waits.insert(seq, w);
            }
        }
    }

    /// Republishes the artifacts when the trees changed, at most every `ARTIFACT_INTERVAL` unless
    /// `now`.
    fn publish_artifacts(&mut self, now: bool) {
        if !self.artifacts_dirty {
            return;
        }
        let due = self
            .artifacts_at
            .is_none_or(|at| at.elapsed() >= ARTIFACT_INTERVAL);
        if !(now || due) {
            return;
        }
        self.artifacts_dirty = false;
        self.artifacts_at = Some(Instant::now());
        let frame = self.published();
        for (name, text) in self.trees.artifacts(frame) {
            if let Err(e) = publish(self.dir(), name, text.as_bytes()) {
                log::error!("winit-automation: cannot publish {name}: {e}");
            }
        }
    }

    fn next_timeout(&self) -> Duration {
        let mut base = if self.watching {
            SAFETY_RESCAN
        } else {
            POLL_INTERVAL
        };
        let now = Instant::now();
        if let Some(w) = self.waits.values().map(|w| w.deadline).min() {
            base = base.min(w.saturating_duration_since(now));
        }
        if let Some(d) = self.settling.values().map(|s| s.deadline).min() {
            base = base.min(d.saturating_duration_since(now));
        }
        if let (true, Some(at)) = (self.artifacts_dirty, self.artifacts_at) {
            base = base.min((at + ARTIFACT_INTERVAL).saturating_duration_since(now));
        }
        let reap = self
            .incomplete
            .values()
            .map(|(since, _)| {
                (*since + self.cfg.reap_after).saturating_duration_since(Instant::now())
            })
            .min();
        reap.map_or(base, |r| r.min(base))
    }

    fn dir(&self) -> &Path {
        &self.cfg.dir
    }

    /// Publishes the response, then removes the entry.
    fn answer(&mut self, response: Response) {
        let seq = response.seq;
        if let Err(e) = publish(
            self.dir(),
            &response_file(seq),
            response.to_text().as_bytes(),
        ) {
            if !self.unwritten.contains_key(&seq) {
                log::error!("winit-automation: cannot write the response to command {seq}: {e}");
            }
            self.unwritten.insert(seq, response);
            return;
        }
        self.unwritten.remove(&seq);
        self.answered += 1;
        if let Err(e) = remove_entry(self.dir(), seq) {
            log::error!("winit-automation: cannot remove command {seq}: {e}");
            self.stuck.insert(seq);
        }
    }

    /// Tries again to publish the responses that could not be written.
    fn retry_unwritten(&mut self) {
        let pending: Vec<Response> = self.unwritten.values().cloned().collect();
        for response in pending {
            self.answer(response);
        }
    }

    fn fail(&mut self, seq: u64, verb: Option<Verb>, failure: Failure) {
        self.answer(Response::error(seq, verb, failure));
    }

    /// Writes the answers whose frame is published (all of them when `all`), then the deferred
    /// service-side commands that no earlier action holds back.
    fn flush(&mut self, all: bool) {
        let published = self.shared.published.load(Ordering::SeqCst);
        // Every tree update sent before the frame was published is in the channel now.
        self.drain_trees();
        let ready: Vec<u64> = self
            .held
            .values()
            .filter(|r| all || r.frame <= published)
            .map(|r| r.seq)
            .collect();
        for seq in ready {
            let Some(reply) = self.held.remove(&seq) else {
                continue;
            };
            if let (Some((opts, before)), Ok(body)) = (self.settle_opts.remove(&seq), &reply.result)
            {
                // Carried out; answered once the tree has stopped changing.
                self.start_settle(
                    seq,
                    reply.verb,
                    format!("frame {}\n{body}", reply.frame),
                    before,
                    opts.frames,
                    opts.timeout_ms,
                    reply.frame,
                );
                continue;
            }
            self.settle_opts.remove(&seq);
            self.in_flight.remove(&seq);
            let response = match reply.result {
                Ok(body) => Response::ok(
                    seq,
                    Some(reply.verb),
                    format!("frame {}\n{body}", reply.frame),
                ),
                Err(failure) => Response::error(seq, Some(reply.verb), failure),
            };
            self.answer(response);
            // Room in flight: entries left on disk may now be read.
            self.dirty = true;
        }
        let mut forwarded = false;
        while let Some((&seq, _)) = self.deferred.first_key_value() {
            // Everything in flight is earlier than everything deferred.
            if !self.in_flight.is_empty() {
                break;
            }
            let Some(command) = self.deferred.remove(&seq) else {
                break;
            };
            forwarded |= self.route(seq, command);
        }
        if let (true, Some(waker)) = (forwarded, &self.cfg.waker) {
            waker();
        }
    }

    /// Reads a screenshot's pixels back, crops, encodes and publishes the PNG, and answers. A panic
    /// while doing so costs this command an `app_error` answer.
    fn capture(&mut self, job: CaptureJob) {
        let (seq, verb, frame) = (job.seq, job.verb, job.frame);
        let dir = self.cfg.dir.clone();
        let result =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| write_png(&dir, job)))
                .unwrap_or_else(|panic| {
                    Err(Failure::new(
                        ErrorCode::AppError,
                        format!(
                            "internal error in winit-automation while writing the screenshot: {}",
                            crate::panic_message(&*panic)
                        ),
                        "please report it; the app keeps running",
                    ))
                });
        self.in_flight.remove(&seq);
        match result {
            Ok(body) => self.answer(Response::ok(
                seq,
                Some(verb),
                format!("frame {frame}\n{body}"),
            )),
            Err(failure) => self.fail(seq, Some(verb), failure),
        }
        self.dirty = true;
    }

    /// Starts waiting for the trees to stay unchanged for `frames` frames after `from_frame`.
    #[allow(clippy::too_many_arguments)]
    fn start_settle(
        &mut self,
        seq: u64,
        verb: Verb,
        body: String,
        before: String,
        frames: Option<u32>,
        timeout_ms: Option<u64>,
        from_frame: u64,
    ) {
        let started = Instant::now();
        self.in_flight.insert(seq, verb);
        self.settling.insert(
            seq,
            Settling {
                verb,
                body,
                before,
                frames: frames.unwrap_or(DEFAULT_SETTLE_FRAMES).max(1),
                from_frame,
                started,
                deadline: started + timeout_ms.map_or(DEFAULT_WAIT, Duration::from_millis),
                woken_at: 0,
            },
        );
        // Answered at once if it already holds (it cannot hold yet: K >= 1 frames must pass).
        self.check_settles();
    }

    /// Answers the settles whose trees have stayed unchanged long enough or whose time is up, and
    /// asks the app for frames meanwhile (an app that draws only on demand would never settle).
    /// Like `check_settles_inner`, but a panic while formatting costs the settling commands an
    /// `app_error` answer instead of the service thread. Returns whether any was answered.
    fn check_settles(&mut self) -> bool {
        if self.settling.is_empty() {
            return false;
        }
        let answered = self.answered;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.check_settles_inner();
        }));
        if let Err(panic) = result {
            let why = crate::panic_message(&*panic);
            for (seq, s) in std::mem::take(&mut self.settling) {
                self.in_flight.remove(&seq);
                self.fail(
                    seq,
                    Some(s.verb),
                    Failure::new(
                        ErrorCode::AppError,
                        format!("internal error in winit-automation while settling: {why}"),
                        "please report it with the command and the snapshot; the app keeps running",
                    ),
                );
            }
        }
        self.answered != answered
    }

    fn check_settles_inner(&mut self) {
        // The frame first, then the trees: every change of a published frame is then in the
        // mirror when the frame is counted as unchanged.
        let published = self.published();
        self.drain_trees();
        let now = Instant::now();
        let seqs: Vec<u64> = self.settling.keys().copied().collect();
        let mut wake = false;
        for seq in seqs {
            let Some(mut s) = self.settling.remove(&seq) else {
                continue;
            };
            let base = s.from_frame.max(self.last_change);
            if published >= base + u64::from(s.frames) {
                let after = self.trees.settle_text();
                let changes = diff(&s.before, &after);
                let mut body = s.body;
                body.push_str(&format!(
                    "settled frame {published} after {} frames, unchanged for {}\n",
                    published - s.from_frame,
                    published - base
                ));
                body.push_str(&changes);
                self.in_flight.remove(&seq);
                self.answer(Response::ok(seq, Some(s.verb), body));
                self.dirty = true;
            } else if now >= s.deadline {
                let after = self.trees.settle_text();
                let changes = diff(&s.before, &after);
                self.in_flight.remove(&seq);
                self.fail(
                    seq,
                    Some(s.verb),
                    Failure::new(
                        ErrorCode::NotSettled,
                        format!(
                            "the tree was still changing after {} ms (last change in frame {}, now frame {published}; {} unchanged frames needed)",
                            now.duration_since(s.started).as_millis(),
                            self.last_change,
                            s.frames
                        ),
                        "something animates or updates every frame; raise --timeout, lower --frames, or snapshot instead",
                    )
                    .with_body(changes),
                );
                self.dirty = true;
            } else {
                if s.woken_at < published || s.woken_at == 0 {
                    s.woken_at = published.max(1);
                    wake = true;
                }
                self.settling.insert(seq, s);
            }
        }
        if let (true, Some(waker)) = (wake, &self.cfg.waker) {
            waker();
        }
    }

    /// Lists the directory and takes every complete entry it can.
    fn scan(&mut self) {
        let listing = match queue::scan(self.dir()) {
            Ok(l) => l,
            Err(e) => {
                log::error!(
                    "winit-automation: cannot list {}: {e}",
                    self.dir().display()
                );
                return;
            }
        };
        self.waiting_on_disk = listing.commands.len();
        self.incomplete
            .retain(|seq, _| listing.commands.contains(seq));
        self.stuck.retain(|seq| listing.commands.contains(seq));
        let mut forwarded = false;
        for &seq in &listing.commands {
            if self.in_flight.contains_key(&seq)
                || self.deferred.contains_key(&seq)
                || self.waits.contains_key(&seq)
                || self.stuck.contains(&seq)
                || self.unwritten.contains_key(&seq)
            {
                continue;
            }
            if self.in_flight.len() + self.deferred.len() + self.waits.len() >= IN_FLIGHT {
                // The rest stays on disk, in order, until answers make room.
                break;
            }
            let entry = match queue::read_entry(self.dir(), seq, self.cfg.max_command_bytes) {
                Ok(e) => e,
                Err(e) => {
                    self.fail(
                        seq,
                        None,
                        Failure::new(
                            ErrorCode::BadEntry,
                            format!("cannot read command-{seq}.txt: {e}"),
                            "write commands as plain files the app's user can read",
                        ),
                    );
                    continue;
                }
            };
            match entry {
                Entry::Gone => {}
                Entry::NotRegular => {
                    // Removal unlinks a symlink itself, never its target.
                    self.fail(
                        seq,
                        None,
                        Failure::new(
                            ErrorCode::BadEntry,
                            format!("command-{seq}.txt is not a regular file"),
                            "write commands as plain files; symlinks and FIFOs are refused",
                        ),
                    );
                }
                Entry::TooLong { len } => self.fail(
                    seq,
                    None,
                    Failure::new(
                        ErrorCode::TooLong,
                        format!(
                            "the command is {len} bytes, over the cap of {}",
                            self.cfg.max_command_bytes
                        ),
                        "shorten the command; the cap is in ready.txt as max_command_bytes",
                    ),
                ),
                Entry::Incomplete { len } => {
                    let now = Instant::now();
                    let (since, seen_len) = self.incomplete.entry(seq).or_insert((now, len));
                    if *seen_len != len {
                        *since = now;
                        *seen_len = len;
                    } else if now.duration_since(*since) >= self.cfg.reap_after {
                        self.incomplete.remove(&seq);
                        let waited = self.cfg.reap_after;
                        self.fail(
                            seq,
                            None,
                            Failure::new(
                                ErrorCode::Incomplete,
                                format!(
                                    "command-{seq}.txt had no final newline after {} ms without growing; its writer is presumed dead",
                                    waited.as_millis()
                                ),
                                "end every command with \\n; the client library and CLI do",
                            ),
                        );
                    }
                }
                Entry::Complete(bytes) => {
                    self.incomplete.remove(&seq);
                    match Command::parse_bytes(&bytes, self.cfg.max_command_bytes) {
                        Err(e) => self.fail(seq, guess_verb(&bytes), e.into()),
                        Ok(command) => forwarded |= self.dispatch(seq, command),
                    }
                }
            }
        }
        if let (true, Some(waker)) = (forwarded, &self.cfg.waker) {
            waker();
        }
    }

    /// Takes a parsed command: carried out now, or deferred until every earlier command has been
    /// answered (commands run one at a time in seq order, so each is resolved against the tree the
    /// earlier ones left). Returns whether it went to the render side.
    fn dispatch(&mut self, seq: u64, command: Command) -> bool {
        // `status` reads no tree and changes nothing: it is answered at once even behind a command
        // the app has not carried out yet, so a stuck app can still be diagnosed.
        if matches!(command, Command::Status) {
            self.serve(seq, &command);
            return false;
        }
        if !self.deferred.is_empty() || !self.in_flight.is_empty() {
            self.deferred.insert(seq, command);
            return false;
        }
        self.route(seq, command)
    }

    /// Carries a command out; returns whether it went to the render side.
    fn route(&mut self, seq: u64, command: Command) -> bool {
        let verb = command.verb();
        match verb.side() {
            Side::Service => {
                self.serve(seq, &command);
                false
            }
            Side::App => self.forward(seq, command),
        }
    }

    /// Plans an action against the current trees and sends it to the render side.
    fn forward(&mut self, seq: u64, command: Command) -> bool {
        let verb = command.verb();
        self.drain_trees();
        let app_answers = self.cfg.app_screenshots && verb == Verb::Screenshot;
        let planned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            if app_answers {
                Ok(None)
            } else {
                self.trees.plan(&command)
            }
        }));
        let plan = match planned {
            Ok(Ok(plan)) => plan,
            Ok(Err(failure)) => {
                self.fail(seq, Some(verb), failure);
                return false;
            }
            Err(panic) => {
                let why = crate::panic_message(&*panic);
                self.fail(
                    seq,
                    Some(verb),
                    Failure::new(
                        ErrorCode::AppError,
                        format!("internal error in winit-automation while planning {verb}: {why}"),
                        "please report it with the command and the snapshot; the app keeps running",
                    ),
                );
                return false;
            }
        };
        if let Some(opts) = command.act_options().filter(|o| o.settle) {
            let before = self.trees.settle_text();
            self.settle_opts.insert(seq, (opts, before));
        }
        match self.requests.try_send(ToApp { seq, command, plan }) {
            Ok(()) => {
                self.in_flight.insert(seq, verb);
                true
            }
            Err(TrySendError::Full(_)) => {
                // Cannot happen: one command is in flight at a time and the channel holds
                // IN_FLIGHT. Leave the entry on disk; it is read again after the next answer.
                self.settle_opts.remove(&seq);
                false
            }
            Err(TrySendError::Disconnected(_)) => {
                self.settle_opts.remove(&seq);
                self.fail(
                    seq,
                    Some(verb),
                    Failure::new(
                        ErrorCode::ShuttingDown,
                        "the app is shutting down",
                        "restart the app and send the command again",
                    ),
                );
                false
            }
        }
    }

    /// Answers a service-side command. A bug that panics while answering costs that one command an
    /// `app_error` answer; the service thread keeps running.
    fn serve(&mut self, seq: u64, command: &Command) {
        let verb = command.verb();
        let answered = self.answered;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.serve_inner(seq, command);
        }));
        if let Err(panic) = result {
            let why = crate::panic_message(&*panic);
            self.waits.remove(&seq);
            if self.answered == answered {
                self.fail(
                    seq,
                    Some(verb),
                    Failure::new(
                        ErrorCode::AppError,
                        format!("internal error in winit-automation while answering {verb}: {why}"),
                        "please report it with the command and the snapshot; the app keeps running",
                    ),
                );
            }
        }
    }

    fn serve_inner(&mut self, seq: u64, command: &Command) {
        let verb = command.verb();
        match command {
            Command::Status => {
                let body = format!(
                    "protocol {PROTOCOL_VERSION}\napp {}\npid {}\ncrate_version {}\nstarted_unix_ms {}\nuptime_ms {}\nframe {}\nqueue {}\nin_flight {}\nanswered {}\nwatch {}\n",
                    quote(&self.cfg.app_name),
                    std::process::id(),
                    quote(env!("CARGO_PKG_VERSION")),
                    self.started_unix_ms,
                    self.started.elapsed().as_millis(),
                    self.shared.published.load(Ordering::SeqCst),
                    self.waiting_on_disk,
                    self.in_flight.len(),
                    self.answered,
                    if self.watching { "inotify" } else { "poll" },
                );
                self.answer(Response::ok(seq, Some(verb), body));
            }
            Command::Windows => {
                self.drain_trees();
                let body = self.trees.windows();
                self.answer(Response::ok(seq, Some(verb), body));
            }
            Command::Snapshot(options) => {
                self.drain_trees();
                let frame = self.published();
                let result = self.trees.snapshot(options, frame);
                self.publish_artifacts(true);
                self.reply_with(seq, verb, result);
            }
            Command::Find { selector } => {
                self.drain_trees();
                let body = self.trees.find(selector);
                self.answer(Response::ok(seq, Some(verb), body));
            }
            Command::Get { target } => {
                self.drain_trees();
                let result = self.trees.get(target);
                self.reply_with(seq, verb, result);
            }
            Command::Wait {
                selector,
                gone,
                timeout_ms,
            } => {
                self.drain_trees();
                let started = Instant::now();
                let limit = timeout_ms.map_or(DEFAULT_WAIT, Duration::from_millis);
                self.waits.insert(
                    seq,
                    PendingWait {
                        selector: selector.clone(),
                        gone: *gone,
                        started,
                        deadline: started + limit,
                    },
                );
                // Answered at once if it already holds.
                self.waits_dirty = true;
                self.check_waits();
            }
            Command::Settle { frames, timeout_ms } => {
                self.drain_trees();
                let before = self.trees.settle_text();
                let frame = self.published();
                self.start_settle(
                    seq,
                    verb,
                    format!("frame {frame}\n"),
                    before,
                    *frames,
                    *timeout_ms,
                    frame,
                );
            }
            _ => self.fail(
                seq,
                Some(verb),
                Failure::new(
                    ErrorCode::Unsupported,
                    format!(
                        "{verb} is part of protocol {PROTOCOL_VERSION} but this build of winit-automation {} does not answer it yet",
                        env!("CARGO_PKG_VERSION")
                    ),
                    "see docs/protocol.md for what this version answers",
                ),
            ),
        }
    }

    fn reply_with(&mut self, seq: u64, verb: Verb, result: Result<String, Failure>) {
        match result {
            Ok(body) => self.answer(Response::ok(seq, Some(verb), body)),
            Err(failure) => self.fail(seq, Some(verb), failure),
        }
    }

    /// Answers everything still owed, then removes `ready.txt`.
    fn shutdown(&mut self) {
        while let Ok(reply) = self.replies.try_recv() {
            self.held.insert(reply.seq, reply);
        }
        self.flush(true);
        // Screenshots already copied out of their frame are written.
        while let Ok(job) = self.captures.try_recv() {
            self.capture(job);
        }
        let settling = std::mem::take(&mut self.settling);
        for (seq, s) in settling {
            self.in_flight.remove(&seq);
            let failure = if s.verb == Verb::Settle {
                shutting_down()
            } else {
                Failure::new(
                    ErrorCode::NotSettled,
                    "the app shut down before the tree settled",
                    "restart the app; the action itself was carried out",
                )
            };
            self.fail(seq, Some(s.verb), failure);
        }
        let owed: Vec<(u64, Verb)> = self.in_flight.iter().map(|(s, v)| (*s, *v)).collect();
        for (seq, verb) in owed {
            self.fail(seq, Some(verb), shutting_down());
        }
        self.in_flight.clear();
        let waits: Vec<u64> = self.waits.keys().copied().collect();
        for seq in waits {
            self.waits.remove(&seq);
            self.fail(seq, Some(Verb::Wait), shutting_down());
        }
        let deferred = std::mem::take(&mut self.deferred);
        for (seq, command) in deferred {
            match command.verb().side() {
                Side::Service if command.verb() != Verb::Settle => self.serve(seq, &command),
                _ => self.fail(seq, Some(command.verb()), shutting_down()),
            }
        }
        self.retry_unwritten();
        if let Ok(listing) = queue::scan(self.dir()) {
            for seq in listing.commands {
                if self.stuck.contains(&seq) || self.unwritten.contains_key(&seq) {
                    // Already answered (or its answer could not be written): never answered twice.
                    continue;
                }
                if let Ok(Entry::Complete(bytes)) =
                    queue::read_entry(self.dir(), seq, self.cfg.max_command_bytes)
                {
                    self.fail(seq, guess_verb(&bytes), shutting_down());
                }
            }
        }
        let _ = fs::remove_file(self.dir().join(READY_FILE));
    }
}

/// Reads the job's pixels, crops them and publishes the PNG; returns the answer's body.
fn write_png(dir: &Path, job: CaptureJob) -> Result<String, Failure> {
    let started = Instant::now();
    let crop = job.crop;
    let mut encoded: Option<Result<Encoded, Failure>> = None;
    (job.read)(&mut |frame: &Frame<'_>| encoded = Some(encode_png(frame, crop)))?;
    let Encoded {
        bytes,
        width: w,
        height: h,
        scale,
    } = encoded.unwrap_or_else(|| {
        Err(Failure::new(
            ErrorCode::AppError,
            "the screenshot was read back but never handed over",
            "please report it",
        ))
    })?;
    let encoded_at = started.elapsed();
    publish(dir, &job.file, &bytes).map_err(|e| {
        Failure::new(
            ErrorCode::AppError,
            format!("cannot write {}: {e}", job.file),
            "check the free space and permissions of the automation directory",
        )
    })?;
    log::debug!(
        "winit-automation: {}: read back and encoded in {encoded_at:?}, written by {:?}",
        job.file,
        started.elapsed()
    );
    Ok(format!(
        "file {}\nsize {w}x{h}\nscale {scale}\nbytes {}\n",
        job.file,
        bytes.len()
    ))
}

/// A PNG file's bytes and what its answer states.
struct Encoded {
    bytes: Vec<u8>,
    width: u32,
    height: u32,
    scale: f64,
}

/// Encodes the frame (cropped to `crop`, logical x, y, width, height) as PNG, row by row from
/// the mapped buffer.
fn encode_png(frame: &Frame<'_>, crop: Option<[f64; 4]>) -> Result<Encoded, Failure> {
    let (mut x, mut y, mut w, mut h) = (0, 0, frame.width, frame.height);
    if let Some([cx, cy, cw, ch]) = crop {
        // Logical to physical, rounded outwards, clamped to the frame.
        let k = frame.scale;
        let x0 = ((cx * k).floor().max(0.0) as u32).min(frame.width);
        let y0 = ((cy * k).floor().max(0.0) as u32).min(frame.height);
        let x1 = (((cx + cw) * k).ceil().max(0.0) as u32).min(frame.width);
        let y1 = (((cy + ch) * k).ceil().max(0.0) as u32).min(frame.height);
        if x1 <= x0 || y1 <= y0 {
            return Err(Failure::new(
                ErrorCode::Offscreen,
                "the node's bounds lie outside the captured frame",
                "take the whole window, or snapshot again: the node may have moved",
            ));
        }
        (x, y, w, h) = (x0, y0, x1 - x0, y1 - y0);
    }
    let mut bytes = Vec::new();
    let result = (|| {
        let mut encoder = png::Encoder::new(&mut bytes, w, h);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        // sRGB bytes as the frame held them.
        encoder.set_source_srgb(png::SrgbRenderingIntent::Perceptual);
        // Fast deflate with the Sub filter: UI content (flat colour runs) compresses to about 1% of
        // the raw size at 1920x1080 in a few milliseconds; adaptive filtering halves the file again
        // but costs twice the time.
        encoder.set_compression(png::Compression::Fast);
        encoder.set_filter(png::Filter::Sub);
        let mut writer = encoder.write_header()?;
        let mut stream = writer.stream_writer()?;
        let mut row = Vec::with_capacity(w as usize * 4);
        for r in y..y + h {
            let start = r as usize * frame.stride + x as usize * 4;
            let src = &frame.bytes[start..start + w as usize * 4];
            if frame.bgra {
                row.clear();
                row.extend_from_slice(src);
                for px in row.chunks_exact_mut(4) {
                    px.swap(0, 2);
                }
                std::io::Write::write_all(&mut stream, &row)?;
            } else {
                std::io::Write::write_all(&mut stream, src)?;
            }
        }
        stream.finish()?;
        Ok::<(), png::EncodingError>(())
    })();
    result.map_err(|e| {
        Failure::new(
            ErrorCode::AppError,
            format!("cannot encode the screenshot: {e}"),
            "please report it",
        )
    })?;
    Ok(Encoded {
        bytes,
        width: w,
        height: h,
        scale: frame.scale,
    })
}

fn shutting_down() -> Failure {
    Failure::new(
        ErrorCode::ShuttingDown,
        "the app shut down before carrying the command out",
        "restart the app and send the command again",
    )
}
