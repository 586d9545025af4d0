//! The module layers depend one way only. This test reads every `use` and every `crate::` path of
//! every file in `src/` (grouped imports `use crate::{a, b::c}` too, and names re-exported at the
//! crate root resolved to the module that defines them) and checks each against the layer table
//! in ARCHITECTURE.md: a module may name only the modules its row lists. The pure layers are also
//! checked for what they must not touch outside the crate (files, threads, the window system).

use std::collections::{BTreeMap, BTreeSet};
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

/// The layer table: module -> the crate modules it may name. Read from ARCHITECTURE.md's rows
/// `| <layer> | `module` | `a`, `b` | ... |`.
fn layer_table() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut table = BTreeMap::new();
    for line in text.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[1].parse::<u32>().is_err() {
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
            table.insert(module, uses.clone());
        }
    }
    table
}

/// Code without comments: `//` to the end of the line, outside string literals.
fn strip_comments(source: &str) -> String {
    let mut out = String::with_capacity(source.len());
    for line in source.lines() {
        let mut in_str = false;
        let mut prev = ' ';
        let mut cut = line.len();
        for (i, c) in line.char_indices() {
            if c == '"' && prev != '\\' {
                in_str = !in_str;
            }
            if !in_str && c == '/' && prev == '/' {
                cut = i - 1;
                break;
            }
            prev = c;
        }
        out.push_str(&line[..cut]);
        out.push('\n');
    }
    out
}

/// The first path segment of every path that starts with `prefix` (`crate::`), grouped imports
/// expanded: `crate::{a::b, c}` names `a` and `c`.
fn paths_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        // Only whole path starts: not `my_crate::`.
        let before = rest[..i].chars().last();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let end = group
                .char_indices()
                .find(|&(_, c)| {
                    depth += match c {
                        '{' => 1,
                        '}' => -1,
                        _ => 0,
                    };
                    depth == 0
                })
                .map_or(group.len(), |(i, _)| i);
            let mut depth = 0;
            let mut start = 0;
            let inner = &group[..end];
            for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let item = inner[start..i].trim();
                        let first: String = item
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        if !first.is_empty() {
                            out.push(first);
                        }
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            let first: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !first.is_empty() {
                out.push(first);
            }
        }
    }
    out
}

/// Names re-exported at the crate root (`pub use module::{A, B}` in lib.rs) -> their module.
fn root_reexports() -> BTreeMap<String, String> {
    let lib = strip_comments(&std::fs::read_to_string(root().join("src/lib.rs")).unwrap());
    let mut out = BTreeMap::new();
    for stmt in lib.split(';') {
        let Some(rest) = stmt.find("pub use ").map(|i| &stmt[i + "pub use ".len()..]) else {
            continue;
        };
        let Some((module, names)) = rest.split_once("::") else {
            continue;
        };
        for name in names.split([',', '{', '}']).map(str::trim) {
            if !name.is_empty() {
                out.insert(name.to_owned(), module.trim().to_owned());
            }
        }
    }
    out
}

/// The crate modules a source text names, re-exports resolved. `top_level`: the file is a
/// module's root (`src/x.rs`, `src/x/mod.rs`), where `super::` is the crate root.
fn modules_named(source: &str, top_level: bool, extern_name: Option<&str>) -> BTreeSet<String> {
    let code = strip_comments(source);
    let reexports = root_reexports();
    let mut prefixes = vec!["crate::".to_owned()];
    if top_level {
        prefixes.push("super::".to_owned());
    }
    if let Some(name) = extern_name {
        prefixes.push(format!("{name}::"));
    }
    prefixes
        .iter()
        .flat_map(|p| paths_after(&code, p))
        .filter_map(|first| match reexports.get(&first) {
            Some(module) => Some(module.clone()),
            // A root item that is not a module (a helper function in lib.rs).
            None if first.chars().next().is_some_and(char::is_uppercase) => None,
            None if first == "panic_message" => None,
            None => Some(first),
        })
        .collect()
}

/// The module a file belongs to: `src/tree/plan.rs` -> `tree`, `src/bin/...` -> `bin`.
fn module_of(path: &Path) -> (String, bool) {
    let rel = path.strip_prefix(root().join("src")).unwrap();
    let parts: Vec<_> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let module = parts[0].trim_end_matches(".rs").to_owned();
    let top_level = parts.len() == 1 || (parts.len() == 2 && parts[1] == "mod.rs");
    (module, top_level)
}

