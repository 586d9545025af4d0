//! What the trees keep of the gestures in flight: the pointer as the last order that went out
//! left it (and how to undo that order's change when it expired), and the node each drag took
//! hold of, for its answer's `ended` line.

use super::live::Live;
use super::refs::Found;
use super::{Trees, geometry, node, pointer};
use winit_automation_protocol::Target;

impl Trees {
    /// The pointer as a plan whose order went out left it.
    pub(crate) fn commit_pointer(&mut self, seq: u64, pointer: pointer::Pointer) {
        let before = std::mem::replace(&mut self.live.pointer, pointer.clone());
        self.pointer_change = Some((seq, before, pointer));
    }

    /// Command `seq` expired: when it was the last to change the pointer, and nothing changed it
    /// since, the pointer is as before it (an expired `down` pressed nothing; an expired `up`
    /// most likely let go of nothing, and a second release is harmless where a button left held
    /// could never be let go).
    pub(crate) fn pointer_unchanged(&mut self, seq: u64) {
        if let Some((changed, before, after)) = self.pointer_change.take() {
            if changed == seq && self.live.pointer == after {
                self.live.pointer = before;
            } else {
                self.pointer_change = Some((changed, before, after));
            }
        }
    }

    /// Command `seq`'s order, a drag of the node `from`, went out: its answer ends with where
    /// that node is then ([`Trees::ended`]).
    pub(crate) fn drag_sent(&mut self, seq: u64, dragged: pointer::Dragged) {
        self.dragged.insert(seq, dragged);
    }

    /// The `ended` line of the answer to command `seq`, a drag of a node ([`Trees::drag_sent`]):
    /// that node as the tree shows it now, by its line and the centre of its bounds. The node is
    /// the one the drag took hold of when its id still holds the same thing (role, name, value);
    /// else (egui gives a list position's widget the same id whatever it shows) the one FROM's
    /// selector finds now, when it finds one and that is the same thing. `None` for any other
    /// command, or when neither is shown with bounds. Asked once per answer: the drag is
    /// forgotten.
    pub fn ended(&mut self, seq: u64) -> Option<String> {
        let dragged = self.dragged.remove(&seq)?;
        let same = |live: &Live, f: Found| live.identity(f).as_ref() == Some(&dragged.identity);
        let found = if same(&self.live, dragged.found) {
            dragged.found
        } else {
            let Target::Selector(_) = &dragged.from else {
                return None;
            };
            let again = self.live.resolve(&dragged.from).ok()?;
            if !same(&self.live, again) {
                return None;
            }
            again
        };
        let w = self.live.mirror.windows.get(&found.window)?;
        let node = w.tree.as_ref()?.state().node_by_id(found.node)?;
        let b = geometry::bounds(&node)?;
        let k = w.units_per_logical();
        let (x, y) = ((b.x0 + b.x1) / 2.0 / k, (b.y0 + b.y1) / 2.0 / k);
        let line = self.live.node_line(found);
        Some(format!(
            "ended {line} at {},{}\n",
            node::num(x),
            node::num(y)
        ))
    }
}
