//! What a suite runs: the scripts found under the paths given, in a stable order, the shard of
//! them this machine takes, and the app's command line.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The extension of the script files a folder is searched for.
pub(crate) const SCRIPT_EXTENSION: &str = "script";

/// `--shard K/N`: the K-th of N parts (1-based), each script in exactly one part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Whether the script at `position` of the sorted list is this shard's: every N-th, from
    /// the K-th. The same list gives every machine of a matrix the same split.
    pub(crate) fn takes(&self, position: usize) -> bool {
        position % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: write K/N with 1 <= K <= N, such as 1/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse::<usize>().map_err(|_| bad())?,
            n.trim().parse::<usize>().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// The scripts under `paths`: a file as it is, a folder's `*.script` files at any depth. Sorted
/// by path and without repeats, so that every machine lists the same scripts in the same order.
pub(crate) fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut found = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = found.len();
            scripts_in(path, &mut found, &mut Vec::new())?;
            if found.len() == before {
                return Err(format!(
                    "{} holds no *.{SCRIPT_EXTENSION} file (a script named otherwise is given by its path)",
                    path.display()
                ));
            }
        } else if path.is_file() {
            found.push(path.clone());
        } else {
            return Err(format!("{}: no such file or folder", path.display()));
        }
    }
    found.sort();
    found.dedup();
    Ok(found)
}

/// `within`: the folders being listed, canonical, so that a link back up the tree is not
/// followed round (it would list the same scripts again under ever longer paths).
fn scripts_in(dir: &Path, out: &mut Vec<PathBuf>, within: &mut Vec<PathBuf>) -> Result<(), String> {
    let real = std::fs::canonicalize(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    if within.contains(&real) {
        return Ok(());
    }
    within.push(real);
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.is_dir() {
            scripts_in(&path, out, within)?;
        } else if path.extension().is_some_and(|e| e == SCRIPT_EXTENSION) {
            out.push(path);
        }
    }
    within.pop();
    Ok(())
}

/// `--app 'CMD ARGS'`: the program (found in `PATH` when it names no folder) and its arguments,
/// split as a POSIX shell splits words.
#[derive(Debug, Clone)]
pub(crate) struct AppLine {
    pub(crate) program: PathBuf,
    pub(crate) args: Vec<String>,
}

impl AppLine {
    pub(crate) fn parse(line: &str) -> Result<AppLine, String> {
        // A Windows path's backslashes are separators, not a POSIX shell's escapes.
        let line = if cfg!(windows) {
            line.replace('\\', "\\\\")
        } else {
            line.to_owned()
        };
        let words = shlex::split(&line).ok_or_else(|| {
            format!("--app `{line}` does not split into words (an unclosed quote?)")
        })?;
        let Some((program, args)) = words.split_first() else {
            return Err("--app is empty: give the app's command line, such as --app 'target/debug/examples/demo --headless'".to_owned());
        };
        Ok(AppLine {
            program: find_program(program)?,
            args: args.to_vec(),
        })
    }
}

/// A program with a folder in its name as it is; a bare name from `PATH`.
fn find_program(name: &str) -> Result<PathBuf, String> {
    let path = Path::new(name);
    if path.components().count() > 1 {
        // On Windows `target\debug\my-app` names `my-app.exe`.
        let exe = path.with_extension(std::env::consts::EXE_EXTENSION);
        return if path.is_file() {
            Ok(path.to_owned())
        } else if cfg!(windows) && exe.is_file() {
            Ok(exe)
        } else {
            Err(format!(
                "--app: {name} does not exist (build it first, or give its path)"
            ))
        };
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|dirs| std::env::split_paths(&dirs).collect::<Vec<_>>())
        .flat_map(|dir| {
            let plain = dir.join(name);
            let exe = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
            [plain, exe]
        })
        .find(|p| p.is_file())
        .ok_or_else(|| {
            format!("--app: {name} is not in PATH (give its path, such as ./target/debug/{name})")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_cover_every_script_exactly_once() {
        for count in 1..=5 {
            let shards: Vec<Shard> = (1..=count)
                .map(|k| format!("{k}/{count}").parse().unwrap())
                .collect();
            for position in 0..23 {
                let takers = shards.iter().filter(|s| s.takes(position)).count();
                assert_eq!(takers, 1, "script {position} of {count} shards");
            }
        }
    }

    #[test]
    fn a_bad_shard_is_refused_with_the_form() {
        for bad in ["0/2", "3/2", "1/0", "1", "a/b", "1/2/3", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
        assert_eq!("2/3".parse::<Shard>().unwrap().to_string(), "2/3");
    }

    #[test]
    fn a_folder_gives_its_scripts_sorted_at_any_depth_and_once() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        std::fs::create_dir(root.join("sub")).unwrap();
        for name in ["b.script", "a.script", "sub/c.script", "notes.txt"] {
            std::fs::write(root.join(name), "status\n").unwrap();
        }
        let found = discover(&[root.to_owned(), root.join("a.script")]).unwrap();
        // Compared by components: Windows joins them with `\`.
        let names: Vec<String> = found
            .iter()
            .map(|p| {
                let parts: Vec<_> = p
                    .strip_prefix(root)
                    .unwrap()
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                parts.join("/")
            })
            .collect();
        assert_eq!(names, ["a.script", "b.script", "sub/c.script"]);
        let empty = tempfile::tempdir().unwrap();
        assert!(
            discover(&[empty.path().to_owned()])
                .unwrap_err()
                .contains("no *.script")
        );
        assert!(
            discover(&[root.join("missing")])
                .unwrap_err()
                .contains("no such")
        );
    }

    #[test]
    fn the_app_line_splits_as_a_shell_does_and_names_what_is_wrong() {
        // A program every platform has: this test binary, by its path (on Windows, with `\`).
        let exe = std::env::current_exe().unwrap();
        let app = AppLine::parse(&format!("{} -c \"echo 'a b'\" x", exe.display())).unwrap();
        assert_eq!(app.program, exe);
        assert_eq!(app.args, ["-c", "echo 'a b'", "x"]);
        assert!(AppLine::parse("").unwrap_err().contains("empty"));
        assert!(AppLine::parse("'open").unwrap_err().contains("quote"));
        assert!(
            AppLine::parse("./no/such/app")
                .unwrap_err()
                .contains("does not exist")
        );
        assert!(
            AppLine::parse("no-such-program-here")
                .unwrap_err()
                .contains("not in PATH")
        );
    }
}
