//! Deadlines and clean-up on the service side: commands whose client's deadline passed are answered
//! `expired` (or dropped, when their client withdrew them), an entry is taken when its turn comes,
//! and responses nobody read are removed after the response TTL. docs/protocol.md, section 4.8.

use std::fs;
use std::time::Instant;

use super::Service;
use super::jobs::Job;
use winit_automation_dropbox::queue;
use winit_automation_protocol::{ErrorCode, Failure, Verb, response_file, withdrawn_file};

impl Service {
    /// Removes the responses nobody read within the response TTL (their client gave up or died).
    pub(super) fn sweep_unread_responses(&mut self) {
        for seq in self
            .jobs
            .sweep_answered(Instant::now(), self.cfg.response_ttl)
        {
            match fs::remove_file(self.dir().join(response_file(seq))) {
                Ok(()) => log::debug!(
                    "winit-automation: removed the response to command {seq}: unread for {:?}",
                    self.cfg.response_ttl
                ),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => log::error!(
                    "winit-automation: cannot remove the unread response to command {seq}: {e}"
                ),
            }
        }
    }

    /// Answers `expired` the commands whose deadline passed before they were carried out: queued
    /// ones (taking their entry first: one its client withdrew is dropped unanswered), and
    /// forwarded ones the render side has not taken (a stalled frame loop). A forwarded command
    /// the render side took is answered by it, with what it delivered.
    pub(super) fn expire_due(&mut self) {
        let now = Instant::now();
        let mut freed = false;
        for seq in self.jobs.past_deadline(now) {
            match self.jobs.take(seq) {
                Some(Job::Queued { command, taken, .. }) => {
                    freed = true;
                    if taken || self.take_entry(seq, command.verb()) {
                        self.fail(
                            seq,
                            Some(command.verb()),
                            expired("its deadline passed while it waited for its turn"),
                        );
                    }
                }
                Some(Job::Forwarded {
                    verb,
                    settle,
                    since,
                    deadline: _,
                    handover: claim,
                }) => {
                    if claim.withdraw() {
                        freed = true;
                        let waited = now.duration_since(since).as_millis();
                        self.fail(
                            seq,
                            Some(verb),
                            expired(&format!(
                                "the app did not take it within {waited} ms, before its deadline (is its frame loop running?)"
                            )),
                        );
                    } else {
                        // Taken: its answer comes from the render side. No deadline left to watch.
                        self.jobs.insert(
                            seq,
                            Job::Forwarded {
                                verb,
                                settle,
                                since,
                                deadline: None,
                                handover: claim,
                            },
                        );
                    }
                }
                Some(job) => self.jobs.insert(seq, job),
                None => {}
            }
        }
        if freed {
            self.take_turns();
        }
    }

    /// A queued command's turn has come: takes its entry (unless `taken` already) and answers it
    /// `expired` when its deadline has passed. `true` when it is to be carried out now.
    pub(super) fn claim_turn(
        &mut self,
        seq: u64,
        verb: Verb,
        deadline: Option<Instant>,
        taken: bool,
    ) -> bool {
        if !taken && !self.take_entry(seq, verb) {
            return false;
        }
        if deadline.is_some_and(|d| d <= Instant::now()) {
            self.fail(
                seq,
                Some(verb),
                expired("its deadline passed before its turn came"),
            );
            return false;
        }
        true
    }

    /// Takes a command's entry when its turn comes (renames it `taken-<seq>.txt`); `true` when the
    /// command is the app's to carry out. `false` when it is not: its client withdrew it (it is
    /// dropped unanswered, nobody waits for an answer, and its `withdrawn-<seq>.txt` is removed),
    /// or the entry could not be taken (answered `bad_entry`, not carried out: its client could
    /// still withdraw it).
    pub(super) fn take_entry(&mut self, seq: u64, verb: Verb) -> bool {
        match queue::take(self.dir(), seq) {
            Ok(true) => true,
            Ok(false) => {
                log::debug!("winit-automation: command {seq} ({verb}) was withdrawn by its client");
                self.clear_withdrawn(seq);
                false
            }
            Err(e) => {
                self.fail(
                    seq,
                    Some(verb),
                    Failure::new(
                        ErrorCode::BadEntry,
                        format!("cannot take command-{seq}.txt: {e}; it was not carried out"),
                        "check the directory's permissions and that nothing else renames its files",
                    ),
                );
                false
            }
        }
    }

    /// Forgets a command its client withdrew and removes its `withdrawn-<seq>.txt`, which frees the
    /// seq. Nothing of the command is answered.
    pub(super) fn clear_withdrawn(&mut self, seq: u64) {
        self.journal.forget(seq);
        if matches!(
            self.jobs.get(seq),
            Some(Job::Queued { taken: false, .. } | Job::Partial { .. })
        ) {
            self.jobs.take(seq);
        }
        if let Err(e) = fs::remove_file(self.dir().join(withdrawn_file(seq)))
            && e.kind() != std::io::ErrorKind::NotFound
        {
            log::error!("winit-automation: cannot remove withdrawn-{seq}.txt: {e}");
        }
    }
}

/// The answer to a command not carried out because its deadline passed.
pub(super) fn expired(why: &str) -> Failure {
    Failure::new(
        ErrorCode::Expired,
        format!("{why}; it was not carried out"),
        "its client has given up on it; send it again with a longer --timeout if it is still wanted",
    )
}
