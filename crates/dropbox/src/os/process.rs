//! Whether a process is alive, asked of the operating system through `sysinfo`: `/proc` on Linux,
//! libproc on macOS, the system's process snapshot on Windows. One crate, one answer on every
//! platform, and no `unsafe` here.

use sysinfo::{Pid, ProcessRefreshKind, ProcessStatus, ProcessesToUpdate, System};

/// Whether a process with this pid exists and has not ended. A child that ended and nobody has
/// reaped yet (a zombie) has ended. Only a zombie: sysinfo calls a macOS process in an
/// uninterruptible wait (disk, GPU) `Dead`, and that one is alive.
pub fn process_alive(pid: u32) -> bool {
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
