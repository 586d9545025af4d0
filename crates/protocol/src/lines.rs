//! Typed lines of the app's answers, each with its writer and its parser: a node line (snapshots,
//! `find`, `get`: docs/protocol.md, section 6.2), a snapshot's header line and its quality verdict
//! (section 6.2), a `find` answer (section 6.3), a `journal` answer and its entries (section
//! 6.5), a `screenshot` answer (section 5), a `clock` answer (section 4.9), an `audit` answer (section 4.10). The service writes these answers from the values, and
//! the readers (the harness, scripts, the CLI, the MCP server) parse them back into the values
//! rather than search their text.
//!
//! `Display` writes exactly the bytes the app writes, and `parse` reads them back:
//! `parse(write(x)) == x` for every value (tests/protocol/props.rs, and each file's own tests).
//! Fields and lines this version does not know (a newer app's) are skipped, so a reader keeps
//! working against a newer app.
//!
//! The snapshot formatter (`winit-automation-tree`'s `format.rs`) writes node lines itself, without a [`NodeLine`] per
//! node (a snapshot of 10,000 nodes has a budget); a test there pins that its lines parse here and
//! re-write byte for byte.
//!
//! Each kind of line has a file of its own (`lines/node.rs`, `lines/snapshot.rs`,
//! `lines/find.rs`, `lines/journal.rs`, `lines/screenshot.rs`); what they share has one too:
//! [`write_logical`] (`lines/logical.rs`) and the error of a malformed line (`lines/malformed.rs`). This file only declares them and
//! re-exports.
//!
//! Pure: no I/O.
//!
//! ```
//! use winit_automation_protocol::{NodeLine, NodeValue};
//!
//! let line = NodeLine::parse(r#"@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value"#).unwrap();
//! assert_eq!(line.value, Some(NodeValue::Text("Ada".into())));
//! assert!(line.focused && line.has("focused"));
//! assert_eq!(line.to_string(), r#"@e3 textbox "Name" value="Ada" focused bounds=120,60,300x32 actions=focus,set_value"#);
//! ```

mod audit_answer;
mod clock;
mod find;
mod journal;
mod logical;
mod malformed;
mod node;
mod screenshot;
mod snapshot;

pub use audit_answer::{AuditAnswer, Checked, Finding, Impact, NotRun, Rule};
pub use clock::ClockAnswer;
pub use find::FindAnswer;
pub use journal::{DragEnd, JournalAnswer, JournalEntry, JournalTarget};
pub use logical::write_logical;
pub use node::{NodeLine, NodeValue, TEXT_START, Toggled, text_start};
pub use screenshot::ScreenshotAnswer;
pub use snapshot::{Quality, SnapshotHeader};
