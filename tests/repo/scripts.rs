//! The benchmark scripts' arguments: `scripts/bench.sh --compare` refuses what names no commit
//! with a hint and exit status 2 before building anything, and its help and `click-stages.py`'s
//! say how they are run.

use std::process::{Command, Output};

fn run(program: &str, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("{program} runs: {e}"))
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn compare_refuses_a_missing_or_unknown_commit_with_a_hint() {
    let missing = run("bash", &["scripts/bench.sh", "--compare"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        stderr(&missing).contains("--compare needs a commit, tag or branch"),
        "{}",
        stderr(&missing)
    );
    let unknown = run(
        "bash",
        &["scripts/bench.sh", "--compare", "no-such-ref-anywhere"],
    );
    assert_eq!(unknown.status.code(), Some(2), "{}", stderr(&unknown));
    assert!(
        stderr(&unknown).contains("no-such-ref-anywhere names no commit here"),
        "{}",
        stderr(&unknown)
    );
    let extra = run(
        "bash",
        &["scripts/bench.sh", "--compare", "HEAD", "HEAD", "x"],
    );
    assert_eq!(extra.status.code(), Some(2));
    assert!(
        stderr(&extra).contains("unknown argument x"),
        "{}",
        stderr(&extra)
    );
}

#[test]
fn the_scripts_help_names_compare_and_the_stages() {
    let bench = run("bash", &["scripts/bench.sh", "--help"]);
    assert!(bench.status.success());
    let text = String::from_utf8_lossy(&bench.stdout);
    assert!(text.contains("--compare REF [REF2]"), "{text}");
    assert!(
        !text.contains("set -euo"),
        "the help ends with the header: {text}"
    );
    let stages = run("python3", &["scripts/click-stages.py", "--help"]);
    assert!(stages.status.success(), "{}", stderr(&stages));
    let text = String::from_utf8_lossy(&stages.stdout);
    assert!(
        text.contains("--headless") && text.contains("--clicks"),
        "{text}"
    );
}
