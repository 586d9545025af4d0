//! The drop-box directory: where it is, the safety checks, and the lock that keeps one app per
//! directory.
//!
//! Threat model: other users of the machine. The directory must be a real directory (not a symlink),
//! owned by the current user and not writable by group or others; once that holds, only this user
//! can put files in it. Entries inside are opened without following symlinks.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::os::{self, FileId};
use winit_automation_protocol::{DEFAULT_DIR, DIR_ENV, DirError, LOCK_FILE, READY_FILE};

/// The directory to use: `explicit` if given, else `$WINIT_AUTOMATION_DIR`, else
/// `target/winit-automation` under the current directory.
pub fn resolve_dir(explicit: Option<&Path>) -> PathBuf {
    if let Some(p) = explicit {
        return p.to_owned();
    }
    match std::env::var_os(DIR_ENV) {
        Some(v) if !v.is_empty() => PathBuf::from(v),
        _ => PathBuf::from(DEFAULT_DIR),
    }
}

fn io_err<'a>(path: &'a Path, op: &'static str) -> impl FnOnce(io::Error) -> DirError + 'a {
    move |source| DirError::Io {
        path: path.to_owned(),
        op,
        source,
    }
}

/// Which directory a path named when it was checked (its device and inode; on Windows its volume
/// and file index). A directory removed and made again, or another one put in its place, has
/// another identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirId(FileId);

/// Checks that an existing `path` is a safe drop-box: a real directory, owned by us, not writable by
/// anyone else (group or others on Unix; another principal in its DACL on Windows).
pub fn check(path: &Path) -> Result<(), DirError> {
    identify(path).map(drop)
}

/// [`check`]s `path` and returns the identity of the directory it names.
pub fn identify(path: &Path) -> Result<DirId, DirError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(DirError::Missing {
                path: path.to_owned(),
            });
        }
        Err(e) => return Err(io_err(path, "inspect")(e)),
    };
    if meta.file_type().is_symlink() {
        return Err(DirError::Symlink {
            path: path.to_owned(),
        });
    }
    if !meta.is_dir() {
        return Err(DirError::NotADirectory {
            path: path.to_owned(),
        });
    }
    os::check_access(path, &meta)?;
    FileId::of_path(path)
        .map(DirId)
        .map_err(io_err(path, "inspect"))
}

/// Creates `path` private to its owner if it does not exist (mode 0700 on Unix, a protected DACL
/// that grants the user alone on Windows; parents as the system makes them), then [`check`]s it;
/// returns the identity of the directory checked.
pub fn prepare(path: &Path) -> Result<DirId, DirError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(io_err(parent, "create"))?;
    }
    match os::create_private_dir(path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io_err(path, "create")(e)),
    }
    identify(path)
}

/// Opens the file at `path` for reading without following a symlink planted in its place (on
/// Unix the open fails; on Windows the link itself opens, and its metadata says it is not a file)
/// and without blocking on a FIFO.
pub fn open_no_follow(path: &Path) -> io::Result<File> {
    os::no_follow(OpenOptions::new().read(true)).open(path)
}

/// The exclusive lock on a directory, held for the app's lifetime. The system releases it when the
/// process dies, so a crashed app never blocks a restart. The lock file stays in place on exit:
/// deleting it could let two apps lock two different files.
#[derive(Debug)]
pub struct DirLock {
    file: File,
}

impl DirLock {
    /// Whether `dir`'s lock file is the one this lock holds. It is not once the directory was
    /// removed (even when a new one got the old inode number) or its lock file replaced.
    pub fn is_in(&self, dir: &Path) -> bool {
        match (
            FileId::of_file(&self.file),
            FileId::of_path(&dir.join(LOCK_FILE)),
        ) {
            (Ok(held), Ok(there)) => held == there,
            _ => false,
        }
    }
}

/// Takes the directory lock, writing `pid <pid> app "<name>"` into the lock file.
pub fn lock(dir: &Path, app_name: &str) -> Result<DirLock, DirError> {
    let path = dir.join(LOCK_FILE);
    let mut file = os::no_follow(os::private_file(
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
    ))
    .open(&path)
    .map_err(io_err(&path, "open"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            return Err(DirError::Locked {
                path: dir.to_owned(),
                holder: holder(&mut file, dir),
            });
        }
        Err(fs::TryLockError::Error(e)) => return Err(io_err(&path, "lock")(e)),
    }
    let record = format!("{}\n", holder_line(std::process::id(), app_name));
    file.set_len(0)
        .and_then(|()| file.write_all(record.as_bytes()))
        .map_err(io_err(&path, "write"))?;
    Ok(DirLock { file })
}

