//! Why a comparison could not be made or its result not saved: [`CompareError`], with its code
//! and hint.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use winit_automation_protocol::{ClientCode, Code, Coded};

/// Why a comparison could not be made or its result not saved.
#[derive(Debug)]
#[non_exhaustive]
pub enum CompareError {
    /// The file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
    /// The file is not a PNG, or not one that can be decoded.
    Decode {
        /// The file.
        path: PathBuf,
        /// The decoder's reason.
        reason: String,
    },
    /// The file could not be written.
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O (or encoding) error.
        source: io::Error,
    },
}

impl CompareError {
    /// The file the error is about.
    #[must_use]
    pub fn path(&self) -> &Path {
        match self {
            Self::Read { path, .. } | Self::Decode { path, .. } | Self::Write { path, .. } => path,
        }
    }
}

impl fmt::Display for CompareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            Self::Decode { path, reason } => {
                write!(f, "cannot decode {} as a PNG: {reason}", path.display())
            }
            Self::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for CompareError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } | Self::Write { source, .. } => Some(source),
            Self::Decode { .. } => None,
        }
    }
}

impl Coded for CompareError {
    fn code(&self) -> Code {
        Code::Client(match self {
            Self::Read { .. } => ClientCode::ReadFailed,
            Self::Decode { .. } => ClientCode::NotPng,
            Self::Write { .. } => ClientCode::WriteFailed,
        })
    }
    fn hint(&self) -> Option<String> {
        Some(
            match self {
                Self::Read { .. } => "check the path",
                Self::Decode { .. } => "both files must be PNG images",
                Self::Write { .. } => "check the path and its folder",
            }
            .to_owned(),
        )
    }
}
