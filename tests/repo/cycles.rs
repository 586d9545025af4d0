//! No import cycle inside any crate. Within each module, its child modules (a file, or a folder
//! with its children) form a graph: an edge from child A to child B when code in A's subtree names
//! an item in B's subtree (`use crate::...`, `super::...`, a path in an expression or a type, or
//! in a macro's arguments), followed through re-exports and imports (`crate::Replier`, where the
//! root only imports `wiring::Replier`, names `wiring`).
//! That graph has no cycle, at every level of every crate, so each module can be read knowing only
//! the ones below it. A child naming its parent's own items (`use super::Service`) is not an edge:
//! the parent is not one of the siblings. Tests (`#[cfg(test)]`, `#[test]`) are left out, and so
//! are method calls (an `impl` of a parent's type in a child file is a parent-child edge).

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
    /// The names `use` brings in, by the inline module they are brought into: name -> path.
    imports: Vec<(Vec<String>, String, Vec<String>)>,
    /// Child modules declared for tests only (`#[cfg(test)] mod tests;`): their files are left out.
    test_children: Vec<String>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg") && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
    })
}

/// Each path a `use` names, with the name it brings in (`None` for a glob).
fn flatten(
    tree: &syn::UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let path = |prefix: &[String], last: &syn::Ident| [prefix, &[last.to_string()]].concat();
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) if n.ident == "self" => {
            out.push((prefix.clone(), prefix.last().cloned()));
        }
        syn::UseTree::Name(n) => out.push((path(prefix, &n.ident), Some(n.ident.to_string()))),
        syn::UseTree::Rename(r) => out.push((path(prefix, &r.ident), Some(r.rename.to_string()))),
        syn::UseTree::Glob(_) => out.push((prefix.clone(), None)),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| flatten(t, prefix, out)),
    }
}

/// The paths that start with `crate`, `super` or `self` in a macro's tokens (`format!` and the
/// like keep their arguments as tokens).
fn macro_paths(tokens: proc_macro2::TokenStream, out: &mut Vec<Vec<String>>) {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let is_colon =
        |t: Option<&TokenTree>| matches!(t, Some(TokenTree::Punct(p)) if p.as_char() == ':');
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Group(g) => macro_paths(g.stream(), out),
            TokenTree::Ident(id)
                if ["crate", "super", "self"].contains(&id.to_string().as_str()) =>
            {
                let mut path = vec![id.to_string()];
                // `::` is two `:` puncts; then the next identifier.
                while is_colon(tokens.get(i + 1)) && is_colon(tokens.get(i + 2)) {
                    let Some(TokenTree::Ident(next)) = tokens.get(i + 3) else {
                        break;
                    };
                    path.push(next.to_string());
                    i += 3;
                }
                if path.len() > 1 {
                    out.push(path);
                }
            }
            _ => {}
        }
        i += 1;
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
        for (path, name) in paths {
            if let Some(name) = name {
                self.imports.push((self.inline.clone(), name, path.clone()));
            }
            self.found.push((self.inline.clone(), path));
        }
    }
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut paths = Vec::new();
        macro_paths(m.tokens.clone(), &mut paths);
        for path in paths {
            self.found.push((self.inline.clone(), path));
        }
        syn::visit::visit_macro(self, m);
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        let path = p.segments.iter().map(|s| s.ident.to_string()).collect();
        self.found.push((self.inline.clone(), path));
        syn::visit::visit_path(self, p);
    }
}

/// A crate's modules and the names each brings in with `use`.
struct Modules {
    known: BTreeSet<ModPath>,
    imports: BTreeMap<(ModPath, String), Vec<String>>,
}

impl Modules {
    /// The module `path` names, said from module `from`, through the imports and re-exports it
    /// meets; `None` for a path out of the crate or a local name.
    fn resolve(&self, from: &[String], path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 8 {
            return None;
        }
        let (mut base, mut rest) = match path.first()?.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "super" | "self" => (from.to_vec(), path),
            first => {
                let key = (from.to_vec(), first.to_owned());
                if let Some(imported) = self.imports.get(&key).filter(|i| i[..] != path[..1]) {
                    let whole = [imported.as_slice(), &path[1..]].concat();
                    return self.resolve(from, &whole, depth + 1);
                }
                // A child module named without `self::` (a uniform path).
                let child = [from, &path[..1]].concat();
                if !self.known.contains(&child) {
                    return None;
                }
                (child, &path[1..])
            }
        };
        while let Some(first) = rest.first() {
            match first.as_str() {
                "super" => drop(base.pop()),
                "self" => {}
                _ => break,
            }
            rest = &rest[1..];
        }
        for (i, segment) in rest.iter().enumerate() {
            base.push(segment.clone());
            if self.known.contains(&base) {
                continue;
            }
            base.pop();
            // An item the module only imports or re-exports: where it comes from.
            let key = (base.clone(), segment.clone());
            if let Some(imported) = self.imports.get(&key) {
                let whole = [imported.as_slice(), &rest[i + 1..]].concat();
                if let Some(found) = self.resolve(&base, &whole, depth + 1) {
                    return Some(found);
                }
            }
            break;
        }
        Some(base)
    }
}

/// Every cycle among sibling modules of one crate, given each file's module path and source, as
/// `a -> b -> a` under the modules' parent.
pub(crate) fn cycles(files: &[(ModPath, String)]) -> Vec<String> {
    let mut modules = Modules {
        known: files.iter().map(|(p, _)| p.clone()).collect(),
        imports: BTreeMap::new(),
    };
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
        for (inline, name, path) in &paths.imports {
            let into = [module.clone(), inline.clone()].concat();
            let key = (into, name.clone());
            modules.imports.entry(key).or_insert_with(|| path.clone());
        }
        parsed.push((module, paths));
    }
    parsed.retain(|(module, _)| !tests.iter().any(|t| module.starts_with(t)));
    for (module, paths) in parsed {
        for (inline, path) in &paths.found {
            let from = [module.clone(), inline.clone()].concat();
            let Some(to) = modules.resolve(&from, path, 0) else {
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

/// A file of a self-test's crate: its module path and source.
fn file(path: &[&str], source: &str) -> (ModPath, String) {
    (
        path.iter().map(|s| s.to_string()).collect(),
        source.to_owned(),
    )
}

#[test]
fn a_cycle_through_siblings_is_found_and_neither_a_parent_nor_a_test_makes_one() {
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

#[test]
fn a_cycle_through_a_re_export_or_a_macro_is_found() {
    let root = file(&[], "mod a; mod b; use a::Thing;");
    let a = file(
        &["a"],
        "pub struct Thing; pub const N: u8 = 1; fn f() { crate::b::g(); }",
    );
    // b names a only through the root's import of `a::Thing`.
    let b = file(&["b"], "pub fn g() -> Option<crate::Thing> { None }");
    let found = cycles(&[root.clone(), a.clone(), b]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("b -> a (`crate::Thing`)"), "{found:?}");
    // b names a only inside a macro's arguments.
    let b = file(&["b"], r#"pub fn g() { println!("{}", super::a::N); }"#);
    let found = cycles(&[root.clone(), a.clone(), b]);
    assert!(found[0].contains("b -> a (`super::a::N`)"), "{found:?}");
    // b names nothing of a: no cycle.
    let b = file(&["b"], "pub fn g() {}");
    assert_eq!(cycles(&[root, a, b]), Vec::<String>::new());
}
