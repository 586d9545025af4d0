//! Paint order, modality and clipping beyond the tree: what the app said about a window's layers
//! (`Layers`, from `Frame::layers`), resolved against its tree for one hit test or one
//! projection walk.
//!
//! A node is in the layer of its nearest listed ancestor-or-self; a node under no listed root is in
//! the base layer (rank 0), below every listed one. A higher rank lies on top whatever the tree
//! order; within a rank, tree order is paint order. A layer root is not clipped by its tree
//! ancestors: its clip starts afresh from the window. With nothing said, every node is in the base
//! layer and only the tree's own clips count, so the tree-order rules hold unchanged.
//!
//! Pure: runs on the service thread, reads the mirror only.

use accesskit::{Rect, TreeId};
use accesskit_consumer::{FullNodeId, NodeRef as Node};

use super::geometry::{self, finite, intersect};
use super::mirror::{Source, WindowTree};
use rustc_hash::{FxHashMap, FxHashSet};

/// A window's layers, resolved against its tree.
#[derive(Default)]
pub struct PaintOrder {
    /// The listed layer roots the tree holds, bottom to top: rank = index + 1. A modal root the
    /// order leaves out is the last.
    roots: Vec<FullNodeId>,
    /// The modal layer's rank, if one is shown.
    modal: Option<usize>,
    /// Reported clips: a node and its clip rectangle (`None`: its bounds); the first said counts.
    clips: FxHashMap<FullNodeId, Option<Rect>>,
}

/// The plane, for a window with no viewport.
const EVERYWHERE: Rect = Rect {
    x0: f64::MIN,
    y0: f64::MIN,
    x1: f64::MAX,
    y1: f64::MAX,
};

/// A shown listed layer root and the part of its bounds inside the window (`PaintOrder::covers`).
pub struct Cover {
    /// The layer root.
    pub id: FullNodeId,
    /// Its rank in paint order (0 is the base layer).
    pub rank: usize,
    /// The part of its bounds inside the window.
    pub rect: Rect,
    /// The modal layer where input is what counts (`-i`): it blocks the whole window below it.
    pub modal: bool,
}

impl Cover {
    /// Whether a node of layer `rank` whose visible part is `visible` lies wholly under this root.
    pub fn hides(&self, rank: usize, visible: Rect) -> bool {
        self.rank > rank
            && self.rect.x0 <= visible.x0
            && self.rect.y0 <= visible.y0
            && visible.x1 <= self.rect.x1
            && visible.y1 <= self.rect.y1
    }
}

impl PaintOrder {
    /// The window's layers; ids its tree does not hold are left out. A widget-record window has
    /// none: its node ids are the plugin's, not the app's.
    pub fn new(w: &WindowTree) -> PaintOrder {
        let (Some(tree), false, Source::AccessKit) = (&w.tree, w.layers.is_empty(), w.source)
        else {
            return PaintOrder::default();
        };
        let state = tree.state();
        let full = |id| {
            state
                .node_by_tree_local_id(id, TreeId::ROOT)
                .map(|n| n.id())
        };
        let mut roots: Vec<FullNodeId> = Vec::with_capacity(w.layers.order.len() + 1);
        for id in w.layers.order.iter().filter_map(|&id| full(id)) {
            if !roots.contains(&id) {
                roots.push(id);
            }
        }
        let modal = w.layers.modal.and_then(full).map(|m| {
            if let Some(i) = roots.iter().position(|&r| r == m) {
                i + 1
            } else {
                roots.push(m);
                roots.len()
            }
        });
        let mut clips = FxHashMap::default();
        for &(id, rect) in &w.layers.clips {
            if let Some(id) = full(id) {
                clips.entry(id).or_insert(rect);
            }
        }
        PaintOrder {
            roots,
            modal,
            clips,
        }
    }

    /// Whether the app listed no layer root this tree holds.
    pub fn has_no_layers(&self) -> bool {
        self.roots.is_empty()
    }

