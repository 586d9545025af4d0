//! winit-automation's service thread: owns the drop-box while the app runs.
//!
//! **Internal crate: no semver promise outside the workspace.** A frame-loop adapter starts it
//! with [`start`] and drives the [`winit_automation_link::RenderEnd`] it returns; apps use
//! `winit-automation` or an engine's adapter. It names no window system and no GPU API.
//!
//! It watches the directory (inotify through `notify`, or polling when that is unavailable), reads
//! complete command entries in seq order (`intake.rs`), answers what it can answer itself from the
//! mirror (`verbs.rs`), forwards the rest to the render thread through [`winit_automation_link`],
//! and writes each response once the render side has published the frame that carried the command
//! out. It reads screenshots back and encodes them (`png.rs`). All file I/O and formatting happen
//! here.
//!
//! Every command's state is one `jobs::Job` in one map: exactly one response per entry holds
//! because answering takes the job out, and shutdown is one loop over the map.

mod actionable;
mod deadlines;
mod entries;
#[cfg(any(test, feature = "fixtures"))]
#[doc(hidden)]
pub mod fixture;
mod forward;
mod intake;
mod jobs;
mod journal;
mod marks;
mod png;
mod scroll_in;
mod shutdown;
mod start;
mod trace;
#[doc(hidden)]
pub mod tree;
mod verbs;

use start::Config;
pub use start::{StartError, start};
pub use winit_automation_link::Options;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, bounded, select};

use crate::tree::Trees;
use jobs::{Job, Jobs};
use winit_automation_dropbox::{Ready, publish, unix_ms_now};
use winit_automation_link::{CaptureJob, ServiceChannels, ServiceThread};
use winit_automation_protocol::{
    ErrorCode, Failure, PROTOCOL_VERSION, READY_FILE, Response, Side, Verb, response_file,
};

/// How often the directory is re-listed when inotify is working (a safety net for lost events).
const SAFETY_RESCAN: Duration = Duration::from_millis(500);
/// How often the directory is re-listed when it cannot be watched.
const POLL_INTERVAL: Duration = Duration::from_millis(5);
/// The least time between two publications of `snapshot.txt`, `accessibility.txt` and `windows.txt`
/// while the trees keep changing.
const ARTIFACT_INTERVAL: Duration = Duration::from_millis(100);

pub(crate) struct Service {
    cfg: Config,
    started: Instant,
    started_unix_ms: u64,
    link: ServiceChannels,
    fs_events: Receiver<()>,
    watching: bool,
    _watcher: Option<notify::RecommendedWatcher>,
    trees: Trees,
    /// Every command entry known, by seq.
    jobs: Jobs,
    /// The last commands answered, for `journal`, and what is known of those not answered yet.
    journal: journal::Journal,
    /// The directory must be listed again (a file event, the safety rescan, a partial entry due).
    relist: bool,
    /// When the directory was last listed.
    listed_at: Instant,
    /// The trees changed since the `wait`s were last checked.
    trees_changed_for_waits: bool,
    /// The trees changed since the artifacts were last published.
    artifacts_stale: bool,
    artifacts_at: Option<Instant>,
    /// The frame that carried the last change of the trees.
    last_change: u64,
    /// Entries on disk at the last listing (`status`'s `queue`).
    on_disk: usize,
    /// The complete-looking entries the last listing found and the in-progress limit left unread,
    /// in seq order: read from here once answers make room, without listing the directory again.
    backlog: std::collections::VecDeque<u64>,
    /// Shutting down: nothing more is carried out, everything owed is answered.
    stopping: bool,
    /// The action whose target is waited for (`--wait`): its turn is taken again until then.
    actionable: Option<actionable::Actionable>,
    /// The action whose target is being scrolled into view: its turn is taken again after each
    /// step.
    scrolling: Option<scroll_in::ScrollingIn>,
    /// What `screenshot --refs` draws, per command: the refs and boxes of its window's `-i`
    /// projection when it was planned.
    marks: Vec<(u64, marks::Boxes)>,
    /// The running trace (`trace start`), fed by every answer.
    trace: Option<trace::Trace>,
    /// The last order sent was followed by another command that draws, so its frame may not
    /// have been drawn: if no command goes out after it, the app is woken for a frame that is.
    picture_owed: bool,
    /// How many traces were started: the next one's number.
    traces: u64,
    /// Screenshots that came while `trace stop` waited for its frames: written next round.
    deferred_captures: Vec<CaptureJob>,
    answered: u64,
}

