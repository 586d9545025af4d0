//! `winit-automation record` as the tests run it: started on an app's drop-box, writing a script
//! or (`--rust`) a Rust test into a file, and stopped as a person stops it (Ctrl-C).

use std::path::Path;
use std::process::{Child, Command, Stdio};

use super::cli_binary;
use super::file_with::file_with;

/// `winit-automation --dir DIR record ARGS FILE`, its stderr piped; returns once it has written
/// its header (from then on it misses nothing).
pub fn start(dir: &Path, args: &[&str], file: &Path) -> Child {
    let recorder = Command::new(cli_binary::cli())
        .arg("--dir")
        .arg(dir)
        .arg("record")
        .args(args)
        .arg(file)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the recorder");
    file_with(file, "recorded by winit-automation record");
    recorder
}

/// Stops a recorder as Ctrl-C does (it writes its file out) and waits for its end.
pub fn interrupt(mut recorder: Child) {
    let pid = rustix::process::Pid::from_raw(recorder.id() as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    recorder.wait().unwrap();
}
