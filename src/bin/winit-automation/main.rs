//! `winit-automation`: the command-line client of the drop-box protocol.
//!
//! Each subcommand builds one protocol command, checks it locally (a malformed command is a usage
//! error, exit 2, and never reaches the app), sends it, waits for the response and prints it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod build;
#[cfg(feature = "mcp")]
mod mcp;
mod script;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use winit_automation::client::{Client, ClientError, screenshot_path};
use winit_automation::protocol::{Command, Outcome, Response, quote};
use winit_automation::testing::compare::{CompareError, Tolerance, compare_files};

const EXIT_OK: u8 = 0;
const EXIT_APP_ERROR: u8 = 1;
const EXIT_USAGE: u8 = 2;
const EXIT_NO_APP: u8 = 3;

use args::{Cli, Sub};
use build::{Outgoing, build};

fn print_json_response(r: &Response) {
    match &r.outcome {
        Outcome::Ok { body } => println!(
            "{{\"ok\":true,\"seq\":{},\"verb\":{},\"body\":{}}}",
            r.seq,
            quote(&r.verb),
            quote(body)
        ),
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => println!(
            "{{\"ok\":false,\"seq\":{},\"verb\":{},\"code\":{},\"message\":{},\"hint\":{},\"body\":{}}}",
            r.seq,
            quote(&r.verb),
            quote(code),
            quote(message),
            quote(hint),
            quote(body)
        ),
    }
}

fn local_error(json: bool, code: &str, message: &str, hint: Option<&str>) {
    if json {
        println!(
            "{{\"ok\":false,\"code\":{},\"message\":{},\"hint\":{}}}",
            quote(code),
            quote(message),
            quote(hint.unwrap_or(""))
        );
    } else {
        eprintln!("error: {message}");
        if let Some(hint) = hint {
            eprintln!("hint: {hint}");
        }
    }
}

/// Copies the screenshot a response names to `out` (a name checked by
/// [`winit_automation::client::screenshot_path`]).
fn copy_screenshot(client: &Client, response: &Response, out: &PathBuf) -> Result<(), String> {
    let from = screenshot_path(client.dir(), response.body())?;
    std::fs::copy(&from, out)
        .map(|_| ())
        .map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), out.display()))
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    #[cfg(feature = "mcp")]
    if matches!(cli.command, Sub::Mcp) {
        return match mcp::serve(cli.dir, cli.timeout) {
            Ok(()) => ExitCode::from(EXIT_OK),
            Err(why) => {
                eprintln!("error: {why}");
                ExitCode::from(EXIT_NO_APP)
            }
        };
    }
    // Local: needs no app and no directory.
    if let Sub::Compare {
        expected,
        actual,
        threshold,
        max_failed,
        diff,
    } = &cli.command
    {
        let tol = Tolerance {
            threshold: *threshold,
            max_failed: *max_failed,
        };
        return compare(cli.json, expected, actual, tol, diff.as_deref());
    }
    match &cli.command {
        Sub::Run {
            file,
            update,
            quiet,
        } => {
            let timeout = Duration::from_millis(cli.timeout);
            return script::run(cli.dir.as_deref(), timeout, file, *update, *quiet);
        }
        Sub::Record {
            file,
            from_start,
            no_expect,
        } => {
            let timeout = Duration::from_millis(cli.timeout);
            return script::record(cli.dir.as_deref(), timeout, file, *from_start, !*no_expect);
        }
        _ => {}
    }
    let outgoing = match build(&cli.command, cli.timeout) {
        Ok(o) => o,
        Err(e) => {
            local_error(cli.json, e.code().as_str(), e.message(), Some(e.hint()));
            return ExitCode::from(EXIT_USAGE);
        }
    };
    // wait and settle time out inside the app; leave room for their answer to arrive.
    let waits_in_app = matches!(cli.command, Sub::Wait { .. } | Sub::Settle { .. })
        || matches!(&cli.command, Sub::Click { act, .. } | Sub::Type { act, .. } | Sub::Fill { act, .. }
            | Sub::Key { act, .. } | Sub::Scroll { act, .. } | Sub::Hover { act, .. } | Sub::Drag { act, .. }
            | Sub::Action { act, .. } | Sub::Focus { act, .. } | Sub::Resize { act, .. } if act.settle);
    let margin = match &cli.command {
        // A long poll waits in the app up to MS: the client waits that long on top of --timeout.
        Sub::Journal { wait: Some(ms), .. } => ms.saturating_add(2_000),
        _ if waits_in_app => 2_000,
        _ => 0,
    };
    // `wait` also waits for an app that has not started yet, within the same --timeout.
    let started = std::time::Instant::now();
    let connected = if matches!(cli.command, Sub::Wait { .. }) {
        Client::connect_waiting(
            cli.dir.as_deref(),
            Duration::from_millis(cli.timeout),
            |why| {
                eprintln!(
                    "waiting up to {} ms for the app to start ({why})",
                    cli.timeout
                )
            },
        )
    } else {
        Client::connect(cli.dir.as_deref())
    };
    // The time spent waiting for the app comes off the timeout.
    let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let left = cli.timeout.saturating_sub(spent).max(1);
    let client = match connected {
        Ok(c) => c.with_timeout(Duration::from_millis(left.saturating_add(margin))),
        Err(e) => return client_failure(cli.json, &e),
    };
    let outgoing = match (&cli.command, outgoing) {
        // The time spent waiting for the app comes off the wait's own timeout.
        (Sub::Wait { .. }, Outgoing::Command(Command::Wait { selector, gone, .. })) => {
            Outgoing::Command(Command::Wait {
                selector,
                gone,
                timeout_ms: Some(left),
            })
        }
        (_, outgoing) => outgoing,
    };
    let result = match &outgoing {
        Outgoing::Command(c) => client.send(c),
        Outgoing::Raw(line) => client.send_line(line),
    };
    let response = match result {
        Ok(r) => r,
        Err(e) => return client_failure(cli.json, &e),
    };
    if let (Sub::Screenshot { out: Some(out), .. }, true) = (&cli.command, response.is_ok())
        && let Err(why) = copy_screenshot(&client, &response, out)
    {
        local_error(cli.json, "copy_failed", &why, None);
        return ExitCode::from(EXIT_APP_ERROR);
    }
    if cli.json {
        print_json_response(&response);
    }
    match &response.outcome {
        Outcome::Ok { body } => {
            if !cli.json {
                if matches!(cli.command, Sub::Status) {
                    println!("dir {}", quote(&client.dir().display().to_string()));
                }
                print!("{body}");
                if body.is_empty() {
                    println!("ok");
                }
            }
            ExitCode::from(EXIT_OK)
        }
        Outcome::Error {
            code,
            message,
            hint,
            body,
        } => {
            if !cli.json {
                eprintln!("error: {code}: {message}");
                eprintln!("hint: {hint}");
                eprint!("{body}");
            }
            ExitCode::from(EXIT_APP_ERROR)
        }
    }
}

