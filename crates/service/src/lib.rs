#![doc = include_str!("../README.md")]

mod actionable;
mod answers;
mod auditing;
mod changes;
mod deadlines;
mod dropbox_guard;
mod entries;
mod forward;
mod intake;
mod jobs;
mod journal;
mod overlay;
mod png;
mod render_link;
mod retries;
mod scrolling;
mod shutdown;
mod start;
mod status;
mod tracing;
mod verbs;

use start::Config;
pub use start::{StartError, start};
pub use winit_automation_link::Options;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::{bounded, select};

use changes::TreeChanges;
use dropbox_guard::DropboxGuard;
use intake::Intake;
use jobs::{Job, Jobs};
use overlay::PendingOverlays;
use render_link::RenderLink;
use retries::Retries;
use status::RunStats;
use tracing::Tracing;
use winit_automation_acting::{Gestures, Toolkit};
use winit_automation_dropbox::{DirId, DirLock, Ready, publish, unix_ms_now};
use winit_automation_link::Waker;
use winit_automation_link::wiring::ServiceThread;
use winit_automation_protocol::{ErrorCode, Failure, PROTOCOL_VERSION, READY_FILE, Side};
use winit_automation_tree::AppTree;

/// The service thread's state: a part per job, each owning its fields (its file holds its
/// methods and the `Service` methods that use it).
pub(crate) struct Service {
    /// What [`start`] was given: the directory, the app's name, the limits.
    cfg: Config,
    /// This run's facts for `status`: when it started, how many answers it wrote.
    stats: RunStats,
    /// The directory held and its lock, or none while the path is refused (`dropbox_guard.rs`).
    dropbox: DropboxGuard,
    /// The directory's watch and listings, and the entries left to read (`intake.rs`).
    intake: Intake,
    /// Every command entry known, by seq (`jobs/`).
    jobs: Jobs,
    /// The last commands answered, for `journal`, and what is known of those not answered yet.
    journal: journal::Journal,
    /// The channels to and from the render side and the app's waker (`render_link.rs`).
    link: RenderLink,
    /// The mirror of the app's windows and trees (`winit_automation_tree`).
    tree: AppTree,
    /// The pointer and the drags in flight, as the orders that went out left them
    /// (`winit_automation_acting`).
    gestures: Gestures,
    /// When the trees last changed, for `wait`s, settles and the artifacts (`changes.rs`).
    changes: TreeChanges,
    /// The action whose turn is taken again: its target waited for or scrolled in (`retries.rs`).
    retries: Retries,
    /// What each `screenshot --refs` draws, until its screenshot comes back (`overlay.rs`).
    overlays: PendingOverlays,
    /// The audits between their turns (`audit/`).
    audits: auditing::PendingAudits,
    /// The running trace and what it waits for (`tracing.rs`).
    tracing: Tracing,
    /// Shutting down: nothing more is carried out, everything owed is answered.
    stopping: bool,
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

/// Takes over the queue of the directory `start` checked (`id`) and locked, publishes `ready.txt`
/// and starts the thread.
fn spawn(
    cfg: Config,
    (id, lock): (DirId, DirLock),
    waker: Waker,
) -> Result<ServiceThread, std::io::Error> {
    let dir = cfg.dir.clone();
    let stuck = entries::recover(&dir)?;
    let (service_ends, render_ends) = winit_automation_link::wiring::channels();
    let intake = Intake::watch(&dir);
    let started_unix_ms = unix_ms_now();
    let ready = ready_file(&cfg, started_unix_ms).to_text();
    let dropbox = DropboxGuard::new(dir.clone(), cfg.app_name.clone(), ready.clone(), id, lock);
    let link = RenderLink::new(service_ends, waker);
    let stats = RunStats::new(started_unix_ms);
    let service = Service::new(cfg, stats, dropbox, intake, link, stuck);
    publish(&dir, READY_FILE, ready.as_bytes())?;
    let thread = run_thread(service, &dir)?;
    Ok(ServiceThread {
        ends: render_ends,
        thread,
    })
}

/// What `ready.txt` says of this run.
fn ready_file(cfg: &Config, started_unix_ms: u64) -> Ready {
    Ready {
        protocol: PROTOCOL_VERSION,
        pid: std::process::id(),
        os: std::env::consts::OS.to_owned(),
        app: cfg.app_name.clone(),
        crate_version: env!("CARGO_PKG_VERSION").to_owned(),
        started_unix_ms,
        queue_capacity: cfg.queue_capacity,
        max_command_bytes: cfg.max_command_bytes,
    }
}

/// Starts the thread "automation-svc" running `service`, and returns once it runs; removes
/// `ready.txt` from `dir` if it cannot start.
fn run_thread(
    mut service: Service,
    dir: &Path,
) -> Result<std::thread::JoinHandle<()>, std::io::Error> {
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
    Ok(thread)
}

impl Service {
    /// The service for `cfg`, with the entries a previous run left stuck.
    fn new(
        cfg: Config,
        stats: RunStats,
        dropbox: DropboxGuard,
        intake: Intake,
        link: RenderLink,
        stuck: BTreeSet<u64>,
    ) -> Service {
        let mut jobs = Jobs::default();
        for seq in stuck {
            jobs.insert(seq, Job::Stuck);
        }
        Service {
            gestures: Gestures::new(Toolkit {
                hover_frame: cfg.hover_frame,
                keys_without_focus: cfg.keys_without_focus,
            }),
            cfg,
            stats,
            dropbox,
            intake,
            jobs,
            journal: journal::Journal::default(),
            link,
            tree: AppTree::default(),
            changes: TreeChanges::default(),
            retries: Retries::default(),
            overlays: PendingOverlays::default(),
            audits: auditing::PendingAudits::default(),
            tracing: Tracing::default(),
            stopping: false,
        }
    }

