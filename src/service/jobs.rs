//! The service's per-command state: one map from seq to a [`Job`] whose state says where the
//! command is. An entry is answered exactly once because answering takes its job out of the map
//! (or leaves one of the two terminal records, [`Job::Unwritten`] and [`Job::Stuck`], that stop the
//! entry from being read again), and the scheduler only hands out jobs that are still owed.
//!
//! Pure: no files, no threads, no channels. The service thread does the I/O around it.
//!
//! ```text
//!  disk --read--> Partial --complete--> Queued --turn--> Forwarded --reply--> Replied --frame published--> answered
//!                                          |     |                |                 `--settle--> Settling --> answered
//!                                          |     |                `--deadline, not taken by the render side--> answered `expired`
//!                                          |     `--deadline--> answered `expired` (or dropped: its client withdrew it)
//!                                          |--turn (service verb)--> answered, or Waiting / Settling / Polling --> answered
//!  answered = response written and entry removed (Answered, until its response is read or too old);
//!             or Unwritten (retried) / Stuck (entry not removable)
//! ```
//!
//! A command's turn comes only before its deadline; its entry is taken (renamed `taken-<seq>.txt`)
//! then, and a command whose client withdrew the entry first is dropped without an answer.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::link::{Claim, Reply};
use crate::protocol::{ActOptions, Command, Response, Selector, Verb};

/// Where one command entry is.
pub(crate) enum Job {
    /// Seen on disk without its final newline: since when it has had this length.
    Partial { since: Instant, len: u64 },
    /// Read and parsed; waits until every earlier command is answered (and gives up at its
    /// deadline).
    Queued {
        command: Command,
        deadline: Option<Instant>,
        /// Its entry is already taken (`taken-<seq>.txt`): its turn came, but the order channel
        /// was full, so it waits for its turn again.
        taken: bool,
    },
    /// A `wait` watching the trees until its deadline. It does not hold later commands back.
    Waiting(PendingWait),
    /// A `journal --wait` waiting for an entry after its index until its deadline. It does not
    /// hold later commands back.
    Polling(PendingJournal),
    /// Sent to the render side; no answer yet.
    Forwarded {
        verb: Verb,
        settle: Option<SettleAfter>,
        since: Instant,
        /// When its client gives up: the service withdraws it then unless the render side took it.
        deadline: Option<Instant>,
        claim: Claim,
    },
    /// The render side answered; the response waits for the answer's frame to be published.
    Replied {
        reply: Reply,
        settle: Option<SettleAfter>,
    },
    /// Carried out (or a `settle` command); answered once the trees have stopped changing.
    Settling(Settling),
    /// Answered, but the response could not be written (disk full): retried, never read again.
    Unwritten(Response),
    /// Answered and written, but the entry could not be removed (a non-empty directory planted
    /// as an entry): never read again while it exists.
    Stuck,
    /// Answered: the response is written and the entry removed. Kept so that a response nobody
    /// reads (its client gave up or died) is removed once it is older than the response TTL.
    Answered { at: Instant },
}

/// A queued command whose turn has come.
pub(crate) struct Turn {
    pub command: Command,
    pub deadline: Option<Instant>,
    /// Its entry was taken at an earlier turn.
    pub taken: bool,
}

/// An action sent with `--settle`: its options, the tree text before it and its command's
/// deadline (the settle gives up by then too).
pub(crate) struct SettleAfter {
    pub options: ActOptions,
    pub before: String,
    pub deadline: Option<Instant>,
}

/// A `wait` not satisfied yet.
pub(crate) struct PendingWait {
    pub selector: Selector,
    pub gone: bool,
    pub started: Instant,
    pub deadline: Instant,
}

/// A `journal` long poll not answered yet.
pub(crate) struct PendingJournal {
    /// Answered with the entries after this index once there is one.
    pub after: u64,
    pub deadline: Instant,
}

