//! The repository's own rules: the docs match the code (`docs`), the render side's lint rules stay
//! in force (`render_rules`), the codebase keeps its shape (`shape`) and no crate has an import
//! cycle (`cycles`), the crates below the plugin build no window or GPU crate (`layers`), the
//! benchmark scripts refuse bad arguments (`scripts`) and docs/ci.md's workflow names commands
//! that exist (`ci_doc`). No app runs.

mod ci_doc;
mod cycles;
mod docs;
mod layers;
mod render_rules;
mod scripts;
mod shape;

/// The text of `path`, relative to the workspace's root.
fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What `cargo ARGS` prints on stdout, run in the workspace's root by the cargo that runs these
/// tests; panics with its stderr when it fails.
fn cargo(args: &[&str]) -> Vec<u8> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
