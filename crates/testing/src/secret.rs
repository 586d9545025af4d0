//! Secrets as the harness and its scripts handle them: a `--secret` line whose text is a
//! placeholder (`$NAME`, what a recording writes: protocol's `SECRET_PLACEHOLDER`) is sent with
//! the text of the environment variable NAME, and a line is shown (in a failure message, a run's
//! progress) with a secret's text masked.

use winit_automation_protocol::Command;

/// Why a secret's placeholder could not be filled: the environment variable it names is not set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unset(pub String);

impl std::fmt::Display for Unset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the environment variable {} is not set: this line's secret text comes from it (set it to the secret before running)",
            self.0
        )
    }
}

/// `line` as the command to send when it is a `--secret` line whose text is a placeholder
/// (`$NAME`), its text read from the environment variable NAME; `None` for any other line (sent
/// as written).
pub(crate) fn from_env(line: &str) -> Result<Option<Command>, Unset> {
    let Ok(command) = Command::parse(line) else {
        return Ok(None);
    };
    let Some(name) = command
        .text()
        .filter(|(_, secret)| *secret)
        .and_then(|(text, _)| text.strip_prefix('$'))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    else {
        return Ok(None);
    };
    match std::env::var(name) {
        Ok(secret) => Ok(Some(command.with_text(secret))),
        Err(_) => Err(Unset(name.to_owned())),
    }
}

/// A line as a message shows it: a secret's text masked (the command's placeholder), a line that
/// says `--secret` and does not parse not at all; any other line as written.
pub(crate) fn shown(line: &str) -> String {
    match Command::parse(line) {
        Ok(c) if c.text().is_some_and(|(_, secret)| secret) => c.redacted(true).to_line(),
        Ok(_) => line.to_owned(),
        Err(_) if line.split_whitespace().any(|w| w == "--secret") => {
            "(a line with --secret that does not parse; its words are not shown)".to_owned()
        }
        Err(_) => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_secret_line_is_shown_masked_and_other_lines_as_written() {
        assert_eq!(
            shown("fill @e5 \"hunter2\" --secret"),
            "fill @e5 \"$WINIT_AUTOMATION_SECRET\" --secret"
        );
        assert_eq!(shown("click  @e5"), "click  @e5");
        assert!(!shown("type correct horse --secret").contains("horse"));
        assert_eq!(from_env("click @e5"), Ok(None));
        assert_eq!(from_env("fill @e5 hunter2 --secret"), Ok(None));
        assert_eq!(
            from_env("fill @e5 \"$WINIT_AUTOMATION_TEST_UNSET_VAR\" --secret"),
            Err(Unset("WINIT_AUTOMATION_TEST_UNSET_VAR".into()))
        );
    }
}
