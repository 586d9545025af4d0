//! What lasts between commands: the pointer as the last order that went out left it (and how to
//! undo that order's change when it expired), and the node each drag in flight took hold of, for
//! its answer's `ended` line. Every command is planned from here.

use std::collections::HashMap;

use crate::plan::{Moved, Planned};
use crate::planner::Planner;
use crate::pointer::{Dragged, Pointer};
use crate::scroll_in::ScrollIn;
use crate::toolkit::Toolkit;
use winit_automation_protocol::{Command, Failure, Target};
use winit_automation_tree::{AppTree, Found, geometry, node};

/// The pointer and the drags in flight, kept by the service between commands.
#[derive(Default)]
pub struct Gestures {
    /// What the app's toolkit does that planning depends on.
    toolkit: Toolkit,
    /// The pointer's buttons and place, as the orders that went out left them.
    pointer: Pointer,
    /// The last change of the pointer an order made: its seq, the pointer before and after
    /// ([`Gestures::pointer_unchanged`]).
    pointer_change: Option<(u64, Pointer, Pointer)>,
    /// The node each drag in flight took hold of, by the seq of its command: what its answer's
    /// `ended` line names, whatever its FROM selects by then.
    dragged: HashMap<u64, Dragged>,
}

impl Gestures {
    /// No button down, no drag in flight, for an app whose toolkit does what `toolkit` says.
    pub fn new(toolkit: Toolkit) -> Gestures {
        Gestures {
            toolkit,
            ..Gestures::default()
        }
    }

    /// Plans an action command against `tree` (`plan.rs`). `Ok(None)` for a command the app
    /// answers itself. The pointer it moves is kept only once the order goes out
    /// ([`Gestures::sent`]).
    pub fn plan(&self, tree: &mut AppTree, command: &Command) -> Result<Option<Planned>, Failure> {
        Planner::new(tree, self.pointer.clone()).plan(command, self.toolkit)
    }

    /// The next step towards showing the pointer target of `command` that lies outside its
    /// container's visible part (a `drag`'s start, else its end: `scroll_in.rs`); `Err` says
    /// why none can. `wheel_only`: never the target's `scroll_into_view` action.
    pub fn scroll_in(
        &self,
        tree: &mut AppTree,
        command: &Command,
        wheel_only: bool,
    ) -> Result<ScrollIn, String> {
        let mut planner = Planner::new(tree, self.pointer.clone());
        let mut why = None;
        for target in command.action_targets() {
            match planner.scroll_in(target, self.toolkit.hover_frame, wheel_only) {
                Ok(step) => return Ok(step),
                Err(e) => {
                    why.get_or_insert(e);
                }
            }
        }
        Err(why.unwrap_or_else(|| "it has no target".to_owned()))
    }

    /// Command `seq`'s order went out: the pointer is as its plan left it, and a drag's node is
    /// kept for its answer ([`Gestures::ended`]): what [`Planned::into_order`] handed back.
    pub fn sent(&mut self, seq: u64, moved: Moved) {
        let Moved {
            pointer, dragged, ..
        } = moved;
        if let Some(pointer) = pointer {
            let before = std::mem::replace(&mut self.pointer, pointer.clone());
            self.pointer_change = Some((seq, before, pointer));
        }
        if let Some(dragged) = dragged {
            self.dragged.insert(seq, dragged);
        }
    }

    /// Command `seq` expired: when it was the last to change the pointer, and nothing changed it
    /// since, the pointer is as before it (an expired `down` pressed nothing; an expired `up`
    /// most likely let go of nothing, and a second release is harmless where a button left held
    /// could never be let go).
    pub fn pointer_unchanged(&mut self, seq: u64) {
        if let Some((changed, before, after)) = self.pointer_change.take() {
            if changed == seq && self.pointer == after {
                self.pointer = before;
            } else {
                self.pointer_change = Some((changed, before, after));
            }
        }
    }

    /// The `ended` line of the answer to command `seq`, a drag of a node ([`Gestures::sent`]):
    /// that node as the tree shows it now, by its line and the centre of its bounds. The node is
    /// the one the drag took hold of when its id still holds the same thing (role, name, value);
    /// else (egui gives a list position's widget the same id whatever it shows) the one FROM's
    /// selector finds now, when it finds one and that is the same thing. `None` for any other
    /// command, or when neither is shown with bounds. Asked once per answer: the drag is
    /// forgotten.
    pub fn ended(&mut self, tree: &mut AppTree, seq: u64) -> Option<String> {
        let dragged = self.dragged.remove(&seq)?;
        let same = |tree: &AppTree, f: Found| tree.identity(f).as_ref() == Some(&dragged.identity);
        let found = if same(tree, dragged.found) {
            dragged.found
        } else {
            let Target::Selector(_) = &dragged.from else {
                return None;
            };
            let again = tree.resolve(&dragged.from).ok()?;
            if !same(tree, again) {
                return None;
            }
            again
        };
        let w = tree.mirror().windows().get(&found.window)?;
        let k = w.units_per_logical();
        let b = geometry::bounds(&tree.mirror().node(found)?)?;
        let (x, y) = ((b.x0 + b.x1) / 2.0 / k, (b.y0 + b.y1) / 2.0 / k);
        let line = tree.node_line(found);
        Some(format!(
            "ended {line} at {},{}\n",
            node::num(x),
            node::num(y)
        ))
    }
}
