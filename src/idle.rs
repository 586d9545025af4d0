//! The one wait the render thread makes on the plugin, and only between frames: a headless app's
//! idle time ([`crate::Automation::wait_for_work`], under [`crate::Automation::run_headless`])
//! until the waker runs or a timeout passes, as a winit event loop waits for its next event.
//! Never inside a frame; `tests/layering.rs` allows this module, and no other on the render side,
//! a blocking receive.

use std::time::Duration;

use crossbeam_channel::Receiver;

/// The marks the waker leaves (a bounded channel of one: a wake-up is never lost, never queued
/// twice).
pub(crate) struct Idle(pub Receiver<()>);

impl Idle {
    /// Waits until the waker has run since the last wait, or `timeout` passes.
    pub fn wait(&self, timeout: Duration) {
        let _ = self.0.recv_timeout(timeout);
    }
}
