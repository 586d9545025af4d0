//! What an `audit` checks, read from the tree: the controls `snapshot -i` prints, and the texts
//! and images the regular projection prints, of one window or one subtree, each with its full
//! line. The rules themselves are `rules.rs`; this only gathers, so that
//! "every control `snapshot -i` prints" is true by construction: the lines are that projection's.

use accesskit::{Action, Role};
use accesskit_consumer::{FullNodeId, NodeRef as Node};

use winit_automation_acting::{action_step, key_tap};
use winit_automation_link::Step;
use winit_automation_protocol::{Failure, KeyChord, NodeLine, NodeRef, Projection, Target};
use winit_automation_tree::{AppTree, Found, PaintOrder};

/// Where a text's font size came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontSource {
    /// The node's own font size (AccessKit's `font_size`).
    Tree,
    /// Estimated from the text's line height: its bounds' height over its lines, over 1.2 (the
    /// usual line height of a font size).
    LineHeight,
    /// Not known: a control's box holds padding besides its text, so its height tells nothing;
    /// the stricter threshold applies.
    Unknown,
}

/// A text's font, as far as the tree tells it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Font {
    /// The size in logical pixels.
    pub px: f64,
    /// Bold: a font weight of 700 or more in the tree.
    pub bold: bool,
    /// Where the size came from.
    pub source: FontSource,
}

/// A text to measure the contrast of.
#[derive(Debug, Clone, PartialEq)]
pub struct Text {
    /// The node's full line.
    pub node: NodeLine,
    /// Its font, as far as it is known.
    pub font: Font,
    /// How far inside its bounds the text's pixels are taken, in logical pixels: a button's or a
    /// link's box holds a border the text is not.
    pub inset: f64,
    /// The boxes of other nodes, not texts, drawn over part of its bounds (a link inside a
    /// paragraph's box, a window on top), whose pixels are not the text's.
    pub mask: Vec<[f64; 4]>,
}

/// The node with the keyboard focus, and the window or dialog that holds it: reading order is
/// a window's own, so focus order is compared within one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Focused {
    /// The node with the focus.
    pub node: NodeRef,
    /// The window or dialog it is in, when the tree names one.
    pub region: Option<NodeRef>,
    /// Its bounds, as its line gives them.
    pub bounds: Option<[f64; 4]>,
}

/// What one audit looks at.
#[derive(Debug, Clone, Default)]
pub struct Audited {
    /// The window.
    pub window: u64,
    /// The subtree, when the command named one.
    pub scope: Option<NodeRef>,
    /// Every node `snapshot -i` prints, in tree order.
    pub controls: Vec<NodeLine>,
    /// With a scope, every node `snapshot -i` prints in the whole window: a target's spacing is
    /// measured against its neighbours outside the scope too. Empty without a scope.
    pub neighbours: Vec<NodeLine>,
    /// Every text the regular projection prints (text, headings, and the text of buttons and
    /// links), enabled, with something written.
    pub texts: Vec<Text>,
    /// Every image in the tree that is neither hidden nor scrolled out of view (the regular
    /// projection leaves an unnamed one out as decoration).
    pub images: Vec<NodeLine>,
    /// The window has handed over no tree yet: nothing could be checked.
    pub no_tree: bool,
    /// The layer of each control and neighbour: its rank (`winit_automation_tree::PaintOrder`: 0 is the base) and
    /// its root's bounds (a window, a popup), so that a target under another layer does not
    /// crowd one in it.
    pub layers: Vec<(NodeRef, Layer)>,
}

/// The layer a node is in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layer {
    /// Its rank in paint order (`winit_automation_tree::PaintOrder`: 0 is the base).
    pub rank: usize,
    /// The layer root's bounds (`None`: the base layer, the whole window).
    pub root: Option<[f64; 4]>,
}

impl Audited {
    /// The layer of `node`: the base one when it is not known.
    pub fn layer(&self, node: NodeRef) -> Layer {
        self.layers.iter().find(|(r, _)| *r == node).map_or(
            Layer {
                rank: 0,
                root: None,
            },
            |(_, l)| *l,
        )
    }
}

/// Gathers what an audit of `scope` (else the default window) checks.
pub fn audited(tree: &mut AppTree, scope: Option<&Target>) -> Result<Audited, Failure> {
    Gather { tree }.audited(scope)
}

/// The node that has the keyboard focus in `window` (its ref minted) and the window or dialog it
/// is in; `None` when nothing in particular has it (a tree whose focus is its root).
pub fn focused(tree: &mut AppTree, window: u64) -> Option<Focused> {
    Gather { tree }.focused(window)
}

/// The steps that give the focus back to `to` after `audit --keyboard`: an AccessKit focus
/// action, or Escape when nothing had it (or it is gone).
pub fn focus_back(tree: &mut AppTree, to: Option<NodeRef>) -> Vec<Step> {
    Gather { tree }.focus_back(to)
}

