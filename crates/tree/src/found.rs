//! A node the tree resolved a target to: a leaf every other module names.

use accesskit_consumer::FullNodeId;

/// A resolved node: its window and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// The window whose tree holds it.
    pub window: u64,
    /// The node, by its id in that tree.
    pub node: FullNodeId,
}
