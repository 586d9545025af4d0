//! `winit-automation test`: folders of scripts run as a suite against the headless custom demo,
//! each script against its own instance of it: several instances at once, a broken script
//! failing the suite as the one failed testcase of the JUnit XML with its artifacts, shards that
//! cover every script exactly once, and an app whose first start fails passing on a retry,
//! reported flaky, and a secret taken from the environment. Every script checks the effect of
//! what it did.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`, lavapipe).
use crate::common::cli_binary;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The demo cargo built for this test run (as `Spawn::example` finds it).
fn demo() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("examples")
        .join("demo")
}

fn demo_line() -> String {
    format!("{} --headless", demo().display())
}

/// `passing` scripts that each change the demo and expect the change (half of them tick the
/// checkbox, half fill the name), and a broken one whose second line expects what never shows.
fn scripts(dir: &Path, passing: usize, broken: bool) -> Vec<String> {
    std::fs::create_dir_all(dir).unwrap();
    let mut names = Vec::new();
    for n in 0..passing {
        let (name, text) = if n % 2 == 0 {
            (
                format!("check-{n}.script"),
                "click role=checkbox name=Subscribe\nexpect role=checkbox name=Subscribe checked\n"
                    .to_owned(),
            )
        } else {
            (
                format!("fill-{n}.script"),
                format!(
                    "fill role=textbox name=Name \"Ada {n}\"\nexpect role=textbox name=Name value=\"Ada {n}\"\n"
                ),
            )
        };
        std::fs::write(dir.join(&name), text).unwrap();
        names.push(name);
    }
    if broken {
        std::fs::write(
            dir.join("broken.script"),
            "click role=button name=Submit\nexpect role=text text~=\"never shown\" --timeout 300\n",
        )
        .unwrap();
        names.push("broken.script".to_owned());
    }
    names
}

fn suite(args: &[&str]) -> Output {
    suite_with_secret(args, None)
}

/// `winit-automation test ARGS`, with `WINIT_AUTOMATION_SECRET` set to `secret` (else unset).
fn suite_with_secret(args: &[&str], secret: Option<&str>) -> Output {
    let mut command = Command::new(cli_binary::cli());
    command
        .arg("test")
        .args(args)
        .env_remove("WINIT_AUTOMATION_DIR");
    match secret {
        Some(s) => command.env("WINIT_AUTOMATION_SECRET", s),
        None => command.env_remove("WINIT_AUTOMATION_SECRET"),
    };
    let out = command.output().unwrap();
    println!("{}{}", cli_binary::stdout(&out), cli_binary::stderr(&out));
    out
}

