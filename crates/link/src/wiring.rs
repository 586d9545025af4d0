//! The wiring between the render end and the service thread: the channels, the orders and
//! replies on them, the frame counters both sides read. Only this crate and the service crate use
//! it; it is public because they are two crates, and hidden from the documentation because no app,
//! toolkit adapter or client has a use for it. No semver promise.
//!
//! | channel | direction | carries | capacity |
//! |---|---|---|---|
//! | `orders` | service -> render | an action with its planned input and deadline (`Order`) | `IN_FLIGHT` |
//! | `replies` | render -> service | the answer to an order, stamped with its frame (`Reply`) | `IN_FLIGHT` |
//! | `captures` | render -> service | a screenshot copy to read back and encode (`CaptureJob`) | `IN_FLIGHT` |
//! | `scene` | render -> service | tree updates, widget records, window and surface state, the adapter (`SceneChange`) | `SCENE_CHANNEL` |
//! | `frame_ends` | render -> service | when a frame was published: metrics, the `--settle` count | 256 |
//! | `tick` | render -> service | "a frame with replies was published" | 1 |
//! | `stop` | render -> service | the handle was dropped | 1 |
//!
//! The frame counters ([`Counters`]) are shared atomics, and so is each order's [`Handover`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender, bounded};

use winit_automation_protocol::{Command, Failure, Verb};

pub use crate::plan::{Plan, PressCheck, StageWait};
use crate::{CaptureTo, ClockReading, ClockShare, Reader, SceneChange, Waker};

/// How many commands may be in progress at once on the service side (one carried out, the rest
/// read and waiting their turn or waiting for a condition). It is also the capacity of the order
/// and reply channels, so the render side's `try_send` of a reply can never find them full.
pub const IN_FLIGHT: usize = 64;

/// Capacity of the scene channel; the render side keeps what does not fit and sends it next frame.
pub const SCENE_CHANNEL: usize = 256;

/// Capacity of the frame-end channel: a full channel drops the sample (metrics only lose a point).
const FRAME_ENDS: usize = 256;

/// A command on its way to the render thread, with the input that carries it out (`None` for a
/// command the app answers itself).
pub struct Order {
    /// The seq of the command entry; the reply and the response carry it.
    pub seq: u64,
    /// The command to carry out.
    pub command: Command,
    /// The input that carries it out, one stage per frame; `None` for a command the app answers
    /// itself (it is handed over as an [`AppCommand`](crate::AppCommand)).
    pub plan: Option<Plan>,
    /// When its client gives up: no input stage is delivered after it.
    pub deadline: Option<Instant>,
    /// Shared with the service: decides whether the render side took the order or the service
    /// withdrew it at its deadline.
    pub handover: Handover,
    /// Another command that draws was queued behind it when it was sent: the picture of the frame
    /// that carries its last input is drawn over by the next command's frame
    /// (winit-automation's `Frame::superseded`).
    pub followed: bool,
}

/// Who has an [`Order`]: the render side takes it when it delivers its first input stage, the
/// service withdraws it when its deadline passes first (a stalled frame loop). Whoever moves it
/// out of `OPEN` first wins; the loser leaves it alone, so the order is either carried out or
/// answered `expired`, never both. One atomic, no lock: the render side never waits on it.
#[derive(Clone, Default)]
pub struct Handover(Arc<AtomicU8>);

impl Handover {
    const OPEN: u8 = 0;
    const TAKEN: u8 = 1;
    const WITHDRAWN: u8 = 2;

    /// The render side takes the order; `false` when the service withdrew it.
    pub fn take(&self) -> bool {
        match self
            .0
            .compare_exchange(Self::OPEN, Self::TAKEN, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(state) => state == Self::TAKEN,
        }
    }

    /// Withdraws the order; `false` when the render side took it (or it was withdrawn already).
    pub fn withdraw(&self) -> bool {
        self.0
            .compare_exchange(
                Self::OPEN,
                Self::WITHDRAWN,
                Ordering::AcqRel,
                Ordering::Acquire,
            )
            .is_ok()
    }
}

