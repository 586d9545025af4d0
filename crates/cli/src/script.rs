//! `run FILE` replays a script; `record FILE` writes one from the app's journal (docs/scripts.md).

use std::collections::HashSet;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use winit_automation_client::{Client, ClientError};
use winit_automation_protocol::{
    Command, JournalAnswer, NodeLine, Response, Side, TraceCommand, quote, response_file,
};
use winit_automation_testing::script::{RunOptions, Script, is_replayed};

use crate::exit::{EXIT_APP_ERROR, EXIT_NO_APP, EXIT_OK, EXIT_USAGE, fail};
use crate::rust_test::{Launch, RustFile};

mod expect;

/// `run`'s options.
pub(crate) struct RunArgs {
    /// Write the screenshot references instead of comparing with them.
    pub update: bool,
    /// Print only a failure.
    pub quiet: bool,
    /// Record a trace with frames and write it here.
    pub trace: Option<PathBuf>,
}

/// `run FILE`: parse the whole script (exit 2 on a bad line), then replay it.
pub(crate) fn run(
    dir: Option<&Path>,
    timeout: std::time::Duration,
    file: &Path,
    args: &RunArgs,
) -> ExitCode {
    let &RunArgs { update, quiet, .. } = args;
    let script = match read_script(file) {
        Ok(s) => s,
        Err(why) => {
            eprintln!("error: {why}");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    let client = match Client::connect(dir) {
        Ok(c) => c.with_timeout(timeout),
        Err(e) => return no_app(&e),
    };
    let options = RunOptions {
        base: file.parent().map(Path::to_owned).unwrap_or_default(),
        update,
        deadline: None,
    };
    if args.trace.is_some() {
        let start = Command::Trace(TraceCommand::Start {
            screenshots: true,
            replaceable: false,
        });
        match client.send(&start) {
            Ok(r) if r.is_ok() => {}
            Ok(r) => return refused("trace start --screenshots", &r),
            Err(e) => return no_app(&e),
        }
    }
    let outcome = script.run(&client, &options, |step, _| {
        if !quiet {
            println!("ok {:>4}  {}", step.line, step.shown());
        }
    });
    // Written pass or fail: a failed run is when a person wants to look.
    let traced = args.trace.as_ref().map(|trace| {
        let stop = Command::Trace(TraceCommand::Stop {
            file: trace.clone(),
        });
        match client.send(&stop) {
            Ok(r) if r.is_ok() => {
                eprintln!("trace: {}", trace.display());
                true
            }
            Ok(r) => {
                eprint!("the trace was not written: {}", r.to_text());
                false
            }
            Err(e) => {
                eprintln!("the trace was not written: {e}");
                false
            }
        }
    });
    if traced == Some(false) && outcome.is_ok() {
        return ExitCode::from(EXIT_APP_ERROR);
    }
    match outcome {
        Ok(summary) => {
            if !quiet {
                println!(
                    "passed: {} commands, {} expectations ({})",
                    summary.commands,
                    summary.expectations,
                    file.display()
                );
            }
            ExitCode::from(EXIT_OK)
        }
        Err(failure) => {
            eprintln!(
                "{}:{}: {}",
                file.display(),
                failure.step.line,
                failure.step.shown()
            );
            eprintln!("  {}", failure.reason);
            if let Some(s) = &failure.snapshot {
                eprint!("the interactive snapshot now:\n{s}");
            }
            ExitCode::from(if failure.no_answer {
                EXIT_NO_APP
            } else {
                EXIT_APP_ERROR
            })
        }
    }
}

/// Reads and parses a whole script; a file it cannot read or a line that does not parse is
/// `CODE: FILE:LINE: MESSAGE` and a `hint:` line (`run` and `test` print it after `error: `).
pub(crate) fn read_script(file: &Path) -> Result<Script, String> {
    Script::read(file).map_err(|e| {
        let at = if e.line == 0 {
            String::new()
        } else {
            format!("{}:{}: ", file.display(), e.line)
        };
        format!("{}: {at}{}\nhint: {}", e.code, e.message, e.hint)
    })
}

/// A command `run` sends itself was refused: the answer, and the exit code for an app's error.
fn refused(line: &str, r: &Response) -> ExitCode {
    eprint!("`{line}` was refused: {}", r.to_text());
    ExitCode::from(EXIT_APP_ERROR)
}

/// No live app (or no answer): the code, message and hint, and the exit code for them, as for
/// every subcommand.
fn no_app(e: &ClientError) -> ExitCode {
    fail(false, e)
}

/// How long one journal poll waits in the app for a new entry.
const POLL_MS: u64 = 1_000;

/// Where a recording goes: a script, written line by line, or a Rust test, written whole after
/// each line.
enum Out {
    Script(File),
    Rust(RustFile),
}

/// A recording in progress: the file, and the recorder's own commands since its last journal poll.
struct Recorder<'a> {
    client: &'a Client,
    out: Out,
    /// (seq, canonical line) of each command the recorder sent since its last `journal` poll.
    /// Seqs are reused once a response is read, so the line is part of the key; each is answered
    /// (and so journaled) before the recorder reads its response, hence in the next poll's
    /// entries, after which the set is cleared.
    own: HashSet<(u64, String)>,
    /// The node lines of the last look, in tree order.
    tree: Vec<NodeLine>,
    expect: bool,
}

impl Recorder<'_> {
    fn send(&mut self, line: &str) -> Result<Response, ClientError> {
        let r = self.client.send_line(line)?;
        if let Ok(command) = Command::parse(line) {
            self.own.insert((r.seq, command.to_line()));
        }
        Ok(r)
    }

    /// A `journal` poll (not journaled itself, so not remembered as the recorder's own).
    fn poll(&mut self, after: u64, wait: Option<u64>) -> Result<Response, ClientError> {
        self.client.send(&Command::Journal {
            after: Some(after),
            timeout_ms: wait,
        })
    }

    fn write(&mut self, line: &str) -> std::io::Result<()> {
        self.write_all(&[line.to_owned()])
    }

    /// Writes lines in one go: a reader of the file sees all of them or none.
    fn write_all(&mut self, lines: &[String]) -> std::io::Result<()> {
        match &mut self.out {
            Out::Script(file) => {
                let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
                file.write_all(text.as_bytes())?;
                file.flush()
            }
            Out::Rust(file) => file.push_all(lines),
        }
    }

    /// The tree now (the regular view: what a person sees, labels too), in tree order.
    fn tree(&mut self) -> Result<Vec<NodeLine>, ClientError> {
        let r = self.send("snapshot --force")?;
        Ok(NodeLine::all(r.body()))
    }

    /// The answer of a `journal` poll, parsed.
    fn journal(&self, r: &Response) -> Result<JournalAnswer, ClientError> {
        JournalAnswer::parse(r.body()).map_err(|e| ClientError::Malformed {
            path: self.client.dir().join(response_file(r.seq)),
            reason: e.message,
        })
    }

    /// The tree once it settled (or after a second: an animating app never settles).
    fn settled_tree(&mut self) -> Result<Vec<NodeLine>, ClientError> {
        self.send(&format!("settle --timeout {POLL_MS}"))?;
        self.tree()
    }

    /// Reads the journal after `after` (waiting up to `wait` ms for an entry) and writes the
    /// commands other clients sent; returns whether one of them was an app-side action.
    fn take(&mut self, after: &mut u64, wait: Option<u64>) -> Result<bool, RecordError> {
        let r = self.poll(*after, wait)?;
        if !r.is_ok() {
            eprintln!("error: the app refused journal: {}", r.to_text().trim_end());
            return Err(RecordError::Client(ClientError::NotRunning {
                dir: self.client.dir().to_owned(),
            }));
        }
        let JournalAnswer {
            next,
            lost,
            entries,
        } = self.journal(&r)?;
        if let Some(lost) = lost {
            eprintln!("warning: {lost} commands were answered before the recorder saw them");
            self.write(&format!(
                "# {lost} commands were lost here (the app keeps 1,024)"
            ))?;
        }
        *after = next;
        let mut acted = false;
        let own = std::mem::take(&mut self.own);
        for entry in entries {
            if own.contains(&(entry.seq, entry.line.clone())) {
                continue;
            }
            let Ok(command) = Command::parse(&entry.line) else {
                self.write(&format!("# not understood: {}", entry.line))?;
                continue;
            };
            if !is_replayed(command.verb()) {
                continue;
            }
            if let Some(code) = &entry.code {
                self.write(&format!("# refused ({code}): {}", entry.line))?;
                continue;
            }
            self.write(&entry.with_selectors())?;
            acted |= command.verb().spec().side == Side::App;
        }
        Ok(acted)
    }
}