/// A folder `scripts` in `tmp` holding one script, `name`, of `text`.
fn one_script(tmp: &Path, name: &str, text: &str) -> PathBuf {
    let dir = tmp.join("scripts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(name), text).unwrap();
    dir
}

/// A testcase of a JUnit report: its script's file name, when it started and how long it took
/// (seconds), its failure's message, and how many earlier attempts failed.
#[derive(Debug)]
struct Case {
    name: String,
    start: f64,
    time: f64,
    failure: Option<String>,
    flaky: Vec<String>,
}

fn cases(junit: &Path) -> Vec<Case> {
    let xml = std::fs::read_to_string(junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    doc.descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .map(|n| {
            let stamp = n.attribute("timestamp").unwrap();
            let start = seconds_of_day(stamp);
            let child_text = |tag: &str| {
                n.children()
                    .filter(|c| c.has_tag_name(tag))
                    .map(|c| c.text().unwrap_or_default().to_owned())
                    .collect::<Vec<_>>()
            };
            Case {
                name: Path::new(n.attribute("name").unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                start,
                time: n.attribute("time").unwrap().parse().unwrap(),
                failure: n
                    .children()
                    .find(|c| c.has_tag_name("failure"))
                    .map(|c| c.attribute("message").unwrap_or_default().to_owned()),
                flaky: child_text("flakyFailure"),
            }
        })
        .collect()
}

/// Seconds within the day of an RFC 3339 timestamp (`2026-12-07T20:59:09.128+00:00`): enough to
/// order the starts of one short run.
fn seconds_of_day(stamp: &str) -> f64 {
    let time = &stamp[11..23];
    let (h, m, s) = (&time[0..2], &time[3..5], &time[6..]);
    h.parse::<f64>().unwrap() * 3600.0
        + m.parse::<f64>().unwrap() * 60.0
        + s.parse::<f64>().unwrap()
}

/// The most testcases running at one moment.
fn most_at_once(cases: &[Case]) -> usize {
    cases
        .iter()
        .map(|c| {
            cases
                .iter()
                .filter(|o| o.start <= c.start && c.start < o.start + o.time)
                .count()
        })
        .max()
        .unwrap_or(0)
}

/// The suite's wall time from its summary line (`... failed in 1.6 s`).
fn wall_seconds(out: &Output) -> f64 {
    let text = cli_binary::stdout(out);
    let summary = text.lines().rfind(|l| l.contains(" failed in ")).unwrap();
    summary
        .rsplit_once(" in ")
        .unwrap()
        .1
        .trim_end_matches(" s")
        .parse()
        .unwrap()
}

#[test]
fn a_folder_runs_several_apps_at_once_and_a_broken_script_is_the_one_failure() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scripts");
    let names = scripts(&dir, 5, true);
    let junit = tmp.path().join("junit.xml");
    let artifacts = tmp.path().join("artifacts");
    let out = suite(&[
        dir.to_str().unwrap(),
        "--app",
        &demo_line(),
        "--jobs",
        "3",
        "--junit",
        junit.to_str().unwrap(),
        "--artifacts",
        artifacts.to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a failed script fails the suite"
    );
    let text = cli_binary::stdout(&out);
    assert!(
        text.contains("6 scripts: 5 passed, 0 flaky, 1 failed"),
        "{text}"
    );
    assert!(text.contains("line 2: expect role=text"), "{text}");

    let cases = cases(&junit);
    let found: BTreeSet<_> = cases.iter().map(|c| c.name.clone()).collect();
    assert_eq!(found, names.iter().cloned().collect::<BTreeSet<_>>());
    let failed: Vec<_> = cases.iter().filter(|c| c.failure.is_some()).collect();
    assert_eq!(failed.len(), 1, "{cases:?}");
    assert_eq!(failed[0].name, "broken.script");
    let message = failed[0].failure.as_deref().unwrap();
    assert!(
        message.starts_with("line 2: expect role=text text~=\"never shown\""),
        "{message}"
    );

    // The failure's artifacts, and none for the scripts that passed.
    let folders: Vec<_> = std::fs::read_dir(&artifacts)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].ends_with("broken.script"), "{folders:?}");
    let attempt = artifacts.join(&folders[0]).join("attempt-1");
    for file in [
        "trace.html",
        "screenshot.png",
        "snapshot.txt",
        "journal.txt",
        "app.log",
    ] {
        assert!(
            attempt.join(file).is_file(),
            "{file} in {}",
            attempt.display()
        );
    }
    let tree = std::fs::read_to_string(attempt.join("snapshot.txt")).unwrap();
    assert!(tree.contains("button \"Submit\""), "{tree}");

    // Three at once: the instances overlapped, so the suite took less than its scripts did one
    // after another.
    assert!(most_at_once(&cases) >= 2, "{cases:?}");
    let one_by_one: f64 = cases.iter().map(|c| c.time).sum();
    let wall = wall_seconds(&out);
    println!("wall {wall:.1} s at --jobs 3; the scripts' times add up to {one_by_one:.1} s");
    assert!(wall < one_by_one, "{wall} s against {one_by_one} s");
}

#[test]
fn shards_cover_every_script_exactly_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scripts");
    let names = scripts(&dir, 5, false);
    let mut seen = Vec::new();
    for shard in ["1/2", "2/2"] {
        let junit = tmp.path().join(format!("junit-{}.xml", &shard[..1]));
        let out = suite(&[
            dir.to_str().unwrap(),
            "--app",
            &demo_line(),
            "--shard",
            shard,
            "--junit",
            junit.to_str().unwrap(),
        ]);
        assert!(out.status.success());
        let part: Vec<String> = cases(&junit).into_iter().map(|c| c.name).collect();
        assert!(!part.is_empty(), "shard {shard} ran nothing");
        seen.extend(part);
    }
    seen.sort();
    let mut all = names.clone();
    all.sort();
    assert_eq!(seen, all, "each script in exactly one shard");
}