fn client_failure(json: bool, e: &ClientError) -> ExitCode {
    local_error(json, e.code(), &e.to_string(), e.hint().as_deref());
    ExitCode::from(EXIT_NO_APP)
}

/// `compare`: prints the summary (or one JSON object); exit 0 on a match, 1 on a mismatch, 2 when a
/// file cannot be read, decoded or written.
fn compare(
    json: bool,
    expected: &std::path::Path,
    actual: &std::path::Path,
    tol: Tolerance,
    diff_out: Option<&std::path::Path>,
) -> ExitCode {
    let file_error = |e: &CompareError| {
        let (code, hint) = match e {
            CompareError::Read { .. } => ("read_failed", "check the path"),
            CompareError::Decode { .. } => ("not_png", "both files must be PNG images"),
            _ => ("write_failed", "check the --diff path and its folder"),
        };
        local_error(json, code, &e.to_string(), Some(hint));
        ExitCode::from(EXIT_USAGE)
    };
    let comparison = match compare_files(expected, actual, tol) {
        Ok(c) => c,
        Err(e) => return file_error(&e),
    };
    let written = match diff_out {
        Some(out) => match comparison.write_diff(out) {
            Ok(true) => Some(out),
            Ok(false) => None,
            Err(e) => return file_error(&e),
        },
        None => None,
    };
    let ((ew, eh), (aw, ah)) = (comparison.expected_size(), comparison.actual_size());
    if json {
        println!(
            "{{\"ok\":true,\"matched\":{},\"failed\":{},\"total\":{},\"threshold\":{},\"max_failed\":{},\"identical\":{},\"size_mismatch\":{},\"expected_size\":[{ew},{eh}],\"actual_size\":[{aw},{ah}],\"diff\":{},\"summary\":{}}}",
            comparison.matched(),
            comparison.failed(),
            comparison.total(),
            tol.threshold,
            tol.max_failed,
            comparison.identical(),
            comparison.size_mismatch(),
            written.map_or_else(|| "null".to_owned(), |p| quote(&p.display().to_string())),
            quote(&comparison.to_string()),
        );
    } else {
        println!("{comparison}");
        match (diff_out, written) {
            (_, Some(out)) => println!("diff written to {}", out.display()),
            (Some(_), None) if comparison.identical() => {
                println!("the images are identical: no diff image written");
            }
            (Some(_), None) if comparison.size_mismatch() => {
                println!("the sizes differ: no diff image written");
            }
            (Some(_), None) => {
                println!("no pixel differs by more than the threshold: no diff image written");
            }
            (None, None) => {}
        }
    }
    ExitCode::from(if comparison.matched() {
        EXIT_OK
    } else {
        EXIT_APP_ERROR
    })
}