/// The render side's answer to an [`Order`].
pub struct Reply {
    /// The seq of the command it answers.
    pub seq: u64,
    /// The verb of the command it answers.
    pub verb: Verb,
    /// The frame that carried the command out; the response waits until it is published.
    pub frame: u64,
    /// `Ok` with the answer's body (its lines, may be empty), or the failure.
    pub result: Result<String, Failure>,
    /// For a delivered action that pressed: what to check and what the app reported.
    pub hit: Option<Hit>,
    /// For a `clock` command: how the clock stood in that frame (the service writes the line).
    pub clock: Option<ClockReading>,
}

/// A delivered press and the app's report of the node that took it (`Frame::pointer_hit`):
/// `None` when the app reported nothing, `Some(None)` when it reported that no node took it. The
/// service turns it into the answer's `hit` line or the `missed` error.
pub struct Hit {
    /// The press as planned: its window, stage, point, target and the ids that may take it.
    pub check: PressCheck,
    /// The app's report: `None` when it reported nothing, `Some(None)` when no node took the press.
    pub reported: Option<Option<accesskit::NodeId>>,
}

/// A screenshot on its way to disk. The render side encoded the copy; the service thread waits
/// for the pixels (`read`) and encodes them, never the render thread.
pub struct CaptureJob {
    /// The seq of the command whose step asked for the pixels.
    pub seq: u64,
    /// The verb of that command.
    pub verb: Verb,
    /// The frame the pixels come from (published when the job is sent).
    pub frame: u64,
    /// Where the pixels go: `screenshot-<label>.png`, or the trace.
    pub to: CaptureTo,
    /// x, y, width, height in logical pixels.
    pub crop: Option<[f64; 4]>,
    /// Waits for the pixels and lends them to a visitor, on the service thread.
    pub read: Reader,
}

/// The frame counters both sides read; only the render side writes them.
pub struct Counters {
    /// The frame the render side is building (starts at 1).
    pub building: AtomicU64,
    /// The last frame the render side published (0 before the first).
    pub published: AtomicU64,
    /// Whether a reply was sent since the last `end_frame`.
    pub replied: AtomicBool,
    /// The clock as of the last published frame, and the service's wish that it move.
    pub clock: ClockShare,
}

impl Counters {
    /// The last frame the render side published (0 before the first).
    pub fn published(&self) -> u64 {
        self.published.load(Ordering::SeqCst)
    }

    /// The frame the render side is building (starts at 1).
    pub fn building(&self) -> u64 {
        self.building.load(Ordering::SeqCst)
    }
}

/// The service thread's ends.
pub struct ServiceChannels {
    /// Sends orders to the render side.
    pub orders: Sender<Order>,
    /// Receives the render side's answers to orders.
    pub replies: Receiver<Reply>,
    /// Receives the screenshot copies to read back and encode.
    pub captures: Receiver<CaptureJob>,
    /// Each change with the frame it belongs to (the one being built when the app handed it over).
    pub scene: Receiver<(u64, SceneChange)>,
    /// Receives when each frame was published, for metrics and the `--settle` frame count.
    pub frame_ends: Receiver<Instant>,
    /// Receives a signal when a frame with replies was published.
    pub tick: Receiver<()>,
    /// Receives a signal when the render side was dropped.
    pub stop: Receiver<()>,
    /// The frame counters, shared with the render side (which alone writes them).
    pub counters: Arc<Counters>,
}

/// The render thread's ends.
pub struct RenderChannels {
    /// Receives the service thread's orders.
    pub orders: Receiver<Order>,
    /// Sends the answers to orders.
    pub replies: Sender<Reply>,
    /// Sends screenshot copies to the service thread, to read back and encode.
    pub captures: Sender<CaptureJob>,
    /// Sends each scene change with the frame it belongs to.
    pub scene: Sender<(u64, SceneChange)>,
    /// Sends when each frame was published; a full channel drops the sample.
    pub frame_ends: Sender<Instant>,
    /// Signals that a frame with replies was published (a full channel means one is pending).
    pub tick: Sender<()>,
    /// Signals that the render side was dropped.
    pub stop: Sender<()>,
    /// The frame counters, shared with the service thread; only this side writes them.
    pub counters: Arc<Counters>,
}

