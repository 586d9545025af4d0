//! Taking entries off the disk: reading complete entries in seq order and reaping entries whose
//! writer died. Taking over what a previous run left and removing answered entries is
//! `entries.rs`'s.

use std::collections::VecDeque;
use std::path::Path;
use std::time::{Duration, Instant};

use crossbeam_channel::Receiver;

use super::Service;
use super::entries::guess_verb;
use super::jobs::Job;
use winit_automation_dropbox::queue::{self, Entry};
use winit_automation_dropbox::watch::Change;
use winit_automation_link::wiring::IN_FLIGHT;
use winit_automation_protocol::{Command, Envelope, ErrorCode, Failure, LOCK_FILE};

/// How often the directory is re-listed when inotify is working (a safety net for lost events).
const SAFETY_RESCAN: Duration = Duration::from_millis(500);
/// How often the directory is re-listed when it cannot be watched.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// The directory's watch and listings: when to list it again, and the entries the last listing
/// left to read.
pub(crate) struct Intake {
    /// A file event: a writer created or finished an entry.
    fs_events: Receiver<()>,
    /// The directory is watched (else it is polled every [`POLL_INTERVAL`]).
    watching: bool,
    _watcher: Option<notify::RecommendedWatcher>,
    /// The directory must be listed again (a file event, the safety rescan, a partial entry due).
    relist: bool,
    /// When the directory was last listed.
    listed_at: Instant,
    /// A listing due before the rescan interval ends: the drop-box is to be looked at again.
    soon: Option<Instant>,
    /// Entries on disk at the last listing (`status`'s `queue`).
    on_disk: usize,
    /// The complete-looking entries the last listing found and the in-progress limit left unread,
    /// in seq order: read from here once answers make room, without listing the directory again.
    backlog: VecDeque<u64>,
}

impl Intake {
    /// Watches `dir` for entries (inotify through `notify`), or polls it when it cannot.
    pub fn watch(dir: &Path) -> Intake {
        let (fs_tx, fs_rx) = crossbeam_channel::bounded(1);
        let watcher = winit_automation_dropbox::watch::watch(dir, fs_tx, wakes_the_service);
        // Without a watcher its sender is gone; a disconnected receiver would be ready forever.
        let fs_events = if watcher.is_some() {
            fs_rx
        } else {
            log::warn!(
                "winit-automation: cannot watch {}; polling every {:?}",
                dir.display(),
                POLL_INTERVAL
            );
            crossbeam_channel::never()
        };
        Intake {
            fs_events,
            watching: watcher.is_some(),
            _watcher: watcher,
            relist: true,
            listed_at: Instant::now(),
            soon: None,
            on_disk: 0,
            backlog: VecDeque::new(),
        }
    }

    /// Stops watching: the directory went, with every entry the last listing found. It is still
    /// looked at every rescan interval.
    pub fn unwatch(&mut self) {
        self.fs_events = crossbeam_channel::never();
        self._watcher = None;
        self.on_disk = 0;
        self.backlog.clear();
    }

    /// The file events, for the service's `select!`.
    pub fn events(&self) -> &Receiver<()> {
        &self.fs_events
    }

    /// The directory is to be listed again.
    pub fn relist(&mut self) {
        self.relist = true;
    }

    /// Whether the directory is to be listed again; it is listed now.
    pub fn take_relist(&mut self) -> bool {
        std::mem::take(&mut self.relist)
    }

    /// The directory is listed now (its time counts from here).
    fn listing_now(&mut self) {
        self.listed_at = Instant::now();
        self.soon = None;
    }

    /// The directory is to be listed at `at` at the latest, before the rescan interval ends.
    pub fn relist_at(&mut self, at: Instant) {
        self.soon = Some(self.soon.map_or(at, |soon| soon.min(at)));
    }

    /// Whether the safety rescan (or the poll), or a listing asked for at a time, is due.
    pub fn rescan_due(&self) -> bool {
        self.next_rescan_in().is_zero()
    }

    /// How long until the next listing without a file event.
    pub fn next_rescan_in(&self) -> Duration {
        let rescan = self
            .rescan_interval()
            .saturating_sub(self.listed_at.elapsed());
        match self.soon {
            Some(soon) => rescan.min(soon.saturating_duration_since(Instant::now())),
            None => rescan,
        }
    }

    /// How often the directory is listed without a file event.
    fn rescan_interval(&self) -> Duration {
        if self.watching {
            SAFETY_RESCAN
        } else {
            POLL_INTERVAL
        }
    }

    /// How the directory is watched, as `status` names it.
    pub fn watch_name(&self) -> &'static str {
        if self.watching {
            winit_automation_dropbox::watch::SYSTEM_WATCH
        } else {
            "poll"
        }
    }

    /// Entries on disk at the last listing.
    pub fn on_disk(&self) -> usize {
        self.on_disk
    }
}

/// Whether a watch event wakes the service: an entry arriving, or the lock file removed (an
/// `rm -rf` of the drop-box under way: the directory's own removal is reported only once the
/// service closes the lock file, which it keeps open).
fn wakes_the_service(name: &str, change: Change) -> bool {
    queue::entry_arrived(name, change) || (change == Change::Removed && name == LOCK_FILE)
}

