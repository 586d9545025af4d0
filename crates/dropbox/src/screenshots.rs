//! The app's screenshots in the directory, and `clean`: which to keep, which to remove.
//!
//! Only regular files named `screenshot-<label>.png` with a valid label count; symlinks (even ones
//! named like a screenshot), directories and every other file are never listed, followed or
//! removed. The choice of what to keep ([`select`]) is pure; [`list`] and [`clean`] do the I/O.

use std::fs;
use std::io;
use std::path::Path;
use std::time::SystemTime;

use winit_automation_protocol::{ErrorCode, Failure, Label, quote};

/// One screenshot file: its name, modification time and size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shot {
    /// The file name, `screenshot-<label>.png`.
    pub name: String,
    /// When it was last modified (the Unix epoch when the file system does not say).
    pub modified: SystemTime,
    /// Its size in bytes.
    pub bytes: u64,
}

/// Whether `name` is exactly `screenshot-<label>.png` with a valid label.
pub fn is_screenshot_name(name: &str) -> bool {
    Label::from_file_name(name).is_some_and(|label| label.file_name() == name)
}

/// Puts `shots` newest first (later modification time first; equal times by name), keeps the
/// first `keep` and returns `(kept, to_remove)`, both in that order.
pub fn select(mut shots: Vec<Shot>, keep: usize) -> (Vec<Shot>, Vec<Shot>) {
    shots.sort_by(|a, b| {
        b.modified
            .cmp(&a.modified)
            .then_with(|| a.name.cmp(&b.name))
    });
    let to_remove = shots.split_off(keep.min(shots.len()));
    (shots, to_remove)
}

/// The screenshot files in `dir`, in directory order. Entries are looked at without following
/// symlinks; one that vanishes while being listed is left out.
pub fn list(dir: &Path) -> io::Result<Vec<Shot>> {
    let mut shots = Vec::new();
    for entry in fs::read_dir(dir)? {
        let Ok(entry) = entry else { continue };
        let Some(name) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if !is_screenshot_name(&name) {
            continue;
        }
        // `DirEntry::metadata` does not follow a symlink: a link is seen as a link.
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.file_type().is_file() {
            continue;
        }
        shots.push(Shot {
            name,
            modified: meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
            bytes: meta.len(),
        });
    }
    Ok(shots)
}

/// What became of one screenshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fate {
    /// One of the `keep` newest: left in place.
    Kept,
    /// It was removed.
    Removed,
    /// `--dry-run`: it would have been removed.
    WouldRemove,
    /// Removing it failed, for this reason.
    Failed(String),
}

/// The outcome of `clean`: every screenshot, newest first, with its fate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cleaned {
    /// Every screenshot listed, newest first, with its fate.
    pub shots: Vec<(Shot, Fate)>,
    /// Whether it was a `--dry-run`: nothing was removed.
    pub dry_run: bool,
}

impl Cleaned {
    /// How many screenshots have this fate (`Failed` counts every failure).
    fn count(&self, f: impl Fn(&Fate) -> bool) -> usize {
        self.shots.iter().filter(|(_, fate)| f(fate)).count()
    }

    /// How many were removed.
    pub fn removed(&self) -> usize {
        self.count(|f| *f == Fate::Removed)
    }

    /// How many removals failed.
    pub fn failed(&self) -> usize {
        self.count(|f| matches!(f, Fate::Failed(_)))
    }

    /// The answer's body: one line per screenshot, newest first, then the totals (docs/protocol.md,
    /// section 5.1).
    pub fn body(&self) -> String {
        let mut body = String::new();
        let mut freed = 0u64;
        for (shot, fate) in &self.shots {
            let word = match fate {
                Fate::Kept => "kept",
                Fate::Removed => "removed",
                Fate::WouldRemove => "would_remove",
                Fate::Failed(_) => "failed",
            };
            body.push_str(&format!("{word} {} bytes {}", shot.name, shot.bytes));
            match fate {
                Fate::Failed(why) => body.push_str(&format!(" error {}", quote(why))),
                Fate::Removed | Fate::WouldRemove => freed += shot.bytes,
                Fate::Kept => {}
            }
            body.push('\n');
        }
        let kept = self.count(|f| *f == Fate::Kept);
        if self.dry_run {
            let would = self.count(|f| *f == Fate::WouldRemove);
            body.push_str(&format!(
                "total {} kept {kept} would_remove {would} would_free_bytes {freed}\n",
                self.shots.len()
            ));
        } else {
            body.push_str(&format!(
                "total {} kept {kept} removed {} failed {} freed_bytes {freed}\n",
                self.shots.len(),
                self.removed(),
                self.failed()
            ));
        }
        body
    }

