//! The CLI's exit codes, the one table from error codes to them, and the report of an error the
//! CLI found itself.

use std::process::ExitCode;

use winit_automation_protocol::{ClientCode, Code, Coded, quote};

pub(crate) const EXIT_OK: u8 = 0;
pub(crate) const EXIT_APP_ERROR: u8 = 1;
pub(crate) const EXIT_USAGE: u8 = 2;
pub(crate) const EXIT_NO_APP: u8 = 3;

/// The exit code of an error the CLI reports: the one table (`--help`'s EXIT CODES and
/// docs/protocol.md section 9 say the same). An error the app answered is always 1, whatever its
/// code; this table is for the rest.
pub(crate) fn exit_code(code: Code) -> u8 {
    match code {
        c if c.is_usage() => EXIT_USAGE,
        Code::Client(ClientCode::ReadFailed | ClientCode::NotPng | ClientCode::WriteFailed) => {
            EXIT_USAGE
        }
        Code::Client(ClientCode::CopyFailed | ClientCode::Mismatch | ClientCode::ScriptFailed) => {
            EXIT_APP_ERROR
        }
        Code::Protocol(_) => EXIT_APP_ERROR,
        Code::Client(_) => EXIT_NO_APP,
    }
}

/// Reports an error the CLI found itself (not the app's answer) and gives its exit code.
pub(crate) fn fail(json: bool, e: &dyn Coded) -> ExitCode {
    let (code, message, hint) = (e.code(), e.message(), e.hint());
    if json {
        println!(
            "{{\"ok\":false,\"code\":{},\"message\":{},\"hint\":{}}}",
            quote(code.as_str()),
            quote(&message),
            quote(hint.as_deref().unwrap_or(""))
        );
    } else {
        eprintln!("error: {code}: {message}");
        if let Some(hint) = hint {
            eprintln!("hint: {hint}");
        }
    }
    ExitCode::from(exit_code(code))
}
