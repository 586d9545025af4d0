//! The walk behind a window's tree text: an explicit stack of nodes, each with what its ancestors
//! hand down (transform, clip, layer rank, the scope its hints count in). A node's line is
//! written as it pops; its children are judged (hidden, cut off by a clip, under a higher layer)
//! and what is left out is counted in its scope's hints, printed after the scope's last node.
//!
//! Iterative, so a tree thousands of levels deep cannot overflow the service thread's stack.

use accesskit::{Affine, Rect};
use accesskit_consumer::{FullNodeId, NodeRef as Node};
use rustc_hash::FxHashSet;

use super::{Fields, View, write_node};
use crate::geometry::{self, direction, finite, intersect, overlaps};
use crate::hints::{Scope, cut_by, outermost, scope_hints};
use crate::mirror::WindowTree;
use crate::node::is_interactive;
use crate::omit::{folded_children, is_empty_decoration, is_wrapper};
use crate::paint_order::{Cover, PaintOrder};
use crate::refs::Refs;
use winit_automation_protocol::Projection;

/// Two spaces per level.
fn indent_to(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// A node on the walk's stack, with what its ancestors hand down to it.
#[derive(Clone, Copy)]
struct Placed<'a> {
    node: Node<'a>,
    /// The node's combined transform, carried down the walk so no node climbs its ancestors.
    transform: Affine,
    bounds: Option<Rect>,
    depth: u32,
    clip: Option<Rect>,
    /// The scope (in `scopes`) of the innermost clip in force at the node.
    scope: usize,
    indent: usize,
    offscreen: bool,
    /// The rank of the node's layer (`paint_order.rs`).
    rank: usize,
    /// Wholly under a higher layer's root (its index in `covers`): not printed, walked only
    /// for the layer roots its subtree holds.
    covered: Option<usize>,
}

enum Item<'a> {
    Node(Placed<'a>),
    Line(String),
    /// A scope's hints, once every node inside it is walked.
    Hints {
        scope: usize,
        indent: usize,
    },
}

/// What a node hands to its children: the scope their hints count in, the clip in force.
#[derive(Clone, Copy)]
struct Inside {
    scope: usize,
    clip: Option<Rect>,
    indent: usize,
}

/// A child's place under its parent, before it is judged.
struct ChildPlace {
    transform: Affine,
    bounds: Option<Rect>,
    clip: Option<Rect>,
    rank: usize,
    /// Its bounds and the clip they lie wholly outside of.
    outside: Option<(Rect, Rect)>,
    /// The cover (in `covers`) that hides it.
    cover: Option<usize>,
}

/// What becomes of a child in the regular and interactive projections.
enum Verdict {
    /// Counted in a hint (cut off, under a layer) or hidden: not walked.
    LeftOut,
    /// Walked; under the given cover, if any (then only for the layer roots it holds).
    Walked(Option<usize>),
}

/// One window's walk: its text, the layers and covers, the scopes hints count in, the stack.
struct Walk<'w, 'o> {
    out: &'o mut String,
    refs: &'o mut Refs,
    window: u64,
    w: &'w WindowTree,
    view: &'o View,
    raw: bool,
    interactive: bool,
    fields: Fields,
    layers: PaintOrder,
    covers: Vec<Cover>,
    holders: FxHashSet<FullNodeId>,
    scopes: Vec<Scope>,
    stack: Vec<Item<'w>>,
}

/// Writes one window's tree from `start` in the chosen projection.
pub fn walk<'w>(
    out: &mut String,
    refs: &mut Refs,
    window: u64,
    w: &'w WindowTree,
    start: Node<'w>,
    view: &View,
    indent: usize,
) {
    let mut walk = Walk::new(out, refs, window, w, view, &start);
    walk.run(start, indent);
}

impl<'w, 'o> Walk<'w, 'o> {
    /// The walk's context: the window's layers, what they cover, the scopes around `start`.
    fn new(
        out: &'o mut String,
        refs: &'o mut Refs,
        window: u64,
        w: &'w WindowTree,
        view: &'o View,
        start: &Node<'_>,
    ) -> Self {
        let raw = view.projection == Projection::Raw;
        let interactive = view.projection == Projection::Interactive;
        let layers = PaintOrder::new(w);
        // What lies wholly under a higher layer is left out of the regular and interactive
        // projections; `--raw` lists it.
        let (covers, holders) = if raw || layers.has_no_layers() {
            Default::default()
        } else {
            layers.covers(w, interactive)
        };
        let scopes = scopes_around(&layers, w, start);
        Walk {
            out,
            refs,
            window,
            w,
            view,
            raw,
            interactive,
            fields: view.fields(),
            layers,
            covers,
            holders,
            scopes,
            stack: Vec::new(),
        }
    }

