//! The command queue on disk: `command-<seq>.txt` entries and their `response-<seq>.txt` answers.
//!
//! Both sides use this module. Writers claim a seq above every existing command, taken and response
//! file with an exclusive create, check that no other file of that seq exists, then write the line
//! with its final newline. The app reads complete entries in seq order; when a command's turn comes
//! it takes the entry by renaming it to `taken-<seq>.txt`, and after answering it publishes the
//! response and only then removes the entry, so a seq is never claimed while any file of it exists.
//!
//! The rename is the one point where a command passes from its client to the app: a client that
//! gives up renames `command-<seq>.txt` to `withdrawn-<seq>.txt` ([`withdraw`]); exactly one of the
//! two renames succeeds, so the client knows whether the command can still be carried out. The
//! withdrawn name keeps the seq in use until the app has dropped the command (it may have read it
//! already) and removed the file, so a new command never takes the seq of one the app still holds.

use std::collections::BTreeSet;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use super::dir::open_no_follow;
use super::os::{is_link, retry};
use winit_automation_protocol::{
    command_file, parse_command_file, parse_response_file, parse_taken_file, parse_withdrawn_file,
    response_file, taken_file, withdrawn_file,
};

/// What a directory holds, by seq.
#[derive(Debug, Default, Clone)]
pub struct Listing {
    /// Seqs of `command-<seq>.txt` entries.
    pub commands: BTreeSet<u64>,
    /// Seqs of `taken-<seq>.txt` entries (taken by the app, not answered yet).
    pub taken: BTreeSet<u64>,
    /// Seqs of `withdrawn-<seq>.txt` entries (withdrawn by their client, not cleared yet).
    pub withdrawn: BTreeSet<u64>,
    /// Seqs of `response-<seq>.txt` files.
    pub responses: BTreeSet<u64>,
    /// Names of the app's temporary files.
    pub temps: Vec<String>,
}

impl Listing {
    /// The highest seq of any command, taken, withdrawn or response file, if there is one.
    pub fn max_seq(&self) -> Option<u64> {
        [
            &self.commands,
            &self.taken,
            &self.withdrawn,
            &self.responses,
        ]
        .into_iter()
        .filter_map(|set| set.last().copied())
        .max()
    }
}

/// Lists the queue files of `dir`.
pub fn scan(dir: &Path) -> io::Result<Listing> {
    let mut listing = Listing::default();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if let Some(seq) = parse_command_file(name) {
            listing.commands.insert(seq);
        } else if let Some(seq) = parse_taken_file(name) {
            listing.taken.insert(seq);
        } else if let Some(seq) = parse_withdrawn_file(name) {
            listing.withdrawn.insert(seq);
        } else if let Some(seq) = parse_response_file(name) {
            listing.responses.insert(seq);
        } else if name.starts_with(winit_automation_protocol::TEMP_PREFIX) {
            listing.temps.push(name.to_owned());
        }
    }
    Ok(listing)
}

/// The state of one command entry.
#[derive(Debug)]
pub enum Entry {
    /// Ends with its newline; these are its bytes (at most `max_bytes + 1` of them).
    Complete(Vec<u8>),
    /// No final newline yet; `len` bytes so far.
    Incomplete {
        /// Bytes written so far.
        len: u64,
    },
    /// Longer than the cap, whatever it ends with.
    TooLong {
        /// Its size.
        len: u64,
    },
    /// A symlink, FIFO, directory or other non-regular file.
    NotRegular,
    /// It disappeared before it could be read.
    Gone,
}

/// Whether a watch event on `name` is an entry arriving: what the app's service lists the
/// directory for. An entry's removal is the service's own doing (it removes the entries it
/// answers without taking, `status` say, which would cost a listing each) or a client's clean-up
/// of a placeholder it could not fill (`enqueue`), which the partial entry's reaping or the next
/// listing sees.
pub fn entry_arrived(name: &str, change: super::watch::Change) -> bool {
    change == super::watch::Change::Arrived && name.starts_with("command-")
}

