//! The `automation` feature gate. On, `start` creates the directory and spawns the service thread;
//! off, the same calls create no file and spawn no thread. The README's test command runs this file
//! in both configurations.

use std::path::Path;

use winit_automation::Automation;

/// Threads of this process named like the service thread.
fn service_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task lists this process's threads")
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "automation-svc")
        .count()
}

#[cfg_attr(feature = "automation", allow(dead_code))]
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[cfg(feature = "automation")]
#[test]
fn with_the_feature_on_start_spawns_the_service_thread_and_creates_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("box");
    const { assert!(winit_automation::ENABLED) };
    assert_eq!(service_threads(), 0);
    let automation = Automation::builder().dir(&dir).start().unwrap();
    assert!(dir.join("ready.txt").exists());
    assert_eq!(service_threads(), 1);
    assert_eq!(automation.frame(), 1);
    drop(automation);
    assert_eq!(service_threads(), 0);
    assert!(!dir.join("ready.txt").exists());
}

#[cfg(not(feature = "automation"))]
#[test]
fn with_the_feature_off_start_spawns_no_thread_and_creates_no_file() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("box");
    const { assert!(!winit_automation::ENABLED) };
    let before = entries(tmp.path());
    let automation = Automation::builder()
        .app_name("off")
        .dir(&dir)
        .waker(|| panic!("the waker must never run"))
        .start()
        .expect("the no-op start succeeds");
    assert_eq!(automation.begin_frame().count(), 0);
    automation.end_frame();
    assert_eq!(automation.frame(), 0);
    assert_eq!(automation.dir(), None);
    assert_eq!(service_threads(), 0);
    assert!(!dir.exists());
    assert_eq!(entries(tmp.path()), before);
    // Nor does the default directory appear under the current directory.
    std::env::set_current_dir(tmp.path()).unwrap();
    let _default = Automation::builder().start().unwrap();
    assert_eq!(entries(tmp.path()), before);
}
