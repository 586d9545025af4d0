//! The soak's writers (benches/soak.rs): what each of them sends to the gallery, and how each
//! answer is checked. A writer sends one command at a time and reads its answer (or, for one it
//! withdrew at its deadline, notes its fate) before the next, so every command is accounted for.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use winit_automation_client::{Client, ClientError, EnqueueError, Fate};
use winit_automation_dropbox::{queue, unix_ms_now};
use winit_automation_protocol::{Outcome, Response};

/// The kinds of command a writer sends, in the report's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// `status`, `snapshot -i`, `find`, `get`: answered by the service thread at once.
    Service,
    /// `click`, `hover`, `scroll`, `key` on the gallery, carried out by the render thread, and
    /// `settle`, which waits for its frames.
    App,
    /// An unknown verb, broken quoting, an unknown flag, a bad label.
    Invalid,
    /// A line over `max_command_bytes`, written past the client's own check.
    Oversized,
    /// A deadline already past, or a few milliseconds away with a client that gives up soon.
    Expiring,
    /// `screenshot LABEL`.
    Screenshot,
    /// `clean --keep 5`.
    Clean,
    /// `trace start` and `trace stop FILE` (writer 0 only: one trace runs at a time).
    Trace,
}

impl Kind {
    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Service => "service",
            Kind::App => "app",
            Kind::Invalid => "invalid",
            Kind::Oversized => "oversized",
            Kind::Expiring => "expiring",
            Kind::Screenshot => "screenshot",
            Kind::Clean => "clean",
            Kind::Trace => "trace",
        }
    }
}

const SERVICE: &[&str] = &[
    "status",
    "snapshot -i",
    "find role=checkbox",
    "get role=checkbox name=Checkbox",
    "find text~=Click",
];

const APP: &[&str] = &[
    "click role=checkbox name=Checkbox",
    "click role=button name=\"Click me!\" nth=0",
    "hover role=checkbox name=Checkbox",
    "scroll 640,400 0 40",
    "scroll 640,400 0 -40",
    "key Tab",
    "key Escape",
    // Service-side, but it waits for frames as the actions do.
    "settle --frames 2 --timeout 5000",
];

/// Invalid lines and the code each must be refused with.
const INVALID: &[(&str, &str)] = &[
    ("frobnicate --now", "unknown_verb"),
    ("click \"unterminated", "bad_syntax"),
    ("snapshot --bogus", "unknown_flag"),
    ("screenshot ../../x", "bad_argument"),
];

/// What one writer sent and got.
#[derive(Default, Debug)]
pub struct Tally {
    /// Commands written, by kind.
    pub sent: BTreeMap<&'static str, u64>,
    /// Answers read.
    pub answers: u64,
    /// Answers that were errors, by code.
    pub codes: BTreeMap<String, u64>,
    /// Commands whose client stopped waiting: `withdrawn` (never answered, as documented),
    /// `taken` (its answer then read all the same), `expired` (answered `expired`).
    pub fates: BTreeMap<&'static str, u64>,
    /// Lines not written because the queue was full.
    pub queue_full: u64,
    /// What broke the rules: a lost, double or wrong answer, a client error.
    pub violations: Vec<String>,
}

impl Tally {
    /// Adds `other` to this one.
    pub fn add(&mut self, other: Tally) {
        for (k, v) in other.sent {
            *self.sent.entry(k).or_default() += v;
        }
        for (k, v) in other.codes {
            *self.codes.entry(k).or_default() += v;
        }
        for (k, v) in other.fates {
            *self.fates.entry(k).or_default() += v;
        }
        self.answers += other.answers;
        self.queue_full += other.queue_full;
        self.violations.extend(other.violations);
    }

    /// Commands written, all kinds.
    pub fn total(&self) -> u64 {
        self.sent.values().sum()
    }
}

/// One writer thread's state.
pub struct Writer {
    id: usize,
    client: Client,
    /// The same drop-box with a client that gives up after 400 ms (the expiring commands).
    short: Client,
    rng: u64,
    shots: u64,
    traces: u64,
    tracing: bool,
    work: PathBuf,
    /// The tally.
    pub tally: Tally,
}