    /// The answer: the body, or, if any removal failed, an `app_error` with the body.
    pub fn into_answer(self) -> Result<String, Failure> {
        let failed = self.failed();
        if failed == 0 {
            return Ok(self.body());
        }
        let attempted = failed + self.removed();
        Err(Failure::new(
            ErrorCode::AppError,
            format!("{failed} of {attempted} screenshots could not be removed"),
            "the failed lines say why; check the permissions of the automation directory",
        )
        .with_body(self.body()))
    }
}

/// Lists the screenshots in `dir`, keeps the `keep` newest and removes the others (none with
/// `dry_run`). A removal that fails is recorded and the others go on.
pub fn clean(dir: &Path, keep: usize, dry_run: bool) -> io::Result<Cleaned> {
    // `remove_file` unlinks the name: were it swapped for a symlink meanwhile, the link would go,
    // never what it points to.
    clean_with(dir, keep, dry_run, |name| fs::remove_file(dir.join(name)))
}

/// [`clean`] with `remove` removing a file by name.
fn clean_with(
    dir: &Path,
    keep: usize,
    dry_run: bool,
    mut remove: impl FnMut(&str) -> io::Result<()>,
) -> io::Result<Cleaned> {
    let (kept, to_remove) = select(list(dir)?, keep);
    let mut shots: Vec<(Shot, Fate)> = kept.into_iter().map(|s| (s, Fate::Kept)).collect();
    for shot in to_remove {
        let fate = if dry_run {
            Fate::WouldRemove
        } else {
            match remove(&shot.name) {
                Ok(()) => Fate::Removed,
                Err(e) => Fate::Failed(e.to_string()),
            }
        };
        shots.push((shot, fate));
    }
    Ok(Cleaned { shots, dry_run })
}

#[cfg(test)]
mod tests {
    use std::fs::File;
    use std::time::Duration;

    use super::*;

    fn shot(name: &str, secs: u64, bytes: u64) -> Shot {
        Shot {
            name: name.into(),
            modified: SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
            bytes,
        }
    }

