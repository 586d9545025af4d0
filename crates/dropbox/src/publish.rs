//! Atomic publication: every file the app writes goes to a temporary name in the same directory and
//! is renamed into place, so a reader sees the old file or the new one, never a torn one.
//!
//! On Windows a rename over a file that a reader holds open without sharing its deletion fails
//! with a sharing violation; it is retried for a bounded time ([`crate::os::retry`]), so a reader
//! that holds the old file for a moment delays the new one instead of losing it.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use winit_automation_protocol::TEMP_PREFIX;

static COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `dir/name` atomically (mode 0600 on Unix; on Windows the directory's private
/// DACL). No fsync: the guarantee is for concurrent readers, not for power loss.
pub fn publish(dir: &Path, name: &str, bytes: &[u8]) -> io::Result<()> {
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!("{TEMP_PREFIX}{}-{n}-{name}", std::process::id()));
    let target = dir.join(name);
    let result = crate::os::private_file(OpenOptions::new().write(true).create_new(true))
        .open(&temp)
        .and_then(|mut f| f.write_all(bytes))
        .and_then(|()| crate::os::retry(|| fs::rename(&temp, &target)));
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishing_replaces_the_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        publish(tmp.path(), "a.txt", b"one").unwrap();
        publish(tmp.path(), "a.txt", b"two").unwrap();
        assert_eq!(fs::read(tmp.path().join("a.txt")).unwrap(), b"two");
        let names: Vec<_> = fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.txt"]);
    }
}
