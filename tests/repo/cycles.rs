//! No import cycle inside any crate. Within each module, its child modules (a file, or a folder
//! with its children) form a graph: an edge from child A to child B when code in A's subtree names
//! an item in B's subtree (`use crate::...`, `super::...`, or a path in an expression or a type).
//! That graph has no cycle, at every level of every crate, so each module can be read knowing only
//! the ones below it. A child naming its parent's own items (`use super::Service`) is not an edge:
//! the parent is not one of the siblings. Tests (`#[cfg(test)]`, `#[test]`) are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module's path from its crate's root (`[]` is the root).
type ModPath = Vec<String>;

/// Every `.rs` file under `src`, with the module path the file layout gives it.
fn modules(src: &Path) -> Vec<(ModPath, PathBuf)> {
    let mut files = Vec::new();
    super::shape::rust_files(src, &mut files);
    files
        .into_iter()
        .map(|file| {
            let relative = file.strip_prefix(src).unwrap().with_extension("");
            let mut path: ModPath = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            (path, file)
        })
        .collect()
}

/// The crate-internal paths a file's code names, each with the module it is named from (a file's
/// inline modules shift `super`).
#[derive(Default)]
struct Paths {
    inline: Vec<String>,
    found: Vec<(Vec<String>, Vec<String>)>,
    /// Child modules declared for tests only (`#[cfg(test)] mod tests;`): their files are left out.
    test_children: Vec<String>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    })
}

fn flatten(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => out.push([prefix.clone(), vec![n.ident.to_string()]].concat()),
        syn::UseTree::Rename(r) => out.push([prefix.clone(), vec![r.ident.to_string()]].concat()),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| flatten(t, prefix, out)),
    }
}

impl<'ast> Visit<'ast> for Paths {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_test(&m.attrs) {
            if m.content.is_none() && self.inline.is_empty() {
                self.test_children.push(m.ident.to_string());
            }
            return;
        }
        self.inline.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.inline.pop();
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if !is_test(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test(&u.attrs) {
            return;
        }
        let mut paths = Vec::new();
        flatten(&u.tree, &mut Vec::new(), &mut paths);
        for path in paths {
            self.found.push((self.inline.clone(), path));
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let path = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.found.push((self.inline.clone(), path));
        syn::visit::visit_path(self, p);
    }
}

/// The module `path` names, said from module `from`; `None` for a path out of the crate or a
/// local name.
fn resolve(from: &[String], path: &[String], known: &BTreeSet<ModPath>) -> Option<ModPath> {
    let (mut base, mut rest) = match path.first()?.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "super" | "self" => (from.to_vec(), path),
        _ => return None,
    };
    while let Some(first) = rest.first() {
        match first.as_str() {
            "super" => drop(base.pop()),
            "self" => {}
            _ => break,
        }
        rest = &rest[1..];
    }
    for segment in rest {
        base.push(segment.clone());
        if !known.contains(&base) {
            base.pop();
            break;
        }
    }
    Some(base)
}

/// Every cycle among sibling modules of one crate, given each file's module path and source, as
/// `a -> b -> a` under the modules' parent.
pub(crate) fn cycles(files: &[(ModPath, String)]) -> Vec<String> {
    let known: BTreeSet<ModPath> = files.iter().map(|(p, _)| p.clone()).collect();
    // For each parent, the edges among its children: child -> (child, the path that made it).
    let mut levels: BTreeMap<ModPath, BTreeMap<String, BTreeMap<String, String>>> = BTreeMap::new();
    let mut parsed = Vec::new();
    let mut tests = Vec::new();
    for (module, source) in files {
        let mut paths = Paths::default();
        paths.visit_file(&syn::parse_file(source).expect("the crate's files parse"));
        tests.extend(
            paths
                .test_children
                .iter()
                .map(|c| [module.clone(), vec![c.clone()]].concat()),
        );
        parsed.push((module, paths));
    }
    parsed.retain(|(module, _)| !tests.iter().any(|t| module.starts_with(t)));
    for (module, paths) in parsed {
        for (inline, path) in &paths.found {
            let from = [module.clone(), inline.clone()].concat();
            let Some(to) = resolve(&from, path, &known) else {
                continue;
            };
            let common = module.iter().zip(&to).take_while(|(a, b)| a == b).count();
            // An ancestor, a descendant or the module itself: not between siblings.
            if common == module.len() || common == to.len() {
                continue;
            }
            levels
                .entry(module[..common].to_vec())
                .or_default()
                .entry(module[common].clone())
                .or_default()
                .entry(to[common].clone())
                .or_insert_with(|| path.join("::"));
        }
    }
    let mut found = Vec::new();
    for (parent, edges) in &levels {
        for cycle in find_cycles(edges) {
            let parent = if parent.is_empty() {
                "crate".to_owned()
            } else {
                parent.join("::")
            };
            let steps: Vec<String> = cycle
                .windows(2)
                .map(|w| format!("{} -> {} (`{}`)", w[0], w[1], edges[&w[0]][&w[1]]))
                .collect();
            found.push(format!("in {parent}: {}", steps.join(", ")));
        }
    }
    found
}

