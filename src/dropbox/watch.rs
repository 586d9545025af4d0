//! Event-driven wake-ups: a watch on the directory that signals when a file of interest changes.
//! Both the service thread (command entries) and the client (its response, the handshake) use it.

use std::path::Path;

use crossbeam_channel::Sender;

/// Watches `dir` (not recursively) and sends `()` on `wake` whenever an event names a file for
/// which `wants(name)` holds, or the watcher may have lost events. `wake` should be bounded(1):
/// a full channel means a wake-up is already pending, so events coalesce. `None` when the
/// directory cannot be watched; the caller then polls.
pub(crate) fn watch(
    dir: &Path,
    wake: Sender<()>,
    wants: fn(&str) -> bool,
) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    let handler = move |event: notify::Result<notify::Event>| {
        let relevant = match &event {
            Ok(e) => {
                e.need_rescan()
                    || e.paths
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
