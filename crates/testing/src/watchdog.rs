//! What kills the app, with what it started, when this process dies without dropping its
//! [`App`](crate::App): a sleeping `sh` on Unix, a Job Object on Windows.

use std::process::Child;
#[cfg(unix)]
use std::process::{Command as Process, Stdio};

/// What kills the app, with what it started, when this process dies without dropping its
/// [`App`](crate::App): see [`start`].
#[cfg(unix)]
pub(super) type Watchdog = Child;
/// What kills the app, with what it started, when this process dies without dropping its
/// [`App`](crate::App): see [`start`].
#[cfg(windows)]
pub(super) type Watchdog = win32job::Job;

/// A process that kills the app's process group when this process dies without dropping its
/// [`App`](crate::App) (killed by a signal, a CI timeout, Ctrl-C on `cargo test`: the app is in a process
/// group of its own, so the terminal's signal never reaches it). It blocks reading a pipe whose
/// only writer is this process (std opens pipes close-on-exec, so no other child holds it); the
/// kernel closes it when this process exits, however it exits, and the read returns. It runs in
/// its own process group too, so the Ctrl-C that stops the tests does not stop it first. No
/// polling: it costs one sleeping `sh` per app. `None` when `sh` cannot be started (the app then
/// only goes when the `App` is dropped).
#[cfg(unix)]
pub(super) fn start(app: &Child) -> Option<Watchdog> {
    use std::os::unix::process::CommandExt as _;
    let app = app.id();
    Process::new("sh")
        .arg("-c")
        .arg(format!("cat >/dev/null; kill -KILL -{app} 2>/dev/null"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .ok()
}

/// Ends the watchdog once the app is gone.
#[cfg(unix)]
pub(super) fn end(mut watchdog: Watchdog) {
    let _ = watchdog.kill();
    let _ = watchdog.wait();
}

/// Windows has no process groups and needs no watchdog process: a Job Object the app is put in
/// right after it starts, set to kill every process in it when its last handle closes. This
/// process holds the only handle (not inherited by the app), so the job goes, and the app with
/// what it started (each child process joins its parent's job), when the `App` is dropped or when
/// this process exits, however it exits. A process the app starts in the instant before it joins
/// is not in the job. `None` when the job cannot be made or joined: then dropping the `App` kills
/// the app alone (`Child::kill`), not what it started, and nothing does if this process dies.
#[cfg(windows)]
pub(super) fn start(app: &Child) -> Option<Watchdog> {
    use std::os::windows::io::AsRawHandle as _;
    let mut limits = win32job::ExtendedLimitInfo::new();
    limits.limit_kill_on_job_close();
    let job = win32job::Job::create_with_limit_info(&limits).ok()?;
    job.assign_process(app.as_raw_handle() as isize).ok()?;
    Some(job)
}

/// Closes the job: what the app started and left running is killed.
#[cfg(windows)]
pub(super) fn end(job: Watchdog) {
    drop(job);
}
