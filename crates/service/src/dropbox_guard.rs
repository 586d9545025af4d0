//! The drop-box while the app runs: the directory the service holds (its identity and its lock),
//! noticing when the path stops naming it (removed, by `cargo clean` say, or replaced), and taking
//! the path again with every check and file of the start. A path that is gone is made again; one
//! that is refused (a symlink, a foreign or group-writable directory, another app's) leaves the app
//! without a drop-box, logged once, until it is gone or safe; a safe directory is taken.
//!
//! The service looks before every listing: on a file event (the lock file's removal is one), on
//! the directory's own move or change of mode (the watch wakes for those too), and at every safety
//! rescan (500 ms). It is all service-thread work; the render side never waits on it.

use std::collections::BTreeSet;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::intake::Intake;
use super::jobs::Job;
use super::{Service, entries};
use winit_automation_dropbox::{DirId, DirLock, dir, publish};
use winit_automation_protocol::{DirError, READY_FILE};

/// How soon a directory found without its lock file is looked at again: an `rm -rf` of a
/// drop-box is over by then.
const LOOK_AGAIN: Duration = Duration::from_millis(50);

/// The drop-box the service answers in, and what it needs to take the path again.
pub(crate) struct DropboxGuard {
    dir: PathBuf,
    app_name: String,
    /// `ready.txt`'s text: the same in every directory of this run.
    ready: String,
    state: State,
}

/// Whether the service holds a drop-box.
enum State {
    /// The directory the path named when the service took it, and its lock. `lock_gone`: the
    /// last look found the directory without the lock file, which a removal under way does too.
    Held {
        id: DirId,
        lock: DirLock,
        lock_gone: bool,
    },
    /// None: the path is refused, or could not be made again. The line logged last, so that
    /// each reason is logged once.
    Without { logged: String },
}

/// What [`DropboxGuard::keep`] found.
pub(crate) enum Kept {
    /// The path names the directory held.
    Same,
    /// The path names the directory held, without the lock file held: it is looked at again in
    /// [`LOOK_AGAIN`], since an `rm -rf` removing it would fail on a directory taken again now.
    LookAgain,
    /// The directory held is gone, and the path cannot be taken: no drop-box from now on.
    Lost,
    /// Still no drop-box.
    Without,
    /// The path is a drop-box again. `lost`: the one held until now went first. `stuck`: the
    /// entries left in it that could not be removed, as at start.
    Taken { lost: bool, stuck: BTreeSet<u64> },
}

/// Why the path could not be taken.
#[derive(Debug)]
enum TakeError {
    /// The checks or the lock refused it.
    Dir(DirError),
    /// Taking over its entries, or publishing `ready.txt`, failed.
    Io {
        /// What failed.
        doing: &'static str,
        source: std::io::Error,
    },
}

impl fmt::Display for TakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TakeError::Dir(e) => match e.hint() {
                Some(hint) => write!(f, "{e} (hint: {hint})"),
                None => write!(f, "{e}"),
            },
            TakeError::Io { doing, source } => write!(f, "cannot {doing}: {source}"),
        }
    }
}

impl DropboxGuard {
    /// The guard of the directory `start` checked (`id`) and locked, whose `ready.txt` says
    /// `ready`.
    pub fn new(dir: PathBuf, app_name: String, ready: String, id: DirId, lock: DirLock) -> Self {
        DropboxGuard {
            dir,
            app_name,
            ready,
            state: State::Held {
                id,
                lock,
                lock_gone: false,
            },
        }
    }

    /// Whether the service holds a drop-box (as of the last look).
    pub fn holds(&self) -> bool {
        matches!(self.state, State::Held { .. })
    }

    /// Whether the path names the directory held, as safe as when it was taken, with the lock
    /// file held still in it. A directory made again under the same inode number fails the last
    /// test: the lock's file is still open, so no new file has its inode.
    pub fn is_intact(&self) -> bool {
        matches!(self.look(), Some(Look::Intact))
    }