    /// Walks from `start`, writing each item as it pops.
    fn run(&mut self, start: Node<'w>, indent: usize) {
        self.stack.push(Item::Node(Placed {
            node: start,
            transform: start.transform(),
            bounds: geometry::bounds(&start),
            depth: 0,
            clip: self.layers.clip_at(self.w, &start),
            scope: self.scopes.len() - 1,
            indent,
            offscreen: false,
            rank: self.layers.layer(&start).0,
            covered: None,
        }));
        while let Some(item) = self.stack.pop() {
            match item {
                Item::Line(line) => self.out.push_str(&line),
                Item::Hints { scope, indent } => {
                    let hints = scope_hints(
                        self.refs,
                        self.window,
                        self.w,
                        &mut self.scopes[scope],
                        &self.covers,
                        indent,
                    );
                    self.out.push_str(&hints);
                }
                Item::Node(at) => self.visit(&at),
            }
        }
    }

    /// Writes a node's line (if it shows), then queues its children or what stands for them.
    fn visit(&mut self, at: &Placed<'w>) {
        let count = at.node.children().len();
        let stops_here = self.view.depth.is_some_and(|d| at.depth >= d);
        let printed = self.shows(at, stops_here);
        if printed {
            self.write_line(at);
        }
        let indent = if printed { at.indent + 1 } else { at.indent };
        if count == 0 {
            return;
        }
        if stops_here {
            if at.covered.is_none() {
                let line = below_depth(indent, count, self.view.depth.unwrap_or(0));
                self.stack.push(Item::Line(line));
            }
            return;
        }
        let inside = self.open_scopes(at, indent);
        self.push_children(at, inside);
    }

    /// Whether a node gets a line: not a wrapper, not covered, interactive under `-i`.
    fn shows(&self, at: &Placed<'_>, stops_here: bool) -> bool {
        // A pure wrapper (never the start, never where --depth stops) gives its place to its
        // child; `omit.rs` says what is left out and why.
        let wrapper = !self.raw && at.depth > 0 && !stops_here && is_wrapper(&at.node);
        !wrapper && at.covered.is_none() && (!self.interactive || is_interactive(&at.node))
    }

    /// Writes a node's indented line, with `hidden` or `offscreen` under `--raw`.
    fn write_line(&mut self, at: &Placed<'_>) {
        let out = &mut *self.out;
        indent_to(out, at.indent);
        write_node(
            out,
            self.refs,
            self.window,
            self.w,
            &at.node,
            at.bounds,
            self.fields,
        );
        if self.raw {
            if at.node.is_hidden() {
                out.push_str(" hidden");
            } else if at.offscreen {
                out.push_str(" offscreen");
            }
        }
        out.push('\n');
    }

    /// Opens the scopes a node starts and queues their hints; returns what its children get.
    fn open_scopes(&mut self, at: &Placed<'_>, indent: usize) -> Inside {
        // Hints print after the last node of their scope, so the scopes this node opens put
        // their slots on the stack before its children, outermost first: the start, every
        // scope around it; a layer root, the window's afresh (its tree ancestors do not clip it);
        // a clipping node, its own.
        let mut scope = at.scope;
        if at.depth == 0 {
            for s in 0..self.scopes.len() {
                self.stack.push(Item::Hints { scope: s, indent });
            }
        } else if let (Some(_), Some(rect)) =
            (self.layers.root_rank(at.node.id()), self.w.viewport())
        {
            scope = self.scopes.len();
            self.scopes.push(Scope::new(None, rect, None));
            self.stack.push(Item::Hints { scope, indent });
        }
        let clip = match self.layers.clip_of(&at.node, at.bounds) {
            Some(b) => {
                self.scopes
                    .push(Scope::new(Some(at.node.id()), b, Some(scope)));
                scope = self.scopes.len() - 1;
                self.stack.push(Item::Hints { scope, indent });
                Some(at.clip.map_or(b, |c| intersect(c, b)))
            }
            None => at.clip,
        };
        Inside {
            scope,
            clip,
            indent,
        }
    }

