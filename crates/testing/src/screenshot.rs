//! Screenshots: [`App::screenshot`] (and [`Node::screenshot`](super::Node::screenshot)) take one
//! as a [`Screenshot`], which compares itself with a reference PNG.

use std::path::{Path, PathBuf};

use super::app::App;
use super::compare::{Rgba, Tolerance, check_reference, reference_siblings};
use winit_automation_client::screenshot_path;
use winit_automation_protocol::{Command, Target};

/// A screenshot the app took (the exact frame it drew), decoded.
#[derive(Debug, Clone)]
pub struct Screenshot {
    /// The pixels.
    pub image: Rgba,
    /// The PNG in the app's drop-box (gone once the app is dropped).
    pub path: PathBuf,
    /// Whether the app that took it runs the test's trace (for a mismatch's artifacts).
    traced: bool,
}

impl Screenshot {
    /// Compares it with a reference PNG under egui_kittest's default tolerance (threshold 0.6,
    /// no failed pixel); see [`Screenshot::assert_matches_with`].
    #[track_caller]
    pub fn assert_matches(&self, reference: impl AsRef<Path>) {
        self.assert_matches_with(reference, Tolerance::default());
    }

    /// Compares it with a reference PNG. On a mismatch, writes `<name>.new.png` (this image) and
    /// `<name>.diff.png` (failed pixels red) next to the reference and fails the test, leaving
    /// the failure's artifacts (those two too) in `target/winit-automation/<test name>/` while
    /// the app still runs; with `UPDATE_SNAPSHOTS=1` it writes the reference instead. A missing
    /// reference fails (and writes `<name>.new.png`) unless `UPDATE_SNAPSHOTS` is set.
    #[track_caller]
    pub fn assert_matches_with(&self, reference: impl AsRef<Path>, tolerance: Tolerance) {
        let reference = reference.as_ref();
        if let Err(message) = check_reference(&self.image, reference, tolerance) {
            panic!("{message}\n{}", self.artifacts(reference));
        }
    }

    /// The artifacts of a mismatch with `reference`, from the app that took it (while it runs).
    fn artifacts(&self, reference: &Path) -> String {
        let Some(dir) = self.path.parent() else {
            return "no artifacts: the screenshot has no directory".to_owned();
        };
        let client = match winit_automation_client::Client::connect(Some(dir)) {
            Ok(client) => client.with_timeout(std::time::Duration::from_secs(10)),
            Err(e) => return format!("no artifacts: the app is gone ({e})"),
        };
        let (new, diff) = reference_siblings(reference);
        let source = super::artifacts::Source {
            client: &client,
            dir,
            traced: self.traced,
        };
        source.write(None, &[new, diff])
    }

    /// Reads the PNG the app wrote (`traced`: whether the app runs the test's trace).
    pub(super) fn read(path: PathBuf, traced: bool) -> Result<Screenshot, String> {
        let image = Rgba::read(&path).map_err(|e| e.to_string())?;
        Ok(Screenshot {
            image,
            path,
            traced,
        })
    }

    /// The colour of one pixel, `[r, g, b, a]`; `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        self.image.pixel(x, y)
    }
}

impl App {
    /// Takes a screenshot of the focused window's next frame.
    #[track_caller]
    pub fn screenshot(&self) -> Screenshot {
        self.screenshot_of(None)
    }

    #[track_caller]
    pub(super) fn screenshot_of(&self, crop: Option<Target>) -> Screenshot {
        let body = self.ok_command(&Command::Screenshot {
            label: self.next_label("test"),
            crop,
            refs: false,
        });
        // `match`es, not closures: a panic in a closure would name this file, not the test's line.
        let path = match screenshot_path(&self.dir, &body) {
            Ok(path) => path,
            Err(why) => panic!("{why}"),
        };
        match Screenshot::read(path, self.trace.is_some()) {
            Ok(screenshot) => screenshot,
            Err(e) => panic!("{e}"),
        }
    }
}