    /// What the path holds of the directory held, if one is.
    fn look(&self) -> Option<Look> {
        let State::Held { id, lock, .. } = &self.state else {
            return None;
        };
        Some(if dir::identify(&self.dir).is_ok_and(|now| now == *id) {
            if lock.is_in(&self.dir) {
                Look::Intact
            } else {
                Look::LockGone
            }
        } else {
            Look::Other
        })
    }

    /// Looks at the path: the directory held is kept, or the path is taken again when it can be
    /// (`watch` is called to watch it before its `ready.txt` lets clients in). Logs one line when
    /// the drop-box goes, comes back, or is refused for a new reason.
    pub fn keep(&mut self, watch: impl FnOnce(&Path)) -> Kept {
        let look = self.look();
        if let Some(kept) = look.and_then(|look| self.still_held(look)) {
            return kept;
        }
        let lost = look.is_some();
        let logged = self.let_go();
        let was_there = fs::symlink_metadata(&self.dir).is_ok();
        match self.take(watch) {
            Ok((state, stuck)) => {
                log::warn!(
                    "winit-automation: the drop-box {} {}",
                    self.dir.display(),
                    taken_line(lost, was_there)
                );
                self.state = state;
                Kept::Taken { lost, stuck }
            }
            Err(e) => {
                self.refuse(&e, logged);
                if lost { Kept::Lost } else { Kept::Without }
            }
        }
    }

    /// What the look found of the directory held keeps it: the directory intact, or found
    /// without its lock file for the first time (a removal may be under way).
    fn still_held(&mut self, look: Look) -> Option<Kept> {
        let State::Held { lock_gone, .. } = &mut self.state else {
            return None;
        };
        match look {
            Look::Intact => {
                *lock_gone = false;
                Some(Kept::Same)
            }
            Look::LockGone if !*lock_gone => {
                *lock_gone = true;
                Some(Kept::LookAgain)
            }
            Look::LockGone | Look::Other => None,
        }
    }

    /// Lets go of the directory held, if one is: its `ready.txt` is taken out of it when the path
    /// still leads to it, and its lock is released (the path may lead to the same lock file
    /// again, which this process could not lock twice). Returns the line logged last while
    /// without one.
    fn let_go(&mut self) -> String {
        let without = State::Without {
            logged: String::new(),
        };
        match std::mem::replace(&mut self.state, without) {
            State::Held { lock, .. } => {
                withdraw_ready(&self.dir, &lock);
                String::new()
            }
            State::Without { logged } => logged,
        }
    }

    /// Logs why the path cannot be taken, unless it is the line `logged` last.
    fn refuse(&mut self, e: &TakeError, logged: String) {
        let line = format!(
            "winit-automation: no drop-box: {e}; the app runs without one until {} is gone or safe",
            self.dir.display()
        );
        if line != logged {
            log::error!("{line}");
        }
        self.state = State::Without { logged: line };
    }

    /// Takes the path as `start` does: made with mode 0700 if it is gone, checked, locked, what a
    /// previous holder left taken over, watched, and `ready.txt` published.
    fn take(&self, watch: impl FnOnce(&Path)) -> Result<(State, BTreeSet<u64>), TakeError> {
        let id = dir::prepare(&self.dir).map_err(TakeError::Dir)?;
        let lock = dir::lock(&self.dir, &self.app_name).map_err(TakeError::Dir)?;
        let stuck = entries::recover(&self.dir).map_err(|source| TakeError::Io {
            doing: "take over the entries left in it",
            source,
        })?;
        // A client that finds `ready.txt` may write its command at once: the watch must see it.
        watch(&self.dir);
        publish(&self.dir, READY_FILE, self.ready.as_bytes()).map_err(|source| TakeError::Io {
            doing: "publish ready.txt",
            source,
        })?;
        Ok((
            State::Held {
                id,
                lock,
                lock_gone: false,
            },
            stuck,
        ))
    }
}

