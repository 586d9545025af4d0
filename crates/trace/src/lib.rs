#![doc = include_str!("../README.md")]

mod frames;
mod html;

pub use html::write_html;

use std::collections::{HashMap, VecDeque};
use std::time::{Duration, Instant};

use winit_automation_link::CaptureTo;
use winit_automation_link::wiring::CaptureJob;
use winit_automation_protocol::{
    AuditAnswer, Command, DragEnd, Finding, JournalEntry, Outcome, Response,
};

/// How many steps a trace keeps.
pub const MAX_STEPS: usize = 10_000;

/// What the service knew of an action when it sent it: where it aimed, for the viewer to draw.
#[derive(Debug, Clone, Default)]
pub struct Aimed {
    /// The window its input went to.
    pub window: u64,
    /// The visible bounds (logical x, y, width, height) of each of its targets, in the order of
    /// `Command::action_targets` (a drag's start, then its end); `None` where it has none.
    pub boxes: Vec<Option<[f64; 4]>>,
    /// Every place the pointer (or a finger) went, in order (logical pixels): its last is where
    /// it went last.
    pub path: Vec<(f64, f64)>,
}

/// One target of a step, as the viewer draws it.
#[derive(Debug, Clone)]
struct Target {
    end: Option<DragEnd>,
    /// The selector it was named by (or resolved to, for a ref or a point).
    selector: String,
    bounds: Option<[f64; 4]>,
}

/// One answered command.
#[derive(Debug, Clone)]
struct Step {
    index: usize,
    command: String,
    /// The command with its refs replaced by the selectors they resolved to.
    named: String,
    verb: String,
    /// `None` when it was carried out, else the error code.
    code: Option<String>,
    /// The response as its client read it.
    answer: String,
    /// Read and answered, in milliseconds since the trace started.
    start_ms: f64,
    end_ms: f64,
    /// On the virtual clock, the app's time when it was answered (the last published frame's),
    /// in milliseconds: beside the wall time, what the app saw.
    clock_ms: Option<f64>,
    frame: Option<u64>,
    targets: Vec<Target>,
    /// Where the pointer went, in order (logical pixels).
    path: Vec<(f64, f64)>,
    /// An audit's findings, as its answer lists them, each with its node's bounds.
    findings: Vec<Finding>,
    /// The tree's changes since the step before, as `--settle` prints them (`+`, `-`, `~`).
    diff: Vec<(char, String)>,
    /// The frame after it, an index into the kept frames.
    image: Option<usize>,
}

/// A running trace.
pub struct Trace {
    /// Which trace of the app's run: its frames carry it.
    id: u64,
    started: Instant,
    started_unix_ms: u64,
    /// The frame published when it started.
    since_frame: u64,
    screenshots: bool,
    /// A later `trace start` replaces it instead of being refused (`--replaceable`).
    replaceable: bool,
    /// Why frames are missing, when they are (the app takes its screenshots itself).
    note: String,
    /// The regular projection of every window after the last step: the next step's diff is
    /// against it.
    tree: String,
    /// Where the actions sent and not answered yet aimed, with their seqs, oldest first (at
    /// most [`AIMED`]: a withdrawn command is never answered).
    aimed: VecDeque<(u64, Aimed)>,
    /// The steps whose frame was asked for and has not come, with when it was asked for.
    awaiting_frame: HashMap<usize, Instant>,
    steps: Vec<Step>,
    /// The bytes of answers and diffs the steps hold.
    text_bytes: usize,
    steps_dropped: u64,
    frames: frames::Frames,
}

/// How many aimed-at records wait for their answers, at most: every order in flight and then
/// some.
const AIMED: usize = winit_automation_link::wiring::IN_FLIGHT * 4;
/// The most bytes of one step's answer, and of its diff, kept; what goes past is cut with a
/// line that says so.
const STEP_TEXT: usize = 16 << 10;
/// The most bytes of answers and diffs a trace keeps; steps past it are counted, not kept.
pub const MAX_TEXT: usize = 64 << 20;
/// How long `trace save` and `trace stop` wait for the frames of the last steps (drawn and read
/// back after their answers) before they write the trace without them. A frame asked for longer
/// ago than this is not waited for.
pub const FRAME_WAIT: Duration = Duration::from_secs(1);
/// A frame asked for longer ago than this is not expected any more.
const FRAME_GIVEN_UP: Duration = Duration::from_secs(10);

