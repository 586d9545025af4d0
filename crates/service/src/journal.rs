//! The journal: the last [`KEPT`] commands the service answered, in the order it answered them,
//! for `journal` (docs/protocol.md, section 6.5). A recorder learns from it every command any
//! client sent.
//!
//! Every command read from an entry (all verbs but `status` and `journal`) gets a pending record
//! here when it is read: its canonical line, then the selectors of its ref and point targets when
//! its turn comes, and the frame that carried it out when the render side says so. Answering it
//! turns the record into an entry with the next index; a command its client withdrew is forgotten.
//!
//! Pure: no files, no threads.

use std::collections::{BTreeMap, VecDeque};
use std::time::Instant;

use winit_automation_protocol::{
    Command, JournalAnswer, JournalEntry, JournalTarget, Outcome, Response, Verb,
};

/// How many answered commands the journal keeps.
pub(crate) const KEPT: usize = 1024;

/// A command read and not answered yet.
struct Pending {
    command: Command,
    /// A plan found that the command's text (a `type`'s or `fill`'s) is no secret; until then it
    /// is kept as one (a command answered before its plan, refused, expired, never says).
    cleared: bool,
    targets: Vec<JournalTarget>,
    frame: Option<u64>,
    /// When it was read (a trace's step starts there).
    read_at: Instant,
}

/// An entry the journal added, with the command it records and when that was read (a trace's
/// step starts there).
pub(crate) struct Answered<'a> {
    pub entry: &'a JournalEntry,
    pub command: Command,
    pub read_at: Instant,
}

/// The pending records and the ring of answered entries.
#[derive(Default)]
pub(crate) struct Journal {
    pending: BTreeMap<u64, Pending>,
    entries: VecDeque<JournalEntry>,
    /// The index of the last entry (0 before any).
    last: u64,
}

/// Whether a verb's commands are journaled: all but the ones that only look at the session
/// itself (`status`, `journal`, `trace`).
pub(crate) fn journaled(verb: Verb) -> bool {
    !matches!(verb, Verb::Status | Verb::Journal | Verb::Trace)
}

impl Journal {
    /// A command was read as entry `seq`.
    pub fn read(&mut self, seq: u64, command: &Command) {
        if !journaled(command.verb()) {
            return;
        }
        // Records of commands never answered (none is expected) cannot pile up.
        while self.pending.len() >= KEPT {
            self.pending.pop_first();
        }
        // A secret's text is never kept, not even while the command waits.
        self.pending.insert(
            seq,
            Pending {
                command: command.redacted(false),
                cleared: false,
                targets: Vec::new(),
                frame: None,
                read_at: Instant::now(),
            },
        );
    }

    /// The text of command `seq` is a secret (it goes to a password field): the journal keeps
    /// [`SECRET_PLACEHOLDER`](winit_automation_protocol::SECRET_PLACEHOLDER) in its place.
    pub fn keep_secret(&mut self, seq: u64) {
        if let Some(p) = self.pending.get_mut(&seq) {
            p.command = p.command.redacted(true);
        }
    }

    /// The text of command `seq` is no secret: the journal keeps it as it is.
    pub fn not_secret(&mut self, seq: u64) {
        if let Some(p) = self.pending.get_mut(&seq) {
            p.cleared = true;
        }
    }

    /// The command's ref and point targets were resolved to these nodes.
    pub fn resolved(&mut self, seq: u64, targets: Vec<JournalTarget>) {
        if let Some(p) = self.pending.get_mut(&seq) {
            p.targets = targets;
        }
    }

    /// The render side carried the command out in `frame`.
    pub fn carried(&mut self, seq: u64, frame: u64) {
        if let Some(p) = self.pending.get_mut(&seq) {
            p.frame = Some(frame);
        }
    }

    /// The command was withdrawn by its client: never answered, never journaled.
    pub fn forget(&mut self, seq: u64) {
        self.pending.remove(&seq);
    }

