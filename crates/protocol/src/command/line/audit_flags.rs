//! `audit [TARGET] [--keyboard] [--screenshot LABEL]`, both ways: its parts to
//! [`Command::Audit`] and its flags back.

use super::Flags;
use crate::args::Args;
use crate::names::Label;
use crate::{Command, ParseError};

/// `audit [TARGET] [--keyboard] [--screenshot LABEL]`: one target at most, the label a valid
/// file-name part.
pub(super) fn audit_from_args(a: &Args) -> Result<Command, ParseError> {
    let (scope, used) = match a.positional.first() {
        Some(_) => {
            let (target, used) = a.target_at(0, "TARGET")?;
            (Some(target), used)
        }
        None => (None, 0),
    };
    a.done(used)?;
    let screenshot = match a.value("screenshot") {
        Some(t) => Some(Label::new(&t.text())?),
        None => None,
    };
    Ok(Command::Audit {
        scope,
        keyboard: a.has("keyboard"),
        screenshot,
    })
}

/// The flags an audit's canonical line writes.
pub(super) fn audit_flags(command: &Command, flags: &mut Flags) {
    if let Command::Audit {
        keyboard,
        screenshot,
        ..
    } = command
    {
        flags.switch("keyboard", *keyboard);
        flags.value("screenshot", screenshot.as_ref());
    }
}
