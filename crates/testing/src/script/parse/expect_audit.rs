//! `expect audit clean [TARGET] [--keyboard] [--allow RULE|SELECTOR|RULE SELECTOR]...`, read:
//! the script's form of [`Audit::assert_clean`](crate::Audit::assert_clean) (checked in
//! `run/expect_audit.rs`).

use winit_automation_protocol::{Target, Token};

use super::{Expect, ScriptError, bad};
use crate::audit::Allow;

/// Reads what follows `expect audit`: `clean`, the scope's target (a ref, a point or selector
/// terms) up to the first flag, then `--keyboard` and `--allow` with the tokens up to the next
/// flag.
pub(super) fn expect_audit(rest: &[Token], line: usize) -> Result<Expect, ScriptError> {
    match rest.first() {
        Some(t) if t.quoted.is_none() && t.bare == "clean" => {}
        _ => return Err(bad(line, "`expect audit` is `expect audit clean ...`")),
    }
    let rest = &rest[1..];
    let first_flag = rest
        .iter()
        .position(|t| t.flag_name().is_some())
        .unwrap_or(rest.len());
    let (scope, mut flags) = (&rest[..first_flag], &rest[first_flag..]);
    let scope = if scope.is_empty() {
        None
    } else {
        let written: Vec<String> = scope.iter().map(Token::written).collect();
        Some(Target::parse(&written.join(" ")).map_err(|e| ScriptError::parse(line, &e))?)
    };
    let (mut keyboard, mut allow) = (false, Vec::new());
    while let Some((flag, after)) = flags.split_first() {
        let taken = after
            .iter()
            .position(|t| t.flag_name().is_some())
            .unwrap_or(after.len());
        match flag.flag_name() {
            Some("keyboard") if taken == 0 => keyboard = true,
            Some("keyboard") => return Err(bad(line, "--keyboard takes no value")),
            Some("allow") => allow.push(
                Allow::from_tokens(&after[..taken])
                    .map_err(|e| bad(line, format!("--allow: {e}")))?,
            ),
            Some(other) => return Err(bad(line, format!("unknown flag --{other}"))),
            None => unreachable!("the first of `flags` is a flag"),
        }
        flags = &after[taken..];
    }
    Ok(Expect::Audit {
        scope,
        keyboard,
        allow,
    })
}
