//! The verbs the service thread answers itself, from the mirror of the latest published frame:
//! `status`, `windows`, `snapshot`, `find`, `get`, `wait` (answered when its condition holds), and
//! `settle` (answered when the trees stop changing; actions sent with `--settle` end here too),
//! `clean` (the app's screenshots in the directory, which this thread owns the I/O of), and
//! `journal` (the last commands answered; with `--wait`, answered once there is a new one).

use std::time::{Duration, Instant};

use super::Service;
use super::jobs::{Job, PendingJournal, PendingWait, Settling};
use winit_automation_dropbox::screenshots;
use winit_automation_link::ClockShare;
use winit_automation_protocol::{
    Command, ErrorCode, Failure, PROTOCOL_VERSION, Response, Selector, Verb,
};
use winit_automation_tree::diff;

/// The hint of a settle that timed out: for an action, that it was carried out all the same (an
/// agent that read the refusal as "nothing happened" would do it twice).
fn not_settled_hint(verb: Verb) -> String {
    let carried_out = if verb == Verb::Settle {
        String::new()
    } else {
        format!("the {verb} was carried out and the body has what changed so far; ")
    };
    format!(
        "{carried_out}something animates or updates every frame: raise --timeout, lower --frames, or snapshot instead"
    )
}

/// How many unchanged frames make a tree settled when `--frames` is not given.
pub(crate) const DEFAULT_SETTLE_FRAMES: u32 = 3;

/// The refusal of a verb this build does not answer.
fn not_answered_yet(verb: Verb) -> Failure {
    Failure::new(
        ErrorCode::Unsupported,
        format!(
            "{verb} is part of protocol {PROTOCOL_VERSION} but this build of winit-automation {} does not answer it yet",
            env!("CARGO_PKG_VERSION")
        ),
        "see docs/protocol.md for what this version answers",
    )
}

/// How long `wait` and `settle` wait when the command names no `--timeout`.
pub(crate) const DEFAULT_WAIT: Duration =
    Duration::from_millis(winit_automation_protocol::DEFAULT_WAIT_MS);

