//! One attempt at one script: a fresh instance of the app, started from the suite's command line
//! with a private drop-box, the script replayed against it, the app ended (quit, then killed);
//! what happened, and on a failure what a person needs to see why.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use winit_automation_testing::compare::reference_siblings;
use winit_automation_testing::script::{Expect, RunOptions, Script, StepKind};
use winit_automation_testing::{App, DEFAULT_STARTUP, Spawn, SpawnError};

use super::plan::AppLine;

/// How many of the app's last stderr lines a failure keeps.
const LOG_LINES: usize = 20;
/// How long an app has to exit after `quit` before it is killed.
const QUIT_PATIENCE: Duration = Duration::from_secs(5);

/// How each attempt runs.
pub(crate) struct Setup {
    pub(crate) app: AppLine,
    /// Each command's wait for its answer (the CLI's `--timeout`).
    pub(crate) per_command: Duration,
    /// The whole script's time (`--script-timeout`).
    pub(crate) per_script: Duration,
}

/// One attempt's outcome.
pub(crate) struct Attempt {
    pub(crate) started: SystemTime,
    pub(crate) spent: Duration,
    pub(crate) failure: Option<Failure>,
}

/// Why an attempt failed.
pub(crate) struct Failure {
    /// The script's line that failed, and its text; `None` when the app never started.
    pub(crate) at: Option<(usize, String)>,
    pub(crate) reason: String,
    /// The interactive snapshot after the failure, when the app could give one.
    pub(crate) snapshot: Option<String>,
    /// The app's last lines on stderr.
    pub(crate) log: String,
    /// Where the artifacts went, or why there are none.
    pub(crate) artifacts: Option<String>,
}

impl Failure {
    /// One line: where and why.
    pub(crate) fn headline(&self) -> String {
        match &self.at {
            Some((line, shown)) => format!("line {line}: {shown}: {}", self.reason),
            None => self.reason.clone(),
        }
    }
}

/// Runs `script` (read from `path`) once against a fresh app; on a failure with `artifacts`, the
/// tree, journal, trace, screenshot and the app's log go into that folder.
pub(crate) fn attempt(
    script: &Script,
    path: &Path,
    setup: &Setup,
    artifacts: Option<&Path>,
) -> Attempt {
    let started = SystemTime::now();
    let clock = Instant::now();
    let failure = match start(setup) {
        Ok(app) => {
            let failure = replay(&app, script, path, setup, artifacts);
            end(app);
            failure
        }
        Err(mut failure) => {
            // No app to ask for a tree or a trace; its log is what there is.
            failure.artifacts = artifacts.map(|folder| save(None, folder, &failure.log, &[]));
            Some(*failure)
        }
    };
    Attempt {
        started,
        spent: clock.elapsed(),
        failure,
    }
}

fn start(setup: &Setup) -> Result<App, Box<Failure>> {
    let spawn = Spawn::binary(&setup.app.program)
        .args(setup.app.args.iter())
        .timeout(setup.per_command.min(setup.per_script))
        .startup(DEFAULT_STARTUP.min(setup.per_script));
    spawn.try_start().map_err(|e| {
        let (reason, log) = match e {
            SpawnError::Exited { status, output } => (
                format!("the app exited ({status}) before it published its first tree"),
                output,
            ),
            SpawnError::TimedOut {
                after,
                last,
                output,
            } => (
                format!(
                    "the app published no tree within {} s (last: {last})",
                    after.as_secs()
                ),
                output,
            ),
            other => (format!("the app did not start: {other}"), String::new()),
        };
        Box::new(Failure {
            at: None,
            reason,
            snapshot: None,
            log: tail(&log),
            artifacts: None,
        })
    })
}

/// Replays the script, then ends the app; the failure, if any.
fn replay(
    app: &App,
    script: &Script,
    path: &Path,
    setup: &Setup,
    artifacts: Option<&Path>,
) -> Option<Failure> {
    let options = RunOptions {
        base: path.parent().map(Path::to_owned).unwrap_or_default(),
        update: false,
        deadline: Some(Instant::now() + setup.per_script),
    };
    let f = script.run(app.client(), &options, |_, _| {}).err()?;
    // A failed `expect screenshot` left its new image and diff beside the reference.
    let compared = match &f.step.kind {
        StepKind::Expect(Expect::Screenshot { reference, .. }) => {
            let (new, diff) = reference_siblings(&options.base.join(reference));
            vec![new, diff]
        }
        _ => Vec::new(),
    };
    let log = tail(&app.output());
    let artifacts = artifacts.map(|folder| save(Some(app), folder, &log, &compared));
    Some(Failure {
        at: Some((f.step.line, f.step.shown())),
        reason: f.reason,
        snapshot: f.snapshot,
        log,
        artifacts,
    })
}

/// The artifacts of a failed attempt: the app's log, the `compared` images that exist and, from
/// an app that started, the harness's (tree, journal, trace, screenshot); the line that says
/// where they are.
fn save(app: Option<&App>, folder: &Path, log: &str, compared: &[PathBuf]) -> String {
    // The log first: an app that died mid-script answers nothing more, and its log says why.
    let copy = |file: &PathBuf| match file.file_name() {
        Some(name) if file.is_file() => std::fs::copy(file, folder.join(name)).map(|_| ()),
        _ => Ok(()),
    };
    let saved = std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(folder.join("app.log"), log))
        .and_then(|()| compared.iter().try_for_each(copy))
        .map_err(|e| e.to_string())
        .and_then(|()| app.map_or(Ok(()), |app| app.save_artifacts(folder)));
    match saved {
        Ok(()) => format!("artifacts: {}", folder.display()),
        Err(why) => format!("artifacts in {} are incomplete: {why}", folder.display()),
    }
}

/// Ends an app after its script: `quit`, then a kill if it does not exit.
fn end(app: App) {
    // Whatever the app does, dropping it (inside try_quit) kills it: nothing is left running.
    let _ = app.try_quit(QUIT_PATIENCE);
}

/// The last [`LOG_LINES`] lines of `log`.
fn tail(log: &str) -> String {
    let lines: Vec<&str> = log.lines().collect();
    lines[lines.len().saturating_sub(LOG_LINES)..].join("\n")
}
