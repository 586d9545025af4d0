//! Waiting for a file another process writes as it goes (a recorder's script or test). Included
//! with `#[path = "common/file_with.rs"] mod file_with;`.

use std::path::Path;
use std::time::{Duration, Instant};

/// Reads `path` until it holds `what` (30 s at most), and returns it.
pub fn file_with(path: &Path, what: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let now = std::fs::read_to_string(path).unwrap_or_default();
        if now.contains(what) {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "no {what:?} in {}:\n{now}",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
