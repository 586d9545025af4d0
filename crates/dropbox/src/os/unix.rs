//! The drop-box's questions answered on Linux and macOS: the owner's uid and the mode bits,
//! `mkdir` with mode 0700, device and inode, `O_NOFOLLOW | O_NONBLOCK`.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

use winit_automation_protocol::DirError;

/// Which file a path named when it was looked at: its device and inode. A file removed and made
/// again, or another one put in its place, has another identity while the first is held open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileId {
    dev: u64,
    ino: u64,
}

impl FileId {
    /// The identity of what `path` names, not following a symlink.
    pub(crate) fn of_path(path: &Path) -> io::Result<FileId> {
        fs::symlink_metadata(path).map(|m| FileId::of(&m))
    }

    /// The identity of an open file.
    pub(crate) fn of_file(file: &File) -> io::Result<FileId> {
        file.metadata().map(|m| FileId::of(&m))
    }

    fn of(meta: &Metadata) -> FileId {
        FileId {
            dev: meta.dev(),
            ino: meta.ino(),
        }
    }
}

/// Refuses a directory that another user owns or that group or others may write to: once neither
/// holds, only this user (and root) can put files in it.
pub(crate) fn check_access(path: &Path, meta: &Metadata) -> Result<(), DirError> {
    let me = rustix::process::geteuid().as_raw();
    if meta.uid() != me {
        return Err(DirError::NotOwned {
            path: path.to_owned(),
            owner: format!("uid {}", meta.uid()),
            me: format!("uid {me}"),
        });
    }
    let mode = meta.permissions().mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Err(DirError::Writable {
            path: path.to_owned(),
            by: format!("group or others (mode {mode:03o})"),
        });
    }
    Ok(())
}

/// Creates the directory `path` (its parent exists) readable and writable by its owner alone:
/// mode 0700, set again after `mkdir` since the umask may have taken owner bits away.
pub(crate) fn create_private_dir(path: &Path) -> io::Result<()> {
    fs::DirBuilder::new().mode(0o700).create(path)?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o700))
}

/// Files the app creates are its owner's alone (mode 0600).
pub(crate) fn private_file(options: &mut OpenOptions) -> &mut OpenOptions {
    options.mode(0o600)
}

/// Opens an entry without following a symlink planted in its place (`O_NOFOLLOW`: the open fails
/// with `ELOOP`, which [`is_link`] tells) and without blocking on a FIFO (`O_NONBLOCK`).
pub(crate) fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    options
        .custom_flags((rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32)
}

/// Whether an open with [`no_follow`] failed because the path is a symlink.
pub(crate) fn is_link(e: &io::Error) -> bool {
    e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error())
}

/// Unix never refuses a rename or a removal because a reader holds the file open.
pub(crate) fn is_busy(_: &io::Error) -> bool {
    false
}
