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
    let refusals: [(&[&str], &str); 3] = [
        (&["--compare"], "--compare needs a commit, tag or branch"),
        (
            &["--compare", "no-such-ref-anywhere"],
            "no-such-ref-anywhere names no commit here",
        ),
        (&["--compare", "HEAD", "HEAD", "x"], "unknown argument x"),
    ];
    for (args, said) in refusals {
        let out = run("bash", &[&["scripts/bench.sh"], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(said), "{args:?}: {}", stderr(&out));
    }
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
