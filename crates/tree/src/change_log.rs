//! What the last frames changed, node by node: the mirror records each change an update or a
//! window's state made (`mirror.rs`), the frame that carried it stamps it, and a settle that times
//! out names the latest ones (`unsettled.rs`): which nodes kept changing and how, and which
//! windows the app says are animating.
//!
//! Runs on the service thread. Bounded: the last [`KEPT`] changes; a change costs a comparison of
//! the node's old and new data, and an allocation only for a text that changed.

use std::collections::VecDeque;
use std::fmt::Write;

use accesskit::Toggled;
use accesskit_consumer::{FullNodeId, NodeRef as Node};

use super::node::numeric;
use winit_automation_link::WindowState;
use winit_automation_protocol::quote;

/// How many changes are kept.
const KEPT: usize = 512;
/// How many changed nodes a message names before it counts the rest.
pub(crate) const NAMED: usize = 3;

/// How a node or a window changed (the first difference found, in this order).
#[derive(Debug, Clone, PartialEq)]
pub enum What {
    Added,
    Removed,
    Value(Option<String>, Option<String>),
    Name(Option<String>, Option<String>),
    Numeric(Option<f64>, Option<f64>),
    Toggled(Option<Toggled>, Option<Toggled>),
    Children,
    Bounds,
    /// Another of the node's properties.
    Other,
    /// A window's own state, layers or surface: what of it.
    Window(&'static str),
}

impl What {
    /// How a node changed from `old` to `new`, if its data differ.
    pub fn of(old: &Node, new: &Node) -> Option<What> {
        let (a, b) = (old.data(), new.data());
        let owned = |s: Option<&str>| s.map(str::to_owned);
        Some(if a.value() != b.value() {
            What::Value(owned(a.value()), owned(b.value()))
        } else if a.label() != b.label() {
            What::Name(owned(a.label()), owned(b.label()))
        } else if a.numeric_value() != b.numeric_value() {
            What::Numeric(a.numeric_value(), b.numeric_value())
        } else if a.toggled() != b.toggled() {
            What::Toggled(a.toggled(), b.toggled())
        } else if a.children() != b.children() {
            What::Children
        } else if a.bounds() != b.bounds() || a.transform() != b.transform() {
            What::Bounds
        } else if a != b {
            What::Other
        } else {
            return None;
        })
    }

    /// What of a window's state changed.
    pub fn of_window(old: Option<&WindowState>, new: &WindowState) -> What {
        What::Window(match old {
            None => "shown",
            Some(o) if o.title != new.title => "title",
            Some(o) if o.width != new.width || o.height != new.height => "size",
            Some(o) if o.scale_factor != new.scale_factor => "scale",
            Some(_) => "focus",
        })
    }

    /// ` value "a" -> "b"`, ` bounds`, ...
    pub(crate) fn write(&self, out: &mut String) {
        let text = |s: &Option<String>| s.as_deref().map_or("none".to_owned(), quote);
        let number = |n: &Option<f64>| n.map_or("none".to_owned(), numeric);
        let toggled = |t: &Option<Toggled>| match t {
            Some(Toggled::True) => "checked",
            Some(Toggled::False) => "unchecked",
            Some(Toggled::Mixed) => "mixed",
            None => "none",
        };
        let _ = match self {
            What::Added => write!(out, " added"),
            What::Removed => write!(out, " removed"),
            What::Value(a, b) => write!(out, " value {} -> {}", text(a), text(b)),
            What::Name(a, b) => write!(out, " name {} -> {}", text(a), text(b)),
            What::Numeric(a, b) => write!(out, " value {} -> {}", number(a), number(b)),
            What::Toggled(a, b) => write!(out, " {} -> {}", toggled(a), toggled(b)),
            What::Children => write!(out, " children"),
            What::Bounds => write!(out, " bounds"),
            What::Other => write!(out, " properties"),
            What::Window(what) => write!(out, " {what}"),
        };
    }
}

/// One change: of a node (`node` set) or of a window's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct Changed {
    pub window: u64,
    pub node: Option<FullNodeId>,
    pub what: What,
}

/// The changes of the last frames, newest last.
#[derive(Default)]
pub struct ChangeLog {
    /// Changes applied since the last stamp: the frame that carried them is not known yet.
    pending: Vec<Changed>,
    /// (frame, change), oldest first.
    kept: VecDeque<(u64, Changed)>,
}

impl ChangeLog {
    /// Records a change whose frame [`ChangeLog::stamp`] gives.
    pub fn push(&mut self, change: Changed) {
        self.pending.push(change);
    }

    /// The changes recorded since the last stamp were carried by `frame`.
    pub fn stamp(&mut self, frame: u64) {
        for change in self.pending.drain(..) {
            if self.kept.len() == KEPT {
                self.kept.pop_front();
            }
            self.kept.push_back((frame, change));
        }
    }

    /// The distinct changes (the latest of each node or window) of the last `frames` frames that
    /// carried one, from frame `since` on: the newest frame's first, each frame's in the order
    /// they were made (a tree's order).
    pub(crate) fn recent(&self, frames: u64, since: u64) -> Vec<&Changed> {
        let Some(&(newest, _)) = self.kept.back() else {
            return Vec::new();
        };
        let mut out: Vec<(u64, usize, &Changed)> = Vec::new();
        for (i, (frame, change)) in self.kept.iter().enumerate().rev() {
            if *frame + frames <= newest || *frame < since {
                break;
            }
            let same =
                |c: &(u64, usize, &Changed)| c.2.window == change.window && c.2.node == change.node;
            if !out.iter().any(same) {
                out.push((*frame, i, change));
            }
        }
        out.sort_by_key(|&(frame, i, _)| (std::cmp::Reverse(frame), i));
        out.into_iter().map(|(_, _, change)| change).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn changed(window: u64, what: What) -> Changed {
        Changed {
            window,
            node: None,
            what,
        }
    }

    #[test]
    fn the_recent_changes_are_those_of_the_last_frames_each_once_the_newest_frame_first() {
        let mut change_log = ChangeLog::default();
        change_log.push(changed(1, What::Window("size")));
        change_log.stamp(10);
        change_log.push(changed(2, What::Window("title")));
        change_log.stamp(20);
        change_log.push(changed(1, What::Window("focus")));
        change_log.push(changed(3, What::Window("layers")));
        change_log.stamp(21);
        let recent = change_log.recent(3, 0);
        let windows: Vec<(u64, &What)> = recent.iter().map(|c| (c.window, &c.what)).collect();
        assert_eq!(
            windows,
            [
                (1, &What::Window("focus")),
                (3, &What::Window("layers")),
                (2, &What::Window("title"))
            ],
            "frame 10 is more than 3 frames before the newest change"
        );
        assert_eq!(
            change_log.recent(3, 21).len(),
            2,
            "none from before the settle"
        );
        assert!(ChangeLog::default().recent(3, 0).is_empty());
    }

    #[test]
    fn only_the_last_changes_are_kept() {
        let mut change_log = ChangeLog::default();
        for frame in 0..(KEPT as u64 + 10) {
            change_log.push(changed(frame, What::Window("size")));
            change_log.stamp(frame);
        }
        assert_eq!(change_log.kept.len(), KEPT);
        assert_eq!(change_log.kept.front().map(|k| k.0), Some(10));
    }
}
