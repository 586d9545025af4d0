//! `status` (docs/protocol.md section 6.1): this run's facts and the queue's state, answered at
//! once, even behind a command the app has not carried out yet.

use std::time::Instant;

use super::Service;
use winit_automation_protocol::{PROTOCOL_VERSION, quote};

/// What `status` says of this run of the service: when it started and how many answers it wrote.
pub(crate) struct RunStats {
    started: Instant,
    started_unix_ms: u64,
    answered: u64,
}

impl RunStats {
    /// A run that started now, at Unix time `started_unix_ms`.
    pub fn new(started_unix_ms: u64) -> RunStats {
        RunStats {
            started: Instant::now(),
            started_unix_ms,
            answered: 0,
        }
    }

    /// How many responses were written.
    pub fn answered(&self) -> u64 {
        self.answered
    }

    /// A response was written.
    pub fn count_answer(&mut self) {
        self.answered += 1;
    }
}

impl Service {
    /// The body of the answer to `status`.
    pub(super) fn status_body(&self) -> String {
        let stats = &self.stats;
        format!(
            "protocol {PROTOCOL_VERSION}\napp {}\npid {}\ncrate_version {}\nstarted_unix_ms {}\nuptime_ms {}\nframe {}\nqueue {}\nin_flight {}\nin_flight_ms {}\nanswered {}\nwatch {}\n",
            quote(&self.cfg.app_name),
            std::process::id(),
            quote(env!("CARGO_PKG_VERSION")),
            stats.started_unix_ms,
            stats.started.elapsed().as_millis(),
            self.published(),
            self.intake.on_disk(),
            self.jobs.in_flight(),
            self.jobs
                .forwarded_since()
                .map_or(0, |since| since.elapsed().as_millis()),
            stats.answered,
            self.intake.watch_name(),
        )
    }
}
