//! `expect audit clean [TARGET] [--keyboard] [--allow RULE|SELECTOR|RULE SELECTOR]...`: the
//! script's form of [`Audit::assert_clean`](crate::Audit::assert_clean), read and checked.

use winit_automation_client::Client;
use winit_automation_protocol::{Command, FindAnswer, Label, NodeRef, Selector, Target, Token};

use super::parse::{Expect, ScriptError, bad};
use super::run::{Stop, refused};
use crate::audit::{Allow, Failed, Form, judge, send};

/// Reads what follows `expect audit`: `clean`, the scope's target (a ref, a point or selector
/// terms) up to the first flag, then `--keyboard` and `--allow` with the tokens up to the next
/// flag.
pub(super) fn parse(rest: &[Token], line: usize) -> Result<Expect, ScriptError> {
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

/// Audits once (with the findings marked: `screenshot-script-N.png`, kept in the app's
/// directory when the expectation fails) and judges the answer against the allow-list.
pub(super) fn check(
    client: &Client,
    scope: &Option<Target>,
    keyboard: bool,
    allow: &[Allow],
    n: usize,
) -> Result<String, Stop> {
    let label = Label::new(&format!("script-{n}")).map_err(|e| refused(e.message))?;
    let sent = send(client, scope, keyboard, Some(label)).map_err(|e| match e {
        Failed::NoAnswer(_, e) => Stop::from(e),
        Failed::Refused(why) => refused(why),
    })?;
    let verdict = judge(&sent.answer, allow, |s| found(client, s))?;
    if !verdict.passed() {
        let marked = match &sent.marked {
            Ok(path) => format!("the findings marked: {}", path.display()),
            Err(why) => format!("the findings marked: none ({why})"),
        };
        let report = verdict.report(&sent.answer, Form::Script);
        return Err(refused(format!("{report}\n{marked}")));
    }
    if let Ok(marked) = &sent.marked {
        let _ = std::fs::remove_file(marked);
    }
    let c = sent.answer.checked;
    Ok(format!(
        "audit clean: {} controls, {} texts, {} images checked; {} finding(s) allowed",
        c.controls, c.texts, c.images, verdict.allowed
    ))
}

/// The refs of the nodes `find SELECTOR` answers now.
fn found(client: &Client, selector: &Selector) -> Result<Vec<NodeRef>, Stop> {
    let r = client.send(&Command::Find {
        selector: selector.clone(),
    })?;
    if let Some(refusal) = r.error_text() {
        return Err(refused(format!(
            "`find {selector}` (an --allow) was refused:\n{refusal}"
        )));
    }
    let found = FindAnswer::parse(r.body())
        .map_err(|e| refused(format!("the answer to `find` does not read: {}", e.message)))?;
    Ok(found.matches.iter().map(|n| n.r#ref).collect())
}

#[cfg(test)]
mod tests;