/// A command waiting for the trees to stay unchanged.
pub(crate) struct Settling {
    pub verb: Verb,
    /// The answer so far (`frame N` and the action's summary).
    pub body: String,
    pub before: String,
    pub frames: u32,
    /// The frame the action was carried out in (for `settle`, the frame when it arrived).
    pub from_frame: u64,
    pub started: Instant,
    pub deadline: Instant,
    /// The last published frame after which the app was asked for another frame.
    pub woken_at: u64,
}

impl Job {
    /// Whether the command is being carried out: every later command waits for it.
    fn holds_the_line(&self) -> bool {
        matches!(
            self,
            Job::Forwarded { .. } | Job::Replied { .. } | Job::Settling(_)
        )
    }

    /// Whether the job takes one of the [`crate::link::IN_FLIGHT`] places.
    fn is_active(&self) -> bool {
        matches!(self, Job::Queued { .. } | Job::Waiting(_) | Job::Polling(_))
            || self.holds_the_line()
    }
}

/// Every command entry the service knows, by seq.
#[derive(Default)]
pub(crate) struct Jobs {
    map: BTreeMap<u64, Job>,
}

impl Jobs {
    pub fn get(&self, seq: u64) -> Option<&Job> {
        self.map.get(&seq)
    }

    /// Whether the `command-<seq>.txt` on disk is to be read: it has not been read whole yet. An
    /// `Answered` seq whose entry is on disk again is a new command (its client read the old
    /// response and a new client claimed the seq): the old record goes, and the entry is read.
    pub fn needs_reading(&mut self, seq: u64) -> bool {
        match self.map.get(&seq) {
            None | Some(Job::Partial { .. }) => true,
            Some(Job::Answered { .. }) => {
                self.map.remove(&seq);
                true
            }
            Some(_) => false,
        }
    }

    /// How many commands are in progress (read and not answered); reading stops at
    /// [`crate::link::IN_FLIGHT`].
    pub fn active(&self) -> usize {
        self.map.values().filter(|j| j.is_active()).count()
    }

    /// How many commands are being carried out (at most one, by the turn rule).
    pub fn in_flight(&self) -> usize {
        self.map.values().filter(|j| j.holds_the_line()).count()
    }

    /// Since when the oldest forwarded command has waited for the render side to answer.
    pub fn forwarded_since(&self) -> Option<Instant> {
        self.map
            .values()
            .filter_map(|j| match j {
                Job::Forwarded { since, .. } => Some(*since),
                _ => None,
            })
            .min()
    }

    pub fn insert(&mut self, seq: u64, job: Job) {
        self.map.insert(seq, job);
    }

    /// A command whose turn came takes it again later: queued, its entry already taken.
    pub fn requeue(&mut self, seq: u64, command: Command, deadline: Option<Instant>) {
        self.insert(
            seq,
            Job::Queued {
                command,
                deadline,
                taken: true,
            },
        );
    }

    /// Takes the job out: the caller answers it or puts it back in a new state.
    pub fn take(&mut self, seq: u64) -> Option<Job> {
        self.map.remove(&seq)
    }

    /// The next command whose turn has come: the first queued one, once nothing is being carried
    /// out. Commands run one at a time in seq order, so each is resolved against the tree the
    /// earlier ones left.
    pub fn next_turn(&mut self) -> Option<(u64, Turn)> {
        if self.map.values().any(Job::holds_the_line) {
            return None;
        }
        let seq = self
            .map
            .iter()
            .find(|(_, j)| matches!(j, Job::Queued { .. }))
            .map(|(s, _)| *s)?;
        match self.map.remove(&seq) {
            Some(Job::Queued {
                command,
                deadline,
                taken,
            }) => Some((
                seq,
                Turn {
                    command,
                    deadline,
                    taken,
                },
            )),
            _ => unreachable!("the job was found queued"),
        }
    }

    /// The queued and forwarded commands whose deadline has passed at `now`, in seq order. The
    /// caller answers each (or withdraws it from the render side first).
    pub fn past_deadline(&self, now: Instant) -> Vec<u64> {
        self.seqs(|j| match j {
            Job::Queued { deadline, .. } | Job::Forwarded { deadline, .. } => {
                deadline.is_some_and(|d| d <= now)
            }
            _ => false,
        })
    }

