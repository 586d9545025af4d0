//! The drop-box wire protocol: command grammar, targets, key chords, responses and file names.
//!
//! This layer is pure: it parses and formats text and never touches files, threads, windows or the
//! GPU. Everything above it (the drop-box, the client, the CLI, the render-thread glue) shares these
//! types, so a command means the same thing everywhere. docs/protocol.md is the normative
//! description; the golden tests (tests/protocol.rs) pin what this crate writes.
//!
//! # Example
//!
//! ```
//! use winit_automation_protocol::{Command, Target, NodeRef};
//!
//! let command = Command::parse(r#"fill @e4 "Ada \"the first\" Lovelace""#).unwrap();
//! let Command::Fill { target, text, .. } = &command else { unreachable!() };
//! assert_eq!(*target, Target::Ref(NodeRef(4)));
//! assert_eq!(text, "Ada \"the first\" Lovelace");
//! // The canonical line parses back to the same command.
//! assert_eq!(Command::parse(&command.to_line()).unwrap(), command);
//! ```

mod actions;
mod args;
mod command;
mod dir;
mod envelope;
mod error;
mod invocation;
mod key;
mod lexer;
mod lines;
mod names;
mod response;
mod roles;
mod target;
mod verbs;

pub use actions::{ACTIONS, action_name, action_names, parse_action};
pub use command::{
    ActOptions, Button, CLOCK_ENV, ClockCommand, Command, DEFAULT_WAIT_MS, DragMotion, Press,
    Projection, SECRET_PLACEHOLDER, SnapshotOptions, TraceCommand,
};
pub use dir::{DEFAULT_DIR, DIR_ENV, DirError};
pub use envelope::Envelope;
pub use error::panic_message;
pub use error::{ClientCode, ClientFailure, Code, Coded, ErrorCode, Failure, ParseError};
pub use invocation::Invocation;
pub use key::{Key, KeyChord, Modifiers, NamedKey};
pub use lexer::{Token, is_plain, quote, quote_into, tokenize, word};
pub use lines::write_logical;
pub use lines::{
    AuditAnswer, Checked, ClockAnswer, DragEnd, FindAnswer, Finding, Impact, JournalAnswer,
    JournalEntry, JournalTarget, NodeLine, NodeValue, NotRun, Quality, Rule, ScreenshotAnswer,
    SnapshotHeader, Toggled,
};
pub use names::{
    ACCESSIBILITY_FILE, LOCK_FILE, Label, READY_FILE, SNAPSHOT_FILE, TEMP_PREFIX, WINDOWS_FILE,
    command_file, parse_command_file, parse_response_file, parse_seq, parse_taken_file,
    parse_withdrawn_file, response_file, taken_file, withdrawn_file,
};
pub use response::{NO_VERB, Outcome, Response};
pub use roles::{check_role, role_name, role_names};
pub use target::{NodeRef, Point, Selector, Target, Term};
pub use verbs::{Arg, ArgKind, Arity, Flag, FlagRule, Side, ValueKind, Verb, VerbSpec, usage};

/// The protocol version this crate speaks. A client refuses an app with another version.
/// docs/protocol.md section 7 says when it changes; `tests/app/protocol_version.rs` pins what it covers.
pub const PROTOCOL_VERSION: u32 = 5;
