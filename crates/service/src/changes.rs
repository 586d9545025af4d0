//! What the service knows of the mirror's changes, apart from the mirror itself: the frame that
//! carried the last one (`--settle`, scrolling in), whether the `wait`s must look again, and when
//! the artifacts (`snapshot.txt`, `accessibility.txt`, `windows.txt`) are due to be republished.
//! Pure bookkeeping: `lib.rs` applies the changes and writes the files.

use std::time::{Duration, Instant};

use winit_automation_link::Still;

/// The least time between two publications of `snapshot.txt`, `accessibility.txt` and `windows.txt`
/// while the trees keep changing.
const ARTIFACT_INTERVAL: Duration = Duration::from_millis(100);

/// The trees' changes as the service's rounds need them.
pub(crate) struct TreeChanges {
    /// The frame that carried the last change of the trees.
    last_change: u64,
    /// The trees changed since the `wait`s were last checked.
    for_waits: bool,
    /// The trees changed since the artifacts were last published.
    artifacts_stale: bool,
    /// When the artifacts were last published.
    artifacts_at: Option<Instant>,
    /// The waits (a drag's dwell) that end once the trees hold still.
    stills: Vec<Still>,
}

impl Default for TreeChanges {
    fn default() -> TreeChanges {
        TreeChanges {
            last_change: 0,
            for_waits: false,
            // The first artifacts are published at the first round.
            artifacts_stale: true,
            artifacts_at: None,
            stills: Vec::new(),
        }
    }
}

impl TreeChanges {
    /// The trees changed in frame `building` (the frame being built carries the change).
    pub fn changed(&mut self, building: u64) {
        self.artifacts_stale = true;
        self.for_waits = true;
        self.last_change = building;
    }

    /// The frame that carried the last change of the trees.
    pub fn last_change(&self) -> u64 {
        self.last_change
    }

    /// Watches a wait that ends once the trees hold still.
    pub fn watch(&mut self, still: Still) {
        self.stills.push(still);
    }

    /// Ends each watched wait that began, and after which `frames` frames up to `published`
    /// carried no change of the trees; forgets the waits whose plans are done.
    pub fn check_stills(&mut self, published: u64, frames: u32) {
        let frames = u64::from(frames);
        let last_change = self.last_change;
        self.stills.retain(|still| {
            if still.is_orphan() {
                return false;
            }
            if let Some(since) = still.since()
                && published >= since + frames
                && published.saturating_sub(last_change) >= frames
            {
                still.settle();
                return false;
            }
            true
        });
    }

    /// Whether the trees changed since the `wait`s were last checked; they are checked now.
    pub fn take_for_waits(&mut self) -> bool {
        std::mem::take(&mut self.for_waits)
    }

    /// The artifacts are to be published again, changed or not (the drop-box was made again).
    pub fn republish_artifacts(&mut self) {
        self.artifacts_stale = true;
    }

    /// When the stale artifacts are due, if they are stale and were published before.
    pub fn artifacts_due_at(&self) -> Option<Instant> {
        match (self.artifacts_stale, self.artifacts_at) {
            (true, Some(at)) => Some(at + ARTIFACT_INTERVAL),
            _ => None,
        }
    }

    /// Whether the artifacts are to be published now: they are stale, and `ARTIFACT_INTERVAL`
    /// has passed since the last time or `now` asks for them. They count as published from here.
    pub fn take_artifacts_due(&mut self, now: bool) -> bool {
        if !self.artifacts_stale {
            return false;
        }
        let due = self
            .artifacts_at
            .is_none_or(|at| at.elapsed() >= ARTIFACT_INTERVAL);
        if !(now || due) {
            return false;
        }
        self.artifacts_stale = false;
        self.artifacts_at = Some(Instant::now());
        true
    }
}