/// One cycle through each strongly connected group of the graph, as its nodes with the first
/// repeated at the end.
fn find_cycles(edges: &BTreeMap<String, BTreeMap<String, String>>) -> Vec<Vec<String>> {
    let mut reported: BTreeSet<String> = BTreeSet::new();
    let mut cycles = Vec::new();
    for start in edges.keys() {
        if reported.contains(start) {
            continue;
        }
        // A shortest way back to `start`, breadth first.
        let mut previous: BTreeMap<&String, &String> = BTreeMap::new();
        let mut queue = std::collections::VecDeque::from([start]);
        let mut back = None;
        while let Some(node) = queue.pop_front() {
            for next in edges.get(node).into_iter().flat_map(BTreeMap::keys) {
                if next == start {
                    back = Some(node);
                    break;
                }
                if !previous.contains_key(next) {
                    previous.insert(next, node);
                    queue.push_back(next);
                }
            }
            if back.is_some() {
                break;
            }
        }
        let Some(mut node) = back else { continue };
        let mut cycle = vec![start.clone()];
        while node != start {
            cycle.push(node.clone());
            node = previous[node];
        }
        cycle.push(start.clone());
        cycle.reverse();
        reported.extend(cycle.iter().cloned());
        cycles.push(cycle);
    }
    cycles
}

#[test]
fn no_crate_has_an_import_cycle() {
    let mut crates = vec![super::shape::root().join("src")];
    for entry in std::fs::read_dir(super::shape::root().join("crates")).unwrap() {
        crates.push(entry.unwrap().path().join("src"));
    }
    let mut found = Vec::new();
    for src in crates {
        let files: Vec<(ModPath, String)> = modules(&src)
            .into_iter()
            .map(|(path, file)| (path, std::fs::read_to_string(file).unwrap()))
            .collect();
        for cycle in cycles(&files) {
            found.push(format!("{}: {cycle}", src.display()));
        }
    }
    assert!(found.is_empty(), "import cycles:\n{}", found.join("\n"));
}

#[test]
fn a_cycle_through_siblings_is_found_and_neither_a_parent_nor_a_test_makes_one() {
    let file = |path: &[&str], source: &str| {
        (
            path.iter().map(|s| s.to_string()).collect::<ModPath>(),
            source.to_owned(),
        )
    };
    let root = file(&[], "mod a; mod b; mod c; pub struct Root;");
    // a names its parent's item (no edge) and b; its test module names c.
    let a = file(
        &["a"],
        "use crate::b::B; use super::Root; pub struct A; #[cfg(test)] mod t;",
    );
    let a_test = file(&["a", "t"], "use crate::c::make;");
    let c = file(&["c"], "pub fn make() -> crate::a::A { todo!() }");
    // b names c: a -> b -> c -> a.
    let b = file(&["b"], "pub struct B; fn f() { let _ = super::c::make(); }");
    let found = cycles(&[root.clone(), a.clone(), a_test.clone(), b, c.clone()]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("in crate: a -> b (`crate::b::B`), b -> c (`super::c::make`)"),
        "{found:?}"
    );
    // Without b's path to c, only a's test names c: no cycle.
    let b = file(&["b"], "pub struct B;");
    assert_eq!(cycles(&[root, a, a_test, b, c]), Vec::<String>::new());
}
