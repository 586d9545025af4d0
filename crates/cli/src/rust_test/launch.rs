//! How the recorded app was started, and the `Spawn` that starts it again in a test: as cargo
//! starts it, never by a path of the recording machine.
//!
//! The recorder reads the app's executable, arguments and environment from the system (the pid
//! is `ready.txt`'s) through `sysinfo`: `/proc` on Linux, `sysctl` on macOS, the process's own
//! memory on Windows. An executable in a cargo target directory
//! (`target/<profile>/examples/<name>`, `target/<profile>/<name>`, also under a target triple) is
//! an example or a binary of the package the test will be part of; anything else gets a marked
//! placeholder for its path.

use std::fmt::Write as _;
use std::path::Path;

use winit_automation_protocol::CLOCK_ENV;

/// How the recorded app was started, to start it again in the test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Launch {
    /// What runs.
    pub program: Program,
    /// Its arguments, but for `--dir` (the harness gives each app a private drop-box).
    pub args: Vec<String>,
    /// It started on the virtual clock (`WINIT_AUTOMATION_CLOCK=virtual`): the test does too.
    pub virtual_clock: bool,
}

/// What the test starts.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Program {
    /// `target/<profile>/examples/<name>`: `Spawn::example(name)`.
    Example(String),
    /// `target/<profile>/<name>`: a binary of the package, `Spawn::binary(env!("CARGO_BIN_EXE_<name>"))`.
    PackageBinary(String),
    /// Anything else: a placeholder for the path, named by the file's name.
    Elsewhere(String),
}

impl Launch {
    /// The launch of the process `pid`, as the system tells it; `None` when it cannot be read
    /// (no such process, or one this user may not look into).
    pub fn of_process(pid: u32) -> Option<Launch> {
        use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System, UpdateKind};
        let pid = Pid::from_u32(pid);
        let mut system = System::new();
        system.refresh_processes_specifics(
            ProcessesToUpdate::Some(&[pid]),
            false,
            ProcessRefreshKind::nothing()
                .with_exe(UpdateKind::Always)
                .with_cmd(UpdateKind::Always)
                .with_environ(UpdateKind::Always),
        );
        let process = system.process(pid)?;
        // A binary rebuilt while it runs keeps its path (sysinfo drops Linux's ` (deleted)`).
        let exe = process.exe()?;
        let (_program, args) = process.cmd().split_first()?;
        let args: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let mut launch = Launch::of(exe, &args);
        // Its environment as it started: on the virtual clock, the recorded times are virtual.
        let virtual_clock = format!("{CLOCK_ENV}=virtual");
        launch.virtual_clock = process.environ().iter().any(|v| {
            v.to_str()
                .is_some_and(|v| v.eq_ignore_ascii_case(&virtual_clock))
        });
        Some(launch)
    }

    /// The launch of `exe` with `args`.
    pub fn of(exe: &Path, args: &[String]) -> Launch {
        let name = exe
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let dir = exe.parent().unwrap_or(Path::new(""));
        let program = if dir.file_name().is_some_and(|d| d == "examples")
            && dir.parent().is_some_and(is_profile_dir)
        {
            Program::Example(name)
        } else if is_profile_dir(dir) {
            Program::PackageBinary(name)
        } else {
            Program::Elsewhere(name)
        };
        let mut kept = Vec::new();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--dir" {
                args.next();
            } else if !arg.starts_with("--dir=") {
                kept.push(arg.clone());
            }
        }
        Launch {
            program,
            args: kept,
            virtual_clock: false,
        }
    }

    /// The statement that starts the app (`let app = Spawn::...;`), with the comments it
    /// needs, each line indented by four spaces.
    pub fn statement(&self) -> String {
        let mut out = String::new();
        let start = match &self.program {
            Program::Example(name) => format!("Spawn::example({name:?})"),
            Program::PackageBinary(name) => {
                format!("Spawn::binary(env!(\"CARGO_BIN_EXE_{name}\"))")
            }
            Program::Elsewhere(name) => {
                let _ = writeln!(
                    out,
                    "    // PLACEHOLDER: {name:?} was not started from a cargo target directory;\n    \
                     // write where the test finds it (the recording machine's path is not kept)."
                );
                format!("Spawn::binary(\"path/to/{name}\")")
            }
        };
        let (size, args) = headless(&self.args);
        if size.is_none() {
            out.push_str(
                "    // In a window, as it was recorded: the test needs a display\n    \
                 // (`.under(\"xvfb-run\", [\"-a\"])` gives it a virtual one).\n",
            );
        }
        let _ = write!(out, "    let app = {start}");
        if let Some((w, h)) = size {
            let _ = write!(out, "\n        .headless({w}, {h})");
        }
        if !args.is_empty() {
            let _ = write!(out, "\n        .args({args:?})");
        }
        if self.virtual_clock {
            out.push_str("\n        .virtual_clock()");
        }
        out.push_str("\n        .start();\n");
        out
    }
}

