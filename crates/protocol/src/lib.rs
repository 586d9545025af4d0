#![doc = include_str!("../README.md")]

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
    SnapshotHeader, TEXT_START, Toggled, text_start,
};
pub use names::{
    ACCESSIBILITY_FILE, LOCK_FILE, Label, READY_FILE, SNAPSHOT_FILE, TEMP_PREFIX, WINDOWS_FILE,
    command_file, parse_command_file, parse_response_file, parse_seq, parse_taken_file,
    parse_withdrawn_file, response_file, taken_file, withdrawn_file,
};
pub use response::{NO_VERB, Outcome, Response};
pub use roles::{check_role, role_name, role_names};
pub use target::{NodeRef, Point, Selector, Target, Term};
pub use verbs::{
    Arg, ArgKind, Arity, Flag, FlagRule, Group, Side, ValueKind, Verb, VerbSpec, usage,
};

/// The protocol version this crate speaks. A client refuses an app with another version.
/// docs/protocol.md section 7 says when it changes; `tests/app/protocol_version.rs` pins what it covers.
pub const PROTOCOL_VERSION: u32 = 6;