    /// The listed layer roots that are shown (neither they nor an ancestor hidden) and have
    /// bounds, highest rank first, each with the part of its bounds inside the window: what a
    /// projection leaves out as wholly under them. With `input`, a shown modal layer covers the
    /// whole window instead: below it nothing takes input. And every node whose subtree holds a
    /// listed root (its ancestors), which a projection must walk into even when it is covered.
    pub fn covers(&self, w: &WindowTree, input: bool) -> (Vec<Cover>, FxHashSet<FullNodeId>) {
        let modal = self.modal.filter(|_| input);
        let mut covers = Vec::new();
        let mut holders = FxHashSet::default();
        let Some(tree) = &w.tree else {
            return (covers, holders);
        };
        let state = tree.state();
        for (i, &id) in self.roots.iter().enumerate().rev() {
            let Some(root) = state.node_by_id(id) else {
                continue;
            };
            let mut shown = !root.is_hidden();
            let mut current = root.parent();
            while let Some(n) = current {
                shown &= !n.is_hidden();
                holders.insert(n.id());
                current = n.parent();
            }
            let blocks = modal == Some(i + 1);
            let rect = if blocks {
                Some(w.viewport().unwrap_or(EVERYWHERE))
            } else {
                geometry::bounds(&root).map(|b| match w.viewport() {
                    Some(v) => intersect(b, v),
                    None => b,
                })
            };
            if let (true, Some(rect)) = (shown, rect)
                && !geometry::is_empty(rect)
            {
                covers.push(Cover {
                    id,
                    rank: i + 1,
                    rect,
                    modal: blocks,
                });
            }
        }
        (covers, holders)
    }

    /// The rank of a listed layer root, `None` for any other node.
    pub fn root_rank(&self, id: FullNodeId) -> Option<usize> {
        self.roots.iter().position(|&r| r == id).map(|i| i + 1)
    }

    /// The layer a node is in: its rank, and its root (`None`: the base layer).
    pub fn layer(&self, node: &Node) -> (usize, Option<FullNodeId>) {
        if self.roots.is_empty() {
            return (0, None);
        }
        let mut current = Some(*node);
        while let Some(n) = current {
            if let Some(rank) = self.root_rank(n.id()) {
                return (rank, Some(n.id()));
            }
            current = n.parent();
        }
        (0, None)
    }

    /// The modal layer's root and rank, if one is shown.
    pub fn modal(&self) -> Option<(FullNodeId, usize)> {
        self.modal.map(|rank| (self.roots[rank - 1], rank))
    }

    /// The rectangle a node clips its descendants to (its `bounds` given), if it clips: the
    /// reported one, else its bounds when the app or the tree says it clips.
    pub fn clip_of(&self, node: &Node, bounds: Option<Rect>) -> Option<Rect> {
        match self.clips.get(&node.id()) {
            Some(Some(rect)) => finite(*rect).or(bounds),
            Some(None) => bounds,
            None if geometry::clips(node) => bounds,
            None => None,
        }
    }

    /// The clip in force at `node`: the window, narrowed by every clipping ancestor up to the root
    /// of its layer (a layer root itself has the window's).
    pub fn clip_at(&self, w: &WindowTree, node: &Node<'_>) -> Option<Rect> {
        self.clips_above(w, node)
            .into_iter()
            .map(|(_, r)| r)
            .reduce(intersect)
    }

    /// What [`PaintOrder::clip_at`] narrows: the window's rectangle (owner `None`), then each clipping
    /// ancestor's (owner `Some`) from the outermost in.
    pub fn clips_above(&self, w: &WindowTree, node: &Node<'_>) -> Vec<(Option<FullNodeId>, Rect)> {
        let mut ancestors = Vec::new();
        if self.root_rank(node.id()).is_none() {
            let mut current = node.parent();
            while let Some(p) = current {
                ancestors.push(p);
                if self.root_rank(p.id()).is_some() {
                    break;
                }
                current = p.parent();
            }
        }
        let mut clips: Vec<_> = w.viewport().map(|r| (None, r)).into_iter().collect();
        for a in ancestors.iter().rev() {
            if let Some(b) = self.clip_of(a, geometry::bounds(a)) {
                clips.push((Some(a.id()), b));
            }
        }
        clips
    }
}
