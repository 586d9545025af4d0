//! Names of the files in the drop-box, and the screenshot label rule.
//!
//! Pure: builds and recognises names, never touches the file system.

use std::fmt;

use super::{ErrorCode, ParseError};

/// The handshake the app publishes once it is ready; removed on clean exit.
pub const READY_FILE: &str = "ready.txt";
/// The lock file holding the pid of the app that owns the directory.
pub const LOCK_FILE: &str = "app.lock";
/// The latest snapshot: header, windows, trees with refs, metrics.
pub const SNAPSHOT_FILE: &str = "snapshot.txt";
/// The trees only, byte-identical for the same UI state.
pub const ACCESSIBILITY_FILE: &str = "accessibility.txt";
/// The window list.
pub const WINDOWS_FILE: &str = "windows.txt";
/// Prefix of the app's temporary files; they are renamed into place and never read by clients.
pub const TEMP_PREFIX: &str = ".tmp-";

const COMMAND_PREFIX: &str = "command-";
const RESPONSE_PREFIX: &str = "response-";
const TAKEN_PREFIX: &str = "taken-";
const WITHDRAWN_PREFIX: &str = "withdrawn-";
const TXT: &str = ".txt";

/// `command-<seq>.txt`.
pub fn command_file(seq: u64) -> String {
    format!("{COMMAND_PREFIX}{seq}{TXT}")
}

/// `taken-<seq>.txt`: a command entry the app has taken (renamed from `command-<seq>.txt` when its
/// turn came). From then on its client can no longer withdraw it.
pub fn taken_file(seq: u64) -> String {
    format!("{TAKEN_PREFIX}{seq}{TXT}")
}

/// The seq of a `taken-<seq>.txt` name.
pub fn parse_taken_file(name: &str) -> Option<u64> {
    parse_seq(name.strip_prefix(TAKEN_PREFIX)?.strip_suffix(TXT)?)
}

/// `withdrawn-<seq>.txt`: a command entry its client withdrew (renamed from `command-<seq>.txt`
/// before the app took it). It keeps the seq in use until the app has dropped what it knew of the
/// command and removed the file.
pub fn withdrawn_file(seq: u64) -> String {
    format!("{WITHDRAWN_PREFIX}{seq}{TXT}")
}

/// The seq of a `withdrawn-<seq>.txt` name.
pub fn parse_withdrawn_file(name: &str) -> Option<u64> {
    parse_seq(name.strip_prefix(WITHDRAWN_PREFIX)?.strip_suffix(TXT)?)
}

/// `response-<seq>.txt`.
pub fn response_file(seq: u64) -> String {
    format!("{RESPONSE_PREFIX}{seq}{TXT}")
}

/// The seq of a `command-<seq>.txt` name; `None` for anything else, including leading zeros.
pub fn parse_command_file(name: &str) -> Option<u64> {
    parse_seq(name.strip_prefix(COMMAND_PREFIX)?.strip_suffix(TXT)?)
}

/// The seq of a `response-<seq>.txt` name.
pub fn parse_response_file(name: &str) -> Option<u64> {
    parse_seq(name.strip_prefix(RESPONSE_PREFIX)?.strip_suffix(TXT)?)
}

/// A decimal seq without sign or leading zeros.
pub fn parse_seq(digits: &str) -> Option<u64> {
    if digits.is_empty()
        || (digits.len() > 1 && digits.starts_with('0'))
        || !digits.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    digits.parse().ok()
}

/// A screenshot label: 1 to 64 characters from `[A-Za-z0-9._-]`, not starting with `.` or `-`.
/// The file is `screenshot-<label>.png`, always inside the directory.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Label(String);

impl Label {
    /// The longest label.
    pub const MAX_LEN: usize = 64;

    /// Checks a label.
    pub fn new(s: &str) -> Result<Label, ParseError> {
        let ok_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-');
        let bad = |why: &str| {
            ParseError::new(
                ErrorCode::BadArgument,
                format!("screenshot label {} {why}", super::lexer::quote(s)),
                "labels are 1 to 64 characters from A-Z a-z 0-9 . _ - and do not start with . or -",
            )
        };
        if s.is_empty() || s.len() > Self::MAX_LEN {
            return Err(bad("has the wrong length"));
        }
        if !s.chars().all(ok_char) {
            return Err(bad("has characters outside [A-Za-z0-9._-]"));
        }
        if s.starts_with('.') || s.starts_with('-') {
            return Err(bad("starts with . or -"));
        }
        Ok(Label(s.to_owned()))
    }

    /// The label text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `screenshot-<label>.png`.
    pub fn file_name(&self) -> String {
        format!("screenshot-{}.png", self.0)
    }

    /// The label of a `screenshot-<label>.png` name, if it is one.
    pub fn from_file_name(name: &str) -> Option<Label> {
        let label = name.strip_prefix("screenshot-")?.strip_suffix(".png")?;
        Label::new(label).ok()
    }
}

impl Default for Label {
    /// The label used when a screenshot command names none: `latest`.
    fn default() -> Self {
        Label("latest".to_owned())
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seq_names_round_trip_and_reject_non_canonical_forms() {
        assert_eq!(parse_command_file(&command_file(42)), Some(42));
        assert_eq!(parse_response_file(&response_file(0)), Some(0));
        for name in [
            "command-007.txt",
            "command-+1.txt",
            "command-.txt",
            "command-1.txt.tmp",
            "response-1.txt",
        ] {
            assert_eq!(parse_command_file(name), None, "{name}");
        }
    }

    #[test]
    fn labels_that_could_leave_the_directory_are_refused() {
        for label in [
            "../../x",
            "a/b",
            "..",
            ".hidden",
            "-x",
            "",
            "a b",
            "x\n",
            &"a".repeat(65),
        ] {
            assert_eq!(
                Label::new(label).unwrap_err().code,
                ErrorCode::BadArgument,
                "{label:?}"
            );
        }
        assert_eq!(
            Label::new("home-1.2_b").unwrap().file_name(),
            "screenshot-home-1.2_b.png"
        );
    }
}