/// What a look at the path finds of the directory held.
#[derive(Clone, Copy)]
enum Look {
    /// The directory held, as safe as it was, with the lock file held in it.
    Intact,
    /// The directory held, without the lock file held (removed, or being removed).
    LockGone,
    /// Not the directory held: gone, refused, or another one.
    Other,
}

/// A directory still holding the lock but let go of (its mode or owner changed) keeps no
/// handshake: no client takes it for a drop-box that answers.
fn withdraw_ready(dir: &Path, lock: &DirLock) {
    if lock.is_in(dir) {
        let _ = fs::remove_file(dir.join(READY_FILE));
    }
}

/// What became of the path, for the log line of a drop-box taken (again): `lost`, the one held
/// until now went just now; `was_there`, the path named a directory already.
fn taken_line(lost: bool, was_there: bool) -> &'static str {
    match (lost, was_there) {
        (true, false) => "was removed; made it again",
        (true, true) => "changed under the app; took the directory there now",
        (false, false) => "is gone; made it again",
        (false, true) => "is safe again; took it",
    }
}

impl Service {
    /// Whether the drop-box is there to list: the path names the directory held, intact, or was
    /// taken again just now (then it is watched again, before clients are let in, and its
    /// artifacts are published again).
    pub(super) fn keep_dropbox(&mut self) -> bool {
        let mut watched = None;
        let kept = self.dropbox.keep(|dir| watched = Some(Intake::watch(dir)));
        match kept {
            Kept::Same => true,
            // Not listed while it may be being removed.
            Kept::LookAgain => {
                self.intake.relist_at(Instant::now() + LOOK_AGAIN);
                false
            }
            // A watch made before taking the path failed is dropped with `watched`.
            Kept::Without => false,
            Kept::Lost => {
                self.lose_entries();
                false
            }
            Kept::Taken { lost, stuck } => {
                if lost {
                    self.lose_entries();
                }
                if let Some(intake) = watched {
                    self.intake = intake;
                }
                for seq in stuck {
                    self.jobs.insert(seq, Job::Stuck);
                }
                self.changes.republish_artifacts();
                true
            }
        }
    }

    /// The drop-box went, and every entry in it: the commands not carried out yet are forgotten,
    /// as if their clients had withdrawn them; the one the render side has is carried to its end
    /// and answered to nobody (`Jobs::lose_entries`).
    fn lose_entries(&mut self) {
        self.intake.unwatch();
        for seq in self.jobs.lose_entries() {
            self.journal.forget(seq);
        }
        self.retries = Default::default();
        self.overlays = Default::default();
        self.audits = Default::default();
    }

    /// Reading or writing the drop-box failed: logged while the directory is the one held;
    /// otherwise it is looked at again, and what became of it is what is logged.
    pub(super) fn dropbox_failed(&mut self, what: fmt::Arguments<'_>) {
        if self.dropbox.is_intact() {
            log::error!("winit-automation: {what}");
        } else {
            self.intake.relist();
        }
    }

    /// Whether an answer is to be written: not an orphan's, and with a drop-box to write it in.
    /// An orphan's seq may be a new client's by now; with no drop-box, the path is refused.
    pub(super) fn answer_goes_out(&mut self, seq: u64) -> bool {
        if self.jobs.take_orphan(seq) {
            // A new command of that seq waits to be read.
            self.intake.relist();
            return false;
        }
        self.dropbox.holds()
    }
}