    /// Limits a `wait`, a `journal` long poll or a settle to `deadline` (its command's), so it is
    /// answered while its client still waits.
    pub fn limit(&mut self, seq: u64, deadline: Option<Instant>) {
        let Some(limit) = deadline else { return };
        match self.map.get_mut(&seq) {
            Some(Job::Waiting(w)) => w.deadline = w.deadline.min(limit),
            Some(Job::Polling(p)) => p.deadline = p.deadline.min(limit),
            Some(Job::Settling(s)) => s.deadline = s.deadline.min(limit),
            _ => {}
        }
    }

    /// The answered seqs whose response is older than `ttl` at `now`.
    pub fn answered_before(&self, now: Instant, ttl: Duration) -> Vec<u64> {
        self.seqs(|j| matches!(j, Job::Answered { at } if now.duration_since(*at) >= ttl))
    }

    /// Records the render side's answer to a forwarded command. An answer for a seq that is not
    /// forwarded (already answered at shutdown) is dropped: it never yields a second response.
    pub fn replied(&mut self, reply: Reply) {
        if let Some(job) = self.map.get_mut(&reply.seq)
            && let Job::Forwarded { settle, .. } = job
        {
            let settle = settle.take();
            *job = Job::Replied { reply, settle };
        }
    }

    /// Takes the answers whose frame is published (all of them when `all`), in seq order.
    pub fn take_replies(&mut self, published: u64, all: bool) -> Vec<(Reply, Option<SettleAfter>)> {
        let due: Vec<u64> = self
            .map
            .iter()
            .filter(
                |(_, j)| matches!(j, Job::Replied { reply, .. } if all || reply.frame <= published),
            )
            .map(|(s, _)| *s)
            .collect();
        due.into_iter()
            .filter_map(|seq| match self.map.remove(&seq) {
                Some(Job::Replied { reply, settle }) => Some((reply, settle)),
                _ => None,
            })
            .collect()
    }

    /// The seqs of the jobs in a state, in order.
    pub fn seqs(&self, mut pick: impl FnMut(&Job) -> bool) -> Vec<u64> {
        self.map
            .iter()
            .filter(|(_, j)| pick(j))
            .map(|(s, _)| *s)
            .collect()
    }

    /// Forgets what is known of entries no longer on disk: partial entries whose writer removed
    /// them, and stuck entries that were cleared.
    pub fn forget_missing(&mut self, on_disk: &std::collections::BTreeSet<u64>) {
        self.map.retain(|seq, j| {
            on_disk.contains(seq) || !matches!(j, Job::Partial { .. } | Job::Stuck)
        });
    }

    /// The earliest time something is due: a command's deadline, a wait, long poll or settle
    /// deadline, a partial entry's reaping, or an unread response's removal.
    pub fn next_deadline(&self, reap_after: Duration, response_ttl: Duration) -> Option<Instant> {
        self.map
            .values()
            .filter_map(|j| match j {
                Job::Waiting(w) => Some(w.deadline),
                Job::Polling(p) => Some(p.deadline),
                Job::Settling(s) => Some(s.deadline),
                Job::Partial { since, .. } => Some(*since + reap_after),
                Job::Queued { deadline, .. } | Job::Forwarded { deadline, .. } => *deadline,
                Job::Answered { at } => Some(*at + response_ttl),
                _ => None,
            })
            .min()
    }

    pub fn waiting_mut(&mut self, seq: u64) -> Option<&mut PendingWait> {
        match self.map.get_mut(&seq) {
            Some(Job::Waiting(w)) => Some(w),
            _ => None,
        }
    }

    pub fn settling_mut(&mut self, seq: u64) -> Option<&mut Settling> {
        match self.map.get_mut(&seq) {
            Some(Job::Settling(s)) => Some(s),
            _ => None,
        }
    }

