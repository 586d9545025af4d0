//! What a plugin starts from ([`Options`]): an app's builder settings, plain data, the same in
//! both builds of an app-facing crate (the service crate's `start` reads them).

use std::path::PathBuf;
use std::time::Duration;

use crate::Waker;

/// What the plugin starts from: the app's builder settings, plain data.
pub struct Options {
    /// The app's name in `ready.txt` (default: the executable's file stem).
    pub name: Option<String>,
    /// The drop-box (default: `$WINIT_AUTOMATION_DIR`, else `target/winit-automation`).
    pub dir: Option<PathBuf>,
    /// How many command entries may wait on disk.
    pub capacity: usize,
    /// The largest command line accepted, in bytes.
    pub max_bytes: usize,
    /// How long an incomplete entry (no final newline) waits before it is reaped.
    pub reap_after: Duration,
    /// How long a response may wait to be read before the service removes it.
    pub response_ttl: Duration,
    /// Runs on the service thread when work arrives for the frame loop (wakes an idle loop).
    pub waker: Option<Waker>,
    /// `screenshot` goes to the app as a request instead of being captured by the plugin.
    pub app_screenshots: bool,
    /// Pointer gestures move the pointer one frame before they press.
    pub hover_frame: bool,
    /// The app reads keys without a focused node (a game's `ButtonInput<KeyCode>`): a key that
    /// would only type, with nothing focused, goes out and the answer says so, where it is
    /// otherwise refused `no_focus`.
    pub keys_without_focus: bool,
    /// The clock frames start on (`WINIT_AUTOMATION_CLOCK` wins over it; default real).
    pub clock: Option<crate::ClockMode>,
}