impl Service {
    /// Answers a service-side command. A bug that panics while answering costs that one command an
    /// `app_error` answer; the service thread keeps running.
    pub(super) fn serve(&mut self, seq: u64, command: &Command) {
        let verb = command.verb();
        let answered = self.stats.answered();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.serve_inner(seq, command);
        }));
        if let Err(panic) = result {
            let owed = match self.jobs.take(seq) {
                Some(job @ (Job::Unwritten(_) | Job::Stuck | Job::Answered { .. })) => {
                    self.jobs.insert(seq, job);
                    false
                }
                // A `wait` that was pending, say.
                Some(_) => true,
                // Never inserted (`status`), or the panic came after the answer.
                None => self.stats.answered() == answered,
            };
            if owed {
                let failure = super::internal_error(&format!("answering {verb}"), &*panic);
                self.fail(seq, Some(verb), failure);
            }
        }
    }

    /// Answers a service-side command, or makes it a job that waits for its answer.
    fn serve_inner(&mut self, seq: u64, command: &Command) {
        let verb = command.verb();
        if verb != Verb::Status {
            self.drain_scene();
            // Refs and points named for the journal, against the tree they are resolved in.
            let named = self.tree.named_targets(command);
            if !named.is_empty() {
                self.journal.resolved(seq, named);
            }
        }
        if let Some(result) = self.serve_now(seq, command) {
            self.reply_with(seq, verb, result);
        }
    }

    /// The answer to a service-side command that has one now; `None` for those answered later
    /// (a `wait`, a `settle`, a `journal` long poll) and for `trace`, which answers itself.
    fn serve_now(&mut self, seq: u64, command: &Command) -> Option<Result<String, Failure>> {
        let result = match command {
            Command::Status => Ok(self.status_body()),
            Command::Windows => Ok(self.tree.windows()),
            Command::Snapshot(options) => {
                let frame = self.published();
                let result = self.tree.snapshot(options, frame);
                self.publish_artifacts(true);
                result
            }
            Command::Find { selector } => Ok(self.tree.find(selector).to_string()),
            Command::Get { target } => self.tree.get(target),
            Command::Wait {
                selector,
                gone,
                timeout_ms,
            } => {
                self.start_wait(seq, selector, *gone, *timeout_ms);
                return None;
            }
            Command::Settle { frames, timeout_ms } => {
                let before = self.tree.settle_text();
                let frame = self.published();
                let body = format!("frame {frame}\n");
                self.start_settle(seq, Verb::Settle, body, before, *frames, *timeout_ms, frame);
                return None;
            }
            Command::Clean { keep, dry_run } => self.clean(keep.unwrap_or(0), *dry_run),
            Command::Journal { after, timeout_ms } => {
                return self
                    .serve_journal(seq, after.unwrap_or(0), *timeout_ms)
                    .map(Ok);
            }
            Command::Trace(trace) => {
                self.serve_trace(seq, trace);
                return None;
            }
            _ => Err(not_answered_yet(command.verb())),
        };
        Some(result)
    }

    /// `wait`: a job that watches the trees until `selector` matches (or, `gone`, matches
    /// nothing) or its time is up; answered at once if it already holds.
    fn start_wait(&mut self, seq: u64, selector: &Selector, gone: bool, timeout_ms: Option<u64>) {
        let started = Instant::now();
        let limit = timeout_ms.map_or(DEFAULT_WAIT, Duration::from_millis);
        let wait = PendingWait {
            selector: selector.clone(),
            gone,
            started,
            deadline: started + limit,
        };
        self.jobs.insert(seq, Job::Waiting(wait));
        self.check_wait(seq, Instant::now(), true);
    }

    /// `journal`: the entries after `after` now, or, with `--wait` and none yet, `None`: a long
    /// poll answered once there is one (`check_journals`).
    fn serve_journal(&mut self, seq: u64, after: u64, timeout_ms: Option<u64>) -> Option<String> {
        match timeout_ms {
            Some(ms) if self.journal.last() <= after => {
                let deadline = Instant::now() + Duration::from_millis(ms);
                self.jobs
                    .insert(seq, Job::Polling(PendingJournal { after, deadline }));
                None
            }
            _ => Some(self.journal.after(after)),
        }
    }

    /// `clean`: keeps the `keep` newest screenshots in the directory and removes the others. Any
    /// removal that failed makes the answer an `app_error` whose body is the full listing.
    fn clean(&self, keep: u32, dry_run: bool) -> Result<String, Failure> {
        let keep = usize::try_from(keep).unwrap_or(usize::MAX);
        screenshots::clean(self.dir(), keep, dry_run)
            .map_err(|e| {
                Failure::new(
                    ErrorCode::AppError,
                    format!("cannot list the automation directory: {e}"),
                    "check that the directory still exists and is readable",
                )
            })?
            .into_answer()
    }

    /// Answers the waits whose condition now holds (checked only when the trees changed) or whose
    /// time is up.
    pub(super) fn check_waits(&mut self) {
        let changed = self.changes.take_for_waits();
        let now = Instant::now();
        for seq in self.jobs.seqs(|j| matches!(j, Job::Waiting(_))) {
            self.check_wait(seq, now, changed);
        }
    }

    fn check_wait(&mut self, seq: u64, now: Instant, changed: bool) {
        let Some(w) = self.jobs.waiting_mut(seq) else {
            return;
        };
        let timed_out = now >= w.deadline;
        if !(changed || timed_out) {
            return;
        }
        let (selector, gone, started) = (w.selector.clone(), w.gone, w.started);
        if let Some(found) = self.tree.wait_check(&selector, gone) {
            let body = format!("frame {}\n{found}", self.published());
            self.answer(Response::ok(seq, Some(Verb::Wait), body));
        } else if timed_out {
            let failure = self
                .tree
                .wait_timeout(&selector, gone, now.duration_since(started));
            self.fail(seq, Some(Verb::Wait), failure);
        }
    }

    /// Answers the `journal` long polls that have an entry after their index now, or whose time is
    /// up (with no entry: `next N`, not an error). Called once every answer of a round is in the
    /// journal, so a new entry reaches every poll waiting for one.
    pub(super) fn check_journals(&mut self) {
        let last = self.journal.last();
        let now = Instant::now();
        let due = self
            .jobs
            .seqs(|j| matches!(j, Job::Polling(p) if p.after < last || now >= p.deadline));
        for seq in due {
            if let Some(Job::Polling(p)) = self.jobs.take(seq) {
                let body = self.journal.after(p.after);
                self.answer(Response::ok(seq, Some(Verb::Journal), body));
            }
        }
    }

    /// Starts waiting for the trees to stay unchanged for `frames` frames after `from_frame`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start_settle(
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
        let clock_from = self.link.ends().counters.clock.published_time();
        let settling = Settling {
            verb,
            body,
            before,
            frames: frames.unwrap_or(DEFAULT_SETTLE_FRAMES).max(1),
            from_frame,
            started,
            deadline: started + timeout_ms.map_or(DEFAULT_WAIT, Duration::from_millis),
            woken_at: 0,
            clock_from,
        };
        self.jobs.insert(seq, Job::Settling(settling));
        // Answered at once if it already holds (it cannot hold yet: K >= 1 frames must pass).
        self.check_settles();
    }

    /// Answers the settles whose trees have stayed unchanged long enough or whose time is up, and
    /// asks the app for frames meanwhile (an app that draws only on demand would never settle).
    /// A panic while formatting costs the settling commands an `app_error` answer instead of the
    /// service thread. Returns whether any was answered.
    pub(super) fn check_settles(&mut self) -> bool {
        let settling = self.jobs.seqs(|j| matches!(j, Job::Settling(_)));
        if settling.is_empty() {
            return false;
        }
        let answered = self.stats.answered();
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.check_settles_inner(&settling);
        }));
        if let Err(panic) = result {
            for seq in self.jobs.seqs(|j| matches!(j, Job::Settling(_))) {
                if let Some(Job::Settling(s)) = self.jobs.take(seq) {
                    let failure = super::internal_error("settling", &*panic);
                    self.fail(seq, Some(s.verb), failure);
                }
            }
        }
        self.stats.answered() != answered
    }

    fn check_settles_inner(&mut self, seqs: &[u64]) {
        // The frame first, then the trees: every change of a published frame is then in the
        // mirror when the frame is counted as unchanged.
        let published = self.published();
        self.drain_scene();
        let now = Instant::now();
        let counters = std::sync::Arc::clone(&self.link.ends().counters);
        let clock = &counters.clock;
        let mut wake = false;
        // A window that animates changes its pixels every frame even when its tree does not: its
        // frames do not count as unchanged.
        let animating = self.tree.animating();
        for &seq in seqs {
            let last_change = if animating {
                published
            } else {
                self.changes.last_change()
            };
            let Some(s) = self.jobs.settling_mut(seq) else {
                continue;
            };
            let base = s.from_frame.max(last_change);
            if published >= base + u64::from(s.frames) {
                let Some(Job::Settling(s)) = self.jobs.take(seq) else {
                    continue;
                };
                let after = self.tree.settle_text();
                let changes = diff(&s.before, &after).brief();
                let mut body = s.body;
                body.push_str(&format!(
                    "settled frame {published} after {} frames, unchanged for {}\n",
                    published - s.from_frame,
                    published - base
                ));
                body.push_str(&changes);
                self.answer(Response::ok(seq, Some(s.verb), body));
            } else if settle_timed_out(s, now, clock) {
                let Some(Job::Settling(s)) = self.jobs.take(seq) else {
                    continue;
                };
                let after = self.tree.settle_text();
                let changes = diff(&s.before, &after).brief();
                let what = if animating {
                    "a window was still animating"
                } else {
                    "the tree was still changing"
                };
                // What kept it from settling, each a part of the message: the nodes that changed
                // in its last frames, the windows the app says are animating.
                let why = self.tree.unsettled(s.from_frame, s.frames);
                let why: String = why.iter().map(|part| format!("; {part}")).collect();
                let failure = Failure::new(
                    ErrorCode::NotSettled,
                    format!(
                        "{what} after {} (last change in frame {last_change}, now frame {published}; {} unchanged frames needed){why}",
                        settle_span(&s, now, clock),
                        s.frames
                    ),
                    not_settled_hint(s.verb),
                )
                .with_body(changes);
                self.fail(seq, Some(s.verb), failure);
            } else if s.woken_at < published || s.woken_at == 0 {
                s.woken_at = published.max(1);
                wake = true;
            }
        }
        if wake {
            // On the virtual clock, while a window animates, the frame asked for moves time one
            // step (a settle waits in the app's time, which stands still otherwise), in lock
            // step: only once the last step's frame is published and that frame changed nothing
            // in the trees (while the app still converges at this time, a layout's second pass or
            // start-up, time waits), so every run moves it from the same states.
            if clock.is_virtual()
                && animating
                && !clock.step_outstanding(published)
                && self.changes.last_change() < published
            {
                clock.drive();
            }
            self.wake_app();
        }
    }
}