    /// Empties the map for shutdown, in seq order.
    pub fn drain(&mut self) -> Vec<(u64, Job)> {
        std::mem::take(&mut self.map).into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Failure;

    fn queued(line: &str) -> Job {
        Job::Queued {
            command: Command::parse(line).unwrap(),
            deadline: None,
            taken: false,
        }
    }

    fn forwarded(verb: Verb) -> Job {
        Job::Forwarded {
            verb,
            settle: None,
            since: Instant::now(),
            deadline: None,
            claim: Claim::default(),
        }
    }

    fn reply(seq: u64, frame: u64) -> Reply {
        Reply {
            seq,
            verb: Verb::Click,
            frame,
            result: Ok(String::new()),
            hit: None,
        }
    }

    #[test]
    fn queued_commands_take_their_turn_in_seq_order() {
        let mut jobs = Jobs::default();
        jobs.insert(7, queued("snapshot"));
        jobs.insert(3, queued("find role=button"));
        assert_eq!(jobs.next_turn().unwrap().0, 3);
        assert_eq!(jobs.next_turn().unwrap().0, 7);
        assert!(jobs.next_turn().is_none());
    }

    #[test]
    fn nothing_takes_its_turn_while_a_command_is_carried_out() {
        let mut jobs = Jobs::default();
        jobs.insert(1, forwarded(Verb::Click));
        jobs.insert(2, queued("snapshot"));
        assert!(jobs.next_turn().is_none());
        jobs.replied(reply(1, 5));
        assert!(jobs.next_turn().is_none(), "replied is not answered yet");
        assert!(
            jobs.take_replies(4, false).is_empty(),
            "frame 5 not published"
        );
        let due = jobs.take_replies(5, false);
        assert_eq!(due.len(), 1);
        assert_eq!(due[0].0.seq, 1);
        assert_eq!(jobs.next_turn().unwrap().0, 2);
    }

    #[test]
    fn a_wait_does_not_hold_later_commands_back() {
        let mut jobs = Jobs::default();
        let now = Instant::now();
        jobs.insert(
            1,
            Job::Waiting(PendingWait {
                selector: Selector::parse("role=button").unwrap(),
                gone: false,
                started: now,
                deadline: now + Duration::from_secs(5),
            }),
        );
        jobs.insert(2, queued("click role=button"));
        assert_eq!(jobs.next_turn().unwrap().0, 2);
        assert_eq!(jobs.active(), 1);
        assert_eq!(
            jobs.next_deadline(Duration::ZERO, Duration::ZERO),
            Some(now + Duration::from_secs(5))
        );
    }

    #[test]
    fn a_journal_long_poll_does_not_hold_later_commands_back() {
        let mut jobs = Jobs::default();
        let now = Instant::now();
        jobs.insert(
            1,
            Job::Polling(PendingJournal {
                after: 4,
                deadline: now + Duration::from_secs(5),
            }),
        );
        jobs.insert(2, queued("click role=button"));
        assert_eq!(jobs.next_turn().unwrap().0, 2);
        assert_eq!(jobs.active(), 1);
        assert_eq!(jobs.in_flight(), 0);
        let soon = now + Duration::from_millis(50);
        jobs.limit(1, Some(soon));
        assert_eq!(
            jobs.next_deadline(Duration::from_secs(9), Duration::from_secs(9)),
            Some(soon)
        );
    }

    #[test]
    fn a_reply_for_a_command_that_is_not_forwarded_is_dropped() {
        let mut jobs = Jobs::default();
        // Already answered (at shutdown, say): no job.
        jobs.replied(reply(9, 1));
        assert!(jobs.take_replies(u64::MAX, true).is_empty());
        // Answered but unwritten: the late reply must not become a second answer.
        jobs.insert(
            4,
            Job::Unwritten(Response::error(
                4,
                None,
                Failure::new(crate::protocol::ErrorCode::AppError, "x", "y"),
            )),
        );
        jobs.replied(reply(4, 1));
        assert!(jobs.take_replies(u64::MAX, true).is_empty());
        assert!(matches!(jobs.get(4), Some(Job::Unwritten(_))));
    }

    #[test]
    fn answered_records_are_never_read_again_and_do_not_count_as_active() {
        let mut jobs = Jobs::default();
        jobs.insert(1, Job::Stuck);
        jobs.insert(
            2,
            Job::Partial {
                since: Instant::now(),
                len: 3,
            },
        );
        assert!(!jobs.needs_reading(1));
        assert!(
            jobs.needs_reading(2),
            "a partial entry is read again until complete"
        );
        assert!(jobs.needs_reading(3));
        assert_eq!(jobs.active(), 0);
        // Entries gone from disk are forgotten; a forwarded one is kept (it is still owed).
        jobs.insert(5, forwarded(Verb::Click));
        jobs.forget_missing(&std::collections::BTreeSet::new());
        assert!(jobs.get(1).is_none() && jobs.get(2).is_none());
        assert!(jobs.get(5).is_some());
        assert_eq!(jobs.in_flight(), 1);
    }

    #[test]
    fn settle_options_travel_from_forwarded_to_replied() {
        let mut jobs = Jobs::default();
        let command = Command::parse("click @e1 --settle").unwrap();
        let act = command.act_options().unwrap();
        jobs.insert(
            1,
            Job::Forwarded {
                verb: Verb::Click,
                settle: Some(SettleAfter {
                    options: act,
                    before: "before".into(),
                    deadline: None,
                }),
                since: Instant::now(),
                deadline: None,
                claim: Claim::default(),
            },
        );
        jobs.replied(reply(1, 2));
        let due = jobs.take_replies(2, false);
        assert_eq!(due[0].1.as_ref().unwrap().before, "before");
    }

    #[test]
    fn deadlines_come_due_and_limit_waits() {
        let mut jobs = Jobs::default();
        let now = Instant::now();
        let soon = now + Duration::from_millis(50);
        jobs.insert(
            1,
            Job::Queued {
                command: Command::parse("click @e1").unwrap(),
                deadline: Some(soon),
                taken: false,
            },
        );
        jobs.insert(2, queued("snapshot"));
        jobs.insert(
            3,
            Job::Forwarded {
                verb: Verb::Click,
                settle: None,
                since: now,
                deadline: Some(now),
                claim: Claim::default(),
            },
        );
        assert_eq!(jobs.past_deadline(now), vec![3]);
        assert_eq!(jobs.past_deadline(soon), vec![1, 3]);
        assert_eq!(
            jobs.next_deadline(Duration::from_secs(9), Duration::from_secs(9)),
            Some(now)
        );
        assert_eq!(jobs.forwarded_since(), Some(now));
        // A wait gives up at its command's deadline when that comes first.
        jobs.insert(
            4,
            Job::Waiting(PendingWait {
                selector: Selector::parse("role=button").unwrap(),
                gone: false,
                started: now,
                deadline: now + Duration::from_secs(5),
            }),
        );
        jobs.limit(4, Some(soon));
        assert!(matches!(jobs.get(4), Some(Job::Waiting(w)) if w.deadline == soon));
        jobs.limit(4, Some(now + Duration::from_secs(60)));
        assert!(matches!(jobs.get(4), Some(Job::Waiting(w)) if w.deadline == soon));
    }

    #[test]
    fn answered_seqs_are_swept_after_the_ttl_and_read_again_when_reused() {
        let mut jobs = Jobs::default();
        let now = Instant::now();
        jobs.insert(1, Job::Answered { at: now });
        assert_eq!(jobs.active(), 0);
        let ttl = Duration::from_secs(60);
        assert!(jobs.answered_before(now, ttl).is_empty());
        assert_eq!(jobs.answered_before(now + ttl, ttl), vec![1]);
        jobs.forget_missing(&std::collections::BTreeSet::new());
        assert!(
            jobs.get(1).is_some(),
            "kept until the ttl: the response may still be unread"
        );
        assert!(
            jobs.needs_reading(1),
            "a new command-1.txt is a new command"
        );
        assert!(jobs.get(1).is_none(), "the old record goes");
    }

    #[test]
    fn a_claim_is_won_by_exactly_one_side() {
        let claim = Claim::default();
        assert!(claim.take());
        assert!(claim.take(), "taking again is harmless");
        assert!(!claim.withdraw());
        let claim = Claim::default();
        assert!(claim.withdraw());
        assert!(!claim.take());
        assert!(!claim.withdraw(), "withdrawn once");
    }
}
