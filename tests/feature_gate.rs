//! The `automation` feature gate. On, `start` creates the directory and spawns the service thread;
//! off, the same calls create no file, spawn no thread, and the binary holds none of the plugin's
//! code. The README's test command runs this file in both configurations.

use std::hint::black_box;
use std::path::Path;

use winit_automation::Automation;

/// The service thread's name. Built at run time, like every string this file searches its own
/// binary for: a literal would be found in the binary whatever the feature.
fn service_thread_name() -> String {
    [black_box("automation"), "-svc"].concat()
}

/// Threads of this process named like the service thread.
fn service_threads() -> usize {
    let name = service_thread_name();
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task lists this process's threads")
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|comm| comm.trim() == name)
        .count()
}

#[cfg_attr(feature = "automation", allow(dead_code))]
fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

/// Strings only the plugin's code holds: the service thread's name and the first line of
/// `ready.txt` (`READY_MAGIC`).
fn plugin_markers() -> [String; 2] {
    [
        service_thread_name(),
        [black_box("winit-automation"), " ready"].concat(),
    ]
}

/// Whether `bytes` hold `needle`.
fn holds(bytes: &[u8], needle: &[u8]) -> bool {
    let Some((&first, rest)) = needle.split_first() else {
        return true;
    };
    let mut at = 0;
    while let Some(i) = bytes[at..].iter().position(|&b| b == first) {
        let start = at + i + 1;
        if bytes.get(start..start + rest.len()) == Some(rest) {
            return true;
        }
        at = start;
    }
    false
}

#[test]
fn the_test_binary_holds_the_plugin_s_code_only_with_the_feature_on() {
    let exe = std::env::current_exe().unwrap();
    let binary = std::fs::read(&exe).unwrap();
    // The search finds what this binary certainly holds: the path `service_threads` reads.
    assert!(
        holds(
            &binary,
            [black_box("/proc/self"), "/task"].concat().as_bytes()
        ),
        "the search found nothing in {}",
        exe.display()
    );
    for marker in plugin_markers() {
        assert_eq!(
            holds(&binary, marker.as_bytes()),
            winit_automation::ENABLED,
            "{marker:?} in {} with the feature {}",
            exe.display(),
            if winit_automation::ENABLED {
                "on"
            } else {
                "off"
            }
        );
    }
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
    assert_eq!(automation.frame_number(), 1);
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
    let mut frame = automation.frame();
    assert_eq!(frame.input().count(), 0);
    drop(frame);
    assert_eq!(automation.frame_number(), 0);
    assert_eq!(automation.dir(), None);
    // Nothing could drive a headless app: it returns at once, its frame never run.
    let mut frames = 0;
    automation.run_headless(|_| {
        frames += 1;
        false
    });
    assert_eq!(frames, 0, "run_headless ran a frame with the feature off");
    assert_eq!(service_threads(), 0);
    assert!(!dir.exists());
    assert_eq!(entries(tmp.path()), before);
    // Nor does the default directory appear under the current directory.
    std::env::set_current_dir(tmp.path()).unwrap();
    let _default = Automation::builder().start().unwrap();
    assert_eq!(entries(tmp.path()), before);
}
