//! The text of snapshots, projections, `find` and `get`: one node per line, `@eN role "name"` and
//! then only the fields that are not default. Every string goes through the protocol's quoting, so a
//! hostile label stays on its line.
//!
//! The walk of a window's tree (what each projection shows, the hints for what it leaves out) is
//! `format/walk.rs`; it is iterative (an explicit stack), so a tree thousands of levels deep cannot
//! overflow the service thread's stack.

use std::fmt::Write;

use accesskit::{Rect, Toggled};
use accesskit_consumer::NodeRef as Node;

use super::found::Found;
use super::geometry;
use super::label::label_of;
use super::mirror::{WindowTree, WindowTrees};
use super::node::{name_of, num, numeric};
use super::refs::Refs;
use winit_automation_protocol::role_name;
use winit_automation_protocol::{
    ACTIONS, Projection, quote, quote_into, text_start, write_logical,
};

mod walk;

use walk::walk;

/// What to show.
#[derive(Debug, Clone, Copy, Default)]
pub struct View {
    pub projection: Projection,
    pub depth: Option<u32>,
    pub scope: Option<Found>,
    /// With `-i`: print bounds (`--bounds`) and actions (`--actions`); the regular and raw
    /// projections always do.
    pub bounds: bool,
    pub actions: bool,
}

/// What a node's line says besides its ref, role and name.
#[derive(Clone, Copy)]
pub struct Fields {
    pub bounds: bool,
    pub actions: bool,
    /// States that are a default (`unchecked`, `collapsed`): left out of the compact lines of
    /// `-i`, where only what differs from the default is said.
    pub defaults: bool,
    /// A static text whole; else, when it is too long for one short line, only its start
    /// (`value~=`, protocol's `text_start`), as `-i` prints it.
    pub whole_text: bool,
}

impl Fields {
    /// Every field: `get`, `find`, the regular and raw projections.
    pub const ALL: Fields = Fields {
        bounds: true,
        actions: true,
        defaults: true,
        whole_text: true,
    };
}

impl View {
    /// The fields its lines carry.
    pub fn fields(&self) -> Fields {
        if self.projection == Projection::Interactive {
            Fields {
                bounds: self.bounds,
                actions: self.actions,
                defaults: false,
                whole_text: false,
            }
        } else {
            Fields::ALL
        }
    }
}

fn write_fields(
    out: &mut String,
    w: &WindowTree,
    node: &Node,
    name: &str,
    bounds: Option<Rect>,
    fields: Fields,
) {
    let password = node.role() == accesskit::Role::PasswordInput;
    match node.value() {
        // A password field's value is never shown: not even its length is told.
        Some(_) if password => {}
        // An empty value is the default: the compact lines leave it out.
        Some(v) if v.is_empty() && !fields.defaults => {}
        Some(v) if v != name => {
            let start = (!fields.whole_text && is_static_text(node))
                .then(|| text_start(&v))
                .flatten();
            match start {
                Some(start) => {
                    out.push_str(" value~=");
                    quote_into(out, start);
                }
                None => {
                    out.push_str(" value=");
                    quote_into(out, &v);
                }
            }
        }
        Some(_) => {}
        None => {
            if let Some(v) = node.numeric_value() {
                out.push_str(" value=");
                out.push_str(&numeric(v));
            }
        }
    }
    if password {
        out.push_str(" password");
    }
    // A tree whose focus is its root has nothing in particular focused.
    if node.is_focused() && !node.is_root() {
        out.push_str(" focused");
    }
    if node.is_disabled() {
        out.push_str(" disabled");
    }
    match node.toggled() {
        Some(Toggled::True) => out.push_str(" checked"),
        Some(Toggled::False) if fields.defaults => out.push_str(" unchecked"),
        Some(Toggled::Mixed) => out.push_str(" mixed"),
        _ => {}
    }
    if node.is_selected() == Some(true) {
        out.push_str(" selected");
    }
    match node.data().is_expanded() {
        Some(true) => out.push_str(" expanded"),
        Some(false) if fields.defaults => out.push_str(" collapsed"),
        _ => {}
    }
    if let Some(b) = bounds.filter(|_| fields.bounds) {
        let k = w.units_per_logical();
        out.push_str(" bounds=");
        write_logical(out, b.x0 / k);
        out.push(',');
        write_logical(out, b.y0 / k);
        out.push(',');
        write_logical(out, (b.x1 - b.x0) / k);
        out.push('x');
        write_logical(out, (b.y1 - b.y0) / k);
    }
    if !fields.actions {
        return;
    }
    let mut first = true;
    for (a, name) in ACTIONS {
        if node.data().supports_action(*a) {
            out.push_str(if first { " actions=" } else { "," });
            out.push_str(name);
            first = false;
        }
    }
}

/// Whether a node is text to read, not to edit: its value is its content (egui's labels).
fn is_static_text(node: &Node) -> bool {
    !node.is_text_input() && role_name(node.role()) == "text"
}

/// Writes `@eN role "name" fields...` without indentation or newline.
fn write_node(
    out: &mut String,
    refs: &mut Refs,
    window: u64,
    w: &WindowTree,
    node: &Node,
    bounds: Option<Rect>,
    fields: Fields,
) {
    let role = role_name(node.role());
    let name = name_of(node);
    let r = if name.is_empty() && role == "text" {
        // An unnamed text node is known by its text (refs.rs).
        let text = super::refs::identity_name(node, String::new());
        refs.mint_with(window, node.id(), &role, &text)
    } else {
        refs.mint_with(window, node.id(), &role, &name)
    };
    let _ = write!(out, "{r} {role}");
    if !name.is_empty() {
        out.push(' ');
        quote_into(out, &name);
    } else if let Some(label) = label_of(node) {
        out.push_str(" label=");
        quote_into(out, &label);
    }
    write_fields(out, w, node, &name, bounds, fields);
}

