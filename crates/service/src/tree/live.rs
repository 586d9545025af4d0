//! The live trees and the ref table that names their nodes: the part of the service thread's
//! tree state that resolving, aiming, planning, press checks and naming work on. Each of those
//! adds its own methods to [`Live`] in its own file (`aim.rs`, `plan.rs`, `press.rs`,
//! `naming.rs`); `Trees` (mod.rs) holds a `Live` beside the snapshot history and hands them
//! their calls.

use super::format;
use super::mirror::Mirror;
use super::pointer::{Dragged, Pointer};
use super::refs::{Found, Refs};
use super::resolve;
use winit_automation_protocol::{Failure, Target};

/// Every window's mirror and the ref table of this app run.
#[derive(Default)]
pub(super) struct Live {
    pub mirror: Mirror,
    pub refs: Refs,
    /// The pointer's buttons and place, as the plans left them (`down`, `move`, `up`).
    pub pointer: Pointer,
    /// The node the drag being planned takes hold of (`plan.rs` hands it on in `Planned`).
    pub dragged: Option<Dragged>,
}

impl Live {
    /// Resolves a target to exactly one node; an ambiguous selector's refusal lists the lines of
    /// the nodes it matches.
    pub fn resolve(&mut self, target: &Target) -> Result<Found, Failure> {
        let mirror = &self.mirror;
        resolve::resolve(mirror, &mut self.refs, target, &mut |refs, f| {
            format::found_line(mirror, refs, f)
        })
    }

    /// What a node is, to tell whether a node id still holds the same thing: its role, name and
    /// value (toolkits such as egui give a position's widget the same id whatever it shows).
    pub fn identity(&self, f: Found) -> Option<String> {
        let node = self
            .mirror
            .windows
            .get(&f.window)?
            .tree
            .as_ref()?
            .state()
            .node_by_id(f.node)?;
        Some(format!(
            "{:?}\u{1f}{}\u{1f}{}",
            node.role(),
            super::node::name_of(&node),
            node.value().unwrap_or_default()
        ))
    }

    /// The line of a resolved node (`@eN role "name" ...`), minting its ref.
    pub fn node_line(&mut self, f: Found) -> String {
        format::found_line(&self.mirror, &mut self.refs, f)
    }
}
