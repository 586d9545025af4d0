//! The answered records: one per entry whose response is written and whose entry is removed, kept
//! so that a response nobody reads is removed once it is older than the response TTL, and so that
//! a seq claimed again is known to be a new command.
//!
//! Kept apart from the jobs still owed: the service scans those every round, and a minute of
//! answers (ten thousand of them in a burst) must not make every round slower. The records are in
//! answer order, so the oldest is the front and a sweep never looks past the first one not due.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use rustc_hash::FxHashMap;

#[derive(Default)]
pub(super) struct Answered {
    /// When each answered seq was answered.
    at: FxHashMap<u64, Instant>,
    /// The same records by time, oldest first. A seq whose record went (claimed again, or taken
    /// out) leaves its place here behind, skipped when it comes to the front.
    by_time: VecDeque<(Instant, u64)>,
}

impl Answered {
    pub fn insert(&mut self, seq: u64, at: Instant) {
        self.at.insert(seq, at);
        // Answers come in time order; a record put back (at shutdown) finds its place.
        let place = self.by_time.partition_point(|(t, _)| *t <= at);
        self.by_time.insert(place, (at, seq));
    }

    /// Takes the record of `seq` out: when it was answered.
    pub fn remove(&mut self, seq: u64) -> Option<Instant> {
        self.at.remove(&seq)
    }

    /// Takes out the records at least `ttl` old at `now`, oldest first.
    pub fn sweep(&mut self, now: Instant, ttl: Duration) -> Vec<u64> {
        let mut due = Vec::new();
        while let Some(&(at, seq)) = self.by_time.front() {
            if now.duration_since(at) < ttl {
                break;
            }
            self.by_time.pop_front();
            if self.at.get(&seq) == Some(&at) {
                self.at.remove(&seq);
                due.push(seq);
            }
        }
        due
    }

    /// When the oldest record comes due (a place left behind may make it early: one wake-up more).
    pub fn next_due(&self, ttl: Duration) -> Option<Instant> {
        self.by_time.front().map(|(at, _)| *at + ttl)
    }

    /// Empties it, in seq order.
    pub fn drain(&mut self) -> Vec<(u64, Instant)> {
        self.by_time.clear();
        let mut all: Vec<_> = self.at.drain().collect();
        all.sort_unstable();
        all
    }
}