/// What became of a command handed to [`Service::forward`].
enum Forwarded {
    /// Sent to the render side.
    Yes,
    /// Answered instead (refused, or the app is gone).
    No,
    /// Not sent now: it takes its turn again later.
    Later,
}

/// Creates the directory, takes over its queue, publishes `ready.txt` and starts the thread.
fn spawn(cfg: Config) -> Result<ServiceThread, std::io::Error> {
    let dir = cfg.dir.clone();
    let stuck = entries::recover(&dir)?;
    let (service_ends, render_ends) = winit_automation_link::channels();
    let (fs_tx, fs_rx) = bounded(1);
    let watcher = winit_automation_dropbox::watch::watch(
        &dir,
        fs_tx,
        winit_automation_dropbox::queue::entry_arrived,
    );
    // Without a watcher its sender is gone; a disconnected receiver would be ready forever.
    let fs_rx = if watcher.is_some() {
        fs_rx
    } else {
        log::warn!(
            "winit-automation: cannot watch {}; polling every {:?}",
            dir.display(),
            POLL_INTERVAL
        );
        crossbeam_channel::never()
    };
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
    let mut jobs = Jobs::default();
    for seq in stuck {
        jobs.insert(seq, Job::Stuck);
    }
    let mut trees = Trees::default();
    trees.hover_frame = cfg.hover_frame;
    let mut service = Service {
        cfg,
        started: Instant::now(),
        started_unix_ms,
        link: service_ends,
        fs_events: fs_rx,
        watching: watcher.is_some(),
        _watcher: watcher,
        trees,
        jobs,
        journal: journal::Journal::default(),
        relist: true,
        listed_at: Instant::now(),
        trees_changed_for_waits: false,
        artifacts_stale: true,
        artifacts_at: None,
        last_change: 0,
        on_disk: 0,
        backlog: Default::default(),
        stopping: false,
        actionable: None,
        scrolling: None,
        marks: Vec::new(),
        trace: None,
        picture_owed: false,
        traces: 0,
        deferred_captures: Vec::new(),
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
    Ok(ServiceThread {
        ends: render_ends,
        thread,
    })
}

impl Service {
    fn run(&mut self) {
        loop {
            let timeout = self.next_timeout();
            select! {
                recv(self.fs_events) -> _ => self.relist = true,
                recv(self.link.replies) -> reply => {
                    if let Ok(reply) = reply {
                        self.jobs.replied(reply);
                    }
                }
                recv(self.link.captures) -> job => {
                    if let Ok(job) = job {
                        self.capture(job);
                    }
                }
                recv(self.link.scene) -> msg => {
                    if let Ok(msg) = msg {
                        self.apply_scene(msg);
                    }
                }
                recv(self.link.frame_ends) -> at => {
                    if let Ok(at) = at {
                        self.trees.frame_ended(at);
                    }
                }
                recv(self.link.tick) -> _ => {}
                recv(self.link.stop) -> _ => break,
                // Woken for a deadline: listed again only when the safety rescan is due or a
                // partial entry is to be reaped, not for every other deadline (the artifacts' every
                // 100 ms, say), since a listing costs as much as the directory holds.
                default(timeout) => self.relist |= self.listing_due(),
            }
            while let Ok(reply) = self.link.replies.try_recv() {
                self.jobs.replied(reply);
            }
            for job in std::mem::take(&mut self.deferred_captures) {
                self.capture(job);
            }
            self.retry_unwritten();
            self.expire_due();
            self.write_replies(false);
            if std::mem::take(&mut self.relist) {
                self.read_entries();
            } else {
                // Room the answers of this round made, for the entries the last listing left.
                self.read_backlog();
            }
            self.check_waits();
            // The action waiting for its target tries again on what changed (unless it was
            // answered meanwhile: withdrawn, or past its client's deadline).
            if let Some(a) = &self.actionable {
                match self.jobs.get(a.seq) {
                    Some(Job::Queued { .. }) => {
                        self.drain_scene();
                        self.take_turns();
                    }
                    // A step scrolling its target in is out: the wait goes on after it.
                    Some(Job::Forwarded { .. } | Job::Replied { .. })
                        if self.scrolling.as_ref().is_some_and(|s| s.seq == a.seq) => {}
                    _ => self.actionable = None,
                }
            }
            // So does the action whose target is scrolling in, between its steps.
            if let Some(s) = &self.scrolling {
                match self.jobs.get(s.seq) {
                    Some(Job::Queued { .. }) => {
                        self.drain_scene();
                        self.take_turns();
                    }
                    Some(Job::Forwarded { .. } | Job::Replied { .. }) => {}
                    _ => self.scrolling = None,
                }
            }
            if self.check_settles() {
                // The settled command no longer holds up the ones behind it.
                self.take_turns();
            }
            // Last: every answer of this round is in the journal by now.
            self.check_journals();
            self.publish_artifacts(false);
            self.sweep_unread_responses();
        }
        self.shutdown();
    }

    fn dir(&self) -> &Path {
        &self.cfg.dir
    }

    fn published(&self) -> u64 {
        self.link.counters.published()
    }

    fn wake_app(&self) {
        if let Some(waker) = &self.cfg.waker {
            waker();
        }
    }

    fn apply_scene(&mut self, (frame, msg): (u64, winit_automation_link::SceneChange)) {
        if self.trees.apply(msg) {
            self.artifacts_stale = true;
            self.trees_changed_for_waits = true;
            // The frame being built carries this change.
            self.last_change = self.link.counters.building();
            // `--since`: the frame the app handed it over in.
            self.trees.changed_in(frame);
        }
    }

    /// Drains the scene channel, so the mirror holds every update sent before the published frame.
    fn drain_scene(&mut self) {
        while let Ok(msg) = self.link.scene.try_recv() {
            self.apply_scene(msg);
        }
        while let Ok(at) = self.link.frame_ends.try_recv() {
            self.trees.frame_ended(at);
        }
    }

    /// Whether a listing is due without a file event: the safety rescan (or the poll) is due, or a
    /// partial entry has not grown for the reaping time.
    fn listing_due(&self) -> bool {
        let reap = self.cfg.reap_after;
        self.listed_at.elapsed() >= self.rescan_interval()
            || !self
                .jobs
                .seqs(|j| matches!(j, Job::Partial { since, .. } if since.elapsed() >= reap))
                .is_empty()
    }

    /// How often the directory is listed without a file event.
    fn rescan_interval(&self) -> Duration {
        if self.watching {
            SAFETY_RESCAN
        } else {
            POLL_INTERVAL
        }
    }

    fn next_timeout(&self) -> Duration {
        // The next listing without a file event, then any earlier deadline.
        let base = self
            .rescan_interval()
            .saturating_sub(self.listed_at.elapsed());
        let now = Instant::now();
        let mut due = self
            .jobs
            .next_deadline(self.cfg.reap_after, self.cfg.response_ttl);
        if let Some(a) = &self.actionable {
            due = Some(due.map_or(a.until(), |d| d.min(a.until())));
        }
        if let Some(at) = self.scrolling.as_ref().and_then(|s| s.until()) {
            due = Some(due.map_or(at, |d| d.min(at)));
        }
        if let (true, Some(at)) = (self.artifacts_stale, self.artifacts_at) {
            due = Some(due.map_or(at + ARTIFACT_INTERVAL, |d| d.min(at + ARTIFACT_INTERVAL)));
        }
        due.map_or(base, |d| base.min(d.saturating_duration_since(now)))
    }

    /// Republishes the artifacts when the trees changed, at most every `ARTIFACT_INTERVAL` unless
    /// `now`.
    fn publish_artifacts(&mut self, now: bool) {
        if !self.artifacts_stale {
            return;
        }
        let due = self
            .artifacts_at
            .is_none_or(|at| at.elapsed() >= ARTIFACT_INTERVAL);
        if !(now || due) {
            return;
        }
        self.artifacts_stale = false;
        self.artifacts_at = Some(Instant::now());
        let frame = self.published();
        for (name, text) in self.trees.artifacts(frame) {
            if let Err(e) = publish(self.dir(), name, text.as_bytes()) {
                log::error!("winit-automation: cannot publish {name}: {e}");
            }
        }
    }

    /// Answers `seq`: publishes the response, then removes the entry. An entry already answered
    /// (unwritten or stuck) is never answered again.
    fn answer(&mut self, response: Response) {
        let seq = response.seq;
        // Answered: nothing waits for its target or scrolls it any more.
        if self.actionable.as_ref().is_some_and(|a| a.seq == seq) {
            self.actionable = None;
        }
        if self.scrolling.as_ref().is_some_and(|s| s.seq == seq) {
            self.scrolling = None;
        }
        self.marks.retain(|(s, _)| *s != seq);
        match self.jobs.take(seq) {
            Some(job @ (Job::Unwritten(_) | Job::Stuck | Job::Answered { .. })) => {
                log::error!("winit-automation: command {seq} was already answered; not again");
                self.jobs.insert(seq, job);
            }
            _ => {
                let traced = match self.journal.answered(&response) {
                    Some((entry, read_at)) if self.trace.is_some() => {
                        Some((entry.clone(), read_at))
                    }
                    _ => None,
                };
                match traced {
                    // The client has its answer first; the trace's work comes after (and the
                    // frame it asks for still goes out before the next command is read).
                    Some((entry, read_at)) => {
                        let copy = response.clone();
                        self.write_answer(response);
                        self.trace_answered(&entry, read_at, &copy);
                    }
                    None => self.write_answer(response),
                }
            }
        }
    }

    fn write_answer(&mut self, response: Response) {
        let seq = response.seq;
        if let Err(e) = publish(
            self.dir(),
            &response_file(seq),
            response.to_text().as_bytes(),
        ) {
            log::error!("winit-automation: cannot write the response to command {seq}: {e}");
            self.jobs.insert(seq, Job::Unwritten(response));
            return;
        }
        self.answered += 1;
        match entries::remove_entry(self.dir(), seq) {
            Ok(()) => self.jobs.insert(seq, Job::Answered { at: Instant::now() }),
            Err(e) => {
                log::error!("winit-automation: cannot remove command {seq}: {e}");
                self.jobs.insert(seq, Job::Stuck);
            }
        }
    }

    /// Tries again to publish the responses that could not be written.
    fn retry_unwritten(&mut self) {
        for seq in self.jobs.seqs(|j| matches!(j, Job::Unwritten(_))) {
            if let Some(Job::Unwritten(response)) = self.jobs.take(seq) {
                self.write_answer(response);
            }
        }
    }

    fn fail(&mut self, seq: u64, verb: Option<Verb>, failure: Failure) {
        self.answer(Response::error(seq, verb, failure));
    }

    /// Writes the render side's answers whose frame is published (all of them when `all`), then
    /// lets the next commands take their turn.
    fn write_replies(&mut self, all: bool) {
        let published = self.published();
        // Every scene change sent before the frame was published is in the channel now.
        self.drain_scene();
        for (reply, settle) in self.jobs.take_replies(published, all) {
            let (seq, verb, frame) = (reply.seq, reply.verb, reply.frame);
            // A step scrolling an action's target in: the action takes its turn again.
            if let Some(s) = self.scrolling.as_mut().filter(|s| s.seq == seq)
                && let Some((command, deadline)) = s.in_flight.take()
            {
                match reply.result {
                    Ok(_) => self.jobs.requeue(seq, command, deadline),
                    Err(failure) => {
                        self.scrolling = None;
                        self.fail(seq, Some(verb), failure);
                    }
                }
                continue;
            }
            self.journal.carried(seq, frame);
            let result = match (reply.result, reply.hit) {
                (Ok(body), Some(h)) => self.trees.press_answer(&h.check, h.reported, body),
                (result, _) => result,
            };
            match (result, settle) {
                // Carried out; answered once the tree has stopped changing.
                (Ok(body), Some(settle)) => {
                    self.start_settle(
                        seq,
                        verb,
                        format!("frame {frame}\n{body}"),
                        settle.before,
                        settle.options.frames,
                        settle.options.timeout_ms,
                        frame,
                    );
                    self.jobs.limit(seq, settle.deadline);
                }
                (Ok(body), None) => self.answer(Response::ok(
                    seq,
                    Some(verb),
                    format!("frame {frame}\n{body}"),
                )),
                (Err(failure), _) => self.fail(seq, Some(verb), failure),
            }
        }
        self.take_turns();
    }

    /// Carries out the commands whose turn has come; returns whether one went to the render side
    /// (the app was then woken).
    fn take_turns(&mut self) -> bool {
        let mut forwarded = false;
        while !self.stopping
            && let Some((seq, turn)) = self.jobs.next_turn()
        {
            let jobs::Turn {
                command,
                deadline,
                taken,
            } = turn;
            let verb = command.verb();
            if !self.claim_turn(seq, verb, deadline, taken) {
                continue;
            }
            match verb.side() {
                Side::Service => {
                    self.serve(seq, &command);
                    self.jobs.limit(seq, deadline);
                }
                Side::App => match self.forward(seq, command, deadline) {
                    Forwarded::Yes => forwarded = true,
                    Forwarded::No => {}
                    Forwarded::Later => break,
                },
            }
        }
        if forwarded {
            self.wake_app();
        } else if self.picture_owed && self.jobs.in_flight() == 0 {
            // The command meant to draw over the last one's frame did not go out (expired,
            // withdrawn, refused): the app draws a frame of its own instead.
            self.picture_owed = false;
            self.wake_app();
        }
        forwarded
    }

    /// Reads a screenshot's pixels back, crops, encodes and publishes the PNG, and answers. A panic
    /// while doing so costs this command an `app_error` answer.
    fn capture(&mut self, job: CaptureJob) {
        let label = match &job.to {
            winit_automation_link::CaptureTo::File(label) => label.clone(),
            winit_automation_link::CaptureTo::Trace { .. } => return self.trace_frame(job),
        };
        let (seq, verb, frame) = (job.seq, job.verb, job.frame);
        self.journal.carried(seq, frame);
        let dir = self.cfg.dir.clone();
        let marks = self
            .marks
            .iter()
            .position(|(s, _)| *s == seq)
            .map(|i| self.marks.swap_remove(i).1);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            png::write_png(&dir, job, label, marks.as_deref())
        }))
        .unwrap_or_else(|panic| Err(internal_error("writing the screenshot", &*panic)));
        match result {
            Ok(answer) => self.answer(Response::ok(seq, Some(verb), answer.to_string())),
            Err(failure) => self.fail(seq, Some(verb), failure),
        }
        self.take_turns();
    }
}

/// The answer to a command during which winit-automation itself panicked: the command fails, the
/// app and the service thread keep running.
fn internal_error(doing: &str, panic: &(dyn std::any::Any + Send)) -> Failure {
    Failure::new(
        ErrorCode::AppError,
        format!(
            "internal error in winit-automation while {doing}: {}",
            winit_automation_protocol::panic_message(panic)
        ),
        "please report it with the command and the snapshot; the app keeps running",
    )
}
