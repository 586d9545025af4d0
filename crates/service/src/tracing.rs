//! The service's side of traces (the trace itself is `winit_automation_trace`'s): `trace start`, `trace save`
//! and `trace stop`, and the three places that feed a running trace: an action's order going out
//! (where it aims), every answer (the step), and the frame captured after an action.

use std::path::Path;
use std::time::Instant;

use crossbeam_channel::select;

use crate::Service;
use winit_automation_dropbox::unix_ms_now;
use winit_automation_link::wiring::{CaptureJob, Handover, Order, Plan};
use winit_automation_link::{CaptureTo, Step};
use winit_automation_protocol::{
    Command, ErrorCode, Failure, JournalEntry, Label, Response, TraceCommand, Verb, quote,
};
use winit_automation_trace::{Aimed, FRAME_WAIT, Trace};

/// The service's tracing: the running trace, how many were started, and the screenshots that
/// came while `trace stop` waited for its frames.
#[derive(Default)]
pub(crate) struct Tracing {
    /// The running trace (`trace start`), fed by every answer.
    running: Option<Trace>,
    /// How many traces were started: the next one's number.
    started: u64,
    /// Screenshots that came while `trace stop` waited for its frames: written next round.
    deferred_captures: Vec<CaptureJob>,
}

impl Tracing {
    /// Whether a trace runs.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The screenshots that came while `trace stop` waited for its frames, to write now.
    pub fn take_deferred(&mut self) -> Vec<CaptureJob> {
        std::mem::take(&mut self.deferred_captures)
    }
}

impl Service {
    /// `trace start`, `trace save`, `trace stop`.
    pub(crate) fn serve_trace(&mut self, seq: u64, command: &TraceCommand) {
        let verb = Some(Verb::Trace);
        let result = match command {
            TraceCommand::Start {
                screenshots,
                replaceable,
            } => self.start_trace(*screenshots, *replaceable),
            TraceCommand::Save { file } | TraceCommand::Stop { file } => {
                let stop = matches!(command, TraceCommand::Stop { .. });
                self.write_trace(file, stop)
            }
        };
        match result {
            Ok(body) => self.answer(Response::ok(seq, verb, body)),
            Err(failure) => self.fail(seq, verb, failure),
        }
    }

    fn start_trace(&mut self, screenshots: bool, replaceable: bool) -> Result<String, Failure> {
        let mut replaced = String::new();
        if let Some(trace) = &self.tracing.running {
            if !trace.is_replaceable() {
                return Err(Failure::new(
                    ErrorCode::AlreadyTracing,
                    format!(
                        "a trace is already running (since frame {})",
                        trace.since_frame()
                    ),
                    "save it with `trace save FILE` or end it with `trace stop FILE`, then start again",
                ));
            }
            replaced = format!(
                "replaced a replaceable trace (since frame {}, {} steps dropped)\n",
                trace.since_frame(),
                trace.kept().0
            );
        }
        let no_frames = screenshots && self.cfg.app_screenshots;
        let note = if no_frames {
            "no frames: this app takes its screenshots itself (Builder::app_screenshots)"
        } else {
            ""
        };
        let tree = self.tree.settle_text();
        let frame = self.published();
        self.tracing.started += 1;
        let mut trace = Trace::new(
            self.tracing.started,
            screenshots && !no_frames,
            note.into(),
            tree,
            frame,
            unix_ms_now(),
        );
        if replaceable {
            trace.make_replaceable();
        }
        let body = format!(
            "tracing since frame {frame}\nscreenshots {}\n{replaced}",
            if trace.screenshots() { "on" } else { "off" }
        );
        self.tracing.running = Some(trace);
        Ok(body)
    }

    /// Writes the trace to `file`; ends it when `stop` and the file is written.
    fn write_trace(&mut self, file: &Path, stop: bool) -> Result<String, Failure> {
        let shown = quote(&file.to_string_lossy());
        if file.is_relative() {
            return Err(Failure::new(
                ErrorCode::BadArgument,
                format!("{shown} is not an absolute path"),
                "give an absolute path; the client library, the CLI and the MCP server make a relative one absolute against their working directory",
            ));
        }
        if self.tracing.running.is_none() {
            return Err(Failure::new(
                ErrorCode::NotTracing,
                "no trace is running",
                "start one with `trace start [--screenshots]`",
            ));
        }
        if file.is_dir() {
            return Err(Failure::new(
                ErrorCode::BadArgument,
                format!("{shown} is a directory"),
                "name the HTML file to write in it: trace stop DIR/session.html",
            ));
        }
        if let Some(parent) = file.parent().filter(|p| !p.is_dir()) {
            return Err(Failure::new(
                ErrorCode::AppError,
                format!(
                    "cannot write the trace to {shown}: the folder {} does not exist",
                    quote(&parent.to_string_lossy())
                ),
                "the trace keeps running: save or stop it again with a file in a folder that exists",
            ));
        }
        self.await_trace_frames();
        let Some(trace) = &self.tracing.running else {
            unreachable!("checked above");
        };
        let bytes = winit_automation_trace::write_html(trace, &self.cfg.app_name, file).map_err(|e| {
            Failure::new(
                ErrorCode::AppError,
                format!("cannot write the trace to {shown}: {e}"),
                "the trace keeps running: save or stop it again with a file in a directory that exists and is writable",
            )
        })?;
        let (steps, frames) = trace.kept();
        if stop {
            self.tracing.running = None;
        }
        Ok(format!(
            "file {shown}\nsteps {steps}\nframes {frames}\nbytes {bytes}\n"
        ))
    }

