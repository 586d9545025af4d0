//! The module layers depend one way only, and no module of `src/` is part of an import circle.
//!
//! This test builds the import graph of every module and submodule in `src/` (one node per file:
//! `src/tree/plan.rs` is `tree::plan`, `src/tree/mod.rs` is `tree`, the CLI's files are `bin` and
//! `bin::args`...). Every `use` tree (grouped ones `use crate::{a, b::c}` and `use super::{x, y}`
//! expanded) and every path in code that starts at `crate::`, `super::`, `self::`, a child module
//! or a name a `use` bound is resolved to the module that defines what it names: through the
//! `use` bindings (public or not) of the modules it passes, so a name re-exported by `lib.rs` or
//! a `mod.rs` counts as a use of the module it comes from, and `super::` inside an inline
//! `mod tests { .. }` counts from that inline module. Comments and string literals are not code.
//!
//! Checks: no circle anywhere (printed with the line behind each step); each top-level module
//! names only the modules its row of the layer table in ARCHITECTURE.md lists (and each it lists),
//! and no item of the crate root; the pure layers touch no files, threads or windows; the render-side modules touch
//! no files and never block on a channel.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// Every file of `src/`: its path relative to `src/` (with `/`) and its text.
fn sources() -> Vec<(String, String)> {
    let src = root().join("src");
    rust_files(&src)
        .into_iter()
        .map(|p| {
            let rel = p.strip_prefix(&src).unwrap();
            let rel: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            (rel.join("/"), std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The layer table: module -> its layer and the crate modules it may name. Read from
/// ARCHITECTURE.md's rows `| <layer> | `module` | `a`, `b` | ... |`.
fn layer_rows() -> BTreeMap<String, (u32, BTreeSet<String>)> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut table = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(layer) = cells.get(1).and_then(|c| c.parse::<u32>().ok()) else {
            continue;
        };
        if cells.len() < 5 {
            continue;
        }
        let names = |cell: &str| -> Vec<String> {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_owned)
                .collect()
        };
        let uses: BTreeSet<String> = names(cells[3]).into_iter().collect();
        for module in names(cells[2]) {
            table.insert(module, (layer, uses.clone()));
        }
    }
    table
}

/// The layer table: module -> the crate modules it may name.
fn layer_table() -> BTreeMap<String, BTreeSet<String>> {
    layer_rows()
        .into_iter()
        .map(|(m, (_, uses))| (m, uses))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Reading Rust source.

/// The source with comments (`//`, `/* */`, nested) and the contents of string and character
/// literals (raw and byte strings too) blanked out; newlines stay, so lines keep their numbers.
fn code_only(source: &str) -> String {
    let b: Vec<char> = source.chars().collect();
    let n = b.len();
    let at = |i: usize| b.get(i).copied().unwrap_or('\0');
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(source.len());
    let mut i = 0;
    while i < n {
        let c = b[i];
        let prev = if i == 0 { ' ' } else { b[i - 1] };
        if c == '/' && at(i + 1) == '/' {
            while i < n && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < n {
                if b[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            continue;
        }
        // Raw strings: r"..", r#".."#, br"..".
        if (c == 'r' || (c == 'b' && at(i + 1) == 'r')) && !ident(prev) {
            let mut j = i + if c == 'b' { 2 } else { 1 };
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) == '"' {
                out.extend(&b[i..=j]);
                i = j + 1;
                while i < n {
                    if b[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                        break;
                    }
                    out.push(blank(b[i]));
                    i += 1;
                }
                out.extend(&b[i..(i + 1 + hashes).min(n)]);
                i += 1 + hashes;
                continue;
            }
        }
        if c == '"' {
            out.push('"');
            i += 1;
            while i < n && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < n {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push('"');
            i += 1;
            continue;
        }
        // Character literals ('x', '\n', '\'', '\u{..}'), not lifetimes ('a).
        if c == '\'' && at(i + 1) == '\\' {
            out.push_str("'  ");
            i += 3;
            while i < n && b[i] != '\'' {
                out.push(' ');
                i += 1;
            }
            out.push('\'');
            i += 1;
            continue;
        }
        if c == '\'' && at(i + 2) == '\'' {
            out.push_str("' '");
            i += 3;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Sep,
    Open,
    Close,
    Comma,
    Semi,
    Star,
    Other(char),
}

/// Tokens of code (from [`code_only`]), each with its line number.
fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(b[start..i].iter().collect()), line));
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push((Tok::Sep, line));
            i += 2;
        } else {
            let t = match c {
                '{' => Tok::Open,
                '}' => Tok::Close,
                ',' => Tok::Comma,
                ';' => Tok::Semi,
                '*' => Tok::Star,
                c => Tok::Other(c),
            };
            out.push((t, line));
            i += 1;
        }
    }
    out
}

/// One path as written: its segments (groups expanded: one path per leaf), the name a `use`
/// binds it to, the inline modules it sits in, and where.
#[derive(Debug, Clone)]
struct PathUse {
    segs: Vec<String>,
    /// The name a `use` item binds (its alias or last segment); `None` in expressions and for globs.
    binds: Option<String>,
    /// A `use` at the file's top level (it binds a name of the file's module).
    top_use: bool,
    /// The inline modules (`mod tests { .. }`) around it, outermost first.
    inline: Vec<String>,
    line: usize,
}

/// A use tree from `toks[*j]`: every leaf path with the name it binds. `self` in a group names
/// the group's prefix.
fn use_tree(toks: &[(Tok, usize)], j: &mut usize) -> Vec<(Vec<String>, Option<String>)> {
    let tok = |j: usize| toks.get(j).map(|t| &t.0);
    let mut prefix: Vec<String> = Vec::new();
    if tok(*j) == Some(&Tok::Sep) {
        *j += 1;
    }
    loop {
        match tok(*j) {
            Some(Tok::Ident(s)) => {
                prefix.push(s.clone());
                *j += 1;
                if tok(*j) == Some(&Tok::Sep) {
                    *j += 1;
                    continue;
                }
                let mut alias = None;
                if tok(*j) == Some(&Tok::Ident("as".into())) {
                    if let Some(Tok::Ident(a)) = tok(*j + 1) {
                        alias = Some(a.clone());
                    }
                    *j += 2;
                }
                if prefix.last().is_some_and(|s| s == "self") && prefix.len() > 1 {
                    prefix.pop();
                }
                let binds = alias.or_else(|| prefix.last().cloned());
                return vec![(prefix, binds)];
            }
            Some(Tok::Star) => {
                *j += 1;
                prefix.push("*".into());
                return vec![(prefix, None)];
            }
            Some(Tok::Open) => {
                *j += 1;
                let mut out = Vec::new();
                while let Some(t) = tok(*j) {
                    match t {
                        Tok::Close => {
                            *j += 1;
                            break;
                        }
                        Tok::Comma => *j += 1,
                        _ => {
                            let before = *j;
                            for (segs, binds) in use_tree(toks, j) {
                                let mut full = prefix.clone();
                                full.extend(segs);
                                out.push((full, binds));
                            }
                            if *j == before {
                                *j += 1;
                            }
                        }
                    }
                }
                return out;
            }
            _ => return vec![(prefix, None)],
        }
    }
}

/// Every path of a file: `use` trees and paths in code (two segments or more).
fn paths(code: &str) -> Vec<PathUse> {
    let toks = tokens(code);
    let tok = |j: usize| toks.get(j).map(|t| &t.0);
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let line = toks[i].1;
        let here = |inline: &Vec<(String, usize)>| inline.iter().map(|m| m.0.clone()).collect();
        match &toks[i].0 {
            Tok::Open => {
                depth += 1;
                i += 1;
            }
            Tok::Close => {
                if inline.last().is_some_and(|m| m.1 == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
                i += 1;
            }
            Tok::Ident(kw) if kw == "mod" => match (tok(i + 1), tok(i + 2)) {
                (Some(Tok::Ident(name)), Some(Tok::Open)) => {
                    depth += 1;
                    inline.push((name.clone(), depth));
                    i += 3;
                }
                _ => i += 1,
            },
            Tok::Ident(kw) if kw == "use" => {
                let mut j = i + 1;
                for (segs, binds) in use_tree(&toks, &mut j) {
                    out.push(PathUse {
                        segs,
                        binds,
                        top_use: depth == 0,
                        inline: here(&inline),
                        line,
                    });
                }
                i = j;
            }
            Tok::Ident(first) if i == 0 || toks[i - 1].0 != Tok::Sep => {
                let mut segs = vec![first.clone()];
                let mut j = i + 1;
                while tok(j) == Some(&Tok::Sep) {
                    match tok(j + 1) {
                        Some(Tok::Ident(s)) => {
                            segs.push(s.clone());
                            j += 2;
                        }
                        Some(Tok::Star) => {
                            segs.push("*".into());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                if segs.len() >= 2 {
                    out.push(PathUse {
                        segs,
                        binds: None,
                        top_use: false,
                        inline: here(&inline),
                        line,
                    });
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The module graph.

/// The module a file is: `lib.rs` -> `` (the crate root), `tree/mod.rs` -> `tree`,
/// `tree/plan.rs` -> `tree::plan`, `bin/<name>/main.rs` -> `bin`, `bin/<name>/args.rs` -> `bin::args`.
fn module_of(rel: &str) -> String {
    let mut parts: Vec<&str> = rel.split('/').collect();
    if parts[0] == "bin" {
        parts.remove(0);
        if parts.len() > 1 {
            parts.remove(0);
        }
        let last = parts.last_mut().unwrap();
        *last = last.trim_end_matches(".rs");
        if matches!(*last, "main" | "mod") {
            parts.pop();
        }
        return std::iter::once("bin")
            .chain(parts)
            .collect::<Vec<_>>()
            .join("::");
    }
    let last = parts.last_mut().unwrap();
    *last = last.trim_end_matches(".rs");
    if matches!(*last, "lib" | "mod") {
        parts.pop();
    }
    parts.join("::")
}

fn segments(module: &str) -> Vec<String> {
    if module.is_empty() {
        Vec::new()
    } else {
        module.split("::").map(str::to_owned).collect()
    }
}

/// The crate root a module belongs to: `` for the library, `bin` for the CLI.
fn crate_root(module: &str) -> &'static str {
    if module == "bin" || module.starts_with("bin::") {
        "bin"
    } else {
        ""
    }
}

fn show(module: &str) -> &str {
    if module.is_empty() { "crate" } else { module }
}

struct Module {
    file: String,
    code: String,
    paths: Vec<PathUse>,
    /// Names its top-level `use` items bind, and the paths they bind (more than one where
    /// `#[cfg]`s choose, as `use on::Replier` / `use off::Replier`).
    bindings: BTreeMap<String, Vec<Vec<String>>>,
}

struct Graph {
    modules: BTreeMap<String, Module>,
    /// from -> to -> the first line behind the edge (`file:line: path`).
    edges: BTreeMap<String, BTreeMap<String, String>>,
}

impl Graph {
    fn new(files: &[(String, String)]) -> Graph {
        let mut modules = BTreeMap::new();
        for (rel, source) in files {
            let code = code_only(source);
            let paths = paths(&code);
            let mut bindings: BTreeMap<String, Vec<Vec<String>>> = BTreeMap::new();
            for p in paths.iter().filter(|p| p.top_use) {
                if let Some(name) = &p.binds {
                    bindings
                        .entry(name.clone())
                        .or_default()
                        .push(p.segs.clone());
                }
            }
            modules.insert(
                module_of(rel),
                Module {
                    file: rel.clone(),
                    code,
                    paths,
                    bindings,
                },
            );
        }
        let mut graph = Graph {
            modules,
            edges: BTreeMap::new(),
        };
        let mut edges: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for (name, m) in &graph.modules {
            for p in &m.paths {
                for to in graph.resolve(name, &p.inline, &p.segs, 0) {
                    if to != *name {
                        edges
                            .entry(name.clone())
                            .or_default()
                            .entry(to)
                            .or_insert_with(|| {
                                format!("src/{}:{}: {}", m.file, p.line, p.segs.join("::"))
                            });
                    }
                }
            }
        }
        graph.edges = edges;
        graph
    }

    /// Whether the file of `module` declares an inline module `name` (`mod name {`).
    fn declares_inline(&self, module: &str, name: &str) -> bool {
        self.modules.get(module).is_some_and(|m| {
            m.code.match_indices("mod ").any(|(at, _)| {
                let rest = m.code[at + 4..].trim_start();
                let before = m.code[..at].chars().next_back();
                before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'))
                    && rest
                        .strip_prefix(name)
                        .is_some_and(|r| r.trim_start().starts_with('{'))
            })
        })
    }

    fn is_module(&self, segs: &[String]) -> bool {
        self.modules.contains_key(&segs.join("::"))
    }

    /// The file module that holds a module path (an inline module is part of its file's).
    fn file_module(&self, segs: &[String]) -> String {
        (0..=segs.len())
            .rev()
            .map(|k| segs[..k].join("::"))
            .find(|m| self.modules.contains_key(m))
            .unwrap_or_default()
    }

    /// The file modules that define what `path`, written in `from` inside the inline modules
    /// `inline`, names (one, or one per `#[cfg]` choice); none for a path out of the crate (or
    /// to a local item).
    fn resolve(&self, from: &str, inline: &[String], path: &[String], hops: usize) -> Vec<String> {
        if hops > 16 || path.is_empty() {
            return Vec::new();
        }
        // Follows the paths a name is bound to, with the rest of `path` after it.
        let through = |module: &str, bound: &[Vec<String>], rest: &[String]| -> Vec<String> {
            let mut out = Vec::new();
            for b in bound {
                let mut full = b.clone();
                full.extend_from_slice(rest);
                if module == from && full == path {
                    continue;
                }
                for t in self.resolve(module, &[], &full, hops + 1) {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
            out
        };
        let here: Vec<String> = segments(from)
            .into_iter()
            .chain(inline.iter().cloned())
            .collect();
        let child = |name: &str| {
            let mut s = segments(from);
            s.push(name.to_owned());
            self.is_module(&s)
        };
        let mut cur: Vec<String>;
        let mut i = 1;
        match path[0].as_str() {
            "crate" => cur = segments(crate_root(from)),
            "winit_automation" if crate_root(from) == "bin" => cur = Vec::new(),
            "self" => cur = here,
            "super" => {
                cur = here;
                cur.pop();
            }
            first if child(first) => {
                cur = segments(from);
                i = 0;
            }
            first if self.declares_inline(from, first) => {
                // An inline module of the file (`mod off { .. }`, then `use off::Replier`): what
                // it defines is the file module's.
                return vec![from.to_owned()];
            }
            first => {
                // A name a top-level `use` of the file bound (`use super::geometry::{self}`, then
                // `geometry::bounds`).
                return match self.modules.get(from).and_then(|m| m.bindings.get(first)) {
                    Some(bound) => through(from, bound, &path[1..]),
                    None => Vec::new(),
                };
            }
        }
        while i < path.len() {
            if path[i] == "super" {
                cur.pop();
            } else if path[i] != "self" {
                let mut next = cur.clone();
                next.push(path[i].clone());
                if !self.is_module(&next) {
                    break;
                }
                cur = next;
            }
            i += 1;
        }
        let module = self.file_module(&cur);
        if i < path.len()
            && segments(&module) == cur
            && let Some(bound) = self
                .modules
                .get(&module)
                .and_then(|m| m.bindings.get(&path[i]))
        {
            return through(&module, bound, &path[i + 1..]);
        }
        vec![module]
    }

    /// Every import circle, each as `a -> b -> .. -> a` with the line behind each step; one per
    /// strongly connected group of modules.
    fn circles(&self) -> Vec<String> {
        let names: Vec<&String> = self.modules.keys().collect();
        let index: BTreeMap<&String, usize> =
            names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
        let next: Vec<Vec<usize>> = names
            .iter()
            .map(|n| {
                self.edges
                    .get(*n)
                    .into_iter()
                    .flat_map(|e| e.keys())
                    .filter_map(|t| index.get(t).copied())
                    .collect()
            })
            .collect();
        // Tarjan's strongly connected components, iteratively.
        let n = names.len();
        let (mut idx, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
        let (mut stack, mut groups, mut counter) = (Vec::new(), Vec::new(), 0);
        for s in 0..n {
            if idx[s] != usize::MAX {
                continue;
            }
            let mut work = vec![(s, 0usize)];
            while let Some(top) = work.last_mut() {
                let v = top.0;
                if top.1 == 0 && idx[v] == usize::MAX {
                    idx[v] = counter;
                    low[v] = counter;
                    counter += 1;
                    stack.push(v);
                    on[v] = true;
                }
                if let Some(&w) = next[v].get(top.1) {
                    top.1 += 1;
                    if idx[w] == usize::MAX {
                        work.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(idx[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == idx[v] {
                    let mut group = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        group.push(w);
                        if w == v {
                            break;
                        }
                    }
                    if group.len() > 1 {
                        groups.push(group);
                    }
                }
            }
        }
        let mut out = Vec::new();
        for group in groups {
            let inside: BTreeSet<usize> = group.iter().copied().collect();
            let start = *inside.iter().next().unwrap();
            // The shortest way from `start` back to it inside the group.
            let mut came: BTreeMap<usize, usize> = BTreeMap::new();
            let mut queue = VecDeque::from([start]);
            let mut last = None;
            'bfs: while let Some(v) = queue.pop_front() {
                for &w in &next[v] {
                    if w == start {
                        last = Some(v);
                        break 'bfs;
                    }
                    if inside.contains(&w) && !came.contains_key(&w) {
                        came.insert(w, v);
                        queue.push_back(w);
                    }
                }
            }
            let mut between = Vec::new();
            let mut v = last.unwrap();
            while v != start {
                between.push(v);
                v = came[&v];
            }
            between.reverse();
            let cycle: Vec<usize> = std::iter::once(start)
                .chain(between)
                .chain([start])
                .collect();
            let text: Vec<&str> = cycle.iter().map(|&v| show(names[v])).collect();
            let mut msg = format!("import circle: {}", text.join(" -> "));
            for pair in cycle.windows(2) {
                let why = &self.edges[names[pair[0]]][names[pair[1]]];
                msg.push_str(&format!(
                    "\n    {} -> {}: {why}",
                    show(names[pair[0]]),
                    show(names[pair[1]])
                ));
            }
            if group.len() > 2 {
                let mut all: Vec<&str> = group.iter().map(|&v| show(names[v])).collect();
                all.sort_unstable();
                msg.push_str(&format!("\n    (all in this circle: {})", all.join(", ")));
            }
            out.push(msg);
        }
        out.sort();
        out
    }

    /// Every use of a module the layer table does not allow, as `file: ...`.
    fn violations(&self, table: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        let top = |m: &str| m.split("::").next().unwrap_or("").to_owned();
        let mut out = Vec::new();
        for (name, m) in &self.modules {
            if name.is_empty() {
                continue;
            }
            let module = top(name);
            let Some(allowed) = table.get(&module) else {
                out.push(format!(
                    "src/{}: module `{module}` has no row in ARCHITECTURE.md",
                    m.file
                ));
                continue;
            };
            for (to, why) in self.edges.get(name).into_iter().flatten() {
                let named = top(to);
                if to.is_empty() {
                    out.push(format!(
                        "{why}: `{module}` names an item of the crate root; move it into a module"
                    ));
                } else if named != module && !allowed.contains(&named) {
                    out.push(format!("{why}: `{module}` names `{named}`"));
                }
            }
        }
        out
    }

    /// The allowances of `table` that no file of their module uses.
    fn unused_allowances(&self, table: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
        let top = |m: &str| m.split("::").next().unwrap_or("").to_owned();
        let mut out = Vec::new();
        for (module, allowed) in table {
            let named: BTreeSet<String> = self
                .edges
                .iter()
                .filter(|(from, _)| top(from) == *module)
                .flat_map(|(_, to)| to.keys().map(|t| top(t)))
                .collect();
            for a in allowed.difference(&named) {
                out.push(format!("`{module}` may use `{a}` and names nothing of it"));
            }
        }
        out
    }

    /// The files of `module` and its submodules.
    fn files_of<'a>(&'a self, module: &'a str) -> impl Iterator<Item = &'a Module> + 'a {
        self.modules
            .iter()
            .filter(move |(n, _)| *n == module || n.starts_with(&format!("{module}::")))
            .map(|(_, m)| m)
    }

    /// Paths of the files of `module` (groups expanded) that start with one of `forbidden`.
    fn names_any(&self, module: &str, forbidden: &[&[&str]]) -> Vec<String> {
        let mut out = Vec::new();
        for m in self.files_of(module) {
            for p in &m.paths {
                if forbidden
                    .iter()
                    .any(|f| p.segs.len() >= f.len() && p.segs[..f.len()] == **f)
                {
                    out.push(format!("src/{}:{}: {}", m.file, p.line, p.segs.join("::")));
                }
            }
        }
        out
    }

    /// What a render-side module must not do: touch files or wait on a channel.
    fn blocking_or_files(&self, module: &str) -> Vec<String> {
        let mut out = Vec::new();
        for m in self.files_of(module) {
            let at = |line: usize, what: &str| format!("src/{}:{line}: {what}", m.file);
            for p in &m.paths {
                if let Some(s) = p
                    .segs
                    .iter()
                    .find(|s| matches!(s.as_str(), "fs" | "File" | "OpenOptions"))
                {
                    out.push(at(
                        p.line,
                        &format!("{} (`{s}`: the file system)", p.segs.join("::")),
                    ));
                }
            }
            let toks = tokens(&m.code);
            for (i, (t, line)) in toks.iter().enumerate() {
                let Tok::Ident(name) = t else { continue };
                let method = i >= 1
                    && toks[i - 1].0 == Tok::Other('.')
                    && toks.get(i + 1).is_some_and(|t| t.0 == Tok::Other('('));
                let receiver = (i >= 2).then(|| &toks[i - 2].0);
                match name.as_str() {
                    "File" | "OpenOptions"
                        if toks.get(i + 1).is_none_or(|t| t.0 != Tok::Sep)
                            && toks[i.saturating_sub(1)].0 != Tok::Sep =>
                    {
                        out.push(at(*line, &format!("{name} (the file system)")));
                    }
                    "recv" | "recv_timeout" | "recv_deadline" if method => {
                        out.push(at(*line, &format!(".{name}( (a blocking channel receive)")));
                    }
                    // A send on the crate's `Replier` (held as `replier`) only ever `try_send`s;
                    // any other `.send(` is a channel send that may block.
                    "send" | "send_timeout" | "send_deadline"
                        if method && receiver != Some(&Tok::Ident("replier".into())) =>
                    {
                        out.push(at(
                            *line,
                            &format!(".{name}( (a blocking channel send; use try_send)"),
                        ));
                    }
                    _ => {}
                }
            }
        }
        out
    }
}

fn real_graph() -> Graph {
    let files = sources();
    assert!(files.len() >= 30, "src/ moved: {}", files.len());
    Graph::new(&files)
}

// ---------------------------------------------------------------------------------------------
// The checks.

#[test]
fn no_module_is_part_of_an_import_circle() {
    let circles = real_graph().circles();
    assert!(circles.is_empty(), "\n{}\n", circles.join("\n"));
}

#[test]
fn every_module_names_only_the_modules_its_layer_allows() {
    let table = layer_table();
    assert!(
        table.len() >= 12,
        "the layer table moved or shrank: {table:?}"
    );
    let found = real_graph().violations(&table);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn every_allowance_of_the_layer_table_is_used() {
    // A row that allows more than its module names hides the next wrong import: the table is
    // kept to what the code needs.
    let table = layer_table();
    let graph = real_graph();
    let unused = graph.unused_allowances(&table);
    assert!(unused.is_empty(), "{unused:#?}");
}

#[test]
fn the_layer_table_lists_only_lower_layers() {
    let rows = layer_rows();
    let mut found = Vec::new();
    for (module, (layer, uses)) in &rows {
        for used in uses {
            match rows.get(used) {
                None => found.push(format!("`{module}` may use `{used}`, which has no row")),
                Some((l, _)) if l >= layer => found.push(format!(
                    "`{module}` (layer {layer}) may use `{used}` (layer {l}): not a lower layer"
                )),
                Some(_) => {}
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

const WINDOWING: &[&[&str]] = &[&["winit"], &["wgpu"], &["accesskit_winit"]];
const IO_AND_THREADS: &[&[&str]] = &[
    &["std", "fs"],
    &["std", "thread"],
    &["std", "net"],
    &["std", "process"],
    &["crossbeam_channel"],
    &["notify"],
];

#[test]
fn the_pure_layers_touch_no_files_threads_or_windows() {
    let graph = real_graph();
    for module in ["protocol", "tree", "widget", "service::jobs"] {
        let forbidden: Vec<&[&str]> = WINDOWING.iter().chain(IO_AND_THREADS).copied().collect();
        let found = graph.names_any(module, &forbidden);
        assert!(found.is_empty(), "{module}: {found:#?}");
    }
    // What the app says of its windows may be read off a winit window, but is plain data.
    let found = graph.names_any("window", IO_AND_THREADS);
    assert!(found.is_empty(), "window: {found:#?}");
}

#[test]
fn the_dropbox_client_service_link_and_cli_know_no_window_system() {
    let graph = real_graph();
    for module in ["dropbox", "client", "service", "bin", "link"] {
        let found = graph.names_any(module, WINDOWING);
        assert!(found.is_empty(), "{module}: {found:#?}");
    }
}

/// The modules that run on the render thread (the app's frame loop).
const RENDER_SIDE: &[&str] = &[
    "render",
    "capture",
    "input",
    "automation",
    "egui",
    "imp",
    "frame",
    "later",
    "present",
];

/// The rule: no path naming `fs`, `File` or `OpenOptions` (`use std::{fs, io}` read as
/// `std::fs`), no `File`/`OpenOptions` identifier, no `.recv(`, `.recv_timeout(`,
/// `.recv_deadline(`, and no `.send(` (or `.send_timeout(`) except directly on a `replier` (the
/// crate's `Replier`, which only `try_send`s). `try_send`, `try_recv` and `.lock()` are allowed.
#[test]
fn the_render_side_touches_no_files_and_never_blocks_on_a_channel() {
    let graph = real_graph();
    let mut found = Vec::new();
    for module in RENDER_SIDE {
        found.extend(graph.blocking_or_files(module));
    }
    assert!(found.is_empty(), "{found:#?}");
}

// ---------------------------------------------------------------------------------------------
// Positive controls: the checker finds what it looks for.

/// What `found` holds that `before` does not: what a plant added, whatever the real tree holds.
fn added(found: Vec<String>, before: &[String]) -> Vec<String> {
    found.into_iter().filter(|f| !before.contains(f)).collect()
}

/// The real files plus `planted` ones (which replace real files of the same path).
fn with(planted: &[(&str, &str)]) -> Graph {
    let mut files: BTreeMap<String, String> = sources().into_iter().collect();
    for (path, text) in planted {
        files.insert((*path).to_owned(), (*text).to_owned());
    }
    Graph::new(&files.into_iter().collect::<Vec<_>>())
}

#[test]
fn positive_control_paths_are_read_and_resolved() {
    // Comments and strings are not code; groups expand; aliases bind.
    let code = code_only(
        "use crate::{link::{Order, Reply as R}, protocol}; // crate::render\n\
         let s = \"crate::client // not a comment\"; let c = '\"'; let r = r#\"crate::dropbox\"#;\n\
         /* crate::service /* nested */ */ let x = crate::tree::plan::Plan::new();",
    );
    let p = paths(&code);
    let all: Vec<String> = p.iter().map(|p| p.segs.join("::")).collect();
    assert_eq!(
        all,
        [
            "crate::link::Order",
            "crate::link::Reply",
            "crate::protocol",
            "crate::tree::plan::Plan::new"
        ],
        "{code}"
    );
    assert_eq!(p[1].binds.as_deref(), Some("R"));
    let graph = real_graph();
    let resolve = |from: &str, path: &str| graph.resolve(from, &[], &segments(path), 0).pop();
    // Root re-exports resolve to the module that defines the name; so do a mod.rs's.
    assert_eq!(
        resolve("service", "crate::WindowState").as_deref(),
        Some("window")
    );
    assert_eq!(
        resolve("service", "crate::Automation").as_deref(),
        Some("automation")
    );
    assert_eq!(
        resolve("service", "crate::link::Plan").as_deref(),
        Some("link::plan")
    );
    assert_eq!(
        resolve("tree::plan", "super::live::Live").as_deref(),
        Some("tree::live")
    );
    // `super::` from a mod.rs is the crate root; from a leaf file, its own module's mod.rs.
    assert_eq!(
        resolve("tree", "super::protocol::Target").as_deref(),
        Some("protocol::target")
    );
    assert_eq!(
        resolve("tree::format", "super::Trees").as_deref(),
        Some("tree")
    );
    // A child module named bare, and std out of the crate.
    assert_eq!(
        resolve("tree", "format::View").as_deref(),
        Some("tree::format")
    );
    assert_eq!(resolve("tree", "std::fmt::Write"), None);
    // Inside an inline module, `super::` counts from it.
    let inline = graph.resolve(
        "tree::plan",
        &["tests".into()],
        &segments("super::super::Trees"),
        0,
    );
    assert_eq!(inline, ["tree"]);
    // A name bound twice under `#[cfg]`s names both.
    let graph = with(&[
        (
            "imp.rs",
            "#[cfg(a)]\nmod on;\n#[cfg(not(a))]\nmod off;\n#[cfg(a)]\npub(crate) use on::R;\n#[cfg(not(a))]\npub(crate) use off::R;\n",
        ),
        ("imp/on.rs", "pub(crate) use crate::link::Replier as R;\n"),
        ("imp/off.rs", "pub(crate) struct R;\n"),
    ]);
    assert_eq!(
        graph.resolve("input", &[], &segments("crate::imp::R"), 0),
        ["link", "imp::off"]
    );
    // A name bound into an inline module of its file is that file's.
    let graph = with(&[(
        "imp/probe.rs",
        "#[cfg(a)]\npub(crate) use crate::link::R;\n#[cfg(not(a))]\npub(crate) use off::R;\n\
         #[cfg(not(a))]\nmod off {\n    pub(crate) enum R {}\n}\n",
    )]);
    assert_eq!(
        graph.resolve("input", &[], &segments("crate::imp::probe::R"), 0),
        ["link", "imp::probe"]
    );
    // The CLI: `crate::` is its own root, the library is `winit_automation`.
    assert_eq!(
        resolve("bin::script", "crate::exit::EXIT_OK").as_deref(),
        Some("bin::exit")
    );
    assert_eq!(
        resolve("bin", "winit_automation::protocol::Command").as_deref(),
        Some("protocol::command")
    );
}

#[test]
fn positive_control_a_planted_circle_is_found() {
    let graph = with(&[
        ("tree/a.rs", "use super::b::B;\npub(crate) struct A;\n"),
        (
            "tree/b.rs",
            "use super::{a::A, geometry};\npub(crate) struct B;\n",
        ),
        // Through `crate::` paths in code and a grouped import three modules long.
        ("protocol/p1.rs", "fn f() { crate::protocol::p2::g() }\n"),
        (
            "protocol/p2.rs",
            "use crate::{protocol::{p3::H}};\npub fn g() {}\n",
        ),
        (
            "protocol/p3.rs",
            "pub struct H;\nfn f() { let _ = super::p1::f; }\n",
        ),
    ]);
    let circles = added(graph.circles(), &real_graph().circles());
    assert_eq!(circles.len(), 2, "{circles:#?}");
    assert!(
        circles[1].starts_with("import circle: tree::a -> tree::b -> tree::a\n"),
        "{}",
        circles[1]
    );
    assert!(
        circles[1].contains("src/tree/b.rs:1: super::a::A"),
        "{}",
        circles[1]
    );
    assert!(
        circles[0].starts_with(
            "import circle: protocol::p1 -> protocol::p2 -> protocol::p3 -> protocol::p1\n"
        ),
        "{}",
        circles[0]
    );
    // A module naming its parent's `Trees` while the parent names it back is a circle too.
    let graph = with(&[
        ("tree/c.rs", "use super::Trees;\n"),
        ("tree/mod.rs", "use c::X;\n"),
    ]);
    let circles = added(graph.circles(), &real_graph().circles());
    assert!(
        circles
            .iter()
            .any(|c| c.contains("tree -> tree::c -> tree")),
        "{circles:#?}"
    );
}

#[test]
fn positive_control_a_layer_violation_is_found() {
    let table = layer_table();
    assert!(!table["protocol"].contains("tree") && !table["tree"].contains("service"));
    assert!(
        !table["link"].contains("tree"),
        "link names nothing of tree"
    );
    // An allowance nobody uses is found.
    let mut loose = table.clone();
    loose
        .get_mut("widget")
        .unwrap()
        .insert("protocol".to_owned());
    assert_eq!(
        real_graph().unused_allowances(&loose),
        ["`widget` may use `protocol` and names nothing of it"]
    );
    let graph = with(&[("protocol/probe.rs", "use crate::{tree::Trees, service};\n")]);
    let before = real_graph().violations(&table);
    let found = added(graph.violations(&table), &before);
    assert_eq!(found.len(), 2, "{found:?}");
    // An item of the crate root (a helper in lib.rs) is named by nobody.
    let graph = with(&[
        ("lib.rs", "mod tree;\npub(crate) fn helper() {}\n"),
        ("tree/probe.rs", "fn f() { crate::helper() }\n"),
    ]);
    let found = added(graph.violations(&table), &before);
    assert!(
        found
            .iter()
            .any(|f| f.contains("names an item of the crate root")),
        "{found:?}"
    );
}

#[test]
fn positive_control_files_and_blocking_calls_on_the_render_side_are_found() {
    let graph = with(&[(
        "render/probe.rs",
        "use std::{fs, io::Write};\n\
         fn f(rx: Receiver<u8>, tx: Sender<u8>) {\n\
         let _ = rx.recv();\n\
         let _ = rx.recv_timeout(D);\n\
         tx.send(1).unwrap();\n\
         self.replier\n    .send(1, verb, Ok(s));\n\
         let _ = tx.try_send(1);\n\
         let f = File::create(p);\n\
         }\n",
    )]);
    let found = graph.blocking_or_files("render");
    let probe: Vec<&String> = found.iter().filter(|f| f.contains("probe.rs")).collect();
    assert_eq!(probe.len(), 5, "{probe:#?}");
    assert!(probe[0].contains("probe.rs:1: std::fs"), "{probe:#?}");
    assert!(probe.iter().any(|f| f.contains(":3: .recv(")), "{probe:#?}");
    assert!(
        probe.iter().any(|f| f.contains(":4: .recv_timeout(")),
        "{probe:#?}"
    );
    assert!(probe.iter().any(|f| f.contains(":5: .send(")), "{probe:#?}");
    assert!(
        probe.iter().any(|f| f.contains(":9: File::create")),
        "{probe:#?}"
    );
    // The pure layers' check reads groups too, and the drop-box does touch files.
    let graph = with(&[("tree/probe.rs", "use std::{thread, fs};\n")]);
    assert_eq!(graph.names_any("tree", IO_AND_THREADS).len(), 2);
    assert!(
        !real_graph()
            .names_any("dropbox", &[&["std", "fs"]])
            .is_empty()
    );
}
