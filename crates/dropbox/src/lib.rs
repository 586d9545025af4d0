//! The drop-box: the directory that is the message bus between clients and the app.
//!
//! This layer owns files: the directory checks and lock ([`dir`]), atomic publication, the on-disk
//! queue, the `ready.txt` handshake, the directory watch, and listing and cleaning the app's
//! screenshots (`clean`). Both the client and the service thread use it. It depends on
//! [`winit_automation_protocol`] only, never on winit, wgpu, the tree or any thread.

pub mod dir;
mod publish;
pub mod queue;
mod ready;
pub mod screenshots;
pub mod watch;

pub use dir::{DirId, DirLock, check, prepare, process_alive, resolve_dir};
pub use publish::publish;
pub use queue::{EnqueueError, Entry, Listing};
pub use ready::{READY_MAGIC, Ready, rfc3339_utc, unix_ms_now};