impl Trace {
    /// Trace number `id`, starting now, at frame `since_frame`, on the tree `tree` (the regular projection
    /// of every window). `screenshots`: keep the frame after each action; `note` says why there
    /// are none when it was asked for and cannot be had.
    pub fn new(
        id: u64,
        screenshots: bool,
        note: String,
        tree: String,
        since_frame: u64,
        started_unix_ms: u64,
    ) -> Trace {
        Trace {
            id,
            started: Instant::now(),
            started_unix_ms,
            since_frame,
            screenshots,
            replaceable: false,
            note,
            tree,
            aimed: VecDeque::new(),
            awaiting_frame: HashMap::new(),
            steps: Vec::new(),
            text_bytes: 0,
            steps_dropped: 0,
            frames: frames::Frames::default(),
        }
    }

    /// Whether a later `trace start` replaces it instead of being refused (`--replaceable`).
    pub fn is_replaceable(&self) -> bool {
        self.replaceable
    }

    /// Lets a later `trace start` replace it (`--replaceable`).
    pub fn make_replaceable(&mut self) {
        self.replaceable = true;
    }

    /// Whether frames are kept.
    pub fn screenshots(&self) -> bool {
        self.screenshots
    }

    /// The frame published when it started.
    pub fn since_frame(&self) -> u64 {
        self.since_frame
    }

    /// The action `seq` was sent aiming there (again, after a scroll step: the last counts).
    pub fn aimed(&mut self, seq: u64, aimed: Aimed) {
        self.aimed.retain(|(s, _)| *s != seq);
        if self.aimed.len() >= AIMED {
            self.aimed.pop_front();
        }
        self.aimed.push_back((seq, aimed));
    }

    /// Whether it keeps no more steps.
    pub fn full(&self) -> bool {
        self.steps.len() >= MAX_STEPS
    }

    /// A step not kept, for want of room.
    pub fn drop_step(&mut self) {
        self.steps_dropped += 1;
    }

    /// Command `seq` was answered with `response` (its journal entry, read at `read_at`,
    /// answered at `answered_at`, the virtual clock at `clock` when the app is on it); `tree` is
    /// the regular projection of every window now. Returns the step and the window of the frame
    /// to capture for it, if one is wanted.
    #[allow(clippy::too_many_arguments)]
    pub fn answered(
        &mut self,
        entry: &JournalEntry,
        command: &Command,
        read_at: Instant,
        answered_at: Instant,
        clock: Option<std::time::Duration>,
        response: &Response,
        tree: String,
    ) -> Option<(usize, u64)> {
        let aimed = self
            .aimed
            .iter()
            .position(|(s, _)| *s == response.seq)
            .and_then(|i| self.aimed.remove(i))
            .map(|(_, a)| a);
        let (diff, diff_bytes) = step_diff(&self.tree, &tree);
        self.tree = tree;
        let answer = cut(response.to_text());
        let (audited, findings, findings_bytes) = audited(command, response);
        let text = answer.len() + diff_bytes + findings_bytes;
        if self.full() || self.text_bytes + text > MAX_TEXT {
            self.drop_step();
            return None;
        }
        self.text_bytes += text;
        let ms = |at: Instant| at.saturating_duration_since(self.started).as_secs_f64() * 1000.0;
        let boxes = aimed.as_ref().map(|a| a.boxes.as_slice()).unwrap_or(&[]);
        let targets = targets_of(entry, command)
            .into_iter()
            .enumerate()
            .map(|(i, (end, selector))| Target {
                end,
                selector,
                bounds: boxes.get(i).copied().flatten(),
            })
            .collect();
        let ok = matches!(response.outcome, Outcome::Ok { .. });
        let window = aimed.as_ref().map(|a| a.window).or(audited);
        let step = self.steps.len();
        self.steps.push(Step {
            index: step + 1,
            command: entry.line.clone(),
            named: entry.with_selectors(),
            verb: response.verb.clone(),
            code: entry.code.clone(),
            answer,
            start_ms: ms(read_at),
            end_ms: ms(answered_at),
            clock_ms: clock.map(|d| d.as_secs_f64() * 1000.0),
            frame: entry.frame,
            targets,
            path: aimed.as_ref().map(|a| a.path.clone()).unwrap_or_default(),
            findings,
            diff,
            image: None,
        });
        let window = window.filter(|_| ok && self.screenshots)?;
        self.awaiting_frame
            .retain(|_, asked| asked.elapsed() < FRAME_GIVEN_UP);
        self.awaiting_frame.insert(step, Instant::now());
        Some((step, window))
    }

