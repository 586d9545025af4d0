//! Taking entries off the disk: recovery of what a previous run left, reading complete entries in
//! seq order, reaping entries whose writer died, and removing answered entries.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use super::Service;
use super::jobs::Job;
use crate::dropbox::publish;
use crate::dropbox::queue::{self, Entry};
use crate::link::IN_FLIGHT;
use crate::protocol::{
    Command, Envelope, ErrorCode, Failure, READY_FILE, Response, Verb, response_file,
};

/// Takes over a directory left by a previous run: removes temporaries, answers that run's unread
/// responses by deleting them, and answers its leftover commands with `stale_command`, never running
/// them (they were meant for a UI that no longer exists). Returns the entries that could not be
/// removed.
pub(super) fn recover(dir: &Path) -> std::io::Result<BTreeSet<u64>> {
    let mut stuck = BTreeSet::new();
    let listing = queue::scan(dir)?;
    for temp in &listing.temps {
        let _ = fs::remove_file(dir.join(temp));
    }
    // Withdrawn by their clients: never carried out, nobody waits.
    for &seq in &listing.withdrawn {
        let _ = fs::remove_file(dir.join(crate::protocol::withdrawn_file(seq)));
    }
    let _ = fs::remove_file(dir.join(READY_FILE));
    for &seq in &listing.responses {
        if !listing.commands.contains(&seq) && !listing.taken.contains(&seq) {
            let _ = fs::remove_file(dir.join(response_file(seq)));
        }
    }
    for &seq in listing.commands.union(&listing.taken) {
        // A response next to its entry is the real answer: the previous run crashed between
        // publishing it and removing the entry. Keep it.
        if !listing.responses.contains(&seq) {
            let failure = if listing.taken.contains(&seq) {
                Failure::new(
                    ErrorCode::StaleCommand,
                    "the previous run of the app stopped while carrying this command out; it may have been partly carried out",
                    "check the app's state, then send it again if it is still wanted",
                )
            } else {
                Failure::new(
                    ErrorCode::StaleCommand,
                    "this command was left by a previous run of the app and was not carried out",
                    "send it again now that the app has restarted",
                )
            };
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
pub(super) fn remove_entry(dir: &Path, seq: u64) -> std::io::Result<()> {
    let path = dir.join(crate::protocol::command_file(seq));
    match queue::remove_command(dir, seq) {
        Err(e) if path.is_dir() => fs::remove_dir(&path).map_err(|_| e),
        other => other,
    }
}

/// The `Instant` of a Unix time in milliseconds (the past maps to now).
fn instant_of(unix_ms: u64) -> Instant {
    let left = unix_ms.saturating_sub(crate::dropbox::unix_ms_now());
    Instant::now() + Duration::from_millis(left)
}

/// The verb of an unparsable command, if its first word is one.
pub(super) fn guess_verb(bytes: &[u8]) -> Option<Verb> {
    let text = String::from_utf8_lossy(bytes);
    Verb::parse(text.split([' ', '\t', '\r', '\n']).next()?)
}

impl Service {
    /// Lists the directory and reads every complete entry it can, in seq order. Returns whether a
    /// command went to the render side.
    pub(super) fn read_entries(&mut self) -> bool {
        let listing = match queue::scan(self.dir()) {
            Ok(l) => l,
            Err(e) => {
                log::error!(
                    "winit-automation: cannot list {}: {e}",
                    self.dir().display()
                );
                return false;
            }
        };
        // Commands their clients withdrew: forgotten, and their files removed.
        for &seq in &listing.withdrawn {
            self.clear_withdrawn(seq);
        }
        self.on_disk = listing.commands.len();
        self.jobs.forget_missing(&listing.commands);
        self.left_on_disk = false;
        let mut forwarded = false;
        for &seq in &listing.commands {
            if !self.jobs.needs_reading(seq) {
                continue;
            }
            if self.jobs.active() >= IN_FLIGHT {
                // The rest stays on disk, in order, until answers make room.
                self.left_on_disk = true;
                break;
            }
            self.read_entry(seq);
            // Each command takes its turn as soon as it is read, before later entries are read:
            // a `status` read after an action then sees that action in flight.
            forwarded |= self.take_turns();
        }
        forwarded
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
