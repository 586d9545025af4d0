//! `test FILE|DIR... --app 'CMD ARGS'`: scripts run as a suite, each against its own instance of
//! the app, several at once, retried, sharded across machines and reported as JUnit XML
//! (docs/ci.md). Every script is parsed before any app starts (a bad line is a usage error, as
//! for `run`); each attempt starts a fresh app with a private drop-box, replays the script and
//! ends the app; a line per script as it ends, then a summary.

mod attempt;
mod junit;
mod plan;

use std::num::NonZeroUsize;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use winit_automation_testing::script::Script;

use crate::exit::{EXIT_APP_ERROR, EXIT_OK, EXIT_USAGE};
use crate::script::read_script;
use attempt::{Attempt, Setup};
pub(crate) use plan::Shard;
use plan::{AppLine, discover};

/// `test`'s options.
#[derive(clap::Args, Debug)]
pub(crate) struct TestArgs {
    /// Script files, and folders whose *.script files (at any depth) are run, in path order.
    #[arg(value_name = "FILE|DIR", required = true)]
    pub(crate) paths: Vec<PathBuf>,
    /// The app's command line, split as a shell splits it: a program (a path, or a name in
    /// PATH) and its arguments.
    #[arg(long, value_name = "'CMD ARGS'")]
    pub(crate) app: String,
    /// How many apps run at once (default: the machine's cores).
    #[arg(long, short, value_name = "N")]
    pub(crate) jobs: Option<NonZeroUsize>,
    /// Attempts after a failed one; a script that passes on a retry is reported flaky, not
    /// failed.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) retries: usize,
    /// Run the K-th of N parts of the suite (1-based): the scripts in path order, every N-th
    /// from the K-th, so that N machines cover each script exactly once.
    #[arg(long, value_name = "K/N")]
    pub(crate) shard: Option<Shard>,
    /// Write a JUnit XML report here: one testcase per script, with the failing line, the
    /// answer, the app's log and the time of each attempt.
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Write each failed attempt's trace (HTML), screenshot with refs, tree, journal and app
    /// log under DIR/SCRIPT/attempt-N/ (SCRIPT: its path, each character but letters, digits,
    /// `-`, `_` and `.` made `_`).
    #[arg(long, value_name = "DIR")]
    pub(crate) artifacts: Option<PathBuf>,
    /// The longest a script's lines may take, in seconds: a line that would start later fails,
    /// and an expect or a command waits no longer than the time left (the app's start and end
    /// are not counted).
    #[arg(long, value_name = "SECONDS", default_value_t = 300,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub(crate) script_timeout: u64,
}

/// One script's attempts, the last deciding: passed, flaky (passed after a failure) or failed.
pub(crate) struct ScriptResult {
    pub(crate) path: PathBuf,
    pub(crate) attempts: Vec<Attempt>,
}

impl ScriptResult {
    fn passed(&self) -> bool {
        self.attempts.last().is_some_and(|a| a.failure.is_none())
    }

    fn flaky(&self) -> bool {
        self.passed() && self.attempts.len() > 1
    }
}

/// Runs the suite; the exit code: 0 when every script passed (flaky ones too), 1 when one
/// failed, 2 for bad arguments or a script that does not parse.
pub(crate) fn test(args: &TestArgs, per_command: Duration) -> ExitCode {
    let (scripts, setup) = match prepare(args, per_command) {
        Ok(ready) => ready,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let jobs = args
        .jobs
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZeroUsize::get)
        .min(scripts.len().max(1));
    let shard = args
        .shard
        .map(|s| format!(", shard {s}"))
        .unwrap_or_default();
    println!(
        "{} script{} against `{}`, {jobs} at once{shard}",
        scripts.len(),
        if scripts.len() == 1 { "" } else { "s" },
        args.app
    );
    let clock = Instant::now();
    let results = run_all(&scripts, &setup, args, jobs);
    let wall = clock.elapsed();
    let code = summary(&results, wall);
    if let Some(file) = &args.junit {
        let name = match args.shard {
            Some(s) => format!("scripts (shard {s})"),
            None => "scripts".to_owned(),
        };
        let written = junit::report(&name, &results).and_then(|xml| {
            if let Some(parent) = file.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).map_err(|e| e.to_string())?;
            }
            std::fs::write(file, xml).map_err(|e| e.to_string())
        });
        if let Err(why) = written {
            // The results are above; a report CI cannot read fails the run all the same.
            eprintln!("error: cannot write {}: {why}", file.display());
            return ExitCode::from(EXIT_APP_ERROR);
        }
    }
    code
}

