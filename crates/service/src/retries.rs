//! The action whose turn is taken again (one at a time: actions take their turns in order): its
//! target waited for (`--wait`, [`Actionable`]), scrolled into view ([`ScrollingIn`]), or both.
//! This holds the two and tries the action again on what changed; each says for itself what to
//! make of an attempt.

use std::time::Instant;

use super::Service;
use super::actionable::Actionable;
use super::jobs::Job;
use super::scrolling::ScrollingIn;
use winit_automation_protocol::Command;

/// The action whose target is waited for, and the one whose target is scrolled in (the same one
/// when it is both).
#[derive(Default)]
pub(crate) struct Retries {
    /// The action whose target is waited for (`--wait`): its turn is taken again until then.
    waiting: Option<Actionable>,
    /// The action whose target is being scrolled into view: its turn is taken again after each
    /// step.
    scrolling: Option<ScrollingIn>,
}

impl Retries {
    /// Command `seq` was answered or its order sent: nothing waits for its target or scrolls it
    /// any more.
    pub fn release(&mut self, seq: u64) {
        if self.waiting.as_ref().is_some_and(|a| a.seq == seq) {
            self.waiting = None;
        }
        if self.scrolling.as_ref().is_some_and(|s| s.seq == seq) {
            self.scrolling = None;
        }
    }

    /// The wait for command `seq`'s target: begun now, unless it is the one held.
    pub fn wait(&mut self, seq: u64, wait_ms: u64, deadline: Option<Instant>) -> &mut Actionable {
        Actionable::of(&mut self.waiting, seq, wait_ms, deadline)
    }

    /// The wait for command `seq`'s target, if one is held.
    pub fn waiting_mut(&mut self, seq: u64) -> Option<&mut Actionable> {
        self.waiting.as_mut().filter(|a| a.seq == seq)
    }

    /// The wait ended (the action is refused).
    pub fn end_wait(&mut self) {
        self.waiting = None;
    }

    /// The scrolling for command `seq`: begun now, unless it is the one held.
    pub fn scroll(&mut self, seq: u64, deadline: Option<Instant>) -> &mut ScrollingIn {
        ScrollingIn::of(&mut self.scrolling, seq, deadline)
    }

    /// The scrolling for command `seq`, if one is held.
    pub fn scrolling(&self, seq: u64) -> Option<&ScrollingIn> {
        self.scrolling.as_ref().filter(|s| s.seq == seq)
    }

    /// The scrolling for command `seq`, if one is held, to advance.
    pub fn scrolling_mut(&mut self, seq: u64) -> Option<&mut ScrollingIn> {
        self.scrolling.as_mut().filter(|s| s.seq == seq)
    }

    /// Whether command `seq`'s target was scrolled into view (and so waits to hold still).
    pub fn scrolled(&self, seq: u64) -> bool {
        self.scrolling(seq).is_some_and(ScrollingIn::scrolled)
    }

    /// The scrolling ended (a step failed).
    pub fn end_scroll(&mut self) {
        self.scrolling = None;
    }

    /// A reply for command `seq` came: when it answers a step scrolling its target in, the
    /// command and deadline to take the turn again with.
    pub fn step_answered(&mut self, seq: u64) -> Option<(Command, Option<Instant>)> {
        self.scrolling_mut(seq)?.in_flight.take()
    }

    /// When the service must look again without being told of a change.
    pub fn until(&self) -> Option<Instant> {
        let waited = self.waiting.as_ref().map(Actionable::until);
        let scrolled = self.scrolling.as_ref().and_then(ScrollingIn::until);
        waited.into_iter().chain(scrolled).min()
    }
}

impl Service {
    /// The action waiting for its target tries again on what changed (unless it was answered
    /// meanwhile: withdrawn, or past its client's deadline); so does the action whose target is
    /// scrolling in, between its steps.
    pub(super) fn retry(&mut self) {
        if let Some(seq) = self.retries.waiting.as_ref().map(|a| a.seq) {
            match self.jobs.get(seq) {
                Some(Job::Queued { .. }) => self.take_turn_again(),
                // A step scrolling its target in is out: the wait goes on after it.
                Some(Job::Forwarded { .. } | Job::Replied { .. })
                    if self.retries.scrolling(seq).is_some() => {}
                _ => self.retries.waiting = None,
            }
        }
        if let Some(seq) = self.retries.scrolling.as_ref().map(|s| s.seq) {
            match self.jobs.get(seq) {
                Some(Job::Queued { .. }) => self.take_turn_again(),
                Some(Job::Forwarded { .. } | Job::Replied { .. }) => {}
                _ => self.retries.scrolling = None,
            }
        }
    }

    /// The held action takes its turn again, against every change sent before now.
    fn take_turn_again(&mut self) {
        self.drain_scene();
        self.take_turns();
    }
}
