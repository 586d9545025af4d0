//! `--junit FILE`: the suite as JUnit XML, which CI services read (GitHub Actions through a
//! reporter action, GitLab natively): one testcase per script, named by its path. A failed
//! script is a `<failure>` with the failing line and the answer as its message, the snapshot and
//! the app's log in its text; the attempts before the last are `<rerunFailure>`s, and a script
//! that passed on a retry is a success with `<flakyFailure>`s, as cargo-nextest writes them.

use std::path::Path;

use chrono::{DateTime, Utc};
use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestRerun, TestSuite};

use super::ScriptResult;
use super::attempt::{Attempt, Failure};

/// The report of `results`, in the order given, as one test suite named `name`.
pub(crate) fn report(name: &str, results: &[ScriptResult]) -> Result<String, String> {
    let mut suite = TestSuite::new(name.to_owned());
    for result in results {
        suite.add_test_case(case(result));
    }
    let mut report = Report::new("winit-automation");
    report.add_test_suite(suite);
    report.to_string().map_err(|e| e.to_string())
}

fn case(result: &ScriptResult) -> TestCase {
    let (last, earlier) = result
        .attempts
        .split_last()
        .expect("every script has an attempt");
    let mut status = match &last.failure {
        None => TestCaseStatus::success(),
        Some(failure) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status
                .set_message(failure.headline())
                .set_description(details(failure));
            status
        }
    };
    for attempt in earlier {
        if let Some(failure) = &attempt.failure {
            status.add_rerun(rerun(attempt, failure));
        }
    }
    let mut case = TestCase::new(path_name(&result.path), status);
    if let Some(parent) = result.path.parent().filter(|p| !p.as_os_str().is_empty()) {
        case.set_classname(path_name(parent));
    }
    case.set_timestamp(timestamp(result.attempts[0].started))
        .set_time(result.attempts.iter().map(|a| a.spent).sum());
    case
}

fn rerun(attempt: &Attempt, failure: &Failure) -> TestRerun {
    let mut rerun = TestRerun::new(NonSuccessKind::Failure);
    rerun
        .set_timestamp(timestamp(attempt.started))
        .set_time(attempt.spent)
        .set_message(failure.headline())
        .set_description(details(failure));
    rerun
}

/// A failure's text: where and why, the snapshot, the app's log, where the artifacts are.
pub(crate) fn details(failure: &Failure) -> String {
    let mut text = failure.headline();
    if let Some(snapshot) = &failure.snapshot {
        text.push_str("\n\nthe interactive snapshot then:\n");
        text.push_str(snapshot);
    }
    if !failure.log.is_empty() {
        text.push_str("\n\nthe app's last lines on stderr:\n");
        text.push_str(&failure.log);
    }
    if let Some(artifacts) = &failure.artifacts {
        text.push_str("\n\n");
        text.push_str(artifacts);
    }
    text
}

fn path_name(path: &Path) -> String {
    path.to_string_lossy().replace('\\', "/")
}

fn timestamp(at: std::time::SystemTime) -> DateTime<chrono::FixedOffset> {
    DateTime::<Utc>::from(at).fixed_offset()
}