/// The scripts, parsed, and how each attempt runs; or why the suite cannot start.
fn prepare(
    args: &TestArgs,
    per_command: Duration,
) -> Result<(Vec<(PathBuf, Script)>, Setup), String> {
    let app = AppLine::parse(&args.app)?;
    let found = discover(&args.paths)?;
    let total = found.len();
    let mine: Vec<PathBuf> = match args.shard {
        Some(shard) => found
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.takes(*i))
            .map(|(_, p)| p)
            .collect(),
        None => found,
    };
    if mine.is_empty() {
        // A shard of a suite smaller than the matrix: nothing to do is not a failure.
        println!("no script for this shard ({total} in all)");
    }
    let mut scripts = Vec::with_capacity(mine.len());
    for path in mine {
        let script = read_script(&path)?;
        scripts.push((path, script));
    }
    let setup = Setup {
        app,
        per_command,
        per_script: Duration::from_secs(args.script_timeout),
    };
    Ok((scripts, setup))
}

/// Every script on `jobs` workers, each taking the next script when it is free; a line per
/// script as it ends. The results in the scripts' order.
fn run_all(
    scripts: &[(PathBuf, Script)],
    setup: &Setup,
    args: &TestArgs,
    jobs: usize,
) -> Vec<ScriptResult> {
    let next = AtomicUsize::new(0);
    let folders = folder_names(scripts.iter().map(|(p, _)| p.as_path()));
    let (done, results) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let done = done.clone();
            let next = &next;
            let folders = &folders;
            scope.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((path, script)) = scripts.get(i) else {
                        return;
                    };
                    // A panic is this script's failure, not the suite's end: the other results
                    // and the report still come.
                    let started = SystemTime::now();
                    let clock = Instant::now();
                    let result = std::panic::catch_unwind(AssertUnwindSafe(|| {
                        run_one(path, script, setup, args, &folders[i])
                    }))
                    .unwrap_or_else(|panic| panicked(path, started, clock.elapsed(), &*panic));
                    if done.send((i, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(done);
        let mut ended: Vec<(usize, ScriptResult)> = results
            .iter()
            .inspect(|(_, result)| progress(result))
            .collect();
        ended.sort_by_key(|(i, _)| *i);
        ended.into_iter().map(|(_, result)| result).collect()
    })
}

/// A script whose runner panicked: one failed attempt saying so.
fn panicked(
    path: &Path,
    started: SystemTime,
    spent: Duration,
    panic: &(dyn std::any::Any + Send),
) -> ScriptResult {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".to_owned());
    ScriptResult {
        path: path.to_owned(),
        attempts: vec![Attempt {
            started,
            spent,
            failure: Some(attempt::Failure {
                at: None,
                reason: format!("the suite's runner panicked: {what}"),
                snapshot: None,
                log: String::new(),
                artifacts: None,
            }),
        }],
    }
}

