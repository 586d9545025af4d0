//! What keeps the trees from settling, for a settle that timed out: the latest changes the change
//! log holds (`change_log.rs`), named by ref and how they changed, and the windows the app says
//! are animating.

use std::fmt::Write;

use crate::change_log::{Changed, NAMED, What};
use crate::mirror::WindowTrees;
use crate::refs::Refs;
use winit_automation_protocol::{quote, role_name};

/// What keeps the trees from settling, for a settle that timed out (it began at frame `since`
/// and waited for `frames` unchanged ones): the nodes and windows that changed in the last
/// `frames` frames that carried a change, `NAMED` of them by ref and how they changed, then
/// how many more; and the windows the app says are animating. One part each, none when
/// nothing is known.
pub(crate) fn unsettled(
    mirror: &WindowTrees,
    refs: &mut Refs,
    since: u64,
    frames: u32,
) -> Vec<String> {
    let mut parts = Vec::new();
    let recent: Vec<Changed> = mirror
        .change_log
        .recent(u64::from(frames).max(1), since)
        .into_iter()
        .cloned()
        .collect();
    if !recent.is_empty() {
        let mut named = Vec::new();
        for change in &recent {
            if named.len() == NAMED {
                break;
            }
            if let Some(text) = change_text(mirror, refs, change) {
                named.push(text);
            }
        }
        let more = recent.len() - named.len();
        let mut out = format!("changing: {}", named.join(", "));
        match (named.is_empty(), more) {
            (_, 0) => {}
            (true, n) => {
                let _ = write!(out, "{n} nodes no longer in the tree");
            }
            (false, n) => {
                let _ = write!(out, ", and {n} more");
            }
        }
        parts.push(out);
    }
    let animating: Vec<String> = mirror
        .windows
        .iter()
        .filter(|(_, w)| w.animating)
        .map(|(id, _)| format!("window {id}"))
        .collect();
    if !animating.is_empty() {
        parts.push(format!("animating: {}", animating.join(", ")));
    }
    parts
}

/// `@eN role "name" value "a" -> "b"` for a node still in its tree, `window N size` for a
/// window's own change; `None` for a node no longer there.
fn change_text(mirror: &WindowTrees, refs: &mut Refs, change: &Changed) -> Option<String> {
    let mut out = String::new();
    let Some(id) = change.node else {
        let _ = write!(out, "window {}", change.window);
        change.what.write(&mut out);
        return Some(out);
    };
    let node = mirror
        .windows
        .get(&change.window)?
        .tree
        .as_ref()?
        .state()
        .node_by_id(id)?;
    let r = refs.mint(change.window, &node);
    let _ = write!(out, "{r} {}", role_name(node.role()));
    let name = crate::node::name_of(&node);
    if !name.is_empty() {
        let _ = write!(out, " {}", quote(&name));
    } else if let Some(text) = node.data().value()
        && !matches!(change.what, What::Value(..))
    {
        // An unnamed text is known by its text, as its node line shows it.
        let _ = write!(out, " value={}", quote(text));
    }
    change.what.write(&mut out);
    Some(out)
}
