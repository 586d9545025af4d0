//! The module layers depend one way only: `protocol` (pure) under `dropbox` (files, queue, service
//! thread) under the render-thread glue; the client and the CLI use `protocol` and `dropbox` only.
//! This test fails when a lower layer names a higher one, or when `protocol` touches files, threads
//! or the window system.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out
}

/// The forbidden names used in code (comment lines are skipped).
fn uses(source: &str, forbidden: &[&str]) -> Vec<String> {
    source
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .flat_map(|l| {
            forbidden
                .iter()
                .filter(move |f| l.contains(*f))
                .map(move |f| format!("{f} in `{}`", l.trim()))
        })
        .collect()
}

fn violations(paths: &[PathBuf], forbidden: &[&str]) -> Vec<String> {
    paths
        .iter()
        .flat_map(|p| {
            let source = std::fs::read_to_string(p).unwrap();
            uses(&source, forbidden)
                .into_iter()
                .map(move |v| format!("{}: {v}", p.display()))
        })
        .collect()
}

const WINDOWING: &[&str] = &["winit::", "wgpu::", "accesskit_winit"];

fn src(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel)
}

/// Fails when any of `files` names one of `extra` or the window system.
fn assert_layer(files: &[PathBuf], extra: &[&str]) {
    let mut forbidden = WINDOWING.to_vec();
    forbidden.extend_from_slice(extra);
    let found = violations(files, &forbidden);
    assert!(found.is_empty(), "{found:#?}");
}

/// No file system, threads or channels, and nothing above the layer.
const PURE: &[&str] = &[
    "std::fs",
    "std::thread",
    "crossbeam",
    "notify::",
    "crate::dropbox",
    "crate::client",
    "crate::automation",
];

#[test]
fn the_protocol_layer_is_pure() {
    let files = rust_files(&src("protocol"));
    assert!(files.len() >= 5, "the protocol module moved: {files:?}");
    assert_layer(&files, PURE);
    assert_layer(&files, &["std::net", "std::process"]);
}

#[test]
fn the_tree_layer_touches_no_files_threads_or_windows() {
    let files = rust_files(&src("tree"));
    assert!(files.len() >= 4, "the tree module moved: {files:?}");
    assert_layer(&files, PURE);
}

#[test]
fn the_dropbox_layer_knows_no_window_system_and_no_higher_layer() {
    assert_layer(
        &rust_files(&src("dropbox")),
        &["crate::client", "crate::automation"],
    );
}

#[test]
fn the_client_and_cli_use_only_protocol_and_dropbox() {
    let mut files = vec![src("client.rs")];
    files.extend(rust_files(&src("bin")));
    assert_layer(
        &files,
        &[
            "crate::automation",
            "winit_automation::Automation",
            "service::",
        ],
    );
}

#[test]
fn positive_control_the_check_finds_what_it_looks_for() {
    // The matcher catches a forbidden import in code and ignores it in a comment.
    assert_eq!(uses("use winit::window::Window;", WINDOWING).len(), 1);
    assert_eq!(
        uses("let s = wgpu::TextureUsages::COPY_SRC;", WINDOWING).len(),
        1
    );
    assert!(uses("// winit::window is named here only in prose", WINDOWING).is_empty());
    // And on real files: the glue does use the drop-box, and the drop-box does use the file system.
    assert!(!violations(&rust_files(&src("automation")), &["crate::dropbox"]).is_empty());
    assert!(!violations(&rust_files(&src("dropbox")), &["std::fs"]).is_empty());
}