/// One script: attempts until one passes or the retries are spent.
fn run_one(
    path: &Path,
    script: &Script,
    setup: &Setup,
    args: &TestArgs,
    folder_name: &str,
) -> ScriptResult {
    let mut attempts: Vec<Attempt> = Vec::new();
    if let Some(dir) = &args.artifacts {
        // An earlier run's attempts would read as this run's.
        let _ = std::fs::remove_dir_all(dir.join(folder_name));
    }
    for n in 1..=args.retries + 1 {
        let folder = args
            .artifacts
            .as_ref()
            .map(|dir| dir.join(folder_name).join(format!("attempt-{n}")));
        let attempt = attempt::attempt(script, path, setup, folder.as_deref());
        let passed = attempt.failure.is_none();
        attempts.push(attempt);
        if passed {
            break;
        }
    }
    ScriptResult {
        path: path.to_owned(),
        attempts,
    }
}

/// Each script's artifacts folder, in the scripts' order: [`folder_name`], with `-2`, `-3`, ...
/// after a name an earlier script took (compared without case, as Windows and macOS compare
/// file names): `a/b.script` and `a_b.script` map to the same name.
fn folder_names<'a>(paths: impl Iterator<Item = &'a Path>) -> Vec<String> {
    let mut taken = std::collections::HashSet::new();
    paths
        .map(|path| {
            let base = folder_name(path);
            let mut name = base.clone();
            let mut n = 1;
            while !taken.insert(name.to_lowercase()) {
                n += 1;
                name = format!("{base}-{n}");
            }
            name
        })
        .collect()
}

/// A folder name for a script's artifacts: its path with every character but letters, digits,
/// `-`, `_` and `.` made `_`.
fn folder_name(path: &Path) -> String {
    path.to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The line for a script that ended: PASS, FLAKY or FAIL, its time and path; for a failure the
/// line that failed and why, and where its artifacts are.
fn progress(result: &ScriptResult) {
    let spent: Duration = result.attempts.iter().map(|a| a.spent).sum();
    let word = match (result.passed(), result.flaky()) {
        (true, false) => "PASS ",
        (true, true) => "FLAKY",
        (false, _) => "FAIL ",
    };
    let tries = match result.attempts.len() {
        1 => String::new(),
        n if result.passed() => format!(" (passed on attempt {n})"),
        n => format!(" ({n} attempts)"),
    };
    println!(
        "{word} {:>6.1} s  {}{tries}",
        spent.as_secs_f64(),
        result.path.display()
    );
    let failures = result.attempts.iter().filter_map(|a| a.failure.as_ref());
    for failure in failures {
        println!("         {}", failure.headline());
        if !result.passed() && !failure.log.is_empty() && failure.at.is_none() {
            for line in failure.log.lines() {
                println!("           | {line}");
            }
        }
        if let Some(artifacts) = &failure.artifacts {
            println!("         {artifacts}");
        }
    }
}

/// The summary line; the exit code.
fn summary(results: &[ScriptResult], wall: Duration) -> ExitCode {
    let failed = results.iter().filter(|r| !r.passed()).count();
    let flaky = results.iter().filter(|r| r.flaky()).count();
    let passed = results.len() - failed - flaky;
    println!(
        "{} script{}: {passed} passed, {flaky} flaky, {failed} failed in {:.1} s",
        results.len(),
        if results.len() == 1 { "" } else { "s" },
        wall.as_secs_f64()
    );
    if failed > 0 {
        for r in results.iter().filter(|r| !r.passed()) {
            println!("failed: {}", r.path.display());
        }
        ExitCode::from(EXIT_APP_ERROR)
    } else {
        ExitCode::from(EXIT_OK)
    }
}

#[cfg(test)]
mod tests {
    use super::folder_names;
    use std::path::Path;

    #[test]
    fn scripts_whose_paths_make_one_folder_name_get_folders_of_their_own() {
        let paths = ["s/a/b.script", "s/a_b.script", "s/A_B.script", "s/c.script"];
        let names = folder_names(paths.iter().map(Path::new));
        assert_eq!(
            names,
            [
                "s_a_b.script",
                "s_a_b.script-2",
                "s_A_B.script-3",
                "s_c.script"
            ]
        );
    }
}