impl Writer {
    /// Writer `id` on the drop-box `dir`; trace files go to `work`.
    pub fn new(id: usize, dir: &Path, work: &Path) -> Writer {
        let connect = |t| {
            Client::connect(Some(dir))
                .expect("the gallery's drop-box")
                .with_timeout(t)
        };
        Writer {
            id,
            client: connect(Duration::from_secs(60)),
            short: connect(Duration::from_millis(400)),
            rng: 0x9e37_79b9_7f4a_7c15 ^ (id as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d),
            shots: 0,
            traces: 0,
            tracing: false,
            work: work.to_owned(),
            tally: Tally::default(),
        }
    }

    fn next(&mut self, n: usize) -> usize {
        // xorshift64*: a fixed sequence per writer, so a run can be repeated.
        self.rng ^= self.rng >> 12;
        self.rng ^= self.rng << 25;
        self.rng ^= self.rng >> 27;
        (self.rng.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    /// Sends commands until `stop`, adding each one written to `sent`.
    pub fn run(&mut self, stop: &AtomicBool, sent: &AtomicU64) {
        while !stop.load(Ordering::Relaxed) {
            if self.one() {
                sent.fetch_add(1, Ordering::Relaxed);
            }
        }
        if self.tracing {
            self.trace();
            sent.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Sends one command of the mix; false when the queue was full.
    fn one(&mut self) -> bool {
        let roll = self.next(100);
        match roll {
            0..55 => {
                let line = SERVICE[self.next(SERVICE.len())];
                self.plain(Kind::Service, line, None)
            }
            55..70 => {
                let (line, code) = INVALID[self.next(INVALID.len())];
                self.plain(Kind::Invalid, line, Some(code))
            }
            70..73 => self.oversized(),
            73..81 => self.expiring(),
            81..93 => {
                let line = APP[self.next(APP.len())];
                self.plain(Kind::App, line, None)
            }
            93..97 => self.screenshot(),
            _ if self.id == 0 => self.trace(),
            _ => self.plain(Kind::Service, "status", None),
        }
    }

    /// Writes `line` and reads its answer; `code`: the error it must get.
    fn plain(&mut self, kind: Kind, line: &str, code: Option<&str>) -> bool {
        let Some(seq) = self.write(kind, line, false) else {
            return false;
        };
        if let Some(response) = self.answer(line, seq, false) {
            match (code, response.error_code_text()) {
                (Some(want), got) if got.as_deref() != Some(want) => self.violation(format!(
                    "{line:?} was answered {got:?}, not {want}: {response:?}"
                )),
                (None, _) if response.verb != verb(line) => self.violation(format!(
                    "{line:?} (seq {seq}) was answered for verb {}: {response:?}",
                    response.verb
                )),
                _ => {}
            }
        }
        true
    }

    /// A line over the cap (by 1 byte to the cap again), written as a client that does not check
    /// its size would.
    fn oversized(&mut self) -> bool {
        let max = self.client.ready().max_command_bytes;
        let line = format!("type \"{}\"", "x".repeat(max + 1 + self.next(max)));
        let Some(seq) = self.write(Kind::Oversized, &line, true) else {
            return false;
        };
        if let Some(r) = self.answer("oversized", seq, false)
            && (r.error_code_text().as_deref() != Some("too_long") || r.verb != "-")
        {
            self.violation(format!("an oversized line was answered {r:?}"));
        }
        true
    }

    /// A deadline already past (must be answered `expired`), or 0 to 60 ms away with a client
    /// that gives up after 400 ms (any documented outcome).
    fn expiring(&mut self) -> bool {
        let now = unix_ms_now();
        let past = self.next(2) == 0;
        let target = ["find role=checkbox", "click role=checkbox name=Checkbox"][self.next(2)];
        let deadline = if past {
            now - 1000
        } else {
            now + self.next(60) as u64
        };
        let line = format!("{target} --deadline {deadline}");
        let Some(seq) = self.write(Kind::Expiring, &line, false) else {
            return false;
        };
        if let Some(r) = self.answer(&line, seq, !past)
            && past
        {
            self.violation(format!("{line:?} (deadline past) was answered {r:?}"));
        }
        true
    }

    fn screenshot(&mut self) -> bool {
        self.shots += 1;
        if self.shots.is_multiple_of(10) {
            return self.plain(Kind::Clean, "clean --keep 5", None);
        }
        let label = format!("soak-{}-{}", self.id, self.shots % 8);
        let line = format!("screenshot {label}");
        let Some(seq) = self.write(Kind::Screenshot, &line, false) else {
            return false;
        };
        if let Some(r) = self.answer(&line, seq, false) {
            let file = format!("\nfile screenshot-{label}.png\n");
            if !matches!(&r.outcome, Outcome::Ok { body } if body.contains(&file)) {
                // Refusals (a frame that could not be drawn) are tallied by code; an `ok` that
                // names another file is not one.
                if r.error_code_text().is_none() {
                    self.violation(format!("{line:?} was answered {r:?}"));
                }
            }
        }
        true
    }

    /// `trace start`, or `trace stop FILE` for the one running (the file is then removed).
    fn trace(&mut self) -> bool {
        let file = self.work.join(format!("trace-{}.html", self.traces % 2));
        let line = if self.tracing {
            format!("trace stop {}", file.display())
        } else {
            "trace start".to_owned()
        };
        let Some(seq) = self.write(Kind::Trace, &line, false) else {
            return false;
        };
        if let Some(r) = self.answer(&line, seq, false) {
            if r.error_code_text().is_some() {
                self.violation(format!("{line:?} was answered {r:?}"));
            } else if self.tracing {
                self.traces += 1;
                // Keep the last two: the directory is the soak's, not the drop-box.
                let _ =
                    std::fs::remove_file(self.work.join(format!("trace-{}.html", self.traces % 2)));
            }
        }
        self.tracing = !self.tracing;
        true
    }

    /// Writes `line` as an entry; `unchecked`: past the client's size check. None when the
    /// queue was full (nothing written).
    fn write(&mut self, kind: Kind, line: &str, unchecked: bool) -> Option<u64> {
        let written = if unchecked {
            let ready = self.client.ready();
            queue::enqueue(self.client.dir(), line, ready.queue_capacity, usize::MAX)
                .map_err(ClientError::Enqueue)
        } else {
            self.client.enqueue_line(line)
        };
        match written {
            Ok(seq) => {
                *self.tally.sent.entry(kind.name()).or_default() += 1;
                Some(seq)
            }
            Err(ClientError::Enqueue(EnqueueError::QueueFull { .. })) => {
                self.tally.queue_full += 1;
                std::thread::sleep(Duration::from_millis(20));
                None
            }
            Err(e) => {
                self.violation(format!("{line:?} could not be written: {e}"));
                std::thread::sleep(Duration::from_millis(100));
                None
            }
        }
    }

    /// Reads the answer to `seq`, with the short client when `short`. None when there is none
    /// to look at: the command was withdrawn (its documented fate), answered `expired`, or lost.
    fn answer(&mut self, what: &str, seq: u64, short: bool) -> Option<Response> {
        let client = if short { &self.short } else { &self.client };
        let result = match client.wait(seq) {
            Err(ClientError::Timeout {
                fate: Fate::Taken, ..
            }) if short => {
                // The app holds it: its answer comes all the same, and must be read.
                *self.tally.fates.entry("taken").or_default() += 1;
                self.client.wait(seq)
            }
            other => other,
        };
        match result {
            Ok(response) => {
                self.tally.answers += 1;
                if let Some(code) = response.error_code_text() {
                    *self.tally.codes.entry(code).or_default() += 1;
                }
                Some(response)
            }
            Err(ClientError::Timeout {
                fate: Fate::Expired { .. },
                ..
            }) => {
                self.tally.answers += 1;
                *self.tally.codes.entry("expired".to_owned()).or_default() += 1;
                *self.tally.fates.entry("expired").or_default() += 1;
                None
            }
            Err(ClientError::Timeout {
                fate: Fate::Withdrawn,
                ..
            }) if short => {
                *self.tally.fates.entry("withdrawn").or_default() += 1;
                None
            }
            Err(e) => {
                self.violation(format!("{what:?} (seq {seq}): {e}"));
                None
            }
        }
    }

    fn violation(&mut self, what: String) {
        eprintln!("soak: writer {}: {what}", self.id);
        self.tally.violations.push(what);
    }
}

/// The verb of a valid line.
fn verb(line: &str) -> &str {
    line.split_whitespace().next().unwrap_or("")
}

/// The error code of an answer, as text.
trait CodeText {
    fn error_code_text(&self) -> Option<String>;
}

impl CodeText for Response {
    fn error_code_text(&self) -> Option<String> {
        match &self.outcome {
            Outcome::Error { code, .. } => Some(code.clone()),
            Outcome::Ok { .. } => None,
        }
    }
}
