//! `expect audit clean ...`, checked: audits once, the findings marked, and judges the answer
//! against the allow-list (read in `parse/expect_audit.rs`).

use winit_automation_client::Client;
use winit_automation_protocol::{Command, FindAnswer, Label, NodeRef, Selector, Target};

use super::{Stop, refused};
use crate::audit::{Allow, Failed, Form, judge, send};

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
