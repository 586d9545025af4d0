//! The drop-box: the directory that is the message bus between clients and the app.
//!
//! This layer owns files: the directory checks and lock ([`dir`]), atomic publication, the on-disk
//! queue, the `ready.txt` handshake, the directory watch, and listing and cleaning the app's
//! screenshots (`clean`). Both the client and the service thread use it. It depends on
//! [`winit_automation_protocol`] only, never on winit, wgpu, the tree or any thread.
//!
//! It runs on Linux, macOS and Windows: what it asks of the system (ownership, permissions, file
//! identity, liveness) is answered per platform in one private module, `os`.

pub mod dir;
mod os;
mod publish;
pub mod queue;
mod ready;
pub mod screenshots;
pub mod watch;

pub use dir::{DirId, DirLock, check, prepare, resolve_dir};
pub use os::process_alive;
pub use publish::publish;
pub use queue::{EnqueueError, Entry, Listing};
pub use ready::{READY_MAGIC, Ready, rfc3339_utc, unix_ms_now};