    /// Waits, up to [`FRAME_WAIT`], for the frames asked for after the last steps, so the trace
    /// written has them. The scene is read meanwhile (the render side hands a frame's copies
    /// over once the frame's tree updates are through); other screenshots that come are kept
    /// for the loop to write.
    fn await_trace_frames(&mut self) {
        let until = Instant::now() + FRAME_WAIT;
        // Shutting down, no frame is drawn any more.
        while !self.stopping
            && self
                .tracing
                .running
                .as_ref()
                .is_some_and(Trace::awaiting_frames)
        {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            select! {
                recv(self.link.ends().captures) -> job => match job {
                    Ok(job) if job.to.is_trace() => self.trace_frame(job),
                    Ok(job) => self.tracing.deferred_captures.push(job),
                    Err(_) => break,
                },
                recv(self.link.ends().scene) -> msg => match msg {
                    Ok(msg) => self.apply_scene(msg),
                    Err(_) => break,
                },
                default(left) => break,
            }
        }
    }

    /// An action's order goes out with `plan`: the trace notes where it aims.
    pub(crate) fn trace_aimed(&mut self, seq: u64, command: &Command, plan: &Plan) {
        let Some(trace) = self.tracing.running.as_mut() else {
            return;
        };
        let path = plan
            .stages
            .iter()
            .flat_map(|s| &s.steps)
            .filter_map(|s| match s {
                // The pointer's way; a pinch's fingers are not the pointer.
                Step::Move { x, y } => Some((*x, *y)),
                _ => None,
            })
            .collect();
        trace.aimed(
            seq,
            Aimed {
                window: plan.window,
                boxes: winit_automation_acting::target_boxes(&mut self.tree, command),
                path,
            },
        );
    }

    /// Command `seq` was answered (its journal entry and `command`, read at `read_at`): the trace takes the
    /// step, and asks for the frame after it when it keeps frames.
    pub(crate) fn trace_answered(
        &mut self,
        entry: &JournalEntry,
        command: &Command,
        read_at: Instant,
        response: &Response,
    ) {
        let answered_at = Instant::now();
        match &mut self.tracing.running {
            None => return,
            Some(trace) if trace.full() => return trace.drop_step(),
            Some(_) => {}
        }
        // Formatted again only when the trees changed (`AppTree::settle_text` keeps the last).
        let tree = self.tree.settle_text();
        let Some(trace) = self.tracing.running.as_mut() else {
            return;
        };
        let clock = &self.link.ends().counters.clock;
        let clock = clock.is_virtual().then(|| clock.published_time());
        let Some((step, window)) =
            trace.answered(entry, command, read_at, answered_at, clock, response, tree)
        else {
            return;
        };
        // The first frame drawn after the answer, captured as a screenshot is; nobody waits for
        // it (a full channel or a frame never captured only leaves the step without a picture).
        let order = Order {
            seq: response.seq,
            command: Command::Screenshot {
                label: Label::default(),
                crop: None,
                refs: false,
            },
            plan: Some(Plan {
                window,
                stages: vec![
                    vec![Step::Capture {
                        to: CaptureTo::Trace {
                            trace: self.tracing.started,
                            step,
                        },
                        crop: None,
                    }]
                    .into(),
                ],
                summary: String::new(),
                press: None,
            }),
            deadline: None,
            handover: Handover::default(),
            followed: false,
        };
        if self.link.send_own(order) {
            self.wake_app();
        } else if let Some(trace) = self.tracing.running.as_mut() {
            trace.no_frame(step);
        }
    }

    /// A frame captured for the trace (`CaptureTo::Trace`). A panic while reading or encoding
    /// it costs the step its picture, never the service thread.
    pub(crate) fn trace_frame(&mut self, job: CaptureJob) {
        let Some(trace) = self.tracing.running.as_mut() else {
            return;
        };
        let kept = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| trace.frame(job)));
        if let Err(panic) = kept {
            log::error!(
                "winit-automation: internal error while keeping a trace frame: {}",
                winit_automation_protocol::panic_message(&*panic)
            );
        }
    }
}
