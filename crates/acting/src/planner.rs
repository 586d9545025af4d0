//! One planning pass: the app's tree it aims in, and the pointer as the plan moves it. Aiming
//! (`aim.rs`), planning (`plan.rs`), press checks (`press.rs`), scrolling in (`scroll_in.rs`) and
//! secrets (`secret.rs`) are its methods, each in its own file.

use crate::pointer::{Dragged, Pointer};
use winit_automation_protocol::{Failure, Target};
use winit_automation_tree::{AppTree, Found, WindowTrees};

/// The tree a plan aims in and the pointer state it works on: a copy of the one the gestures
/// keep, handed back in [`Planned`](crate::Planned) for the service to keep once the order goes
/// out.
pub struct Planner<'a> {
    tree: &'a mut AppTree,
    /// The pointer as the plan leaves it.
    pub pointer: Pointer,
    /// The node the drag being planned takes hold of.
    pub dragged: Option<Dragged>,
    /// The targets this pass resolved, and to what: the tree does not change within a pass, so
    /// a target asked for again (the plan's own, then the node the order acts on) is not
    /// resolved again.
    resolved: Vec<(Target, Found)>,
}

impl<'a> Planner<'a> {
    /// A pass over `tree`, starting from `pointer`.
    pub fn new(tree: &'a mut AppTree, pointer: Pointer) -> Planner<'a> {
        Planner {
            tree,
            pointer,
            dragged: None,
            resolved: Vec::new(),
        }
    }

    /// Every window's mirror.
    pub fn mirror(&self) -> &WindowTrees {
        self.tree.mirror()
    }

    /// Resolves a target to exactly one node.
    pub fn resolve(&mut self, target: &Target) -> Result<Found, Failure> {
        if let Some(&(_, found)) = self.resolved.iter().find(|(t, _)| t == target) {
            return Ok(found);
        }
        let found = self.tree.resolve(target)?;
        self.resolved.push((target.clone(), found));
        Ok(found)
    }

    /// The line of a resolved node, minting its ref.
    pub fn node_line(&mut self, f: Found) -> String {
        self.tree.node_line(f)
    }

    /// What a node is (role, name, value), to tell whether an id still holds the same thing.
    pub fn identity(&self, f: Found) -> Option<String> {
        self.tree.identity(f)
    }

    /// The ref and hint line of a node (a container a refusal names).
    pub fn hinted_ref(&mut self, f: Found) -> Option<(winit_automation_protocol::NodeRef, String)> {
        self.tree.hinted_ref(f)
    }
}