    /// Queues the children that are walked, in reverse so they pop in order.
    fn push_children(&mut self, at: &Placed<'w>, inside: Inside) {
        // The children go on in reverse, straight from the tree, so they pop in order.
        let folded = if self.raw {
            None
        } else {
            folded_children(&at.node)
        };
        for (i, child) in at.node.children().enumerate().rev() {
            // Left out before anything is counted: a folded text or a piece of decoration is
            // not an item a hint could promise.
            if !self.raw && (folded.as_ref().is_some_and(|f| f[i]) || is_empty_decoration(&child)) {
                continue;
            }
            let place = self.place_child(at, inside, &child);
            let covered = if self.raw {
                None
            } else {
                match self.judge(&child, &place, inside.scope) {
                    Verdict::LeftOut => continue,
                    Verdict::Walked(covered) => covered,
                }
            };
            self.stack.push(Item::Node(Placed {
                node: child,
                transform: place.transform,
                bounds: place.bounds,
                depth: at.depth + 1,
                clip: place.clip,
                scope: inside.scope,
                indent: inside.indent,
                offscreen: at.offscreen || place.outside.is_some(),
                rank: place.rank,
                covered,
            }));
        }
    }

    /// A child's transform, bounds, clip and rank, and whether it is cut off or covered.
    fn place_child(&self, at: &Placed<'_>, inside: Inside, child: &Node<'_>) -> ChildPlace {
        let transform = at.transform * child.direct_transform();
        // Bounds that are not finite are no bounds: such a child is never cut off, and
        // clips nothing below it.
        let bounds = child
            .raw_bounds()
            .and_then(|r| finite(transform.transform_rect_bbox(r)));
        // A layer root starts afresh: its tree ancestors neither clip it nor rank it.
        let (clip, rank) = match self.layers.root_rank(child.id()) {
            Some(r) => (self.w.viewport(), r),
            None => (inside.clip, at.rank),
        };
        let outside = match (bounds, clip) {
            (Some(b), Some(c)) if !overlaps(b, c) => Some((b, c)),
            _ => None,
        };
        // A child without bounds follows its parent.
        let cover = match bounds {
            Some(b) => {
                let visible = clip.map_or(b, |c| intersect(b, c));
                self.covers.iter().position(|c| c.hides(rank, visible))
            }
            None => at.covered.filter(|&c| self.covers[c].rank > rank),
        };
        ChildPlace {
            transform,
            bounds,
            clip,
            rank,
            outside,
            cover,
        }
    }

    /// Leaves out a hidden, cut-off or covered child, counting the last two in their scope's
    /// hints; a covered child that holds a layer root is still walked.
    fn judge(&mut self, child: &Node<'_>, place: &ChildPlace, scope: usize) -> Verdict {
        if child.data().is_hidden() {
            return Verdict::LeftOut;
        }
        if let Some((b, c)) = place.outside {
            // A layer root is judged against the window alone: the window cuts it off.
            let (at, d) = match self.layers.root_rank(child.id()) {
                Some(_) => (outermost(&self.scopes, scope), direction(b, c)),
                None => cut_by(&self.scopes, scope, b, c),
            };
            self.scopes[at].cut[d] += 1;
            return Verdict::LeftOut;
        }
        let Some(c) = place.cover else {
            return Verdict::Walked(None);
        };
        let under = &mut self.scopes[scope].under;
        match under.iter_mut().find(|(i, _)| *i == c) {
            Some((_, n)) => *n += 1,
            None => under.push((c, 1)),
        }
        if self.holders.contains(&child.id()) {
            Verdict::Walked(Some(c))
        } else {
            Verdict::LeftOut
        }
    }
}

/// The window and every container clipping `start`, outermost first; one scope that cuts
/// nothing off when the window's size is not known yet.
fn scopes_around(layers: &PaintOrder, w: &WindowTree, start: &Node<'_>) -> Vec<Scope> {
    let mut scopes: Vec<Scope> = Vec::new();
    for (owner, rect) in layers.clips_above(w, start) {
        let outer = scopes.len().checked_sub(1);
        scopes.push(Scope::new(owner, rect, outer));
    }
    if scopes.is_empty() {
        // A window whose size is not known yet: nothing is cut off, but layers may cover.
        let everywhere = Rect::new(
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
            f64::INFINITY,
            f64::INFINITY,
        );
        scopes.push(Scope::new(None, everywhere, None));
    }
    scopes
}

/// `[N children below --depth D]`, where `--depth` stops a walk above a node's children.
fn below_depth(indent: usize, count: usize, depth: u32) -> String {
    format!(
        "{}[{} {} below --depth {}]\n",
        "  ".repeat(indent),
        count,
        if count == 1 { "child" } else { "children" },
        depth
    )
}
