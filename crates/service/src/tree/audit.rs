//! What an `audit` checks, read from the trees: the controls `snapshot -i` prints, and the texts
//! and images the regular projection prints, of one window or one subtree, each with its full
//! line. The rules themselves are the service's `audit/` module; this only gathers, so that
//! "every control `snapshot -i` prints" is true by construction: the lines are that projection's.

use accesskit::{Action, Role};
use accesskit_consumer::NodeRef as Node;

use super::Trees;
use super::aim::default_window;
use super::format::{self, View};
use super::refs::Found;
use winit_automation_link::Step;
use winit_automation_protocol::{Failure, KeyChord, NodeLine, NodeRef, Projection, Target};

/// Where a text's font size came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum FontSource {
    /// The node's own font size (AccessKit's `font_size`).
    Tree,
    /// Estimated from the text's line height: its bounds' height over its lines, over 1.2 (the
    /// usual line height of a font size).
    LineHeight,
}

/// A text's font, as far as the tree tells it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Font {
    /// The size in logical pixels.
    pub px: f64,
    /// Bold: a font weight of 700 or more in the tree.
    pub bold: bool,
    /// Where the size came from.
    pub source: FontSource,
}

/// A text to measure the contrast of.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Text {
    pub node: NodeLine,
    pub font: Font,
    /// How far inside its bounds the text's pixels are taken, in logical pixels: a button's or a
    /// link's box holds a border the text is not.
    pub inset: f64,
}

/// The node with the keyboard focus, and the window or dialog that holds it: reading order is
/// a window's own, so focus order is compared within one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Focused {
    pub node: NodeRef,
    pub region: Option<NodeRef>,
}

/// What one audit looks at.
#[derive(Debug, Clone, Default)]
pub(crate) struct Audited {
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
}

/// Roles whose name is text drawn inside their bounds.
const TEXT_ROLES: &[&str] = &["text", "heading", "button", "link"];

impl Trees {
    /// Gathers what an audit of `scope` (else the default window) checks.
    pub fn audited(&mut self, scope: Option<&Target>) -> Result<Audited, Failure> {
        let (start, scope) = match scope {
            Some(t) => {
                let found = self.live.resolve(t)?;
                let line = self.live.node_line(found);
                (found, NodeLine::parse(&line).map(|n| n.r#ref))
            }
            None => {
                let window = default_window(&self.live.mirror)?;
                let Some(root) = self.root_of(window) else {
                    return Ok(Audited {
                        window,
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
        // An image with no name is left out of the regular projection as decoration: the
        // whole tree is searched, less what is hidden or scrolled out of view.
        for line in self.projected(start, Projection::Raw) {
            if line.role == "image" && !line.hidden && !line.offscreen {
                audited.images.push(line);
            }
        }
        for line in self.projected(start, Projection::Regular) {
            if TEXT_ROLES.contains(&line.role.as_str())
                && !line.disabled
                && !written(&line).is_empty()
            {
                let found = self.live.resolve(&Target::Ref(line.r#ref))?;
                let node = self.node(found);
                let font = font_of(&node, &line);
                let inset = if matches!(line.role.as_str(), "button" | "link") {
                    2.0
                } else {
                    0.0
                };
                audited.texts.push(Text {
                    node: line,
                    font,
                    inset,
                });
            }
        }
        Ok(audited)
    }

    /// The root of a window's tree, once it has one.
    fn root_of(&self, window: u64) -> Option<Found> {
        let tree = self.live.mirror.windows.get(&window)?.tree.as_ref()?;
        Some(Found {
            window,
            node: tree.state().root_id(),
        })
    }

    /// The full lines (as `get` prints them) of the nodes a projection shows from `start`.
    fn projected(&mut self, start: Found, projection: Projection) -> Vec<NodeLine> {
        let view = View {
            projection,
            scope: Some(start),
            ..View::default()
        };
        let text = format::trees(&self.live.mirror, &mut self.live.refs, &view);
        let shown: Vec<NodeLine> = text.lines().filter_map(NodeLine::parse).collect();
        shown
            .into_iter()
            .filter_map(|n| {
                let found = self.live.resolve(&Target::Ref(n.r#ref)).ok()?;
                let mut line = NodeLine::parse(&self.live.node_line(found))?;
                // What only `--raw` says of it.
                (line.hidden, line.offscreen) = (n.hidden, n.offscreen);
                Some(line)
            })
            .collect()
    }

    /// The node a found node is.
    fn node(&self, f: Found) -> Node<'_> {
        self.live.mirror.windows[&f.window]
            .tree
            .as_ref()
            .and_then(|t| t.state().node_by_id(f.node))
            .expect("found nodes exist")
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

/// The node's font: its size and weight from the tree, else the size estimated from its line
/// height. A character is about 0.4 line heights wide, so a text of `n` characters in a box `w`
/// wide has lines at most `w / (0.4 * n)` high when it fills one line, less when it wraps: the
/// line height is the smaller of that and the box's height, its lines the box's height over it
/// (at least the text's own lines), and the font size the line height over 1.2. Wrapped text may
/// be taken for smaller than it is (its threshold is then the stricter one), never for larger.
fn font_of(node: &Node, line: &NodeLine) -> Font {
    let bold = node.data().font_weight().is_some_and(|w| w >= 700.0);
    if let Some(px) = node.data().font_size() {
        return Font {
            px: f64::from(px),
            bold,
            source: FontSource::Tree,
        };
    }
    let text = written(line);
    let [_, _, w, h] = line.bounds.unwrap_or_default();
    let chars = text.chars().count().max(1) as f64;
    let filled = w / (0.4 * chars);
    let estimate = if filled > 0.0 { h.min(filled) } else { h };
    let own_lines = text.lines().count().max(1) as f64;
    let lines = if estimate > 0.0 {
        (h / estimate).round().max(own_lines)
    } else {
        own_lines
    };
    Font {
        px: h / lines / 1.2,
        bold,
        source: FontSource::LineHeight,
    }
}

impl Trees {
    /// The node that has the keyboard focus in `window` (its ref minted) and the window or
    /// dialog it is in; `None` when nothing in particular has it (a tree whose focus is its root).
    pub fn focused(&mut self, window: u64) -> Option<Focused> {
        let live = &mut self.live;
        let node = live
            .mirror
            .windows
            .get(&window)?
            .tree
            .as_ref()?
            .state()
            .focus()?;
        if node.is_root() {
            return None;
        }
        let region = std::iter::successors(node.parent(), |n| n.parent())
            .find(|n| matches!(n.role(), Role::Window | Role::Dialog | Role::AlertDialog));
        Some(Focused {
            node: live.refs.mint(window, &node),
            region: region.map(|r| live.refs.mint(window, &r)),
        })
    }

    /// The steps that give the focus back to `to` after `audit --keyboard`: an AccessKit focus
    /// action, or Escape when nothing had it (or it is gone).
    pub fn focus_back(&mut self, to: Option<NodeRef>) -> Vec<Step> {
        let found = to.and_then(|r| self.live.resolve(&Target::Ref(r)).ok());
        match found {
            Some(f) => vec![self.live.action_step(f, Action::Focus, None)],
            None => key_tap("Escape").to_vec(),
        }
    }
}

/// A key's press and release.
pub(crate) fn key_tap(key: &str) -> [Step; 2] {
    let chord = KeyChord::parse(key).expect("a valid chord");
    [true, false].map(|pressed| Step::Key { chord, pressed })
}