/// Reads `command-<seq>.txt` without following symlinks or blocking on a FIFO.
pub fn read_entry(dir: &Path, seq: u64, max_bytes: usize) -> io::Result<Entry> {
    let path = dir.join(command_file(seq));
    let file = match open_no_follow(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Entry::Gone),
        // A symlink planted where the entry should be (Unix refuses the open; Windows opens the
        // link itself, which the metadata below tells).
        Err(e) if is_link(&e) => return Ok(Entry::NotRegular),
        Err(e) => return Err(e),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(Entry::NotRegular);
    }
    if meta.len() > max_bytes as u64 {
        return Ok(Entry::TooLong { len: meta.len() });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize + 1);
    file.take(max_bytes as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > max_bytes {
        return Ok(Entry::TooLong {
            len: bytes.len() as u64,
        });
    }
    if bytes.last() == Some(&b'\n') {
        Ok(Entry::Complete(bytes))
    } else {
        Ok(Entry::Incomplete {
            len: bytes.len() as u64,
        })
    }
}

/// Removes the entry of `seq`, under any of its names (`command-`, `withdrawn-`, `taken-`); a
/// missing entry is not an error.
///
/// `command-<seq>.txt` goes first. The other order has a race: once the entry's other name is gone
/// (and the client has read and removed the response), a new writer may claim the seq and create a
/// new `command-<seq>.txt`, which a later removal would delete unanswered. In this order, while
/// `command-<seq>.txt` is removed, either it is this entry's own name or the entry still exists
/// under another, so no new writer can have claimed the seq.
pub fn remove_command(dir: &Path, seq: u64) -> io::Result<()> {
    for name in [command_file(seq), withdrawn_file(seq), taken_file(seq)] {
        match retry(|| fs::remove_file(dir.join(&name))) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// The app takes the entry of `seq` (renames `command-<seq>.txt` to `taken-<seq>.txt`). `false`
/// when the entry is gone: its client withdrew it, and the command must not be carried out.
pub fn take(dir: &Path, seq: u64) -> io::Result<bool> {
    match retry(|| fs::rename(dir.join(command_file(seq)), dir.join(taken_file(seq)))) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// A client gives up on `seq`: renames `command-<seq>.txt` to `withdrawn-<seq>.txt` unless the app
/// has taken it. `true` when it was withdrawn (the command will never be carried out; the app
/// removes the file); `false` when the app had taken it or already answered it.
pub fn withdraw(dir: &Path, seq: u64) -> io::Result<bool> {
    match retry(|| fs::rename(dir.join(command_file(seq)), dir.join(withdrawn_file(seq)))) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Why a command could not be enqueued.
#[derive(Debug)]
#[non_exhaustive]
pub enum EnqueueError {
    /// As many entries as the app allows are already waiting.
    QueueFull {
        /// The app's queue capacity.
        capacity: usize,
    },
    /// The line holds a newline, so it would not be one command.
    NotOneLine,
    /// The line is over the app's size cap.
    TooLong {
        /// The line's size with its newline.
        len: usize,
        /// The cap.
        max: usize,
    },
    /// The file system refused.
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
}

impl EnqueueError {
    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](winit_automation_protocol::Failure) for the rule).
    pub fn hint(&self) -> Option<String> {
        match self {
            EnqueueError::QueueFull { .. } => {
                Some("wait for responses before sending more".to_owned())
            }
            EnqueueError::NotOneLine => {
                Some("write line breaks in text as \\n inside double quotes".to_owned())
            }
            EnqueueError::TooLong { .. } => Some("shorten it".to_owned()),
            EnqueueError::Io { .. } => None,
        }
    }
}

impl fmt::Display for EnqueueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnqueueError::QueueFull { capacity } => {
                write!(f, "queue full: {capacity} commands are already waiting")
            }
            EnqueueError::NotOneLine => write!(f, "the command holds a line break"),
            EnqueueError::TooLong { len, max } => {
                write!(f, "the command is {len} bytes, over the app's cap of {max}")
            }
            EnqueueError::Io { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for EnqueueError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EnqueueError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// Claims a fresh seq and writes `line` (without newline) as its command entry; returns the seq.
///
/// `capacity` bounds the number of waiting entries. Concurrent writers check it independently, so it
/// can be exceeded by at most one entry per concurrent writer.
pub fn enqueue(
    dir: &Path,
    line: &str,
    capacity: usize,
    max_bytes: usize,
) -> Result<u64, EnqueueError> {
    let batch = enqueue_all(dir, &[line], capacity, max_bytes);
    match (batch.stopped, batch.seqs.first()) {
        (Some(e), _) => Err(e),
        (None, Some(&seq)) => Ok(seq),
        (None, None) => unreachable!("one line written or a reason"),
    }
}

/// What [`enqueue_all`] wrote: the seqs of the lines written, in their order, and why the rest
/// were not. Every seq here is a command the app will answer, even when `stopped` says why a
/// later line was not written.
#[derive(Debug)]
pub struct Batch {
    /// The written lines' seqs, in the lines' order (and rising).
    pub seqs: Vec<u64>,
    /// Why the lines after them were not written.
    pub stopped: Option<EnqueueError>,
}

/// Writes `lines` as consecutive command entries with one listing of the directory, where
/// [`enqueue`] lists it per line: a burst of thousands of commands costs one listing.
///
/// Every line is checked before any is written, and the whole batch must fit in `capacity`, so
/// bad input or a full queue writes nothing. Each entry claims its seq with the same exclusive
/// create as [`enqueue`]; only a file system error can stop the batch halfway ([`Batch`] says
/// which lines were written).
pub fn enqueue_all<S: AsRef<str>>(
    dir: &Path,
    lines: &[S],
    capacity: usize,
    max_bytes: usize,
) -> Batch {
    let stop = |e| Batch {
        seqs: Vec::new(),
        stopped: Some(e),
    };
    for line in lines {
        let line = line.as_ref();
        if line.contains(['\n', '\r']) {
            return stop(EnqueueError::NotOneLine);
        }
        if line.len() + 1 > max_bytes {
            return stop(EnqueueError::TooLong {
                len: line.len() + 1,
                max: max_bytes,
            });
        }
    }
    let listing = match scan(dir) {
        Ok(l) => l,
        Err(source) => {
            return stop(EnqueueError::Io {
                path: dir.to_owned(),
                source,
            });
        }
    };
    if listing.commands.len() + lines.len() > capacity {
        return stop(EnqueueError::QueueFull { capacity });
    }
    let mut next = listing.max_seq().map_or(1, |m| m + 1);
    let mut seqs = Vec::with_capacity(lines.len());
    for line in lines {
        match claim(dir, next, line.as_ref()) {
            Ok(seq) => {
                seqs.push(seq);
                next = seq + 1;
            }
            Err(e) => {
                return Batch {
                    seqs,
                    stopped: Some(e),
                };
            }
        }
    }
    Batch {
        seqs,
        stopped: None,
    }
}

/// Writes `line` as the entry of the first free seq from `seq` on; returns that seq.
fn claim(dir: &Path, mut seq: u64, line: &str) -> Result<u64, EnqueueError> {
    let io = |path: PathBuf| move |source| EnqueueError::Io { path, source };
    loop {
        let path = dir.join(command_file(seq));
        // Windows refuses a name whose file was removed while a reader still holds it open until
        // the reader lets go (a sharing violation, or access denied): wait for that.
        let mut file: File = match retry(|| {
            super::os::private_file(OpenOptions::new().write(true).create_new(true)).open(&path)
        }) {
            Ok(f) => f,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                seq += 1;
                continue;
            }
            Err(e) => return Err(io(path)(e)),
        };
        // The empty entry is incomplete, so the app leaves it alone. If an earlier command with
        // this seq is still being carried out or its answer waits to be read, the seq is not
        // free: step over it.
        let in_use = [response_file(seq), taken_file(seq), withdrawn_file(seq)]
            .iter()
            .any(|name| dir.join(name).exists());
        if in_use {
            drop(file);
            let _ = retry(|| fs::remove_file(&path));
            seq += 1;
            continue;
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        if let Err(e) = file.write_all(&bytes) {
            let _ = retry(|| fs::remove_file(&path));
            return Err(io(path)(e));
        }
        return Ok(seq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seq_with_a_waiting_response_is_never_claimed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // The answer to seq 1 is waiting to be read and its entry is gone.
        fs::write(dir.join(response_file(1)), "ok 1 status\n").unwrap();
        assert_eq!(enqueue(dir, "status", 8, 100).unwrap(), 2);
        assert_eq!(enqueue(dir, "status", 8, 100).unwrap(), 3);
        assert_eq!(
            fs::read_to_string(dir.join(command_file(3))).unwrap(),
            "status\n"
        );
    }

    #[test]
    fn a_batch_takes_consecutive_free_seqs_or_writes_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // Seq 3's answer waits to be read: the batch steps over it.
        fs::write(dir.join(response_file(3)), "ok 3 status\n").unwrap();
        fs::write(dir.join(command_file(1)), "status\n").unwrap();
        let batch = enqueue_all(dir, &["status", "snapshot", "find role=button"], 4, 100);
        assert!(batch.stopped.is_none(), "{:?}", batch.stopped);
        assert_eq!(batch.seqs, vec![4, 5, 6]);
        assert_eq!(
            fs::read_to_string(dir.join(command_file(5))).unwrap(),
            "snapshot\n"
        );
        let before = scan(dir).unwrap().commands;
        // Over the capacity as a whole, or one bad line: nothing is written.
        let full = enqueue_all(dir, &["status"; 1], 4, 100);
        assert!(matches!(
            full.stopped,
            Some(EnqueueError::QueueFull { capacity: 4 })
        ));
        let bad = enqueue_all(dir, &["status", "two\nlines"], 9, 100);
        assert!(matches!(bad.stopped, Some(EnqueueError::NotOneLine)));
        let long = enqueue_all(dir, &["status", &"x".repeat(200)], 9, 100);
        assert!(matches!(long.stopped, Some(EnqueueError::TooLong { .. })));
        assert!(full.seqs.is_empty() && bad.seqs.is_empty() && long.seqs.is_empty());
        assert_eq!(scan(dir).unwrap().commands, before);
    }

    #[test]
    fn taking_and_withdrawing_race_for_the_entry_and_one_wins() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let seq = enqueue(dir, "click @e1", 8, 100).unwrap();
        assert!(take(dir, seq).unwrap());
        assert!(!withdraw(dir, seq).unwrap(), "taken: too late to withdraw");
        assert!(dir.join(taken_file(seq)).exists());
        // A taken seq is not free for a new command.
        assert_eq!(enqueue(dir, "status", 8, 100).unwrap(), seq + 1);
        assert!(withdraw(dir, seq + 1).unwrap());
        assert!(!take(dir, seq + 1).unwrap(), "withdrawn: never taken");
        // The withdrawn entry keeps its seq in use until the app removes it.
        assert_eq!(enqueue(dir, "status", 8, 100).unwrap(), seq + 2);
        for s in [seq, seq + 1, seq + 2] {
            remove_command(dir, s).unwrap();
        }
        assert!(scan(dir).unwrap().max_seq().is_none());
    }

    #[test]
    fn incomplete_entries_and_caps_are_reported() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::write(dir.join(command_file(1)), "stat").unwrap();
        assert!(matches!(
            read_entry(dir, 1, 100).unwrap(),
            Entry::Incomplete { len: 4 }
        ));
        assert!(matches!(read_entry(dir, 2, 100).unwrap(), Entry::Gone));
        fs::write(dir.join(command_file(3)), "x".repeat(200)).unwrap();
        assert!(matches!(
            read_entry(dir, 3, 100).unwrap(),
            Entry::TooLong { .. }
        ));
        assert!(matches!(
            enqueue(dir, "status", 2, 100),
            Err(EnqueueError::QueueFull { capacity: 2 })
        ));
        assert!(matches!(
            enqueue(dir, "a\nb", 8, 100),
            Err(EnqueueError::NotOneLine)
        ));
    }

    #[test]
    fn the_hint_is_apart_from_the_message() {
        let e = EnqueueError::QueueFull { capacity: 4 };
        assert_eq!(e.to_string(), "queue full: 4 commands are already waiting");
        assert_eq!(
            e.hint().as_deref(),
            Some("wait for responses before sending more")
        );
        assert_eq!(
            EnqueueError::NotOneLine.hint().as_deref(),
            Some("write line breaks in text as \\n inside double quotes")
        );
        assert!(!EnqueueError::NotOneLine.to_string().contains("hint:"));
    }

    // Symlinks, FIFOs and mode bits: Unix (Windows opens a link itself, os/windows.rs).
    #[cfg(unix)]
    #[test]
    fn symlinks_and_fifos_in_place_of_entries_are_not_followed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let secret = dir.join("secret");
        fs::write(&secret, "status\n").unwrap();
        std::os::unix::fs::symlink(&secret, dir.join(command_file(1))).unwrap();
        assert!(matches!(
            read_entry(dir, 1, 100).unwrap(),
            Entry::NotRegular
        ));
        // mkfifo(1): rustix has no mkfifoat on macOS.
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join(command_file(2)))
            .status()
            .unwrap();
        assert!(made.success());
        assert!(matches!(
            read_entry(dir, 2, 100).unwrap(),
            Entry::NotRegular
        ));
    }
}
