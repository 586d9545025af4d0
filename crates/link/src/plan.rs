//! The input the service thread plans for an action and the render thread delivers: stages of
//! steps that name no window system, and the press to verify. The service plans them
//! (`winit-automation-acting`: `plan.rs`, `press.rs`); the render side turns each step into a winit event, a key
//! event of the crate's own type, text or an AccessKit `ActionRequest`, and compares the app's
//! report of the pressed node with [`PressCheck`] (ids only).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use accesskit::{Action, ActionData, NodeId, TreeId};

use winit_automation_protocol::{Button, KeyChord, Label, Modifiers};

/// One input step, in logical pixels where it has a position.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The pointer moves to this point of the window.
    Move {
        /// Distance from the window's left edge, in logical pixels.
        x: f64,
        /// Distance from the window's top edge, in logical pixels.
        y: f64,
    },
    /// A button goes down or up where the pointer is.
    Button {
        /// Which button.
        button: Button,
        /// `true` when it goes down, `false` when it goes up.
        pressed: bool,
    },
    /// The modifier keys held from now on (none: all let go), as winit's `ModifiersChanged`
    /// says it.
    Modifiers(Modifiers),
    /// A finger touches, moves on or leaves the window (winit's `Touch`).
    Touch {
        /// Which finger: the same number from its start to its end.
        finger: u64,
        /// Where in its gesture the finger is.
        phase: TouchPhase,
        /// Distance from the window's left edge, in logical pixels.
        x: f64,
        /// Distance from the window's top edge, in logical pixels.
        y: f64,
    },
    /// A wheel turn where the pointer is; positive `dy` shows what is below.
    Wheel {
        /// The horizontal distance, in logical pixels.
        dx: f64,
        /// The vertical distance, in logical pixels.
        dy: f64,
    },
    /// Text committed at the focus.
    Text(String),
    /// A key chord goes down or up.
    Key {
        /// The key with its modifiers.
        chord: KeyChord,
        /// `true` when it goes down, `false` when it goes up.
        pressed: bool,
    },
    /// An AccessKit action for the app's action handler.
    Action {
        /// The target node's id within its tree.
        node: NodeId,
        /// The tree that holds the target.
        tree: TreeId,
        /// The action requested.
        action: Action,
        /// The action's data, for an action that takes some.
        data: Option<ActionData>,
        /// The target's widget-record id (or AccessKit author id), for apps that know their
        /// widgets by id rather than by `NodeId`.
        widget: Option<String>,
    },
    /// The window's content should take this logical size.
    Resize {
        /// The logical width.
        width: u32,
        /// The logical height.
        height: u32,
    },
    /// The app should exit.
    Quit,
    /// A `clock` change, carried out by the render side at this frame's start (the app is handed
    /// nothing; it reads the frame's time).
    Clock(crate::ClockChange),
    /// The frame's pixels go `to` a file or the trace, cropped to `crop` (x, y, width, height in
    /// logical pixels) when given. Answered when the image is written, not when the step is
    /// delivered.
    Capture {
        /// Where the pixels go.
        to: CaptureTo,
        /// x, y, width, height in logical pixels; `None` for the whole frame.
        crop: Option<[f64; 4]>,
    },
}

/// Where a finger is in its gesture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TouchPhase {
    /// It touches the window.
    Start,
    /// It moves while touching.
    Move,
    /// It leaves the window.
    End,
}

/// What a stage waits for before it goes out, besides a frame that asks for input: every stage
/// goes out in a frame of its own.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum StageWait {
    /// Nothing more.
    #[default]
    Frame,
    /// This long after the previous stage went out: a long press's hold, the pace of a drag.
    After(Duration),
    /// The UI holds still ([`Still`], which the service sets), or `at_most` passed since the
    /// previous stage went out: a drag's dwell before its release.
    Still {
        /// The service's word that the trees stopped changing.
        still: Still,
        /// The longest wait.
        at_most: Duration,
    },
    /// The UI holds still with time standing, or `frames` frames were published since the wait
    /// began: the state a `clock run` moves the virtual clock from, the same in every run
    /// (a click's window lays out over a frame or two before time moves). Nothing moves the
    /// clock while it waits.
    Quiet {
        /// The service's word that the trees stopped changing.
        still: Still,
        /// The most frames it waits.
        frames: u64,
    },
}

/// One frame's worth of a plan: its steps, once its gate opens.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stage {
    /// What it waits for.
    pub wait: StageWait,
    /// What it delivers, in order.
    pub steps: Vec<Step>,
}

impl From<Vec<Step>> for Stage {
    /// Steps that go out in the next frame that asks.
    fn from(steps: Vec<Step>) -> Stage {
        Stage {
            wait: StageWait::Frame,
            steps,
        }
    }
}