/// Every use of a module the layer table does not allow, as `file: module`.
fn violations(
    table: &BTreeMap<String, BTreeSet<String>>,
    files: &[(PathBuf, String)],
) -> Vec<String> {
    let mut out = Vec::new();
    for (path, source) in files {
        let (module, top_level) = module_of(path);
        if module == "lib" {
            continue;
        }
        let Some(allowed) = table.get(&module) else {
            out.push(format!(
                "{}: module `{module}` has no row in ARCHITECTURE.md",
                path.display()
            ));
            continue;
        };
        let extern_name = (module == "bin").then_some("winit_automation");
        for named in modules_named(source, top_level, extern_name) {
            if named != module && !allowed.contains(&named) {
                out.push(format!("{}: `{module}` names `{named}`", path.display()));
            }
        }
    }
    out
}

#[test]
fn every_module_names_only_the_modules_its_layer_allows() {
    let table = layer_table();
    assert!(
        table.len() >= 12,
        "the layer table moved or shrank: {table:?}"
    );
    let files: Vec<(PathBuf, String)> = rust_files(&root().join("src"))
        .into_iter()
        .map(|p| {
            let source = std::fs::read_to_string(&p).unwrap();
            (p, source)
        })
        .collect();
    assert!(files.len() >= 30, "src/ moved: {}", files.len());
    let found = violations(&table, &files);
    assert!(found.is_empty(), "{found:#?}");
}

/// What the pure layers must not touch outside the crate, in code (comments are skipped).
fn external_uses(dir: &str, forbidden: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let path = root().join("src").join(dir);
    let files = if path.is_dir() {
        rust_files(&path)
    } else {
        vec![path.with_extension("rs")]
    };
    for file in files {
        let code = strip_comments(&std::fs::read_to_string(&file).unwrap());
        for f in forbidden {
            if code.contains(f) {
                out.push(format!("{}: {f}", file.display()));
            }
        }
    }
    out
}

const WINDOWING: &[&str] = &["winit::", "wgpu::", "accesskit_winit"];
const IO_AND_THREADS: &[&str] = &[
    "std::fs",
    "std::thread",
    "std::net",
    "std::process",
    "crossbeam",
    "notify::",
];

#[test]
fn the_pure_layers_touch_no_files_threads_or_windows() {
    for dir in ["protocol", "tree", "widget", "service/jobs"] {
        let mut forbidden = WINDOWING.to_vec();
        forbidden.extend_from_slice(IO_AND_THREADS);
        let found = external_uses(dir, &forbidden);
        assert!(found.is_empty(), "{dir}: {found:#?}");
    }
}

#[test]
fn the_dropbox_client_service_and_cli_know_no_window_system() {
    for dir in ["dropbox", "client", "service", "bin", "link"] {
        let found = external_uses(dir, WINDOWING);
        assert!(found.is_empty(), "{dir}: {found:#?}");
    }
}

#[test]
fn positive_control_the_checks_find_what_they_look_for() {
    // Plain, grouped and nested grouped imports, and paths in expressions.
    let source = "use crate::tree::Trees;\nuse crate::{link::{Order, Reply}, protocol};\n\
                  let x = crate::service::start(); // crate::render in a comment\n\
                  let s = \"crate::client in a string // not a comment\";";
    let named = modules_named(source, false, None);
    assert!(named.contains("tree") && named.contains("link") && named.contains("protocol"));
    assert!(named.contains("service"));
    assert!(!named.contains("render"), "comments are skipped: {named:?}");
    // Root re-exports resolve to their module; `super::` counts at a module's root only.
    assert!(modules_named("use crate::Automation;", false, None).contains("automation"));
    assert!(modules_named("use super::Widget;", true, None).contains("widget"));
    assert!(modules_named("use super::jobs::Job;", false, None).is_empty());
    // A lower layer naming a higher one is caught, on the real table.
    let table = layer_table();
    assert!(!table["protocol"].contains("tree") && !table["tree"].contains("service"));
    let probe = vec![(
        root().join("src/protocol/probe.rs"),
        "use crate::{tree::Trees, service};\n".to_owned(),
    )];
    let found = violations(&table, &probe);
    assert_eq!(found.len(), 2, "{found:?}");
    // And on real files: the glue does use the layers below it, the drop-box the file system.
    let render = std::fs::read_to_string(root().join("src/render.rs")).unwrap();
    assert!(modules_named(&render, true, None).contains("link"));
    assert!(!external_uses("dropbox", &["std::fs"]).is_empty());
}