/// The running service thread, as the render side holds it: its ends of the channels, and the
/// thread to join when the plugin stops.
pub struct ServiceThread {
    /// The render side's ends of the channels.
    pub ends: RenderChannels,
    /// The service thread, joined when the plugin stops.
    pub thread: std::thread::JoinHandle<()>,
}

/// Creates every channel between the two threads.
pub fn channels() -> (ServiceChannels, RenderChannels) {
    let (orders_tx, orders_rx) = bounded(IN_FLIGHT);
    let (replies_tx, replies_rx) = bounded(IN_FLIGHT);
    let (captures_tx, captures_rx) = bounded(IN_FLIGHT);
    let (scene_tx, scene_rx) = bounded(SCENE_CHANNEL);
    let (frames_tx, frames_rx) = bounded(FRAME_ENDS);
    let (tick_tx, tick_rx) = bounded(1);
    let (stop_tx, stop_rx) = bounded(1);
    let counters = Arc::new(Counters {
        building: AtomicU64::new(1),
        published: AtomicU64::new(0),
        replied: AtomicBool::new(false),
        clock: ClockShare::default(),
    });
    (
        ServiceChannels {
            orders: orders_tx,
            replies: replies_rx,
            captures: captures_rx,
            scene: scene_rx,
            frame_ends: frames_rx,
            tick: tick_rx,
            stop: stop_rx,
            counters: counters.clone(),
        },
        RenderChannels {
            orders: orders_rx,
            replies: replies_tx,
            captures: captures_tx,
            scene: scene_tx,
            frame_ends: frames_tx,
            tick: tick_tx,
            stop: stop_tx,
            counters,
        },
    )
}

/// Sends the render side's answers. Cloned into every [`AppCommand`](crate::AppCommand) the app holds.
#[derive(Clone)]
pub struct Replier {
    /// The channel the answers go to the service thread on.
    pub replies: Sender<Reply>,
    /// The frame counters: an answer is stamped with the frame being built and raises `replied`.
    pub counters: Arc<Counters>,
    /// A reply waits for the frame it is stamped with; an app that draws only on demand is asked
    /// for that frame.
    pub waker: Option<Waker>,
}

impl Replier {
    /// Answers `seq`, stamped with the frame being built. Never blocks.
    pub fn send(&self, seq: u64, verb: Verb, result: Result<String, Failure>) {
        self.send_hit(seq, verb, result, None);
    }

    /// Answers `seq` like [`Replier::send`], with the press the answer depends on.
    pub fn send_hit(
        &self,
        seq: u64,
        verb: Verb,
        result: Result<String, Failure>,
        hit: Option<Hit>,
    ) {
        self.send_reply(seq, verb, result, hit, None);
    }

    /// Answers a `clock` command with how the clock stands.
    pub fn send_clock(&self, seq: u64, verb: Verb, reading: ClockReading) {
        self.send_reply(seq, verb, Ok(String::new()), None, Some(reading));
    }

    fn send_reply(
        &self,
        seq: u64,
        verb: Verb,
        result: Result<String, Failure>,
        hit: Option<Hit>,
        clock: Option<ClockReading>,
    ) {
        // The flag goes up before the send, so an end_frame racing with this reply either sees it
        // and wakes the service, or has already published the frame the reply is stamped with.
        self.counters.replied.store(true, Ordering::SeqCst);
        let frame = self.counters.building();
        // Never full: at most IN_FLIGHT orders are outstanding and the channel holds IN_FLIGHT.
        // Disconnected: the service has stopped and already answered this seq `shutting_down`.
        let _ = self.replies.try_send(Reply {
            seq,
            verb,
            frame,
            result,
            hit,
            clock,
        });
        if let Some(waker) = &self.waker {
            waker();
        }
    }
}