/// The line the lock file holds: `pid 1234 app "demo"`.
fn holder_line(pid: u32, app: &str) -> String {
    format!("pid {pid} app {}", winit_automation_protocol::quote(app))
}

/// Who holds the lock, as its file says (`pid 1234 app "demo"`). Windows locks are mandatory, so
/// the held file cannot be read there: its holder is then read from the holder's `ready.txt`.
fn holder(lock: &mut File, dir: &Path) -> String {
    let mut text = String::new();
    if lock.read_to_string(&mut text).is_err() || text.trim().is_empty() {
        text = fs::read_to_string(dir.join(READY_FILE))
            .ok()
            .and_then(|t| crate::Ready::parse(&t).ok())
            .map(|r| holder_line(r.pid, &r.app))
            .unwrap_or_default();
    }
    match text.trim() {
        "" => "holder unknown".to_owned(),
        known => known.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_fresh_directory_is_created_with_mode_0700() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("a/b/box");
        prepare(&dir).unwrap();
        let mode = fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
    }

    #[test]
    fn a_directory_keeps_its_identity_and_another_has_its_own() {
        let tmp = tempfile::tempdir().unwrap();
        let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
        let id = prepare(&a).unwrap();
        assert_eq!(identify(&a).unwrap(), id);
        assert_ne!(prepare(&b).unwrap(), id);
        // Moved into a's place, b keeps its own identity.
        fs::remove_dir(&a).unwrap();
        fs::rename(&b, &a).unwrap();
        assert_ne!(identify(&a).unwrap(), id);
    }

    #[test]
    fn a_lock_is_in_its_directory_until_that_is_removed() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("box");
        prepare(&dir).unwrap();
        let held = lock(&dir, "app").unwrap();
        assert!(held.is_in(&dir));
        assert!(!held.is_in(tmp.path()));
        // Made again at once, the directory may even get the old inode number; its lock file
        // cannot, since the held lock keeps the old one open.
        match fs::remove_dir_all(&dir) {
            Ok(()) => {}
            // Without POSIX delete semantics (Wine, Windows before 10 1809, FAT) a file held open
            // keeps its directory: the app's lock cannot be taken from under it.
            Err(e) if cfg!(windows) && e.kind() == io::ErrorKind::DirectoryNotEmpty => {
                assert!(held.is_in(&dir));
                return;
            }
            Err(e) => panic!("{e}"),
        }
        assert!(!held.is_in(&dir));
        prepare(&dir).unwrap();
        fs::write(dir.join(LOCK_FILE), "").unwrap();
        assert!(!held.is_in(&dir));
        // The new directory can be locked while the old lock is still held.
        assert!(lock(&dir, "app").unwrap().is_in(&dir));
    }

    #[test]
    fn a_second_lock_is_refused_naming_the_holder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("box");
        prepare(&dir).unwrap();
        let _held = lock(&dir, "first app").unwrap();
        // The app publishes its handshake once it holds the lock; Windows reads the holder there.
        let ready = crate::Ready {
            protocol: winit_automation_protocol::PROTOCOL_VERSION,
            pid: std::process::id(),
            os: std::env::consts::OS.to_owned(),
            app: "first app".to_owned(),
            crate_version: "0".to_owned(),
            started_unix_ms: 0,
            queue_capacity: 1,
            max_command_bytes: 1,
        };
        crate::publish(&dir, READY_FILE, ready.to_text().as_bytes()).unwrap();
        let refused = lock(&dir, "second app").unwrap_err();
        let DirError::Locked { holder, .. } = &refused else {
            panic!("{refused:?}")
        };
        assert_eq!(
            holder,
            &format!("pid {} app \"first app\"", std::process::id())
        );
    }

    #[test]
    fn the_hint_is_apart_from_the_message() {
        let e = DirError::Writable {
            path: PathBuf::from("/tmp/box"),
            by: "group or others (mode 777)".to_owned(),
        };
        assert_eq!(
            e.to_string(),
            "/tmp/box is writable by group or others (mode 777)"
        );
        #[cfg(unix)]
        assert_eq!(e.hint().as_deref(), Some("chmod 700 /tmp/box"));
        let io = DirError::Io {
            path: PathBuf::from("/tmp/box"),
            op: "create",
            source: io::Error::other("disk full"),
        };
        assert_eq!(io.hint(), None);
        assert!(!io.to_string().contains("hint:"), "{io}");
    }
}
