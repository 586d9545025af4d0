//! What a failing harness test (a query, a refused action, a screenshot mismatch) leaves for a
//! person (or CI) to look at: the tree, the commands the app answered so far (`journal.txt`, and
//! `trace.html` to open in a browser, with the frames when the test asked for
//! [`Spawn::trace`](super::Spawn::trace)) and a screenshot with the refs drawn on it, in
//! `target/winit-automation/<test name>/`, named in the failure message. A test that starts an
//! app removes its folder first, so a test that passes leaves none.

use std::path::{Path, PathBuf};

use super::App;
use winit_automation_client::{Client, screenshot_path};
use winit_automation_protocol::quote;

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

/// The app a failure's artifacts come from: a client connected to it, its drop-box, and whether
/// it runs the test's trace.
pub(super) struct Source<'a> {
    pub client: &'a Client,
    pub dir: &'a Path,
    pub traced: bool,
}

impl Source<'_> {
    /// Writes the failure's artifacts (`interactive`: the `-i` snapshot the message shows, or
    /// `None` to ask for it) and returns the line naming the folder, or why there is none.
    /// `more`: files beside the failure to copy in too (a screenshot's `.new.png`, `.diff.png`).
    pub fn write(&self, interactive: Option<&str>, more: &[PathBuf]) -> String {
        let Some(folder) = folder() else {
            return "no artifacts: this thread is not a named test".to_owned();
        };
        match self.try_write(&folder, interactive, more) {
            Ok(()) => format!(
                "artifacts (tree, journal, trace, screenshot): {}",
                folder.display()
            ),
            Err(e) => format!("artifacts in {} are incomplete: {e}", folder.display()),
        }
    }

    fn answer(&self, line: &str) -> Result<String, String> {
        match self.client.send_line(line) {
            Ok(r) if r.is_ok() => Ok(r.body().to_owned()),
            Ok(r) => Err(r.to_text()),
            Err(e) => Err(e.to_string()),
        }
    }

    pub(super) fn try_write(
        &self,
        folder: &Path,
        interactive: Option<&str>,
        more: &[PathBuf],
    ) -> Result<(), String> {
        std::fs::create_dir_all(folder).map_err(|e| e.to_string())?;
        let write = |name: &str, text: &str| {
            std::fs::write(folder.join(name), text).map_err(|e| format!("{name}: {e}"))
        };
        // First, so that the commands below are not steps of it. The test may have stopped the
        // trace itself: then the folder says why there is none.
        if self.traced {
            let file = folder.join("trace.html");
            if let Err(why) = self.answer(&format!("trace save {}", quote(&file.to_string_lossy())))
            {
                write("trace-not-saved.txt", &why)?;
            }
        }
        let interactive = match interactive {
            Some(text) => text.to_owned(),
            None => self.answer("snapshot -i --force")?,
        };
        write("snapshot-i.txt", &interactive)?;
        write("snapshot.txt", &self.answer("snapshot --force")?)?;
        write("journal.txt", &self.answer("journal")?)?;
        for file in more.iter().filter(|f| f.exists()) {
            if let Some(name) = file.file_name() {
                std::fs::copy(file, folder.join(name))
                    .map_err(|e| format!("{}: {e}", file.display()))?;
            }
        }
        let body = self.answer("screenshot failure --refs")?;
        let png = screenshot_path(self.dir, &body)?;
        std::fs::copy(&png, folder.join("screenshot.png"))
            .map_err(|e| format!("screenshot: {e}"))?;
        Ok(())
    }
}

impl App {
    /// Writes what a failure leaves to look at into `folder`: the tree (`snapshot.txt`,
    /// `snapshot-i.txt`), the journal (`journal.txt`), the trace (`trace.html`, when the app runs
    /// one: [`Spawn`](crate::Spawn) starts one unless told [`untraced`](crate::Spawn::untraced))
    /// and a screenshot with the refs drawn on it (`screenshot.png`). For a runner that keeps its
    /// own artifacts, as the CLI's `test --artifacts DIR` does; a failing harness test writes
    /// them by itself.
    pub fn save_artifacts(&self, folder: &Path) -> Result<(), String> {
        self.artifacts_source().try_write(folder, None, &[])
    }

    /// Writes the failure's artifacts (`interactive`: the `-i` snapshot the message shows) and
    /// returns the line naming the folder, or why there is none.
    pub(super) fn write_artifacts(&self, interactive: &str) -> String {
        self.artifacts_source().write(Some(interactive), &[])
    }

    pub(super) fn artifacts_source(&self) -> Source<'_> {
        Source {
            client: self.client(),
            dir: &self.dir,
            traced: self.trace.is_some(),
        }
    }
}