/// The `Instant` of a Unix time in milliseconds (the past maps to now).
fn instant_of(unix_ms: u64) -> Instant {
    let left = unix_ms.saturating_sub(winit_automation_dropbox::unix_ms_now());
    Instant::now() + Duration::from_millis(left)
}

impl Service {
    /// Lists the directory and reads every complete entry it can, in seq order; what the
    /// in-progress limit leaves is the backlog, read as answers make room ([`Self::read_backlog`]).
    /// First the path is checked to name the drop-box still, or taken again (`dropbox_guard.rs`).
    pub(super) fn read_entries(&mut self) {
        self.intake.listing_now();
        if !self.keep_dropbox() {
            return;
        }
        let listing = match queue::scan(self.dir()) {
            Ok(l) => l,
            Err(e) => {
                let dir = self.dir().display().to_string();
                return self.dropbox_failed(format_args!("cannot list {dir}: {e}"));
            }
        };
        // Commands their clients withdrew: forgotten, and their files removed.
        for &seq in &listing.withdrawn {
            self.clear_withdrawn(seq);
        }
        self.intake.on_disk = listing.commands.len();
        self.jobs.forget_missing(&listing.commands);
        self.intake.backlog = listing
            .commands
            .into_iter()
            .filter(|&seq| self.jobs.needs_reading(seq))
            .collect();
        self.read_backlog();
    }

    /// Reads the entries of the backlog in seq order until the in-progress limit. An entry gone
    /// since the listing (withdrawn) reads as gone; one written since is in the next listing,
    /// which its file event brings.
    pub(super) fn read_backlog(&mut self) {
        while self.jobs.active() < IN_FLIGHT
            && let Some(seq) = self.intake.backlog.pop_front()
        {
            if !self.jobs.needs_reading(seq) {
                continue;
            }
            self.read_entry(seq);
            // Each command takes its turn as soon as it is read, before later entries are read:
            // a `status` read after an action then sees that action in flight.
            self.take_turns();
        }
    }

    /// Reads one entry: a parse error, an unreadable or oversize entry is answered at once; a
    /// command is queued (`status` is answered at once, even behind a command the app has not
    /// carried out yet, so a stuck app can still be diagnosed).
    fn read_entry(&mut self, seq: u64) {
        let max = self.cfg.max_command_bytes;
        let entry = match queue::read_entry(self.dir(), seq, max) {
            Ok(e) => e,
            Err(e) => {
                let failure = Failure::new(
                    ErrorCode::BadEntry,
                    format!("cannot read command-{seq}.txt: {e}"),
                    "write commands as plain files the app's user can read",
                );
                return self.fail(seq, None, failure);
            }
        };
        match entry {
            Entry::Gone => {}
            // Removal unlinks a symlink itself, never its target.
            Entry::NotRegular => self.fail(
                seq,
                None,
                Failure::new(
                    ErrorCode::BadEntry,
                    format!("command-{seq}.txt is not a regular file"),
                    "write commands as plain files; symlinks and FIFOs are refused",
                ),
            ),
            Entry::TooLong { len } => self.fail(
                seq,
                None,
                Failure::new(
                    ErrorCode::TooLong,
                    format!("the command is {len} bytes, over the cap of {max}"),
                    "shorten the command; the cap is in ready.txt as max_command_bytes",
                ),
            ),
            Entry::Incomplete { len } => self.partial(seq, len),
            Entry::Complete(bytes) => match Envelope::parse_bytes(&bytes, max) {
                Err(e) => self.fail(seq, guess_verb(&bytes), e),
                Ok(Envelope {
                    command: Command::Status,
                    ..
                }) => self.serve(seq, &Command::Status),
                Ok(Envelope {
                    command,
                    deadline_unix_ms,
                }) => {
                    self.journal.read(seq, &command);
                    self.jobs.insert(
                        seq,
                        Job::Queued {
                            command,
                            deadline: deadline_unix_ms.map(instant_of),
                            taken: false,
                        },
                    )
                }
            },
        }
    }

    /// Whether a listing is due without a file event: the safety rescan (or the poll) is due, or a
    /// partial entry has not grown for the reaping time.
    pub(super) fn listing_due(&self) -> bool {
        let reap = self.cfg.reap_after;
        self.intake.rescan_due()
            || !self
                .jobs
                .seqs(|j| matches!(j, Job::Partial { since, .. } if since.elapsed() >= reap))
                .is_empty()
    }

    /// An entry without its final newline: left alone while it grows, reaped once it has not grown
    /// for `reap_after` (its writer is presumed dead).
    fn partial(&mut self, seq: u64, len: u64) {
        let now = Instant::now();
        let since = match self.jobs.get(seq) {
            Some(Job::Partial { since, len: seen }) if *seen == len => *since,
            _ => now,
        };
        if now.duration_since(since) < self.cfg.reap_after {
            self.jobs.insert(seq, Job::Partial { since, len });
            return;
        }
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
