//! `winit-automation`: the command-line client of the drop-box protocol.
//!
//! Each subcommand builds one protocol command, checks it locally (a malformed command is a usage
//! error, exit 2, and never reaches the app), sends it, waits for the response and prints it.
#![allow(clippy::print_stdout, clippy::print_stderr)]

mod args;
mod exit;
#[cfg(all(test, feature = "mcp"))]
mod front_ends;
mod json;
#[cfg(feature = "mcp")]
mod mcp;
mod rust_test;
mod script;
mod suite;

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use winit_automation_client::{Client, screenshot_path};
use winit_automation_protocol::{ClientCode, ClientFailure, Command, Outcome, Response, quote};
use winit_automation_testing::compare::{CompareError, Tolerance, compare_files};

use args::{Globals, Local, Parsed};
use exit::{EXIT_APP_ERROR, EXIT_OK, fail};

/// Copies the screenshot a response names to `out` (a name checked by
/// [`winit_automation_client::screenshot_path`]).
fn copy_screenshot(client: &Client, response: &Response, out: &Path) -> Result<(), ClientFailure> {
    let failure = |message: String| ClientFailure {
        code: ClientCode::CopyFailed,
        message,
        hint: Some("check the --out path and its folder".to_owned()),
    };
    let from = screenshot_path(client.dir(), response.body()).map_err(failure)?;
    std::fs::copy(&from, out).map(|_| ()).map_err(|e| {
        failure(format!(
            "cannot copy {} to {}: {e}",
            from.display(),
            out.display()
        ))
    })
}

fn main() -> ExitCode {
    let (globals, parsed) = args::parse();
    let timeout = Duration::from_millis(globals.timeout);
    let (outgoing, out) = match parsed {
        Parsed::Verb { invocation, out } => {
            match invocation.and_then(winit_automation_protocol::Invocation::command) {
                Ok(command) => (Outgoing::Command(command), out),
                Err(e) => return fail(globals.json, &e),
            }
        }
        Parsed::Local(Local::Send { line }) => (Outgoing::Raw(line.join(" ")), None),
        #[cfg(feature = "mcp")]
        Parsed::Local(Local::Mcp(options)) => {
            if globals.json {
                eprintln!(
                    "error: bad_argument: mcp speaks MCP's own JSON-RPC on stdout; --json is the verbs' output\nhint: drop --json"
                );
                return ExitCode::from(exit::EXIT_USAGE);
            }
            return match mcp::serve(globals.dir, globals.timeout, options) {
                Ok(()) => ExitCode::from(EXIT_OK),
                Err(why) => {
                    eprintln!("error: {why}");
                    ExitCode::from(exit::EXIT_NO_APP)
                }
            };
        }
        // Local: needs no app and no directory.
        Parsed::Local(Local::Compare {
            expected,
            actual,
            threshold,
            max_failed,
            diff,
        }) => {
            let tol = Tolerance {
                threshold,
                max_failed,
            };
            return compare(globals.json, &expected, &actual, tol, diff.as_deref());
        }
        Parsed::Local(Local::Run {
            file,
            update,
            quiet,
            trace,
        }) => {
            let options = script::RunArgs {
                update,
                quiet,
                trace,
            };
            return script::run(globals.dir.as_deref(), timeout, &file, &options);
        }
        Parsed::Local(Local::Test(args)) => {
            if globals.dir.is_some() || globals.json {
                eprintln!(
                    "error: bad_argument: test starts its own apps, each with a private drop-box, and reports as text\nhint: drop --dir and --json; --junit FILE writes a report for machines"
                );
                return ExitCode::from(exit::EXIT_USAGE);
            }
            return suite::test(&args, timeout);
        }
        Parsed::Local(Local::Record {
            file,
            from_start,
            no_expect,
            rust,
        }) => {
            let options = script::RecordArgs {
                from_start,
                expect: !no_expect,
                rust,
            };
            return script::record(globals.dir.as_deref(), timeout, &file, &options);
        }
    };
    send(&globals, outgoing, out.as_deref())
}

/// What to send: a checked command or a raw line (`send`).
enum Outgoing {
    Command(Command),
    Raw(String),
}

/// Connects, sends, prints the answer and gives the exit code.
fn send(globals: &Globals, outgoing: Outgoing, out: Option<&Path>) -> ExitCode {
    let json = globals.json;
    let command = match &outgoing {
        Outgoing::Command(c) => Some(c),
        Outgoing::Raw(_) => None,
    };
    let is_wait = matches!(command, Some(Command::Wait { .. }));
    // `wait` also waits for an app that has not started yet, within the same --timeout.
    let started = std::time::Instant::now();
    let connected = if is_wait {
        Client::connect_waiting(
            globals.dir.as_deref(),
            Duration::from_millis(globals.timeout),
            |why| {
                eprintln!(
                    "waiting up to {} ms for the app to start ({why})",
                    globals.timeout
                )
            },
        )
    } else {
        Client::connect(globals.dir.as_deref())
    };
    // The time spent waiting for the app comes off the timeout, and off the wait's own.
    let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let left = globals.timeout.saturating_sub(spent).max(1);
    let outgoing = match outgoing {
        Outgoing::Command(Command::Wait { selector, gone, .. }) => {
            Outgoing::Command(Command::Wait {
                selector,
                gone,
                timeout_ms: Some(left),
            })
        }
        other => other,
    };
    // A command the app holds (a wait, a settle, a long poll) is waited for that long, and 2 s
    // more for its answer to arrive.
    let held = match &outgoing {
        Outgoing::Command(c) => c.held_in_app_ms(),
        Outgoing::Raw(_) => None,
    };
    let wait = held.map_or(left, |ms| left.max(ms).saturating_add(2_000));
    let client = match connected {
        Ok(c) => c.with_timeout(Duration::from_millis(wait)),
        Err(e) => return fail(json, &e),
    };
    let result = match &outgoing {
        Outgoing::Command(c) => client.send(c),
        Outgoing::Raw(line) => client.send_line(line),
    };
    let response = match result {
        Ok(r) => r,
        Err(e) => return fail(json, &e),
    };
    if let (Some(out), true) = (out, response.is_ok())
        && let Err(e) = copy_screenshot(&client, &response, out)
    {
        return fail(json, &e);
    }
    if json {
        println!("{}", json::response(&response));
    }
    match &response.outcome {
        Outcome::Ok { body } => {
            if !json {
                if matches!(&outgoing, Outgoing::Command(Command::Status)) {
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
            if !json {
                eprintln!("error: {code}: {message}");
                eprintln!("hint: {hint}");
                eprint!("{body}");
            }
            ExitCode::from(EXIT_APP_ERROR)
        }
    }
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
            CompareError::Read { .. } => (ClientCode::ReadFailed, "check the path"),
            CompareError::Decode { .. } => (ClientCode::NotPng, "both files must be PNG images"),
            _ => (
                ClientCode::WriteFailed,
                "check the --diff path and its folder",
            ),
        };
        let failure = ClientFailure {
            code,
            message: e.to_string(),
            hint: Some(hint.to_owned()),
        };
        fail(json, &failure)
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
