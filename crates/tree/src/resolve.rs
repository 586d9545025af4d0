//! Target resolution: a ref, a selector or a point to exactly one node of the mirror, and the
//! matches of a selector (`find`, `wait`).
//!
//! Refs resolve through the ref table (`refs.rs`), points through the hit test's topmost node
//! (`hit.rs`), selectors by walking the trees in order.

use accesskit::Point as AkPoint;
use accesskit_consumer::NodeRef as Node;

use super::found::Found;
use super::hit::node_at;
use super::label::label_of;
use super::mirror::WindowTrees;
use super::node::name_of;
use super::omit::folded_children;
use super::refs::Refs;
use winit_automation_protocol::role_name;
use winit_automation_protocol::{ErrorCode, Failure, Selector, Target, Term};

/// Whether `text` contains `part`, ignoring case (as `name~=` and `text~=` match).
fn contains_ignoring_case(text: &str, part: &str) -> bool {
    text.to_lowercase().contains(&part.to_lowercase())
}

/// Whether a node matches every term of a selector.
pub fn matches(node: &Node, selector: &Selector) -> bool {
    selector.terms.iter().all(|term| match term {
        Term::Role(r) => role_name(node.role()) == r.as_str(),
        Term::Name(n) => name_of(node) == *n,
        Term::NameContains(n) => contains_ignoring_case(&name_of(node), n),
        Term::Id(id) => node.author_id() == Some(id.as_str()),
        // The name or the text value: egui, for one, puts a label's text in its value.
        Term::Text(t) => name_of(node) == *t || node.value().is_some_and(|v| v == *t),
        Term::TextContains(t) => {
            contains_ignoring_case(&name_of(node), t)
                || node.value().is_some_and(|v| contains_ignoring_case(&v, t))
        }
        Term::Label(l) => label_of(node).is_some_and(|own| own == *l),
        Term::LabelContains(l) => label_of(node).is_some_and(|own| contains_ignoring_case(&own, l)),
    })
}

/// Every node matching the selector's terms, windows in id order, nodes in tree order (`nth` is not
/// applied). A text child folded into a matching parent (it only repeats the parent's text, and
/// snapshots print the parent alone) is not a second match: `text="OK"` finds the label, not
/// also its text run.
pub fn find_all(mirror: &WindowTrees, selector: &Selector) -> Vec<Found> {
    let mut out = Vec::new();
    for (&window, w) in &mirror.windows {
        let Some(tree) = &w.tree else { continue };
        // Each node, and whether it is folded into a parent that matched.
        let mut stack = vec![(tree.state().root(), false)];
        while let Some((node, folded)) = stack.pop() {
            let matched = matches(&node, selector);
            if matched && !folded {
                out.push(Found {
                    window,
                    node: node.id(),
                });
            }
            let into = matched
                .then(|| folded_children(&node))
                .flatten()
                .unwrap_or_default();
            let children: Vec<_> = node
                .children()
                .enumerate()
                .map(|(i, c)| (c, into.get(i).copied().unwrap_or(false)))
                .collect();
            stack.extend(children.into_iter().rev());
        }
    }
    out
}

/// Resolves a target to exactly one node. `describe` prints a candidate line for an ambiguous match.
pub fn resolve(
    mirror: &WindowTrees,
    refs: &mut Refs,
    target: &Target,
    describe: &mut dyn FnMut(&mut Refs, Found) -> String,
) -> Result<Found, Failure> {
    match target {
        Target::Ref(r) => refs.resolve(mirror, *r),
        Target::Selector(selector) => {
            let all = find_all(mirror, selector);
            match (selector.nth, all.len()) {
                (_, 0) => Err(Failure::new(
                    ErrorCode::NotFound,
                    format!("no node matches {selector}"),
                    "check the selector against a fresh snapshot; name~= matches part of a name, text~= part of a name or value",
                )),
                (Some(n), len) if n >= len => Err(Failure::new(
                    ErrorCode::NotFound,
                    format!("{selector} asks for match {n} (0-based) but there are {len}"),
                    format!("use nth=0 to nth={}", len - 1),
                )),
                (Some(n), _) => Ok(all[n]),
                (None, 1) => Ok(all[0]),
                (None, len) => {
                    let lines: String = all.iter().map(|f| describe(refs, *f) + "\n").collect();
                    Err(Failure::new(
                        ErrorCode::Ambiguous,
                        format!("{selector} matches {len} nodes where one is needed"),
                        "add terms, use a ref from the list, or pick one with nth=N (0-based)",
                    )
                    .with_body(lines))
                }
            }
        }
        Target::Point(p) => {
            let Some((&window, w)) = mirror
                .windows
                .iter()
                .find(|(_, w)| w.state.as_ref().is_some_and(|s| s.focused))
                .or_else(|| mirror.windows.iter().next())
            else {
                return Err(Failure::new(
                    ErrorCode::NotFound,
                    "no window has published a tree",
                    "wait for the app to draw its first frame",
                ));
            };
            if w.tree.is_none() {
                return Err(Failure::new(
                    ErrorCode::NotFound,
                    format!("window {window} has no tree"),
                    "the app publishes no accessibility tree for it",
                ));
            }
            let k = w.units_per_logical();
            // Paint order, as the hit test sees it (`hit.rs`): the app's layers, then tree order.
            node_at(w, AkPoint::new(p.x * k, p.y * k))
                .map(|n| Found {
                    window,
                    node: n.id(),
                })
                .ok_or_else(|| {
                    Failure::new(
                        ErrorCode::NotFound,
                        format!("no node at {p}"),
                        "points are logical pixels from the window's top left; see the bounds in a snapshot",
                    )
                })
        }
    }
}