enum RecordError {
    Client(ClientError),
    Io(std::io::Error),
}

impl From<ClientError> for RecordError {
    fn from(e: ClientError) -> Self {
        RecordError::Client(e)
    }
}

impl From<std::io::Error> for RecordError {
    fn from(e: std::io::Error) -> Self {
        RecordError::Io(e)
    }
}

/// `record`'s options.
pub(crate) struct RecordArgs {
    /// Also the commands answered before the recorder started.
    pub from_start: bool,
    /// `expect` lines after each group of actions.
    pub expect: bool,
    /// A Rust test instead of a script.
    pub rust: bool,
}

/// `record FILE`: until Ctrl-C or the app exits.
pub(crate) fn record(
    dir: Option<&Path>,
    timeout: std::time::Duration,
    file: &Path,
    args: &RecordArgs,
) -> ExitCode {
    let &RecordArgs {
        from_start,
        expect,
        rust,
    } = args;
    let client = match Client::connect(dir) {
        Ok(c) => c.with_timeout(timeout.max(std::time::Duration::from_millis(POLL_MS * 3))),
        Err(e) => return no_app(&e),
    };
    let ready = client.ready().clone();
    let out = if rust {
        // A pid of another system's process table (a Windows app under Wine) names some other
        // process here.
        let launch = ready
            .pid_is_local()
            .then(|| Launch::of_process(ready.pid))
            .flatten();
        let Some(launch) = launch else {
            let elsewhere = match ready.pid_is_local() {
                true => String::new(),
                false => format!(" (the app runs on {})", ready.os),
            };
            eprintln!(
                "error: cannot read how the app (pid {}) was started (its executable, arguments and environment)",
                ready.pid
            );
            eprintln!(
                "hint: record a script instead (without --rust), or record on the app's own system{elsewhere}"
            );
            return ExitCode::from(EXIT_APP_ERROR);
        };
        let rust = RustFile {
            path: file.to_owned(),
            app: ready.app.clone(),
            launch,
            lines: Vec::new(),
        };
        rust.write().map(|()| Out::Rust(rust))
    } else {
        File::create(file).map(Out::Script)
    };
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", file.display());
            return ExitCode::from(EXIT_USAGE);
        }
    };
    eprintln!(
        "recording the commands sent to {} (pid {}) into {}; Ctrl-C stops",
        quote(&ready.app),
        ready.pid,
        file.display()
    );
    let mut rec = Recorder {
        client: &client,
        out,
        own: HashSet::new(),
        tree: Vec::new(),
        expect,
    };
    match record_loop(&mut rec, from_start, &ready.app) {
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(RecordError::Client(
            ClientError::AppExited { .. } | ClientError::NotRunning { .. },
        )) => {
            eprintln!("the app exited; the recording is in {}", file.display());
            ExitCode::from(EXIT_OK)
        }
        Err(RecordError::Client(e)) => no_app(&e),
        Err(RecordError::Io(e)) => {
            eprintln!("error: cannot write {}: {e}", file.display());
            ExitCode::from(EXIT_APP_ERROR)
        }
    }
}

fn record_loop(rec: &mut Recorder<'_>, from_start: bool, app: &str) -> Result<(), RecordError> {
    let mut after = if from_start {
        0
    } else {
        let r = rec.poll(0, None)?;
        rec.journal(&r)?.next
    };
    if rec.expect {
        rec.tree = rec.tree()?;
    }
    // Written once the recorder knows where it starts: from here on nothing is missed.
    let header = match rec.out {
        Out::Script(_) => format!(
            "# recorded by winit-automation record from the app {}; replay with `winit-automation run`",
            quote(app)
        ),
        Out::Rust(_) => format!(
            "# recorded by winit-automation record --rust from the app {}",
            quote(app)
        ),
    };
    rec.write(&header)?;
    loop {
        if !rec.take(&mut after, Some(POLL_MS))? || !rec.expect {
            continue;
        }
        // The tree after those actions. Another action answered before this look was taken may
        // be in it too: such actions are written first and the tree is looked at again, so every
        // expectation comes after the actions that made it true.
        loop {
            let now = rec.settled_tree()?;
            if !rec.take(&mut after, None)? {
                rec.expectations(now)?;
                break;
            }
        }
    }
}