    /// Whether a frame asked for less than [`FRAME_WAIT`] ago has not come yet.
    pub fn awaiting_frames(&self) -> bool {
        self.awaiting_frame
            .values()
            .any(|asked| asked.elapsed() < FRAME_WAIT)
    }

    /// The frame of `step` will not come (its order could not be sent).
    pub fn no_frame(&mut self, step: usize) {
        self.awaiting_frame.remove(&step);
    }

    /// The frame asked for after a step (`CaptureTo::Trace`): read back, downscaled and kept
    /// (once, if an earlier step showed the same picture). A frame of another trace (one since
    /// stopped or replaced) is dropped.
    pub fn frame(&mut self, job: CaptureJob) {
        let CaptureTo::Trace { trace, step } = job.to else {
            return;
        };
        if trace != self.id {
            return;
        }
        if self.awaiting_frame.remove(&step).is_none() {
            return;
        }
        match self.frames.add(job) {
            Ok(image) => self.steps[step].image = image,
            Err(e) => log::warn!(
                "winit-automation: a trace frame was not kept: {}",
                e.message
            ),
        }
    }

    /// How many steps and frames it keeps.
    pub fn kept(&self) -> (usize, usize) {
        (self.steps.len(), self.frames.len())
    }
}

/// The targets of an entry's command, in `Command::action_targets` order, each named by the
/// selector its ref or point resolved to (the journal's), else by the command's own selector.
fn targets_of(entry: &JournalEntry, command: &Command) -> Vec<(Option<DragEnd>, String)> {
    let drag = matches!(command, Command::Drag { .. });
    command
        .action_targets()
        .enumerate()
        .map(|(i, target)| {
            let end = drag.then_some(if i == 0 { DragEnd::From } else { DragEnd::To });
            let named = entry
                .targets
                .iter()
                .find(|t| t.end == end)
                .map(|t| t.selector.to_string());
            (end, named.unwrap_or_else(|| target.to_string()))
        })
        .collect()
}

/// An audit's answer as a step keeps it: the window it audited (the frame after the step is that
/// window's), and its findings with their nodes' bounds, for the viewer to list and draw (an audit
/// aims at no target: its findings are what it points at), cut at [`STEP_TEXT`] bytes of their
/// lines, and those bytes. Another command's, or a refused audit's: none.
fn audited(command: &Command, response: &Response) -> (Option<u64>, Vec<Finding>, usize) {
    let answer = match (command, &response.outcome) {
        (Command::Audit { .. }, Outcome::Ok { body }) => AuditAnswer::parse(body).ok(),
        _ => None,
    };
    let Some(answer) = answer else {
        return (None, Vec::new(), 0);
    };
    let mut bytes = 0;
    let mut findings = answer.findings;
    let kept = findings
        .iter()
        .take_while(|f| {
            bytes += f.evidence.len() + f.node.to_string().len();
            bytes <= STEP_TEXT
        })
        .count();
    findings.truncate(kept);
    let bytes = findings
        .iter()
        .map(|f| f.evidence.len() + f.node.to_string().len())
        .sum();
    (Some(answer.window), findings, bytes)
}

/// The tree's changes from `before` to `after` as a step keeps them (`+`, `-`, `~` and the
/// line), cut at [`STEP_TEXT`] bytes with a line that says so, and the bytes kept.
fn step_diff(before: &str, after: &str) -> (Vec<(char, String)>, usize) {
    let mut diff = Vec::new();
    let mut diff_bytes = 0;
    if before == after {
        return (diff, diff_bytes);
    }
    for (change, line) in winit_automation_tree::diff(before, after).lines {
        let tag = change.tag();
        if diff_bytes + line.len() > STEP_TEXT {
            diff.push(('~', "... (the rest of the diff is not kept)".to_owned()));
            break;
        }
        diff_bytes += line.len();
        diff.push((tag, line.to_owned()));
    }
    (diff, diff_bytes)
}

/// A step's answer, cut to [`STEP_TEXT`] bytes (at a character boundary) with a line that says so.
fn cut(mut text: String) -> String {
    if text.len() > STEP_TEXT {
        let mut at = STEP_TEXT;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        text.truncate(at);
        text.push_str("\n... (the rest of the answer is not kept)\n");
    }
    text
}