/// An audit's reading of the tree.
struct Gather<'a> {
    tree: &'a mut AppTree,
}

/// Roles whose name is text drawn inside their bounds.
const TEXT_ROLES: &[&str] = &["text", "heading", "button", "link"];

impl Gather<'_> {
    /// Gathers what an audit of `scope` (else the default window) checks.
    fn audited(&mut self, scope: Option<&Target>) -> Result<Audited, Failure> {
        let (start, scope) = match scope {
            Some(t) => {
                let found = self.tree.resolve(t)?;
                let line = self.tree.node_line(found);
                (found, NodeLine::parse(&line).map(|n| n.r#ref))
            }
            None => {
                let window = self.tree.mirror().default_window()?;
                let Some(root) = self.root_of(window) else {
                    return Ok(Audited {
                        window,
                        no_tree: true,
                        ..Audited::default()
                    });
                };
                (root, None)
            }
        };
        let mut audited = Audited {
            window: start.window,
            scope,
            ..Audited::default()
        };
        audited.controls = self.projected(start, Projection::Interactive);
        if scope.is_some()
            && let Some(root) = self.root_of(start.window)
        {
            audited.neighbours = self.projected(root, Projection::Interactive);
        }
        let stack = PaintOrder::new(&self.tree.mirror().windows()[&start.window]);
        let placed: Vec<NodeRef> = audited
            .controls
            .iter()
            .chain(&audited.neighbours)
            .map(|n| n.r#ref)
            .collect();
        for r in placed {
            let Ok(found) = self.tree.resolve(&Target::Ref(r)) else {
                continue;
            };
            let (rank, root) = stack.layer(&self.node(found));
            let root = root.and_then(|id| {
                let line = self.tree.node_line(Found {
                    window: start.window,
                    node: id,
                });
                NodeLine::parse(&line)?.bounds
            });
            audited.layers.push((r, Layer { rank, root }));
        }
        // An image with no name is left out of the regular projection as decoration: the
        // whole tree is searched, less what is hidden or scrolled out of view.
        for line in self.projected(start, Projection::Raw) {
            if line.role == "image" && !line.hidden && !line.offscreen {
                audited.images.push(line);
            }
        }
        let regular = self.projected(start, Projection::Regular);
        // What may overlap a text: every node the window's regular projection shows.
        let shown = match (scope, self.root_of(start.window)) {
            (Some(_), Some(root)) => self.projected(root, Projection::Regular),
            _ => regular.clone(),
        };
        // Texts are left out: egui lays a paragraph's runs out in boxes that share rows, and
        // their glyphs are the paragraph's colour; a link, a control, a window on top are not.
        // A layer below the text's (a window under it) draws nothing over it.
        let mut boxes: Vec<Box> = Vec::new();
        for n in shown
            .iter()
            .filter(|n| !matches!(n.role.as_str(), "text" | "heading"))
        {
            let (Ok(found), Some(bounds)) = (self.tree.resolve(&Target::Ref(n.r#ref)), n.bounds)
            else {
                continue;
            };
            let rank = stack.layer(&self.node(found)).0;
            boxes.push(Box {
                id: found.node,
                rank,
                bounds,
            });
        }
        for line in regular {
            if !TEXT_ROLES.contains(&line.role.as_str())
                || line.disabled
                || written(&line).is_empty()
            {
                continue;
            }
            let found = self.tree.resolve(&Target::Ref(line.r#ref))?;
            let node = self.node(found);
            let control = matches!(line.role.as_str(), "button" | "link");
            let font = font_of(&node, &line, control);
            let mask = match line.bounds {
                // A control's box is its own (egui puts a link's text in a node of its own
                // inside it): only a layer above draws over it.
                Some(own) => {
                    let rank = stack.layer(&node).0;
                    let lowest = if control { rank + 1 } else { rank };
                    masks(&node, own, lowest, &boxes)
                }
                None => Vec::new(),
            };
            audited.texts.push(Text {
                node: line,
                font,
                inset: if control { 2.0 } else { 0.0 },
                mask,
            });
        }
        Ok(audited)
    }

    /// The root of a window's tree, once it has one.
    fn root_of(&self, window: u64) -> Option<Found> {
        let tree = self.tree.mirror().windows().get(&window)?.tree()?;
        Some(Found {
            window,
            node: tree.state().root_id(),
        })
    }

    /// The full lines (as `get` prints them) of the nodes a projection shows from `start`.
    fn projected(&mut self, start: Found, projection: Projection) -> Vec<NodeLine> {
        let text = self.tree.projection_from(start, projection);
        let shown: Vec<NodeLine> = text.lines().filter_map(NodeLine::parse).collect();
        shown
            .into_iter()
            .filter_map(|n| {
                let found = self.tree.resolve(&Target::Ref(n.r#ref)).ok()?;
                let mut line = NodeLine::parse(&self.tree.node_line(found))?;
                // What only `--raw` says of it.
                (line.hidden, line.offscreen) = (n.hidden, n.offscreen);
                Some(line)
            })
            .collect()
    }

    /// The node a found node is.
    fn node(&self, f: Found) -> Node<'_> {
        self.tree.mirror().node(f).expect("found nodes exist")
    }
}

/// The text a node shows: its name, else its text value.
fn written(line: &NodeLine) -> &str {
    if line.name.is_empty() {
        line.value.as_ref().and_then(|v| v.as_text()).unwrap_or("")
    } else {
        &line.name
    }
}

/// The node's font: its size and weight from the tree, else, for a text, the size estimated from
/// its line height. A character is about 0.4 line heights wide, so `lines` lines of `n / lines`
/// characters in a box `w` wide and `h` high give `lines² ≈ 0.4 * n * h / w`; the estimate
/// rounds up from a quarter past a whole line (text rarely fills its last line, and wrapped text
/// taken for smaller than it is gets the stricter threshold, never the laxer). The font size is
/// the line height over 1.2. A control's box (a button, a link) holds padding: its size is
/// unknown.
fn font_of(node: &Node, line: &NodeLine, control: bool) -> Font {
    let bold = node.data().font_weight().is_some_and(|w| w >= 700.0);
    if let Some(px) = node.data().font_size() {
        return Font {
            px: f64::from(px),
            bold,
            source: FontSource::Tree,
        };
    }
    let [_, _, w, h] = line.bounds.unwrap_or_default();
    if control || w <= 0.0 || h <= 0.0 {
        return Font {
            px: 0.0,
            bold,
            source: FontSource::Unknown,
        };
    }
    let text = written(line);
    let chars = text.chars().count().max(1) as f64;
    let own_lines = text.lines().count().max(1) as f64;
    let lines = ((0.4 * chars * h / w).sqrt() + 0.3).round().max(own_lines);
    Font {
        px: h / lines / 1.2,
        bold,
        source: FontSource::LineHeight,
    }
}

/// A node that may be drawn over a text: its id, its layer's rank, its bounds.
struct Box {
    id: FullNodeId,
    rank: usize,
    bounds: [f64; 4],
}

/// The boxes, among `boxes`, of nodes drawn over part of `own` (a text's bounds): in a layer of
/// rank `lowest` or above, not the node, not its ancestors, and not a box around all of it
/// (something behind it).
fn masks(node: &Node, own: [f64; 4], lowest: usize, boxes: &[Box]) -> Vec<[f64; 4]> {
    let mut ancestors = vec![node.id()];
    ancestors.extend(std::iter::successors(node.parent(), |n| n.parent()).map(|n| n.id()));
    boxes
        .iter()
        .filter(|b| {
            b.rank >= lowest
                && !ancestors.contains(&b.id)
                && overlap(b.bounds, own)
                && !holds(b.bounds, own)
        })
        .map(|b| b.bounds)
        .collect()
}

/// Whether two boxes share some area.
fn overlap(a: [f64; 4], b: [f64; 4]) -> bool {
    a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
}

/// Whether `outer` holds all of `inner`.
fn holds(outer: [f64; 4], inner: [f64; 4]) -> bool {
    outer[0] <= inner[0]
        && outer[1] <= inner[1]
        && outer[0] + outer[2] >= inner[0] + inner[2]
        && outer[1] + outer[3] >= inner[1] + inner[3]
}

impl Gather<'_> {
    /// The node that has the keyboard focus in `window` (its ref minted) and the window or
    /// dialog it is in; `None` when nothing in particular has it (a tree whose focus is its root).
    fn focused(&mut self, window: u64) -> Option<Focused> {
        let live = &mut *self.tree;
        let node = live
            .mirror()
            .windows()
            .get(&window)?
            .tree()?
            .state()
            .focus()?;
        if node.is_root() {
            return None;
        }
        let region = std::iter::successors(node.parent(), |n| n.parent())
            .find(|n| matches!(n.role(), Role::Window | Role::Dialog | Role::AlertDialog))
            .map(|r| r.id());
        let found = Found {
            window,
            node: node.id(),
        };
        let line = NodeLine::parse(&live.node_line(found))?;
        let region = region.map(|id| {
            let found = Found { window, node: id };
            let line = live.node_line(found);
            NodeLine::parse(&line).map(|n| n.r#ref)
        });
        Some(Focused {
            node: line.r#ref,
            region: region.flatten(),
            bounds: line.bounds,
        })
    }

    /// The steps that give the focus back to `to` after `audit --keyboard`: an AccessKit focus
    /// action, or Escape when nothing had it (or it is gone).
    fn focus_back(&mut self, to: Option<NodeRef>) -> Vec<Step> {
        let found = to.and_then(|r| self.tree.resolve(&Target::Ref(r)).ok());
        match found {
            Some(f) => vec![action_step(self.tree, f, Action::Focus, None)],
            None => key_tap(KeyChord::parse("Escape").expect("a valid chord")).to_vec(),
        }
    }
}
