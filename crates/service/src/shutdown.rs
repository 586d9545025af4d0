//! Shutdown: everything still owed is answered, then `ready.txt` goes.

use std::fs;

use super::jobs::Job;
use super::{Service, entries};
use winit_automation_dropbox::queue::{self, Entry};
use winit_automation_protocol::{ErrorCode, Failure, READY_FILE, Response, Side, Verb};

impl Service {
    /// Answers everything still owed, then removes `ready.txt` (when the directory is still the
    /// one held).
    pub(super) fn shutdown(&mut self) {
        self.stopping = true;
        self.write_what_came();
        for (seq, job) in self.jobs.drain() {
            self.answer_at_shutdown(seq, job);
        }
        // A `wait` served just now whose condition does not hold yet is never checked again.
        for seq in self.jobs.seqs(|j| matches!(j, Job::Waiting(_))) {
            self.fail(seq, Some(Verb::Wait), shutting_down());
        }
        // `journal` long polls (also one served just now) get every entry, those of the answers
        // above too.
        for seq in self.jobs.seqs(|j| matches!(j, Job::Polling(_))) {
            if let Some(Job::Polling(p)) = self.jobs.take(seq) {
                let body = self.journal.after(p.after);
                self.answer(Response::ok(seq, Some(Verb::Journal), body));
            }
        }
        // A drop-box replaced meanwhile is not this app's to clean.
        if self.dropbox.is_intact() {
            self.answer_unread_entries();
            let _ = fs::remove_file(self.dir().join(READY_FILE));
        }
    }

    /// Writes what the render side already answered: its replies, and the screenshots already
    /// copied out of their frame.
    fn write_what_came(&mut self) {
        while let Ok(reply) = self.link.ends().replies.try_recv() {
            self.jobs.replied(reply);
        }
        self.write_replies(true);
        for job in self.tracing.take_deferred() {
            self.capture(job);
        }
        while let Ok(job) = self.link.ends().captures.try_recv() {
            self.capture(job);
        }
    }

    /// Answers one job at shutdown: a queued service-side command is still served (but a
    /// `settle`), everything else owed is refused; a `journal` long poll is put back, answered
    /// last.
    fn answer_at_shutdown(&mut self, seq: u64, job: Job) {
        match job {
            Job::Queued {
                command,
                deadline,
                taken,
            } => {
                let verb = command.verb();
                // As at any turn: taken first, and not carried out past its deadline.
                if !self.claim_turn(seq, verb, deadline, taken) {
                    return;
                }
                if verb.side() == Side::Service && verb != Verb::Settle {
                    self.serve(seq, &command)
                } else {
                    self.fail(seq, Some(verb), shutting_down())
                }
            }
            Job::Waiting(_) => self.fail(seq, Some(Verb::Wait), shutting_down()),
            // Answered last, with every entry the answers above add.
            Job::Polling(_) => self.jobs.insert(seq, job),
            Job::Forwarded { verb, handover, .. } => {
                let failure = if handover.withdraw() {
                    shutting_down()
                } else {
                    Failure::new(
                        ErrorCode::ShuttingDown,
                        "the app shut down while carrying the command out; it may have been partly carried out",
                        "restart the app and check its state before sending it again",
                    )
                };
                self.fail(seq, Some(verb), failure)
            }
            Job::Replied { reply, .. } => self.fail(seq, Some(reply.verb), shutting_down()),
            Job::Settling(s) if s.verb == Verb::Settle => {
                self.fail(seq, Some(s.verb), shutting_down())
            }
            Job::Settling(s) => self.fail(
                seq,
                Some(s.verb),
                Failure::new(
                    ErrorCode::NotSettled,
                    "the app shut down before the tree settled",
                    "restart the app; the action itself was carried out",
                ),
            ),
            Job::Unwritten(response) => self.write_answer(response),
            // Already answered, or not complete: left as they are.
            Job::Stuck | Job::Partial { .. } | Job::Answered { .. } => self.jobs.insert(seq, job),
        }
    }

    /// Answers the complete entries never read (beyond the in-progress limit).
    fn answer_unread_entries(&mut self) {
        let Ok(listing) = queue::scan(self.dir()) else {
            return;
        };
        for seq in listing.commands {
            if !self.jobs.needs_reading(seq) {
                // Already answered (or its answer could not be written): never answered twice.
                continue;
            }
            if let Ok(Entry::Complete(bytes)) =
                queue::read_entry(self.dir(), seq, self.cfg.max_command_bytes)
            {
                self.fail(seq, entries::guess_verb(&bytes), shutting_down());
            }
        }
    }
}

/// The refusal of a command the app did not carry out before it shut down.
pub(super) fn shutting_down() -> Failure {
    Failure::new(
        ErrorCode::ShuttingDown,
        "the app shut down before carrying the command out",
        "restart the app and send the command again",
    )
}
