//! Taking entries off the disk: reading complete entries in seq order and reaping entries whose
//! writer died. Taking over what a previous run left and removing answered entries is
//! `entries.rs`'s.

use std::time::{Duration, Instant};

use super::Service;
use super::entries::guess_verb;
use super::jobs::Job;
use winit_automation_dropbox::queue::{self, Entry};
use winit_automation_link::IN_FLIGHT;
use winit_automation_protocol::{Command, Envelope, ErrorCode, Failure};

/// The `Instant` of a Unix time in milliseconds (the past maps to now).
fn instant_of(unix_ms: u64) -> Instant {
    let left = unix_ms.saturating_sub(winit_automation_dropbox::unix_ms_now());
    Instant::now() + Duration::from_millis(left)
}

impl Service {
    /// Lists the directory and reads every complete entry it can, in seq order; what the
    /// in-progress limit leaves is the backlog, read as answers make room ([`Self::read_backlog`]).
    pub(super) fn read_entries(&mut self) {
        self.listed_at = Instant::now();
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
        // Commands their clients withdrew: forgotten, and their files removed.
        for &seq in &listing.withdrawn {
            self.clear_withdrawn(seq);
        }
        self.on_disk = listing.commands.len();
        self.jobs.forget_missing(&listing.commands);
        self.backlog = listing
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
            && let Some(seq) = self.backlog.pop_front()
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