/// `@eN role "name" fields...` without indentation or newline.
pub fn node_line(refs: &mut Refs, window: u64, w: &WindowTree, node: &Node) -> String {
    let mut out = String::new();
    write_node(
        &mut out,
        refs,
        window,
        w,
        node,
        geometry::bounds(node),
        Fields::ALL,
    );
    out
}

/// The line of a found node.
pub fn found_line(mirror: &WindowTrees, refs: &mut Refs, f: Found) -> String {
    let w = &mirror.windows[&f.window];
    let node = w
        .tree
        .as_ref()
        .and_then(|t| t.state().node_by_id(f.node))
        .expect("found nodes exist");
    node_line(refs, f.window, w, &node)
}

/// `window <id> "title" size=WxH scale=S focused`, plus `error=` when its last update was refused.
pub fn window_line(id: u64, w: &WindowTree) -> String {
    let mut out = format!("window {id}");
    if let Some(s) = &w.state {
        let _ = write!(
            out,
            " {} size={}x{} scale={}",
            quote(&s.title),
            num(s.width),
            num(s.height),
            s.scale_factor
        );
        if s.focused {
            out.push_str(" focused");
        }
    }
    if let Some(s) = &w.surface {
        let _ = write!(out, " surface={}x{} format={}", s.width, s.height, s.format);
    }
    if let Some(e) = &w.error {
        out.push_str(" error=");
        out.push_str(&quote(e));
    }
    out
}

/// The windows and their trees (what `accessibility.txt` holds): no frame numbers, no timestamps, so
/// the same UI state gives the same bytes.
pub fn trees(mirror: &WindowTrees, refs: &mut Refs, view: &View) -> String {
    // Sized like the previous walk's text: growing by doubling would copy a large one several times.
    let mut out = String::with_capacity(refs.begin_walk());
    for (&id, w) in &mirror.windows {
        if view.scope.is_some_and(|s| s.window != id) {
            continue;
        }
        out.push_str(&window_line(id, w));
        out.push('\n');
        let Some(tree) = &w.tree else { continue };
        let start = match view.scope {
            Some(s) => match tree.state().node_by_id(s.node) {
                Some(n) => n,
                None => continue,
            },
            None => tree.state().root(),
        };
        // The interactive projection's lines are a short list under their window line: its nodes
        // start at the margin (two bytes a node that say nothing); the others indent a level.
        let indent = usize::from(view.projection != Projection::Interactive);
        walk(&mut out, refs, id, w, start, view, indent);
    }
    refs.end_walk(out.len());
    out
}

/// `windows.txt`: one window line each.
pub fn windows(mirror: &WindowTrees) -> String {
    mirror
        .windows
        .iter()
        .map(|(&id, w)| window_line(id, w) + "\n")
        .collect()
}

/// The quality verdict and its warning lines.
pub fn quality(mirror: &WindowTrees) -> (winit_automation_protocol::Quality, String) {
    use winit_automation_protocol::Quality;
    let mut warnings = String::new();
    if mirror.windows.is_empty() {
        warnings.push_str(
            "warning \"no window has published a tree yet: the app publishes no accessibility tree, or has not drawn a frame\"\n",
        );
    }
    for (id, w) in &mirror.windows {
        if w.is_sparse() {
            let _ = writeln!(
                warnings,
                "warning {}",
                quote(&format!(
                    "window {id}: the app publishes no accessibility tree (or only its root); the window may hold controls this snapshot cannot show"
                ))
            );
        }
        if w.dropped_widgets > 0 {
            let _ = writeln!(
                warnings,
                "warning {}",
                quote(&format!(
                    "window {id}: {} widget records were dropped because their parents form a cycle",
                    w.dropped_widgets
                ))
            );
        }
    }
    let sparse = mirror.windows.is_empty() || mirror.windows.values().any(|w| w.is_sparse());
    let verdict = if sparse {
        Quality::Sparse
    } else {
        Quality::Healthy
    };
    (verdict, warnings)
}

/// Every field of one node, for `get`.
pub fn details(mirror: &WindowTrees, refs: &mut Refs, f: Found) -> String {
    let w = &mirror.windows[&f.window];
    let tree = w.tree.as_ref().expect("found nodes have a tree");
    let node = tree.state().node_by_id(f.node).expect("found nodes exist");
    let mut out = node_line(refs, f.window, w, &node);
    out.push('\n');
    let _ = writeln!(out, "window {}", f.window);
    let _ = writeln!(out, "node_id {}", node.locate().0.0);
    if let Some(id) = node.author_id() {
        let _ = writeln!(out, "author_id {}", quote(id));
    }
    if let Some(d) = node.description() {
        let _ = writeln!(out, "description {}", quote(&d));
    }
    if let Some(p) = node.placeholder() {
        let _ = writeln!(out, "placeholder {}", quote(p));
    }
    if let Some(parent) = node.parent() {
        let _ = writeln!(out, "parent {}", refs.mint(f.window, &parent));
    }
    let _ = writeln!(out, "children {}", node.children().len());
    if node.is_hidden() {
        out.push_str("hidden\n");
    }
    if node.is_read_only() {
        out.push_str("read_only\n");
    }
    if geometry::has_non_finite_bounds(&node) {
        out.push_str("bounds_not_finite\n");
    }
    out
}
