//! What the drop-box asks of the operating system, one function per question: who owns the
//! directory and who else may write to it, how to make it private, which file a path names now, how
//! to open an entry without following a link, whether a process is alive, and which file system
//! errors are a reader holding a file for a moment.
//!
//! [`unix`] answers on Linux and macOS (owner uid and mode bits, `O_NOFOLLOW`, device and inode),
//! `windows` on Windows (owner SID and the DACL, `FILE_FLAG_OPEN_REPARSE_POINT`, volume serial and
//! file index). Both give the same answers in the same types, so nothing above this module names
//! a platform. docs/protocol.md section 1.1 says what each guarantee rests on, per platform.

#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as platform;
#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as platform;

mod process;
#[cfg(any(windows, test))]
mod sddl;

use std::io;
use std::time::{Duration, Instant};

pub(crate) use platform::{
    FileId, check_access, create_private_dir, is_link, no_follow, private_file,
};
pub use process::process_alive;

/// How long an operation on a file that another process holds open is retried (see [`retry`]).
pub(crate) const BUSY_FOR: Duration = Duration::from_secs(2);

/// Runs `op` until it succeeds, fails for another reason than a file held open by someone else
/// ([`platform::is_busy`]: a sharing violation on Windows, never on Unix), or [`BUSY_FOR`] has
/// passed; returns its last result. On Windows a rename or removal fails while a reader (another
/// client, an editor, an antivirus scanner) has the file open without sharing its deletion; such a
/// hold lasts milliseconds, so waiting it out keeps an answer from being lost.
pub(crate) fn retry<T>(mut op: impl FnMut() -> io::Result<T>) -> io::Result<T> {
    let until = Instant::now() + BUSY_FOR;
    let mut pause = Duration::from_millis(1);
    loop {
        match op() {
            Err(e) if platform::is_busy(&e) && Instant::now() < until => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            result => return result,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_other_than_busy_is_returned_at_once() {
        let mut calls = 0;
        let started = Instant::now();
        let result: io::Result<()> = retry(|| {
            calls += 1;
            Err(io::Error::from(io::ErrorKind::NotFound))
        });
        assert_eq!(result.unwrap_err().kind(), io::ErrorKind::NotFound);
        assert_eq!(calls, 1);
        assert!(started.elapsed() < BUSY_FOR);
    }

    #[test]
    fn a_file_and_its_path_have_one_identity_and_another_file_has_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        std::fs::write(&a, "a").unwrap();
        std::fs::write(&b, "b").unwrap();
        let file = std::fs::File::open(&a).unwrap();
        assert_eq!(
            FileId::of_file(&file).unwrap(),
            FileId::of_path(&a).unwrap()
        );
        assert_ne!(FileId::of_path(&b).unwrap(), FileId::of_path(&a).unwrap());
    }
}