    /// The command was answered with `response`. Returns the entry added, or `None` (commands
    /// that were never read as one, parse errors and the verbs that are not [`journaled`] add
    /// none).
    pub fn answered(&mut self, response: &Response) -> Option<Answered<'_>> {
        let p = self.pending.remove(&response.seq)?;
        // A text no plan cleared is kept as a secret.
        let command = p.command.redacted(!p.cleared);
        if self.entries.len() >= KEPT {
            self.entries.pop_front();
        }
        self.last += 1;
        self.entries.push_back(JournalEntry {
            index: self.last,
            seq: response.seq,
            code: match &response.outcome {
                Outcome::Ok { .. } => None,
                Outcome::Error { code, .. } => Some(code.clone()),
            },
            frame: p.frame,
            line: command.to_line(),
            targets: p.targets,
        });
        Some(Answered {
            entry: self.entries.back()?,
            command,
            read_at: p.read_at,
        })
    }

    /// The index of the last entry (0 before any).
    pub fn last(&self) -> u64 {
        self.last
    }

    /// The answer to `journal --after N`: `next`, `lost` when entries after N were dropped, then
    /// each entry after N with its target lines.
    pub fn after(&self, after: u64) -> String {
        let first_kept = self.last + 1 - self.entries.len() as u64;
        JournalAnswer {
            next: self.last.max(after),
            lost: (first_kept > after.saturating_add(1)).then(|| first_kept - after - 1),
            entries: self
                .entries
                .iter()
                .filter(|e| e.index > after)
                .cloned()
                .collect(),
        }
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use winit_automation_protocol::{DragEnd, ErrorCode, Failure, Selector};

    fn ok(seq: u64, verb: Verb) -> Response {
        Response::ok(seq, Some(verb), "frame 3\n")
    }

    impl Journal {
        fn answered_one(&mut self, response: &Response) -> bool {
            self.answered(response).is_some()
        }
    }

    fn read(j: &mut Journal, seq: u64, line: &str) {
        j.read(seq, &Command::parse(line).unwrap());
    }

    #[test]
    fn entries_come_in_answer_order_with_outcome_frame_and_targets() {
        let mut j = Journal::default();
        read(&mut j, 1, "click @e4");
        read(&mut j, 2, "find role=button");
        read(&mut j, 3, "status");
        read(&mut j, 4, "drag 1,2 to 3,4");
        j.resolved(
            1,
            vec![JournalTarget {
                end: None,
                selector: Selector::parse("role=button name=\"OK\"").unwrap(),
            }],
        );
        j.resolved(
            4,
            vec![JournalTarget {
                end: Some(DragEnd::To),
                selector: Selector::parse("role=list nth=1").unwrap(),
            }],
        );
        j.carried(1, 7);
        // Answered out of seq order: the journal keeps the answer order.
        assert!(j.answered_one(&ok(2, Verb::Find)));
        assert!(
            !j.answered_one(&ok(3, Verb::Status)),
            "status is not journaled"
        );
        assert!(j.answered_one(&ok(1, Verb::Click)));
        let failure = Failure::new(ErrorCode::NotFound, "gone", "look again");
        assert!(j.answered_one(&Response::error(4, Some(Verb::Drag), failure)));
        assert!(!j.answered_one(&ok(9, Verb::Find)), "never read");
        assert_eq!(
            j.after(0),
            "next 3\n\
             entry 1 seq=2 ok \"find role=button\"\n\
             entry 2 seq=1 ok frame=7 \"click @e4\"\n\
             target role=button name=\"OK\"\n\
             entry 3 seq=4 error code=not_found \"drag 1,2 to 3,4\"\n\
             target to role=list nth=1\n"
        );
        assert_eq!(j.after(2).lines().next(), Some("next 3"));
        assert_eq!(j.after(2).matches("entry ").count(), 1);
        assert_eq!(j.after(3), "next 3\n");
        assert_eq!(j.after(10), "next 10\n");
    }

    #[test]
    fn a_withdrawn_command_is_never_an_entry() {
        let mut j = Journal::default();
        read(&mut j, 1, "click @e4");
        j.forget(1);
        assert!(!j.answered_one(&ok(1, Verb::Click)));
        assert_eq!(j.last(), 0);
    }

    #[test]
    fn entries_beyond_the_ring_are_counted_lost() {
        let mut j = Journal::default();
        for seq in 1..=(KEPT as u64 + 10) {
            read(&mut j, seq, "windows");
            j.answered(&ok(seq, Verb::Windows));
        }
        let all = j.after(0);
        assert!(
            all.starts_with("next 1034\nlost 10\nentry 11 seq=11 ok"),
            "{}",
            &all[..60]
        );
        assert_eq!(all.matches("\nentry ").count(), KEPT);
        assert!(j.after(5).starts_with("next 1034\nlost 5\nentry 11 "));
        assert!(j.after(10).starts_with("next 1034\nentry 11 "));
    }
}
