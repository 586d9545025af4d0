//! Whether a process is alive. On Linux, one signal-less `kill` and the process's `/proc/<pid>/stat`
//! (about 10 us): the question is asked when a client connects and at its liveness checks, so the
//! CLI pays it once per command. Elsewhere through `sysinfo` (libproc on macOS, the system's
//! process snapshot on Windows), which on Linux reads five `/proc` files for it (0.15 to 0.3 ms,
//! measured: most of what the CLI's process had grown by, docs/performance.md). No `unsafe` here.

/// Whether a process with this pid exists and has not ended. A child that ended and nobody has
/// reaped yet (a zombie) has ended.
#[cfg(target_os = "linux")]
pub fn process_alive(pid: u32) -> bool {
    use rustix::io::Errno;
    use rustix::process::{Pid, test_kill_process};
    let Some(process) = i32::try_from(pid).ok().and_then(Pid::from_raw) else {
        return false;
    };
    match test_kill_process(process) {
        // Another user's process is alive too: the signal was refused, not the pid.
        Ok(()) | Err(Errno::PERM) => {}
        Err(_) => return false,
    }
    // A child that ended and was not reaped yet still takes the signal: its state says Z (or X).
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        // Gone between the two questions.
        Err(_) => false,
    }
}

/// Whether a process with this pid exists and has not ended. A child that ended and nobody has
/// reaped yet (a zombie) has ended. Only a zombie: sysinfo calls a macOS process in an
/// uninterruptible wait (disk, GPU) `Dead`, and that one is alive.
#[cfg(not(target_os = "linux"))]
pub fn process_alive(pid: u32) -> bool {
    use sysinfo::{Pid, ProcessRefreshKind, ProcessStatus, ProcessesToUpdate, System};
    if pid == 0 {
        return false;
    }
    let pid = Pid::from_u32(pid);
    let mut system = System::new();
    system.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        true,
        ProcessRefreshKind::nothing(),
    );
    system
        .process(pid)
        .is_some_and(|p| p.status() != ProcessStatus::Zombie)
}

#[cfg(test)]
mod tests {
    use super::process_alive;

    #[test]
    fn this_process_is_alive_and_a_free_pid_is_not() {
        assert!(process_alive(std::process::id()));
        assert!(!process_alive(0));
        assert!(!process_alive(u32::MAX));
    }

    #[test]
    fn a_child_that_ended_is_not_alive_before_or_after_it_is_reaped() {
        let exe = std::env::current_exe().unwrap();
        // The test binary itself, asked to run no test: it exits at once.
        let mut child = std::process::Command::new(exe)
            .arg("--exact")
            .arg("no such test")
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let pid = child.id();
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while process_alive(pid) {
            assert!(std::time::Instant::now() < until, "the child never ended");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        child.wait().unwrap();
        assert!(!process_alive(pid));
    }
}