    /// The service thread: rounds until the render side is dropped, then the shutdown.
    fn run(&mut self) {
        while self.wait_for_work() {
            self.round();
        }
        self.shutdown();
    }

    /// Waits for a file event, a message from the render side or the next deadline, and takes
    /// it in. `false` when the render side was dropped.
    fn wait_for_work(&mut self) -> bool {
        let timeout = self.next_timeout();
        select! {
            recv(self.intake.events()) -> _ => self.intake.relist(),
            recv(self.link.ends().replies) -> reply => {
                if let Ok(reply) = reply {
                    self.jobs.replied(reply);
                }
            }
            recv(self.link.ends().captures) -> job => {
                if let Ok(job) = job {
                    self.capture(job);
                }
            }
            recv(self.link.ends().scene) -> msg => {
                if let Ok(msg) = msg {
                    self.apply_scene(msg);
                }
            }
            recv(self.link.ends().frame_ends) -> at => {
                if let Ok(at) = at {
                    self.tree.frame_ended(at);
                }
            }
            recv(self.link.ends().tick) -> _ => {}
            recv(self.link.ends().stop) -> _ => return false,
            // Woken for a deadline: listed again only when the safety rescan is due or a
            // partial entry is to be reaped, not for every other deadline (the artifacts' every
            // 100 ms, say), since a listing costs as much as the directory holds.
            default(timeout) => {
                if self.listing_due() {
                    self.intake.relist();
                }
            }
        }
        true
    }

    /// One round after a wake-up: replies, answers, deadlines and entries, then the commands
    /// that wait on the trees or the journal.
    fn round(&mut self) {
        while let Ok(reply) = self.link.ends().replies.try_recv() {
            self.jobs.replied(reply);
        }
        for job in self.tracing.take_deferred() {
            self.capture(job);
        }
        self.retry_unwritten();
        self.expire_due();
        self.write_replies(false);
        if self.intake.take_relist() {
            self.read_entries();
        } else {
            // Room the answers of this round made, for the entries the last listing left.
            self.read_backlog();
        }
        self.check_waits();
        // A drag's dwell ends once the trees hold still: the frame first, then the changes, so
        // that every change of that frame is counted (as for settles).
        let published = self.published();
        self.drain_scene();
        self.changes
            .check_stills(published, verbs::DEFAULT_SETTLE_FRAMES);
        self.retry();
        if self.check_settles() {
            // The settled command no longer holds up the ones behind it.
            self.take_turns();
        }
        // Last: every answer of this round is in the journal by now.
        self.check_journals();
        self.publish_artifacts(false);
        self.sweep_unread_responses();
    }

    /// The drop-box directory.
    fn dir(&self) -> &Path {
        &self.cfg.dir
    }

    /// The last frame the render side published.
    fn published(&self) -> u64 {
        self.link.published()
    }

    /// Asks the app for a frame.
    fn wake_app(&self) {
        self.link.wake_app();
    }

    /// Applies one scene change to the mirror.
    fn apply_scene(&mut self, (frame, msg): (u64, winit_automation_link::SceneChange)) {
        if self.tree.apply(msg) {
            // The frame being built carries this change.
            self.changes.changed(self.link.building());
            // `--since`: the frame the app handed it over in.
            self.tree.changed_in(frame);
        }
    }

    /// Drains the scene channel, so the mirror holds every update sent before the published frame.
    fn drain_scene(&mut self) {
        while let Ok(msg) = self.link.ends().scene.try_recv() {
            self.apply_scene(msg);
        }
        while let Ok(at) = self.link.ends().frame_ends.try_recv() {
            self.tree.frame_ended(at);
        }
    }

    /// How long to wait for work: until the next listing without a file event, or any earlier
    /// deadline.
    fn next_timeout(&self) -> Duration {
        let base = self.intake.next_rescan_in();
        let now = Instant::now();
        let due = [
            self.jobs
                .next_deadline(self.cfg.reap_after, self.cfg.response_ttl),
            self.retries.until(),
            self.changes.artifacts_due_at(),
        ]
        .into_iter()
        .flatten()
        .min();
        due.map_or(base, |d| base.min(d.saturating_duration_since(now)))
    }

    /// Republishes the artifacts when the trees changed, at most every 100 ms unless `now`.
    fn publish_artifacts(&mut self, now: bool) {
        if !self.changes.take_artifacts_due(now) {
            return;
        }
        if !self.dropbox.holds() {
            // Published again once there is a drop-box.
            return;
        }
        let frame = self.published();
        for (name, text) in self.tree.artifacts(frame) {
            if let Err(e) = publish(self.dir(), name, text.as_bytes()) {
                self.dropbox_failed(format_args!("cannot publish {name}: {e}"));
            }
        }
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
        // The command meant to draw over the last one's frame did not go out (expired,
        // withdrawn, refused): the app draws a frame of its own instead.
        if forwarded || self.link.take_owed_picture(self.jobs.in_flight()) {
            self.wake_app();
        }
        forwarded
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
