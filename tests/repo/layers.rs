//! The crates below the service build what their layer says and nothing above it: the tree, the
//! plans, the audit and traces build no file watch, no drop-box, no window and no GPU crate; the
//! CLI builds no window and no GPU crate. Read from `cargo tree`, which resolves features too (a
//! crate named only under a feature another crate turns on would show here).

use std::collections::BTreeSet;

/// The names of every package `package` builds with its normal dependencies (no dev-dependencies:
/// tests may take anything), on this machine's target.
fn builds(package: &str) -> BTreeSet<String> {
    let out = crate::cargo(&[
        "tree",
        "--offline",
        "-p",
        package,
        "-e",
        "normal",
        "--prefix",
        "none",
        "--format",
        "{p}",
    ]);
    String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_owned)
        .collect()
}

/// Asserts that `package` builds none of `forbidden`.
fn builds_none_of(package: &str, forbidden: &[&str]) {
    let built = builds(package);
    assert!(
        built.contains(package),
        "cargo tree lists {package} itself: {built:?}"
    );
    let found: Vec<&&str> = forbidden.iter().filter(|f| built.contains(**f)).collect();
    assert!(found.is_empty(), "{package} builds {found:?}");
}

#[test]
fn the_tree_acting_audit_and_trace_build_no_watch_drop_box_window_or_gpu() {
    let forbidden = ["notify", "winit-automation-dropbox", "wgpu", "winit"];
    for package in [
        "winit-automation-tree",
        "winit-automation-acting",
        "winit-automation-audit",
        "winit-automation-trace",
    ] {
        builds_none_of(package, &forbidden);
    }
}

#[test]
fn the_cli_and_the_service_build_no_window_or_gpu() {
    for package in ["winit-automation-cli", "winit-automation-service"] {
        builds_none_of(package, &["wgpu", "winit"]);
    }
}

#[test]
fn the_check_sees_what_a_crate_builds() {
    // The forbidden names are real package names: the plugin builds them.
    let built = builds("winit-automation");
    assert!(built.contains("winit"), "{built:?}");
    let service = builds("winit-automation-service");
    assert!(service.contains("notify"), "{service:?}");
}
