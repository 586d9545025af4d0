//! The ref table: refs (`@e12`) and the nodes they were minted for. Resolving a target (a ref, a
//! selector, a point) to a node is `resolve.rs`'s.
//!
//! A ref is minted for a (window, node, role, name) the first time that node is shown, and never
//! reused during the app run. A node whose role or name changes gets a new ref the next time it is
//! shown; the old ref is refused with `stale_ref`, never resolved to another node. An unnamed text
//! node (a label whose text is its value, as egui's are) counts its text as its name: toolkits give
//! a position's label the same id whatever it shows (a reordered list), so a ref to "Item A" must
//! not name the node that shows "Item B" now.

use rustc_hash::FxHashMap;

use accesskit_consumer::{FullNodeId, NodeRef as Node};

use super::found::Found;
use super::mirror::WindowTrees;
use super::node::name_of;
use winit_automation_protocol::role_name;
use winit_automation_protocol::{ErrorCode, Failure, NodeRef, quote};

const STALE_HINT: &str = "take a new snapshot; a ref is never moved to another node, and a node whose role or name (an unnamed text: its text) changed has a new ref";

#[derive(Clone)]
struct Minted {
    window: u64,
    node: FullNodeId,
    role: String,
    name: String,
}

/// The identity a ref is minted for, besides the node: its role and name. Formatting compares this
/// hash instead of the two strings (which live elsewhere on the heap); resolution compares the
/// strings themselves.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Identity(u64);

impl Identity {
    fn of(role: &str, name: &str) -> Identity {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        role.hash(&mut h);
        name.hash(&mut h);
        Identity(h.finish())
    }
}

/// The ref table of one app run. Refs are numbered from 1 in minting order, so `by_ref[n - 1]` is
/// ref `@en`; formatting looks up every node it prints here, hence the fast hasher.
///
/// Formatting walks the same tree in the same order again and again, so the table also remembers
/// the order of the previous walk: when the next node is the one predicted, its ref is read from a
/// sequential array instead of a hash table whose random accesses miss the cache.
#[derive(Default)]
pub struct Refs {
    by_node: FxHashMap<(u64, FullNodeId), (u64, Identity)>,
    by_ref: Vec<Minted>,
    previous_walk: Vec<WalkEntry>,
    this_walk: Vec<WalkEntry>,
    cursor: usize,
    walking: bool,
    last_text_len: usize,
    /// A ref was minted outside a walk since the previous one: the previous walk's order may name
    /// superseded refs, so the next walk does not use it.
    minted_outside: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct WalkEntry {
    window: u64,
    node: FullNodeId,
    identity: Identity,
    r: u64,
}

/// The name a ref is minted for: the node's name, or, for an unnamed text node, its text.
pub fn identity_name(node: &Node, name: String) -> String {
    if name.is_empty() && role_name(node.role()) == "text" {
        node.value().unwrap_or_default()
    } else {
        name
    }
}

impl Refs {
    /// The ref of a node, minting one if the node is new or changed role or name.
    pub fn mint(&mut self, window: u64, node: &Node) -> NodeRef {
        let role = role_name(node.role());
        let name = identity_name(node, name_of(node));
        self.mint_with(window, node.id(), &role, &name)
    }

    /// The ref a node was last handed, without minting one.
    pub fn known(&self, window: u64, id: FullNodeId) -> Option<NodeRef> {
        self.by_node.get(&(window, id)).map(|&(r, _)| NodeRef(r))
    }

    /// Starts a walk over the trees; refs minted until [`Refs::end_walk`] form its order. Returns the
    /// length of the previous walk's text, as a capacity hint.
    pub fn begin_walk(&mut self) -> usize {
        if !self.this_walk.is_empty() {
            self.previous_walk = std::mem::take(&mut self.this_walk);
        }
        self.cursor = 0;
        self.walking = true;
        if std::mem::take(&mut self.minted_outside) {
            self.previous_walk.clear();
        }
        self.last_text_len.max(256)
    }

    /// Ends the walk, which wrote `text_len` bytes. Refs minted outside walks (by `find`, `get`) do
    /// not enter the order.
    pub fn end_walk(&mut self, text_len: usize) {
        self.walking = false;
        self.last_text_len = text_len;
    }

    /// [`Refs::mint`] with the role name and name already computed.
    pub fn mint_with(&mut self, window: u64, id: FullNodeId, role: &str, name: &str) -> NodeRef {
        let identity = Identity::of(role, name);
        let r = self.lookup(window, id, identity, role, name);
        if !self.walking {
            return NodeRef(r);
        }
        self.this_walk.push(WalkEntry {
            window,
            node: id,
            identity,
            r,
        });
        NodeRef(r)
    }

    fn lookup(
        &mut self,
        window: u64,
        id: FullNodeId,
        identity: Identity,
        role: &str,
        name: &str,
    ) -> u64 {
        // The predicted node, or the one after it (a node was inserted or removed before it).
        for skip in 0..if self.walking { 2 } else { 0 } {
            if let Some(e) = self.previous_walk.get(self.cursor + skip)
                && e.window == window
                && e.node == id
                && e.identity == identity
            {
                self.cursor += skip + 1;
                return e.r;
            }
        }
        let key = (window, id);
        if let Some(&(r, known)) = self.by_node.get(&key)
            && known == identity
        {
            return r;
        }
        self.by_ref.push(Minted {
            window,
            node: id,
            role: role.to_owned(),
            name: name.to_owned(),
        });
        let r = self.by_ref.len() as u64;
        self.by_node.insert(key, (r, identity));
        if !self.walking {
            self.minted_outside = true;
        }
        r
    }

    /// Resolves a ref, refusing one whose node is gone or changed.
    pub fn resolve(&self, mirror: &WindowTrees, r: NodeRef) -> Result<Found, Failure> {
        let Some(m) =
            r.0.checked_sub(1)
                .and_then(|i| self.by_ref.get(usize::try_from(i).ok()?))
        else {
            return Err(Failure::new(
                ErrorCode::NotFound,
                format!("{r} was never handed out by this run of the app"),
                "take refs from a snapshot of the running app; refs do not survive a restart",
            ));
        };
        let stale = |why: String| Failure::new(ErrorCode::StaleRef, why, STALE_HINT);
        let Some(tree) = mirror.windows.get(&m.window).and_then(|w| w.tree.as_ref()) else {
            return Err(stale(format!(
                "{r} belonged to window {}, which is gone",
                m.window
            )));
        };
        let Some(node) = tree.state().node_by_id(m.node) else {
            return Err(stale(format!(
                "{r} ({} {}) was removed from the tree",
                m.role,
                quote(&m.name)
            )));
        };
        let role = role_name(node.role());
        if role != m.role {
            return Err(stale(format!("{r} was a {} and is now a {role}", m.role)));
        }
        let named = name_of(&node);
        let text = named.is_empty() && role == "text";
        let name = identity_name(&node, named);
        if name != m.name {
            let (was, is) = if text {
                ("showed", "now shows")
            } else {
                ("was named", "is now named")
            };
            return Err(stale(format!(
                "{r} {was} {} and {is} {}",
                quote(&m.name),
                quote(&name)
            )));
        }
        Ok(Found {
            window: m.window,
            node: m.node,
        })
    }
}
