//! What a failing harness test leaves for a person (or CI) to look at: the tree, the commands
//! the app answered so far and a screenshot with the refs drawn on it, in
//! `target/winit-automation/<test name>/`, named in the failure message. A test that starts an
//! app removes its folder first, so a test that passes leaves none.

use std::path::{Path, PathBuf};

use super::App;
use crate::client::screenshot_path;

/// The folder of the test running on this thread: its name from the test harness's thread name
/// (`module::test`, with `::` as `-`), under the target directory.
pub(super) fn folder() -> Option<PathBuf> {
    let name = std::thread::current().name()?.to_owned();
    if name == "main" {
        return None;
    }
    let safe: String = name
        .replace("::", "-")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    Some(target_dir()?.join("winit-automation").join(safe))
}

/// `CARGO_TARGET_DIR`, else the directory three levels above the test binary
/// (`<target>/debug/deps/<test>`), where cargo puts it.
fn target_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR") {
        return Some(PathBuf::from(dir));
    }
    let exe = std::env::current_exe().ok()?;
    Some(exe.parent()?.parent()?.parent()?.to_owned())
}

/// Removes the test's folder, left by an earlier run that failed.
pub(super) fn clear() {
    if let Some(dir) = folder() {
        let _ = std::fs::remove_dir_all(dir);
    }
}

impl App {
    /// Writes the failure's artifacts (`interactive`: the `-i` snapshot the message shows) and
    /// returns the line naming the folder, or why there is none.
    pub(super) fn write_artifacts(&self, interactive: &str) -> String {
        let Some(dir) = folder() else {
            return "no artifacts: this thread is not a named test".to_owned();
        };
        match self.try_write_artifacts(&dir, interactive) {
            Ok(()) => format!("artifacts (tree, journal, screenshot): {}", dir.display()),
            Err(e) => format!("artifacts in {} are incomplete: {e}", dir.display()),
        }
    }

    fn try_write_artifacts(&self, dir: &Path, interactive: &str) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        let write = |name: &str, text: &str| {
            std::fs::write(dir.join(name), text).map_err(|e| format!("{name}: {e}"))
        };
        write("snapshot-i.txt", interactive)?;
        let answer = |line: &str| match self.client().send_line(line) {
            Ok(r) if r.is_ok() => Ok(r.body().to_owned()),
            Ok(r) => Err(r.to_text()),
            Err(e) => Err(e.to_string()),
        };
        write("snapshot.txt", &answer("snapshot --force")?)?;
        write("journal.txt", &answer("journal")?)?;
        let body = answer("screenshot failure --refs")?;
        let png = screenshot_path(&self.dir, &body)?;
        std::fs::copy(&png, dir.join("screenshot.png")).map_err(|e| format!("screenshot: {e}"))?;
        Ok(())
    }
}
