//! How the harness's failure messages show what went wrong: an error as every front end shows it,
//! and the snapshot command whose answer they print.

use winit_automation_protocol::{Coded, Command, Projection, SnapshotOptions};

/// An error as every front end shows it: `CODE: MESSAGE`, then `hint: HINT` on a line of its own.
pub(super) fn coded(e: &dyn Coded) -> String {
    match e.hint() {
        Some(hint) => format!("{}: {}\nhint: {hint}", e.code(), e.message()),
        None => format!("{}: {}", e.code(), e.message()),
    }
}

/// `snapshot -i --force`: what failure messages (the harness's and the scripts') and
/// [`App::snapshot`](super::App::snapshot) show.
pub(crate) fn interactive_snapshot() -> Command {
    Command::Snapshot(SnapshotOptions {
        projection: Projection::Interactive,
        force: true,
        ..SnapshotOptions::default()
    })
}
