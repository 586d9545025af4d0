//! The one wait the render thread makes on the plugin, and only between frames: a headless app's
//! idle time (winit-automation's `Automation::wait_for_work`, under `run_headless`) until the
//! waker runs or a timeout passes, as a winit event loop waits for its next event. Never inside a
//! frame; this module, and no other of this crate, may block on a channel (`clippy.toml`).

use std::time::Duration;

use crossbeam_channel::Receiver;

/// The marks the waker leaves (a bounded channel of one: a wake-up is never lost, never queued
/// twice).
pub struct Idle(pub Receiver<()>);

impl Idle {
    /// Waits until the waker has run since the last wait, or `timeout` passes.
    #[allow(
        clippy::disallowed_methods,
        reason = "the render side's one wait, between frames: a headless loop's idle time"
    )]
    pub fn wait(&self, timeout: Duration) {
        let _ = self.0.recv_timeout(timeout);
    }
}
