//! The drop-box entries as the service handles them outside a turn: taking over a directory a
//! previous run left, removing an answered entry, and the verb of an unparsable one. Free
//! functions of the directory: the service's state is not theirs.

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;

use winit_automation_dropbox::publish;
use winit_automation_dropbox::queue;
use winit_automation_protocol::{ErrorCode, Failure, READY_FILE, Response, Verb, response_file};

/// Takes over a directory left by a previous run: removes temporaries, answers that run's unread
/// responses by deleting them, and answers its leftover commands with `stale_command`, never running
/// them (they were meant for a UI that no longer exists). Returns the entries that could not be
/// removed.
pub(super) fn recover(dir: &Path) -> std::io::Result<BTreeSet<u64>> {
    let mut stuck = BTreeSet::new();
    let listing = queue::scan(dir)?;
    for temp in &listing.temps {
        let _ = fs::remove_file(dir.join(temp));
    }
    // Withdrawn by their clients: never carried out, nobody waits.
    for &seq in &listing.withdrawn {
        let _ = fs::remove_file(dir.join(winit_automation_protocol::withdrawn_file(seq)));
    }
    let _ = fs::remove_file(dir.join(READY_FILE));
    for &seq in &listing.responses {
        if !listing.commands.contains(&seq) && !listing.taken.contains(&seq) {
            let _ = fs::remove_file(dir.join(response_file(seq)));
        }
    }
    for &seq in listing.commands.union(&listing.taken) {
        // A response next to its entry is the real answer: the previous run crashed between
        // publishing it and removing the entry. Keep it.
        if !listing.responses.contains(&seq) {
            let failure = if listing.taken.contains(&seq) {
                Failure::new(
                    ErrorCode::StaleCommand,
                    "the previous run of the app stopped while carrying this command out; it may have been partly carried out",
                    "check the app's state, then send it again if it is still wanted",
                )
            } else {
                Failure::new(
                    ErrorCode::StaleCommand,
                    "this command was left by a previous run of the app and was not carried out",
                    "send it again now that the app has restarted",
                )
            };
            publish(
                dir,
                &response_file(seq),
                Response::error(seq, None, failure).to_text().as_bytes(),
            )?;
        }
        if let Err(e) = remove_entry(dir, seq) {
            log::error!("winit-automation: cannot remove command {seq}: {e}");
            stuck.insert(seq);
        }
    }
    Ok(stuck)
}

/// Removes an answered entry: a file, a symlink (never its target), a FIFO, or an empty directory
/// planted in its place.
pub(super) fn remove_entry(dir: &Path, seq: u64) -> std::io::Result<()> {
    let path = dir.join(winit_automation_protocol::command_file(seq));
    match queue::remove_command(dir, seq) {
        Err(e) if path.is_dir() => fs::remove_dir(&path).map_err(|_| e),
        other => other,
    }
}

/// The verb of an unparsable command, if its first word is one.
pub(super) fn guess_verb(bytes: &[u8]) -> Option<Verb> {
    let text = String::from_utf8_lossy(bytes);
    Verb::parse(text.split([' ', '\t', '\r', '\n']).next()?)
}
