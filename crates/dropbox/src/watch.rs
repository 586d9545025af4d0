//! Event-driven wake-ups: a watch on the directory that signals when a file of interest changes.
//! Both the service thread (command entries) and the client (its response, the handshake) use it.

use std::path::Path;

use crossbeam_channel::Sender;

/// The system's watch behind [`watch`], as `status` names it: inotify on Linux,
/// ReadDirectoryChangesW on Windows, kqueue on macOS and the BSDs (notify's `macos_kqueue`).
pub const SYSTEM_WATCH: &str = if cfg!(any(target_os = "linux", target_os = "android")) {
    "inotify"
} else if cfg!(windows) {
    "ReadDirectoryChangesW"
} else {
    "kqueue"
};

/// What became of a file a watch event names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Change {
    /// Created, written, renamed to its name, or changed otherwise.
    Arrived,
    /// Removed.
    Removed,
}

/// Watches `dir` (not recursively) and sends `()` on `wake` whenever an event names a file for
/// which `wants(name, change)` holds, or the watcher may have lost events. `wake` should be
/// bounded(1): a full channel means a wake-up is already pending, so events coalesce. `None` when
/// the directory cannot be watched; the caller then polls.
///
/// A file opened, or closed after reading (the service reading an entry, a client reading its
/// response), wakes nobody. A rename counts under the name the file arrives with, never the one
/// it leaves: a response published by renaming its temporary wakes its client, while the app
/// taking an entry (`command-<seq>.txt` to `taken-<seq>.txt`) wakes nobody. So a burst of
/// commands the app carries out costs the service no listing of the directory per command that
/// its own reads and renames would cause. A removal is a [`Change::Removed`]: the service, which
/// removes the entries it answers without taking (`status`, say), wants none of them; a client
/// wants the handshake's. (A client's withdrawal, a rename away, is seen at the entry's turn or
/// at the next listing.)
///
/// The directory itself moved away or given another mode also wakes, and so does its removal once
/// nothing in it is held open (a removed directory is reported when its last file is closed):
/// whoever waits looks at it again at once rather than at its next rescan.
pub fn watch(
    dir: &Path,
    wake: Sender<()>,
    wants: fn(&str, Change) -> bool,
) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    use notify::event::{AccessKind, AccessMode, EventKind, ModifyKind, RenameMode};
    // notify names the directory's own events by the path it was given, made absolute.
    let itself = std::path::absolute(dir).unwrap_or_else(|_| dir.to_owned());
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
                let change = match e.kind {
                    EventKind::Remove(_) => Change::Removed,
                    _ => Change::Arrived,
                };
                // Not its opening (a listing): the service lists it on every wake-up.
                let about_itself = matches!(e.kind, EventKind::Remove(_) | EventKind::Modify(_))
                    && e.paths.contains(&itself);
                e.need_rescan()
                    || about_itself
                    || named.iter().any(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| wants(n, change))
                    })
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    use super::{Change, watch};

    fn nothing(_: &str, _: Change) -> bool {
        false
    }

    /// What the test's watch was told, in order.
    static SEEN: Mutex<Vec<(String, Change)>> = Mutex::new(Vec::new());

    fn record(name: &str, change: Change) -> bool {
        SEEN.lock().unwrap().push((name.to_owned(), change));
        true
    }

    #[test]
    fn a_removal_is_told_apart_from_an_arrival() {
        let dir = tempfile::tempdir().unwrap();
        let (tx, woken) = crossbeam_channel::bounded(1);
        let _watch = watch(dir.path(), tx, record)
            .expect("an inotify watch (the machine may be out of inotify instances)");
        let entry = dir.path().join("command-1.txt");
        std::fs::write(&entry, "status\n").unwrap();
        std::fs::remove_file(&entry).unwrap();
        // Events come in order: once the marker's arrival is seen, so was all before it.
        std::fs::write(dir.path().join("marker"), "").unwrap();
        let until = Instant::now() + Duration::from_secs(10);
        while !SEEN.lock().unwrap().iter().any(|(n, _)| n == "marker") {
            assert!(Instant::now() < until, "no event for the marker");
            let _ = woken.recv_timeout(Duration::from_millis(100));
        }
        let seen: Vec<Change> = SEEN
            .lock()
            .unwrap()
            .iter()
            .filter(|(n, _)| n == "command-1.txt")
            .map(|&(_, c)| c)
            .collect();
        assert_eq!(seen.first(), Some(&Change::Arrived), "{seen:?}");
        assert_eq!(seen.last(), Some(&Change::Removed), "{seen:?}");
        assert_eq!(
            seen.iter().filter(|&&c| c == Change::Removed).count(),
            1,
            "{seen:?}"
        );
    }

    #[test]
    fn the_directory_itself_changed_moved_or_removed_wakes_whoever_wants_no_file() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("box");
        std::fs::create_dir(&dir).unwrap();
        let (tx, woken) = crossbeam_channel::bounded(1);
        let _watch = watch(&dir, tx, nothing)
            .expect("an inotify watch (the machine may be out of inotify instances)");
        // Files come and go, and the directory is listed: no wake-up.
        std::fs::write(dir.join("command-1.txt"), "status\n").unwrap();
        std::fs::remove_file(dir.join("command-1.txt")).unwrap();
        std::fs::read_dir(&dir).unwrap().for_each(drop);
        assert!(woken.recv_timeout(Duration::from_millis(200)).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
            assert!(
                woken.recv_timeout(Duration::from_secs(10)).is_ok(),
                "a new mode"
            );
        }
        // Windows tells a watch nothing of its own directory's move or removal (the service's
        // rescan sees it, docs/protocol.md section 1.1).
        if cfg!(windows) {
            return;
        }
        let moved = tmp.path().join("moved");
        std::fs::rename(&dir, &moved).unwrap();
        assert!(woken.recv_timeout(Duration::from_secs(10)).is_ok(), "moved");
        std::fs::remove_dir(&moved).unwrap();
        assert!(
            woken.recv_timeout(Duration::from_secs(10)).is_ok(),
            "removed"
        );
    }
}