    fn names(shots: &[Shot]) -> Vec<&str> {
        shots.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn only_names_of_the_screenshot_shape_with_a_valid_label_count() {
        for name in [
            "screenshot-latest.png",
            "screenshot-home-1.2_b.png",
            "screenshot-a.png.png",
        ] {
            assert!(is_screenshot_name(name), "{name}");
        }
        for name in [
            "screenshot-.png",
            "screenshot-.hidden.png",
            "screenshot--x.png",
            "screenshot-a b.png",
            "screenshot-a.PNG",
            "screenshot-a.png.tmp",
            ".tmp-1-2-screenshot-a.png",
            "screenshot.png",
            "xscreenshot-a.png",
            "snapshot.txt",
            &format!("screenshot-{}.png", "a".repeat(65)),
        ] {
            assert!(!is_screenshot_name(name), "{name}");
        }
    }

    #[test]
    fn the_newest_are_kept_and_equal_times_go_by_name() {
        let shots = vec![
            shot("screenshot-b.png", 10, 1),
            shot("screenshot-old.png", 5, 2),
            shot("screenshot-new.png", 20, 3),
            shot("screenshot-a.png", 10, 4),
        ];
        let (kept, removed) = select(shots.clone(), 2);
        assert_eq!(names(&kept), ["screenshot-new.png", "screenshot-a.png"]);
        assert_eq!(names(&removed), ["screenshot-b.png", "screenshot-old.png"]);
        // The input order does not matter.
        let mut reversed = shots.clone();
        reversed.reverse();
        assert_eq!(select(reversed, 2), (kept, removed));
        let (kept, removed) = select(shots.clone(), 0);
        assert!(kept.is_empty());
        assert_eq!(removed.len(), 4);
        let (kept, removed) = select(shots, 9);
        assert_eq!(kept.len(), 4);
        assert!(removed.is_empty());
        assert_eq!(select(vec![], 1), (vec![], vec![]));
    }

    #[test]
    fn the_body_lists_each_file_then_the_totals() {
        let cleaned = Cleaned {
            shots: vec![
                (shot("screenshot-new.png", 3, 300), Fate::Kept),
                (shot("screenshot-mid.png", 2, 200), Fate::Removed),
                (
                    shot("screenshot-old.png", 1, 100),
                    Fate::Failed("Permission denied (os error 13)".into()),
                ),
            ],
            dry_run: false,
        };
        assert_eq!(
            cleaned.body(),
            "kept screenshot-new.png bytes 300\n\
             removed screenshot-mid.png bytes 200\n\
             failed screenshot-old.png bytes 100 error \"Permission denied (os error 13)\"\n\
             total 3 kept 1 removed 1 failed 1 freed_bytes 200\n"
        );
        assert_eq!(cleaned.failed(), 1);
        let dry = Cleaned {
            shots: vec![
                (shot("screenshot-new.png", 3, 300), Fate::Kept),
                (shot("screenshot-old.png", 1, 100), Fate::WouldRemove),
            ],
            dry_run: true,
        };
        assert_eq!(
            dry.body(),
            "kept screenshot-new.png bytes 300\n\
             would_remove screenshot-old.png bytes 100\n\
             total 2 kept 1 would_remove 1 would_free_bytes 100\n"
        );
        let empty = Cleaned {
            shots: vec![],
            dry_run: false,
        };
        assert_eq!(
            empty.body(),
            "total 0 kept 0 removed 0 failed 0 freed_bytes 0\n"
        );
    }

    // Symlinks, FIFOs and mode bits: Unix (Windows opens a link itself, os/windows.rs).
    #[cfg(unix)]
    #[test]
    fn listing_skips_symlinks_directories_and_other_files() {
        let tmp = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let secret = outside.path().join("secret.png");
        fs::write(&secret, b"secret").unwrap();
        fs::write(dir.join("screenshot-a.png"), b"aa").unwrap();
        fs::write(dir.join("screenshot-b.png"), b"bbb").unwrap();
        fs::write(dir.join("snapshot.txt"), b"x").unwrap();
        fs::write(dir.join("screenshot-.bad.png"), b"x").unwrap();
        fs::create_dir(dir.join("screenshot-dir.png")).unwrap();
        std::os::unix::fs::symlink(&secret, dir.join("screenshot-link.png")).unwrap();
        let old = SystemTime::now() - Duration::from_secs(60);
        File::options()
            .write(true)
            .open(dir.join("screenshot-a.png"))
            .unwrap()
            .set_modified(old)
            .unwrap();

        let mut listed = list(dir).unwrap();
        listed.sort_by(|a, b| a.name.cmp(&b.name));
        assert_eq!(names(&listed), ["screenshot-a.png", "screenshot-b.png"]);
        assert_eq!(listed[0].bytes, 2);

        let dry = clean(dir, 1, true).unwrap();
        assert_eq!(
            dry.body(),
            "kept screenshot-b.png bytes 3\nwould_remove screenshot-a.png bytes 2\n\
             total 2 kept 1 would_remove 1 would_free_bytes 2\n"
        );
        assert!(dir.join("screenshot-a.png").exists());

        let done = clean(dir, 0, false).unwrap();
        assert_eq!(done.failed(), 0);
        assert!(!dir.join("screenshot-a.png").exists());
        assert!(!dir.join("screenshot-b.png").exists());
        for left in [
            "snapshot.txt",
            "screenshot-.bad.png",
            "screenshot-dir.png",
            "screenshot-link.png",
        ] {
            assert!(
                dir.join(left).symlink_metadata().is_ok(),
                "{left} was removed"
            );
        }
        assert_eq!(fs::read(&secret).unwrap(), b"secret");
    }

    #[test]
    fn a_failed_removal_is_reported_and_the_others_still_go() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        for (name, age) in [
            ("screenshot-a.png", 30),
            ("screenshot-b.png", 20),
            ("screenshot-c.png", 10),
        ] {
            let file = File::create(dir.join(name)).unwrap();
            file.set_len(1).unwrap();
            file.set_modified(SystemTime::now() - Duration::from_secs(age))
                .unwrap();
        }
        let cleaned = clean_with(dir, 1, false, |name| {
            if name == "screenshot-b.png" {
                Err(io::Error::from(io::ErrorKind::PermissionDenied))
            } else {
                fs::remove_file(dir.join(name))
            }
        })
        .unwrap();
        let body = "kept screenshot-c.png bytes 1\n\
                    failed screenshot-b.png bytes 1 error \"permission denied\"\n\
                    removed screenshot-a.png bytes 1\n\
                    total 3 kept 1 removed 1 failed 1 freed_bytes 1\n";
        assert_eq!(cleaned.body(), body);
        let failure = cleaned.into_answer().unwrap_err();
        assert_eq!(failure.code, ErrorCode::AppError);
        assert_eq!(failure.message, "1 of 2 screenshots could not be removed");
        assert_eq!(failure.body, body);
        assert!(dir.join("screenshot-b.png").exists());
        assert!(!dir.join("screenshot-a.png").exists());
    }
}
