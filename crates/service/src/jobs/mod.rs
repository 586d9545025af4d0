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

mod answered;

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use winit_automation_link::wiring::{Handover, Reply};
use winit_automation_protocol::{ActOptions, Command, Response, Selector, Verb};

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
        handover: Handover,
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
    /// Held apart from the others ([`answered`]): [`Jobs::get`] never returns it.
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
    /// On the virtual clock, the timeout counts the frames' time from this one (the last
    /// published frame's when the settle began).
    pub clock_from: std::time::Duration,
}

impl Job {
    /// Whether the command is being carried out: every later command waits for it.
    fn holds_the_line(&self) -> bool {
        matches!(
            self,
            Job::Forwarded { .. } | Job::Replied { .. } | Job::Settling(_)
        )
    }

    /// Whether the job takes one of the [`winit_automation_link::wiring::IN_FLIGHT`] places.
    fn is_active(&self) -> bool {
        matches!(self, Job::Queued { .. } | Job::Waiting(_) | Job::Polling(_))
            || self.holds_the_line()
    }
}

/// Every command entry the service knows, by seq: the jobs not answered yet (and the terminal
/// records, few), and apart from them the answered records, which every round's scans skip.
#[derive(Default)]
pub(crate) struct Jobs {
    map: BTreeMap<u64, Job>,
    answered: answered::Answered,
    /// The commands the render side had when their entries went with the drop-box
    /// ([`Jobs::lose_entries`]): carried to their end, answered to nobody.
    orphans: BTreeSet<u64>,
}

impl Jobs {
    /// The job of `seq` unless it is answered (an [`Job::Answered`] record is not returned).
    pub fn get(&self, seq: u64) -> Option<&Job> {
        self.map.get(&seq)
    }

    /// Whether the `command-<seq>.txt` on disk is to be read: it has not been read whole yet. An
    /// `Answered` seq whose entry is on disk again is a new command (its client read the old
    /// response and a new client claimed the seq): the old record goes, and the entry is read.
    pub fn needs_reading(&mut self, seq: u64) -> bool {
        if self.answered.remove(seq).is_some() {
            return true;
        }
        matches!(self.map.get(&seq), None | Some(Job::Partial { .. }))
    }

    /// How many commands are in progress (read and not answered); reading stops at
    /// [`winit_automation_link::wiring::IN_FLIGHT`].
    pub fn active(&self) -> usize {
        self.map.values().filter(|j| j.is_active()).count()
    }

    /// Whether a command the app carries out (one that may draw) waits for its turn.
    pub fn app_command_queued(&self) -> bool {
        self.map.values().any(|j| {
            matches!(j, Job::Queued { command, .. } if command.verb().side() == winit_automation_protocol::Side::App)
        })
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
        match job {
            Job::Answered { at } => {
                self.map.remove(&seq);
                self.answered.insert(seq, at);
            }
            job => {
                self.answered.remove(seq);
                self.map.insert(seq, job);
            }
        }
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
        match self.answered.remove(seq) {
            Some(at) => Some(Job::Answered { at }),
            None => self.map.remove(&seq),
        }
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

    /// Takes out the answered records whose response is at least `ttl` old at `now`; their
    /// seqs, oldest answer first.
    pub fn sweep_answered(&mut self, now: Instant, ttl: Duration) -> Vec<u64> {
        self.answered.sweep(now, ttl)
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

    /// The seqs of the jobs in a state, in order (never [`Job::Answered`]).
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
                _ => None,
            })
            .chain(self.answered.next_due(response_ttl))
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

    /// The drop-box went, and every entry in it. The jobs of the commands the render side does
    /// not have are forgotten, and the answered records (their responses went too); the seqs
    /// forgotten are returned. A command the render side has (forwarded, or replied to and not
    /// answered yet) becomes an orphan: it is carried to its end and still holds the line, and its
    /// seq is not read again before then, but its answer goes to nobody ([`Jobs::take_orphan`]): a
    /// client of the new directory may have claimed that seq.
    pub fn lose_entries(&mut self) -> Vec<u64> {
        self.answered = answered::Answered::default();
        let mut forgotten = Vec::new();
        self.map.retain(|&seq, job| {
            let kept = matches!(job, Job::Forwarded { .. } | Job::Replied { .. })
                || self.orphans.contains(&seq);
            if !kept {
                forgotten.push(seq);
            }
            kept
        });
        self.orphans.extend(self.map.keys());
        forgotten
    }

    /// Whether `seq` is an orphan, whose answer goes to nobody.
    pub fn is_orphan(&self, seq: u64) -> bool {
        self.orphans.contains(&seq)
    }

    /// Whether `seq` is an orphan, whose answer goes to nobody; it is not one any more, since this
    /// is its answer.
    pub fn take_orphan(&mut self, seq: u64) -> bool {
        self.orphans.remove(&seq)
    }

    /// Empties the map for shutdown, in seq order.
    pub fn drain(&mut self) -> Vec<(u64, Job)> {
        let mut all: Vec<(u64, Job)> = std::mem::take(&mut self.map).into_iter().collect();
        all.extend(
            self.answered
                .drain()
                .into_iter()
                .map(|(seq, at)| (seq, Job::Answered { at })),
        );
        all.sort_unstable_by_key(|(seq, _)| *seq);
        all
    }
}

#[cfg(test)]
mod tests;