/// Whether `dir` is a cargo profile directory (`target/debug`, `target/<triple>/release`): cargo
/// keeps its fingerprints there.
fn is_profile_dir(dir: &Path) -> bool {
    dir.join(".fingerprint").is_dir()
}

/// The size when the arguments say `--headless` and `--size WxH` (or `--size=WxH`), as
/// `Spawn::headless` gives them, and the other arguments.
fn headless(args: &[String]) -> (Option<(u32, u32)>, Vec<String>) {
    let mut rest = Vec::new();
    let (mut on, mut size) = (false, None);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        if arg == "--headless" {
            on = true;
            continue;
        }
        if size.is_none() {
            if arg == "--size"
                && let Some(s) = iter.clone().next().and_then(|v| parse_size(v))
            {
                size = Some(s);
                iter.next();
                continue;
            }
            if let Some(s) = arg.strip_prefix("--size=").and_then(parse_size) {
                size = Some(s);
                continue;
            }
        }
        rest.push(arg.clone());
    }
    match (on, size) {
        (true, Some(size)) => (Some(size), rest),
        _ => (None, args.to_vec()),
    }
}

fn parse_size(size: &str) -> Option<(u32, u32)> {
    let (w, h) = size.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_owned).collect()
    }

    /// A fake cargo target directory: `target/debug` with its `.fingerprint`.
    fn target() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("debug/.fingerprint")).unwrap();
        std::fs::create_dir_all(
            tmp.path()
                .join("x86_64-unknown-linux-gnu/release/.fingerprint"),
        )
        .unwrap();
        tmp
    }

    #[test]
    fn an_example_starts_as_cargo_built_it_with_its_size_and_arguments() {
        let t = target();
        let launch = Launch::of(
            &t.path().join("debug/examples/demo"),
            &args("--theme dark --headless --dir /tmp/box --size 800x600"),
        );
        assert_eq!(launch.program, Program::Example("demo".into()));
        assert_eq!(
            launch.statement(),
            "    let app = Spawn::example(\"demo\")\n        .headless(800, 600)\n        .args([\"--theme\", \"dark\"])\n        .start();\n"
        );
    }

    #[test]
    fn a_package_binary_starts_from_cargo_s_variable_in_a_window() {
        let t = target();
        let launch = Launch::of(
            &t.path().join("x86_64-unknown-linux-gnu/release/editor"),
            &args("--dir=/tmp/x notes.txt"),
        );
        assert_eq!(launch.program, Program::PackageBinary("editor".into()));
        let statement = launch.statement();
        assert!(
            statement.ends_with(
                "    let app = Spawn::binary(env!(\"CARGO_BIN_EXE_editor\"))\n        .args([\"notes.txt\"])\n        .start();\n"
            ),
            "{statement}"
        );
        assert!(statement.contains("// In a window, as it was recorded"));
        assert!(!statement.contains(&t.path().to_string_lossy().into_owned()));
    }

    #[test]
    fn other_programs_get_a_marked_placeholder_never_their_path() {
        let launch = Launch::of(
            Path::new("/opt/app/bin/viewer"),
            &args("--headless --size=640x480"),
        );
        assert_eq!(launch.program, Program::Elsewhere("viewer".into()));
        let statement = launch.statement();
        assert!(
            statement.contains("// PLACEHOLDER: \"viewer\""),
            "{statement}"
        );
        assert!(
            statement.contains("Spawn::binary(\"path/to/viewer\")\n        .headless(640, 480)")
        );
        assert!(!statement.contains("/opt/app"), "{statement}");
    }

    #[test]
    fn an_app_recorded_on_the_virtual_clock_starts_on_it_again() {
        let t = target();
        let mut launch = Launch::of(
            &t.path().join("debug/examples/egui_gallery"),
            &args("--headless --size 1280x800"),
        );
        launch.virtual_clock = true;
        assert!(
            launch
                .statement()
                .ends_with(".headless(1280, 800)\n        .virtual_clock()\n        .start();\n"),
            "{}",
            launch.statement()
        );
    }

    /// The system's view of a live process: this test binary, which is not in a profile
    /// directory (cargo puts it in `deps`), with its own arguments.
    #[test]
    fn a_running_process_reads_as_it_was_started() {
        let launch = Launch::of_process(std::process::id()).expect("this process");
        let exe = std::env::current_exe().unwrap();
        let name = exe.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(launch.program, Program::Elsewhere(name));
        let args: Vec<String> = std::env::args().skip(1).collect();
        assert_eq!(launch.args, Launch::of(&exe, &args).args);
        assert_eq!(
            launch.virtual_clock,
            std::env::var(CLOCK_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("virtual"))
        );
    }

    #[test]
    fn headless_without_a_size_keeps_the_arguments_as_they_were() {
        assert_eq!(headless(&args("--headless")), (None, args("--headless")));
        assert_eq!(
            headless(&args("--size 10x10 --headless -v")),
            (Some((10, 10)), args("-v"))
        );
    }
}
