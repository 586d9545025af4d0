//! Event-driven wake-ups: a watch on the directory that signals when a file of interest changes.
//! Both the service thread (command entries) and the client (its response, the handshake) use it.

use std::path::Path;

use crossbeam_channel::Sender;

/// Watches `dir` (not recursively) and sends `()` on `wake` whenever an event names a file for
/// which `wants(name)` holds, or the watcher may have lost events. `wake` should be bounded(1):
/// a full channel means a wake-up is already pending, so events coalesce. `None` when the
/// directory cannot be watched; the caller then polls.
///
/// A file opened, or closed after reading (the service reading an entry, a client reading its
/// response), wakes nobody. A rename counts under the name the file arrives with, never the one
/// it leaves: a response published by renaming its temporary wakes its client, while the app
/// taking an entry (`command-<seq>.txt` to `taken-<seq>.txt`) wakes nobody. So a burst of
/// commands the app carries out costs the service no listing of the directory per command that
/// its own reads and renames would cause. (Creations, writes, removals and other changes still
/// count: an entry the service answers without taking, such as `status`, is removed under its own
/// name and wakes it once. A client's withdrawal, a rename away, is seen at the entry's turn or at
/// the next listing.)
pub(crate) fn watch(
    dir: &Path,
    wake: Sender<()>,
    wants: fn(&str) -> bool,
) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind, RenameMode};
    let handler = move |event: notify::Result<notify::Event>| {
        let relevant = match &event {
            Ok(e) => {
                let named: &[std::path::PathBuf] = match e.kind {
                    EventKind::Access(AccessKind::Close(AccessMode::Write)) => &e.paths,
                    EventKind::Access(_)
                    | EventKind::Modify(ModifyKind::Name(RenameMode::From)) => &[],
                    EventKind::Modify(ModifyKind::Name(RenameMode::Both)) => {
                        e.paths.get(1..).unwrap_or_default()
                    }
                    _ => &e.paths,
                };
                e.need_rescan()
                    || named
                        .iter()
                        .any(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(wants))
            }
            Err(_) => true,
        };
        if relevant {
            let _ = wake.try_send(());
        }
    };
    let mut watcher = notify::recommended_watcher(handler).ok()?;
    watcher
        .watch(dir, notify::RecursiveMode::NonRecursive)
        .ok()?;
    Some(watcher)
}