/// The drop-box's directory, for the tests.
#[cfg(test)]
impl DropboxGuard {
    fn dir(&self) -> &Path {
        &self.dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(dir: &Path) -> DropboxGuard {
        let id = dir::prepare(dir).unwrap();
        let lock = dir::lock(dir, "app").unwrap();
        publish(dir, READY_FILE, b"ready\n").unwrap();
        DropboxGuard::new(dir.to_owned(), "app".into(), "ready\n".into(), id, lock)
    }

    fn ready(dir: &Path) -> Option<String> {
        fs::read_to_string(dir.join(READY_FILE)).ok()
    }

    #[test]
    fn a_removed_drop_box_is_made_again_with_its_lock_and_handshake() {
        let tmp = tempfile::tempdir().unwrap();
        let mut guard = guard(&tmp.path().join("box"));
        assert!(matches!(guard.keep(|_| {}), Kept::Same));
        fs::remove_dir_all(tmp.path()).unwrap();
        assert!(!guard.is_intact());
        assert!(matches!(guard.keep(|_| {}), Kept::Taken { lost: true, .. }));
        assert!(guard.is_intact());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(guard.dir()).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o700);
        }
        assert_eq!(ready(guard.dir()).as_deref(), Some("ready\n"));
        // The lock is held in the new directory.
        let again = dir::lock(guard.dir(), "other");
        assert!(matches!(again, Err(DirError::Locked { .. })), "{again:?}");
        assert!(matches!(guard.keep(|_| {}), Kept::Same));
    }

    #[test]
    fn a_lock_file_removed_alone_is_looked_at_again_before_the_directory_is_taken_again() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("box");
        let mut guard = guard(&path);
        fs::remove_file(path.join(winit_automation_protocol::LOCK_FILE)).unwrap();
        // The first look may be in the middle of an `rm -rf`: nothing is written yet.
        assert!(matches!(guard.keep(|_| {}), Kept::LookAgain));
        assert!(!guard.is_intact());
        assert!(matches!(guard.keep(|_| {}), Kept::Taken { lost: true, .. }));
        assert!(guard.is_intact());
    }

    // A symlink to a directory: Unix's (Windows asks for a privilege to make one).
    #[cfg(unix)]
    #[test]
    fn a_symlink_is_refused_until_it_goes() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("box");
        let mut guard = guard(&path);
        let elsewhere = tmp.path().join("elsewhere");
        dir::prepare(&elsewhere).unwrap();
        fs::rename(&path, tmp.path().join("old")).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &path).unwrap();
        assert!(matches!(guard.keep(|_| {}), Kept::Lost));
        assert!(!guard.holds());
        assert!(matches!(guard.keep(|_| {}), Kept::Without));
        // Nothing was written through the link.
        assert_eq!(fs::read_dir(&elsewhere).unwrap().count(), 0);
        fs::remove_file(&path).unwrap();
        assert!(matches!(
            guard.keep(|_| {}),
            Kept::Taken { lost: false, .. }
        ));
        assert!(guard.is_intact());
    }

    // Mode bits: Unix's (Windows' counterpart is the directory's ACL).
    #[cfg(unix)]
    #[test]
    fn a_drop_box_made_writable_loses_its_handshake_and_is_taken_again_once_safe() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("box");
        let mut guard = guard(&path);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o777)).unwrap();
        assert!(matches!(guard.keep(|_| {}), Kept::Lost));
        assert_eq!(ready(&path), None);
        fs::set_permissions(&path, fs::Permissions::from_mode(0o700)).unwrap();
        assert!(matches!(
            guard.keep(|_| {}),
            Kept::Taken { lost: false, .. }
        ));
        assert_eq!(ready(&path).as_deref(), Some("ready\n"));
    }

    #[test]
    fn another_safe_directory_in_its_place_is_taken_with_what_it_holds_answered() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("box");
        let mut guard = guard(&path);
        let other = tmp.path().join("other");
        dir::prepare(&other).unwrap();
        fs::write(other.join("command-4.txt"), "status\n").unwrap();
        fs::remove_dir_all(&path).unwrap();
        fs::rename(&other, &path).unwrap();
        assert!(matches!(guard.keep(|_| {}), Kept::Taken { lost: true, .. }));
        // Taken over as at start: the leftover command is answered, never run.
        assert!(path.join("response-4.txt").exists());
        assert!(!path.join("command-4.txt").exists());
    }
}
