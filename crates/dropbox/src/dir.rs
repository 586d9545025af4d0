//! The drop-box directory: where it is, the safety checks, and the lock that keeps one app per
//! directory.
//!
//! Threat model: other users of the machine. The directory must be a real directory (not a symlink),
//! owned by the current user and not writable by group or others; once that holds, only this user
//! can put files in it. Entries inside are opened without following symlinks.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use winit_automation_protocol::{DEFAULT_DIR, DIR_ENV, DirError, LOCK_FILE};

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

/// The effective uid of this process.
pub fn euid() -> u32 {
    rustix::process::geteuid().as_raw()
}

/// Which directory a path named when it was checked: its device and inode. A directory removed
/// and made again, or another one put in its place, has another identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirId {
    dev: u64,
    ino: u64,
}

/// Checks that an existing `path` is a safe drop-box: a real directory, owned by us, not writable by
/// group or others.
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
    let me = euid();
    if meta.uid() != me {
        return Err(DirError::NotOwned {
            path: path.to_owned(),
            owner: meta.uid(),
            me,
        });
    }
    let mode = meta.permissions().mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(DirError::Writable {
            path: path.to_owned(),
            mode,
        });
    }
    Ok(DirId {
        dev: meta.dev(),
        ino: meta.ino(),
    })
}

/// Creates `path` with mode 0700 if it does not exist (parents with the default mode), then
/// [`check`]s it; returns the identity of the directory checked.
pub fn prepare(path: &Path) -> Result<DirId, DirError> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        fs::create_dir_all(parent).map_err(io_err(parent, "create"))?;
    }
    match fs::DirBuilder::new().mode(0o700).create(path) {
        Ok(()) => {
            // The umask may have removed owner bits; set the mode exactly.
            fs::set_permissions(path, fs::Permissions::from_mode(0o700))
                .map_err(io_err(path, "set the mode of"))?;
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io_err(path, "create")(e)),
    }
    identify(path)
}

/// The exclusive lock on a directory, held for the app's lifetime. The kernel releases it when the
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
        let (Ok(held), Ok(there)) = (
            self.file.metadata(),
            fs::symlink_metadata(dir.join(LOCK_FILE)),
        ) else {
            return false;
        };
        (held.dev(), held.ino()) == (there.dev(), there.ino())
    }
}

/// Takes the directory lock, writing `pid <pid> app "<name>"` into the lock file.
pub fn lock(dir: &Path, app_name: &str) -> Result<DirLock, DirError> {
    let path = dir.join(LOCK_FILE);
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .custom_flags(nofollow())
        .open(&path)
        .map_err(io_err(&path, "open"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(DirError::Locked {
                path: dir.to_owned(),
                holder: if holder.is_empty() {
                    "holder unknown".to_owned()
                } else {
                    holder.to_owned()
                },
            });
        }
        Err(fs::TryLockError::Error(e)) => return Err(io_err(&path, "lock")(e)),
    }
    let record = format!(
        "pid {} app {}\n",
        std::process::id(),
        winit_automation_protocol::quote(app_name)
    );
    file.set_len(0)
        .and_then(|()| file.write_all(record.as_bytes()))
        .map_err(io_err(&path, "write"))?;
    Ok(DirLock { file })
}

/// `O_NOFOLLOW`, for opening entries without following a symlink planted in their place.
pub fn nofollow() -> i32 {
    rustix::fs::OFlags::NOFOLLOW.bits() as i32
}

/// `O_NOFOLLOW | O_NONBLOCK`: opening a FIFO planted as a command file must not block the reader.
pub fn nofollow_nonblock() -> i32 {
    (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32
}

/// Whether a process with this pid exists and is not a zombie.
pub fn process_alive(pid: u32) -> bool {
    let Some(p) = i32::try_from(pid)
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    else {
        return false;
    };
    match rustix::process::test_kill_process(p) {
        Ok(()) => {}
        Err(rustix::io::Errno::PERM) => return true,
        Err(_) => return false,
    }
    // A killed child that nobody has reaped yet still answers kill(0): look at its state.
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_none_or(|state| state != "Z" && state != "X"),
        Err(_) => !Path::new("/proc/self").exists(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_directory_is_created_with_mode_0700() {
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
        fs::remove_dir_all(&dir).unwrap();
        assert!(!held.is_in(&dir));
        prepare(&dir).unwrap();
        fs::write(dir.join(LOCK_FILE), "").unwrap();
        assert!(!held.is_in(&dir));
        // The new directory can be locked while the old lock is still held.
        assert!(lock(&dir, "app").unwrap().is_in(&dir));
    }

    #[test]
    fn the_hint_is_apart_from_the_message() {
        let e = DirError::Writable {
            path: PathBuf::from("/tmp/box"),
            mode: 0o777,
        };
        assert_eq!(
            e.to_string(),
            "/tmp/box is writable by group or others (mode 777)"
        );
        assert_eq!(e.hint().as_deref(), Some("chmod 700 /tmp/box"));
        let io = DirError::Io {
            path: PathBuf::from("/tmp/box"),
            op: "create",
            source: io::Error::other("disk full"),
        };
        assert_eq!(io.hint(), None);
        assert!(!io.to_string().contains("hint:"), "{io}");
    }

    #[test]
    fn this_process_is_alive_and_a_free_pid_is_not() {
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(0));
        assert!(!process_alive(u32::MAX));
    }
}
