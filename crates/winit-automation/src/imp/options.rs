//! What [`crate::Builder`] gathers, for the plugin to start from: plain data.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// The app's waker: runs on the service thread.
pub(crate) type Waker = Arc<dyn Fn() + Send + Sync>;

/// The builder's settings.
pub(crate) struct Options {
    pub name: Option<String>,
    pub dir: Option<PathBuf>,
    pub capacity: usize,
    pub max_bytes: usize,
    pub reap_after: Duration,
    pub response_ttl: Duration,
    pub waker: Option<Waker>,
    pub app_screenshots: bool,
    pub hover_frame: bool,
}
