//! The drop-box directory as the protocol names it: where it is when no one says, and why a
//! directory is refused (the checks themselves are the drop-box's; clients report the same
//! errors).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// The environment variable that names the directory when the code does not.
pub const DIR_ENV: &str = "WINIT_AUTOMATION_DIR";

/// The directory used when neither the code nor the environment names one, relative to the current
/// directory.
pub const DEFAULT_DIR: &str = "target/winit-automation";

/// Why a directory cannot be used.
#[derive(Debug)]
#[non_exhaustive]
pub enum DirError {
    /// The path is a symbolic link.
    Symlink {
        /// The directory.
        path: PathBuf,
    },
    /// The path exists and is not a directory.
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// The directory belongs to another user.
    NotOwned {
        /// The directory.
        path: PathBuf,
        /// Its owner, as the platform names it: `uid 1000` on Unix, a SID on Windows.
        owner: String,
        /// The current user, named the same way.
        me: String,
    },
    /// Someone besides its owner may write to it.
    Writable {
        /// The directory.
        path: PathBuf,
        /// Who, as the platform says it: `group or others (mode 777)` on Unix, a principal of
        /// its access control list on Windows (`Everyone (S-1-1-0)`).
        by: String,
    },
    /// Another live app holds the lock.
    Locked {
        /// The directory.
        path: PathBuf,
        /// What the lock file says about its holder, e.g. `pid 1234 app "demo"`.
        holder: String,
    },
    /// The directory does not exist (clients only; the app creates it).
    Missing {
        /// The directory.
        path: PathBuf,
    },
    /// An I/O error while checking or creating it.
    Io {
        /// The path involved.
        path: PathBuf,
        /// What was being done.
        op: &'static str,
        /// The error.
        source: io::Error,
    },
}

impl DirError {
    /// How to fix it, if there is a fix to suggest. `Display` never holds it (see
    /// [`Failure`](crate::Failure) for the rule).
    pub fn hint(&self) -> Option<String> {
        match self {
            DirError::Symlink { .. } => {
                Some(format!("point {DIR_ENV} or --dir at the real directory"))
            }
            DirError::NotADirectory { .. } => Some("remove it or choose another --dir".to_owned()),
            DirError::NotOwned { .. } => Some("use a directory you own".to_owned()),
            DirError::Writable { .. } if cfg!(windows) => Some(
                "remove the folder and let the app make it again: it makes it private to you"
                    .to_owned(),
            ),
            DirError::Writable { path, .. } => Some(format!("chmod 700 {}", path.display())),
            DirError::Locked { .. } => Some(format!(
                "stop that app, or give this one its own --dir or {DIR_ENV}"
            )),
            DirError::Missing { .. } => {
                Some("start the app with the automation feature, or pass --dir".to_owned())
            }
            DirError::Io { .. } => None,
        }
    }
}

impl fmt::Display for DirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirError::Symlink { path } => write!(
                f,
                "{} is a symbolic link; refusing to use it as the automation directory",
                path.display()
            ),
            DirError::NotADirectory { path } => {
                write!(f, "{} exists and is not a directory", path.display())
            }
            DirError::NotOwned { path, owner, me } => write!(
                f,
                "{} is owned by {owner}, not by the current user ({me})",
                path.display()
            ),
            DirError::Writable { path, by } => {
                write!(f, "{} is writable by {by}", path.display())
            }
            DirError::Locked { path, holder } => write!(
                f,
                "{} is already used by another running app ({holder})",
                path.display()
            ),
            DirError::Missing { path } => write!(f, "{} does not exist", path.display()),
            DirError::Io { path, op, source } => {
                write!(f, "cannot {op} {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for DirError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DirError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
