//! `trace`'s command line both ways: `trace start`, `trace save FILE`, `trace stop FILE`.

use crate::args::Args;
use crate::command::TraceCommand;
use crate::lexer::quote;
use crate::{ErrorCode, ParseError};

/// `trace start [--screenshots]`, `trace save FILE` or `trace stop FILE`.
pub(super) fn trace_from_args(a: &Args) -> Result<TraceCommand, ParseError> {
    let usage = "write `trace start [--screenshots]`, `trace save FILE` or `trace stop FILE`";
    let what = a.text_at(0, "start, save or stop")?;
    match what.as_str() {
        "start" => {
            a.done(1)?;
            Ok(TraceCommand::Start {
                screenshots: a.has("screenshots"),
                replaceable: a.has("replaceable"),
            })
        }
        "save" | "stop" => {
            let file = trace_file_from_args(a, &what)?;
            Ok(if what == "save" {
                TraceCommand::Save { file }
            } else {
                TraceCommand::Stop { file }
            })
        }
        other => Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("trace takes start, save or stop, not {}", quote(other)),
            usage,
        )),
    }
}

/// The FILE of `trace save FILE` and `trace stop FILE`, refusing the flags only `trace start`
/// takes.
pub(super) fn trace_file_from_args(a: &Args, what: &str) -> Result<std::path::PathBuf, ParseError> {
    let file = a
        .text_at(1, "the file to write the trace to")
        .map_err(|mut e| {
            e.hint = format!("write `trace {what} FILE`, FILE the HTML file to write");
            e
        })?;
    if file.is_empty() {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            "the trace's file is empty",
            "name the HTML file to write: trace stop /tmp/session.html",
        ));
    }
    let file = std::path::PathBuf::from(file);
    a.done(2)?;
    if let Some(flag) = ["screenshots", "replaceable"]
        .into_iter()
        .find(|f| a.has(f))
    {
        return Err(ParseError::new(
            ErrorCode::BadArgument,
            format!("--{flag} is for trace start"),
            format!("give --{flag} when the trace starts: trace start --{flag}"),
        ));
    }
    Ok(file)
}

/// The positional words of a `trace` command: what it does and, for save and stop, the file.
pub(super) fn trace_words(trace: &TraceCommand) -> Vec<String> {
    match trace {
        TraceCommand::Start { .. } => vec!["start".into()],
        TraceCommand::Save { file } => vec!["save".into(), quote(&file.to_string_lossy())],
        TraceCommand::Stop { file } => vec!["stop".into(), quote(&file.to_string_lossy())],
    }
}