/// The word, shared by the render side and the service, that the trees held still after a stage
/// began to wait: the render side says from which frame it waits ([`Still::begin`]); the service,
/// which sees the trees, says when they stopped changing ([`Still::settle`]). Reads and writes
/// are atomic: neither side ever waits on the other.
#[derive(Debug, Clone, Default)]
pub struct Still(Arc<StillState>);

#[derive(Debug, Default)]
struct StillState {
    /// The frame being built when the wait began; 0 before.
    since: AtomicU64,
    still: AtomicBool,
}

impl PartialEq for Still {
    /// The same wait.
    fn eq(&self, other: &Still) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Still {
    /// The render side: the wait begins in frame `building` (the first call counts).
    pub fn begin(&self, building: u64) {
        let _ =
            self.0
                .since
                .compare_exchange(0, building.max(1), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// The frame the wait began in, once it began.
    pub fn since(&self) -> Option<u64> {
        Some(self.0.since.load(Ordering::SeqCst)).filter(|&f| f > 0)
    }

    /// The service: the trees held still after the wait began.
    pub fn settle(&self) {
        self.0.still.store(true, Ordering::SeqCst);
    }

    /// Whether the service said the trees held still.
    pub fn is_still(&self) -> bool {
        self.0.still.load(Ordering::SeqCst)
    }

    /// Whether only this handle is left: the plan that waited on it is done.
    pub fn is_orphan(&self) -> bool {
        Arc::strong_count(&self.0) == 1
    }
}

/// Where a captured frame goes.
#[derive(Debug, Clone, PartialEq)]
pub enum CaptureTo {
    /// `screenshot-<label>.png`, answering the command that asked for it.
    File(Label),
    /// An `audit`: the pixels go back to the service, which measures them and answers the
    /// command (no file unless the audit asks for its marked frame).
    Audit,
    /// A trace, as the frame after one of its steps: nobody waits for it, so a frame that
    /// cannot be captured is dropped without an answer.
    Trace {
        /// Which trace of the app's run (a frame of a trace since stopped goes nowhere).
        trace: u64,
        /// The step's index.
        step: usize,
    },
}

impl CaptureTo {
    /// Whether the frame goes to a trace.
    pub fn is_trace(&self) -> bool {
        matches!(self, CaptureTo::Trace { .. })
    }
}

/// What the render side does for one command: stages of steps, one stage per frame.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The window the steps are for (0 when the command names none and no window is known).
    pub window: u64,
    /// The stages, delivered one per frame in order, each once its gate opens. Empty for a
    /// command the app answers itself.
    pub stages: Vec<Stage>,
    /// The body of the answer once the last stage is delivered (`path ...` and what was aimed at).
    pub summary: String,
    /// The pointer press to verify, for the verbs that press (`click`, `drag`).
    pub press: Option<PressCheck>,
}

/// What the render side needs to tell whether a press reached its target, and what the service
/// needs to say so. The service fixes the accepted ids when it plans the press.
#[derive(Debug, Clone, PartialEq)]
pub struct PressCheck {
    /// The window the press goes to.
    pub window: u64,
    /// Whether an app's report can be compared with the tree's ids (not for widget records).
    pub verifiable: bool,
    /// The stage of the plan that holds the press.
    pub stage: usize,
    /// Where it lands, in logical pixels.
    pub at: (f64, f64),
    /// The target's line; `None` for a point target (nothing to verify).
    pub target: Option<String>,
    /// The ids (of the window's root tree) that may take the press, sorted.
    pub accept: Vec<NodeId>,
}

impl PressCheck {
    /// Whether a reported node (`None`: no node took the press) is one the target accepts.
    pub fn accepts(&self, node: Option<NodeId>) -> bool {
        node.is_some_and(|n| self.accept.binary_search(&n).is_ok())
    }

    /// Records a report: the first one the target does not accept stays, else the latest counts.
    pub fn record(&self, reported: &mut Option<Option<NodeId>>, node: Option<NodeId>) {
        if !reported.is_some_and(|r| !self.accepts(r)) {
            *reported = Some(node);
        }
    }
}

#[cfg(test)]
mod tests {
    use accesskit::NodeId;

    use super::PressCheck;

    #[test]
    fn the_first_report_the_target_does_not_accept_stays() {
        let check = PressCheck {
            window: 1,
            verifiable: true,
            stage: 0,
            at: (0.0, 0.0),
            target: Some("@e1 button \"ok\"".into()),
            accept: vec![NodeId(1), NodeId(2)],
        };
        assert!(check.accepts(Some(NodeId(2))) && !check.accepts(Some(NodeId(3))));
        assert!(!check.accepts(None));
        let mut reported = None;
        check.record(&mut reported, Some(NodeId(1)));
        assert_eq!(reported, Some(Some(NodeId(1))), "an accepted report counts");
        // A double click's first miss stays, whatever comes after.
        check.record(&mut reported, Some(NodeId(3)));
        check.record(&mut reported, Some(NodeId(1)));
        check.record(&mut reported, None);
        assert_eq!(reported, Some(Some(NodeId(3))));
    }
}