#[test]
fn an_app_whose_first_start_fails_fails_with_its_log_and_passes_on_a_retry_as_flaky() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scripts");
    scripts(&dir, 1, false);
    let mark = tmp.path().join("started-once");
    let wrapper = tmp.path().join("app.sh");
    std::fs::write(
        &wrapper,
        format!(
            "if [ ! -e '{mark}' ]; then : > '{mark}'; echo 'first start: the device is busy' >&2; exit 7; fi\nexec '{demo}' --headless\n",
            mark = mark.display(),
            demo = demo().display()
        ),
    )
    .unwrap();
    let app = format!("sh {}", wrapper.display());

    // Without a retry: the script fails, and the line says why with the app's own words.
    let out = suite(&[dir.to_str().unwrap(), "--app", &app]);
    assert_eq!(out.status.code(), Some(1));
    let text = cli_binary::stdout(&out);
    assert!(text.contains("FAIL"), "{text}");
    assert!(text.contains("exited (exit status: 7)"), "{text}");
    assert!(text.contains("| first start: the device is busy"), "{text}");

    // With one: it passes on its second start and is reported flaky, in the JUnit XML too.
    std::fs::remove_file(&mark).unwrap();
    let junit = tmp.path().join("junit.xml");
    let out = suite(&[
        dir.to_str().unwrap(),
        "--app",
        &app,
        "--retries",
        "1",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "a flaky script does not fail the suite"
    );
    let text = cli_binary::stdout(&out);
    assert!(text.contains("FLAKY"), "{text}");
    assert!(
        text.contains("1 script: 0 passed, 1 flaky, 0 failed"),
        "{text}"
    );
    let cases = cases(&junit);
    assert_eq!(cases.len(), 1);
    assert!(cases[0].failure.is_none());
    assert_eq!(cases[0].flaky.len(), 1, "{cases:?}");
    assert!(
        cases[0].flaky[0].contains("first start: the device is busy"),
        "{cases:?}"
    );
}

#[test]
fn the_script_timeout_cuts_an_expectations_wait_and_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = one_script(
        tmp.path(),
        "slow.script",
        "expect role=text text~=\"never shown\" --timeout 60000\n",
    );
    let out = suite(&[
        dir.to_str().unwrap(),
        "--app",
        &demo_line(),
        "--script-timeout",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = cli_binary::stdout(&out);
    assert!(text.contains("its wait was cut short"), "{text}");
    assert!(
        text.contains("after 1000 ms") || text.contains("after 99"),
        "{text}"
    );
}

#[test]
fn bad_arguments_are_refused_before_any_app_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("scripts");
    scripts(&dir, 1, false);
    std::fs::write(dir.join("bad.script"), "click\n").unwrap();
    let app = demo_line();
    let refusals = [
        (vec![dir.to_str().unwrap(), "--app", &app], "bad.script:1"),
        (
            vec!["missing-folder", "--app", &app],
            "no such file or folder",
        ),
        (
            vec![dir.to_str().unwrap(), "--app", "./no/such/app"],
            "does not exist",
        ),
        (
            vec![dir.to_str().unwrap(), "--app", &app, "--shard", "3/2"],
            "K/N",
        ),
        (
            vec![
                dir.to_str().unwrap(),
                "--app",
                &app,
                "--dir",
                "/tmp/elsewhere",
            ],
            "drop --dir and --json",
        ),
    ];
    for (args, said) in refusals {
        let out = suite(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = cli_binary::stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!cli_binary::stdout(&out).contains("PASS"), "no script ran");
    }
}

#[test]
fn a_scripts_secret_comes_from_the_environment_as_for_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = one_script(
        tmp.path(),
        "login.script",
        "fill role=textbox name=Name \"$WINIT_AUTOMATION_SECRET\" --secret\nexpect role=textbox name=Name value=\"open sesame\"\n",
    );
    let app = demo_line();
    let run = |secret| suite_with_secret(&[dir.to_str().unwrap(), "--app", &app], secret);
    let out = run(Some("open sesame"));
    assert!(out.status.success(), "{}", cli_binary::stdout(&out));
    // Unset, the script fails at that line and says which variable it wanted.
    let out = run(None);
    assert_eq!(out.status.code(), Some(1));
    let text = cli_binary::stdout(&out);
    assert!(
        text.contains("line 1") && text.contains("WINIT_AUTOMATION_SECRET"),
        "{text}"
    );
    assert!(!text.contains("open sesame"));
}