/// How long past its timeout a settle on the virtual clock waits for frames in wall time before
/// it gives up: its timeout counts the app's time, which moves only as frames are drawn.
const VIRTUAL_GRACE: Duration = Duration::from_secs(30);

/// Whether a settle's time is up at `now`: on the real clock when its deadline passed; on the
/// virtual clock when the frames' time moved its timeout on since it began (or, should the app
/// stop drawing, [`VIRTUAL_GRACE`] after the deadline).
fn settle_timed_out(s: &Settling, now: Instant, clock: &ClockShare) -> bool {
    if !clock.is_virtual() {
        return now >= s.deadline;
    }
    let timeout = s.deadline.saturating_duration_since(s.started);
    clock.published_time().saturating_sub(s.clock_from) >= timeout
        || now >= s.deadline + VIRTUAL_GRACE
}

/// How long a settle waited, as its timeout counts it: wall milliseconds, or on the virtual clock
/// the virtual time it moved (and the wall time that took; none moved when the app drew no frame).
fn settle_span(s: &Settling, now: Instant, clock: &ClockShare) -> String {
    let wall = now.duration_since(s.started).as_millis();
    if !clock.is_virtual() {
        return format!("{wall} ms");
    }
    let moved = clock
        .published_time()
        .saturating_sub(s.clock_from)
        .as_millis();
    if moved == 0 {
        return format!(
            "{wall} ms with no frame drawn (the virtual clock stood at {} ms)",
            s.clock_from.as_millis()
        );
    }
    format!("{moved} ms of virtual time ({wall} ms of wall time)")
}
