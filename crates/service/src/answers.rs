//! Answering: publishing a command's response and removing its entry (exactly once), the render
//! side's replies once their frame is published, and screenshots once read back and encoded.

use std::time::Instant;

use super::jobs::{Job, SettleAfter};
use super::{Service, entries, internal_error, png};
use winit_automation_dropbox::publish;
use winit_automation_link::CaptureTo;
use winit_automation_link::wiring::{CaptureJob, Reply};
use winit_automation_protocol::{ErrorCode, Failure, Response, Verb, response_file};

impl Service {
    /// Answers `seq`: publishes the response, then removes the entry. An entry already answered
    /// (unwritten or stuck) is never answered again.
    pub(super) fn answer(&mut self, response: Response) {
        let seq = response.seq;
        // Answered: nothing waits for its target or scrolls it any more.
        self.retries.release(seq);
        if response.error_code() == Some(ErrorCode::Expired) {
            self.gestures.pointer_unchanged(seq);
        }
        self.overlays.forget(seq);
        self.audits.forget(seq);
        match self.jobs.take(seq) {
            Some(job @ (Job::Unwritten(_) | Job::Stuck | Job::Answered { .. })) => {
                log::error!("winit-automation: command {seq} was already answered; not again");
                self.jobs.insert(seq, job);
            }
            _ => self.journal_and_write(response),
        }
    }

    /// Moves the command's record into the journal, writes its answer, and then gives the running
    /// trace its step.
    fn journal_and_write(&mut self, response: Response) {
        let traced = match self.journal.answered(&response) {
            Some(a) if self.tracing.is_running() => Some((a.entry.clone(), a.command, a.read_at)),
            _ => None,
        };
        match traced {
            // The client has its answer first; the trace's work comes after (and the frame it
            // asks for still goes out before the next command is read).
            Some((entry, command, read_at)) => {
                let copy = response.clone();
                self.write_answer(response);
                self.trace_answered(&entry, &command, read_at, &copy);
            }
            None => self.write_answer(response),
        }
    }

    /// Publishes the response and removes the entry; what fails is kept to retry or to never
    /// read again. The answer of a command whose entry went with the drop-box goes to nobody.
    pub(super) fn write_answer(&mut self, response: Response) {
        let seq = response.seq;
        if !self.answer_goes_out(seq) {
            return;
        }
        if let Err(e) = publish(
            self.dir(),
            &response_file(seq),
            response.to_text().as_bytes(),
        ) {
            self.dropbox_failed(format_args!(
                "cannot write the response to command {seq}: {e}"
            ));
            self.jobs.insert(seq, Job::Unwritten(response));
            return;
        }
        self.stats.count_answer();
        match entries::remove_entry(self.dir(), seq) {
            Ok(()) => self.jobs.insert(seq, Job::Answered { at: Instant::now() }),
            Err(e) => {
                log::error!("winit-automation: cannot remove command {seq}: {e}");
                self.jobs.insert(seq, Job::Stuck);
            }
        }
    }

    /// Tries again to publish the responses that could not be written.
    pub(super) fn retry_unwritten(&mut self) {
        for seq in self.jobs.seqs(|j| matches!(j, Job::Unwritten(_))) {
            if let Some(Job::Unwritten(response)) = self.jobs.take(seq) {
                self.write_answer(response);
            }
        }
    }

    /// Answers `seq` with `failure`.
    pub(super) fn fail(&mut self, seq: u64, verb: Option<Verb>, failure: Failure) {
        self.answer(Response::error(seq, verb, failure));
    }

    /// Answers `seq` with `result`'s body or failure.
    pub(super) fn reply_with(&mut self, seq: u64, verb: Verb, result: Result<String, Failure>) {
        match result {
            Ok(body) => self.answer(Response::ok(seq, Some(verb), body)),
            Err(failure) => self.fail(seq, Some(verb), failure),
        }
    }

    /// Writes the render side's answers whose frame is published (all of them when `all`), then
    /// lets the next commands take their turn.
    pub(super) fn write_replies(&mut self, all: bool) {
        let published = self.published();
        // Every scene change sent before the frame was published is in the channel now.
        self.drain_scene();
        for (reply, settle) in self.jobs.take_replies(published, all) {
            if let Some(reply) = self.step_replied(reply)
                && let Some(reply) = self.audit_replied(reply)
            {
                self.answer_reply(reply, settle);
            }
        }
        self.take_turns();
    }

    /// A reply to a step scrolling an action's target in: the action takes its turn again (or
    /// fails with the step). Any other reply is given back.
    fn step_replied(&mut self, reply: Reply) -> Option<Reply> {
        let Some((command, deadline)) = self.retries.step_answered(reply.seq) else {
            return Some(reply);
        };
        match reply.result {
            Ok(_) => self.jobs.requeue(reply.seq, command, deadline),
            Err(failure) => {
                self.retries.end_scroll();
                self.fail(reply.seq, Some(reply.verb), failure);
            }
        }
        None
    }

    /// Answers an action the render side carried out (with its press checked), or starts its
    /// settle (`--settle`).
    fn answer_reply(&mut self, reply: Reply, settle: Option<SettleAfter>) {
        let (seq, verb, frame) = (reply.seq, reply.verb, reply.frame);
        self.journal.carried(seq, frame);
        let result = match (reply.result, reply.hit) {
            (Ok(body), Some(h)) => {
                winit_automation_acting::press_answer(&mut self.tree, &h.check, h.reported, body)
            }
            (result, _) => result,
        };
        let result = result.map(|body| match &reply.clock {
            Some(reading) => body + &winit_automation_acting::clock_line(reading),
            None => body,
        });
        // A drag's answer says where the node it dragged is now.
        let ended = self.gestures.ended(&mut self.tree, seq);
        let result = result.map(|body| body + ended.as_deref().unwrap_or(""));
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

    /// Reads a screenshot's pixels back, crops, encodes and publishes the PNG, and answers. A panic
    /// while doing so costs this command an `app_error` answer.
    pub(super) fn capture(&mut self, job: CaptureJob) {
        let label = match &job.to {
            CaptureTo::File(label) => label.clone(),
            CaptureTo::Trace { .. } => return self.trace_frame(job),
            CaptureTo::Audit => return self.audit_pixels(job),
        };
        let (seq, verb, frame) = (job.seq, job.verb, job.frame);
        self.journal.carried(seq, frame);
        let dir = self.cfg.dir.clone();
        let marks = self.overlays.take(seq);
        let result = if self.jobs.is_orphan(seq) {
            // Its entry went with the drop-box: no picture for the directory there now.
            Err(lost_with_the_dropbox())
        } else {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                png::write_png(&dir, job, label, marks.as_deref())
            }))
            .unwrap_or_else(|panic| Err(internal_error("writing the screenshot", &*panic)))
        };
        match result {
            Ok(answer) => self.answer(Response::ok(seq, Some(verb), answer.to_string())),
            Err(failure) => self.fail(seq, Some(verb), failure),
        }
        self.take_turns();
    }
}

/// The answer, to nobody, of a screenshot whose entry went with the drop-box.
fn lost_with_the_dropbox() -> Failure {
    Failure::new(
        ErrorCode::AppError,
        "the drop-box was removed while the screenshot was taken; it was not written",
        "send the command again",
    )
}
