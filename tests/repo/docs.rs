//! The README's integration sketch is `crates/winit-automation/examples/minimal.rs`: its code block is excerpts of that
//! file, word for word, separated by `// ...` lines. This test fails when an excerpt no longer
//! appears in the file (the example changed and the README did not, or the other way round).

use crate::read;
use std::path::Path;

/// A line of the block that stands for left-out code; what follows `// ...` on it says what.
const ELISION: &str = "// ...";
/// The model integration, an example of the app-facing crate.
const MINIMAL: &str = "crates/winit-automation/examples/minimal.rs";

/// The first ```rust code block under `## Integration sketch`.
fn sketch(readme: &str) -> &str {
    let section = &readme[readme
        .find("\n## Integration sketch")
        .expect("README.md has an \"Integration sketch\" section")..];
    let start = section.find("```rust").expect("a rust block in the sketch");
    let body = &section[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    &body[..body.find("\n```").expect("the block's closing fence") + 1]
}

/// The excerpts of `block`: runs of lines between elision lines, each at least one line.
fn excerpts(block: &str) -> Vec<Vec<&str>> {
    let mut excerpts = vec![Vec::new()];
    for line in block.lines() {
        if line.trim_start().starts_with(ELISION) {
            excerpts.push(Vec::new());
        } else {
            excerpts.last_mut().unwrap().push(line);
        }
    }
    excerpts.retain(|e| !e.is_empty());
    excerpts
}

/// The excerpts of `block` that are not a run of consecutive lines of `file`. Indentation is not
/// compared: the README shows each excerpt flush left, however deep it sits in the file.
fn drifted<'a>(block: &'a str, file: &str) -> Vec<Vec<&'a str>> {
    let file: Vec<&str> = file.lines().map(str::trim_start).collect();
    excerpts(block)
        .into_iter()
        .filter(|e| {
            let e: Vec<&str> = e.iter().map(|l| l.trim_start()).collect();
            !file.windows(e.len()).any(|w| w == e.as_slice())
        })
        .collect()
}

/// The first word of each backticked span of `text` (a span may run over a line break).
fn backticked(text: &str) -> std::collections::BTreeSet<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| span.split_whitespace().next())
        .collect()
}

/// The README's sentence that lists the CLI's verbs names each verb of the protocol's verb table,
/// and nothing else: a verb added to the table and not to the list fails here.
#[test]
fn the_readme_lists_every_verb_of_the_verb_table() {
    let readme = read("README.md");
    let start = readme
        .find("Every protocol verb is a subcommand")
        .expect("README.md lists the CLI's verbs");
    let end = start
        + readme[start..]
            .find("`send LINE`")
            .expect("the list ends at `send`");
    let listed = backticked(&readme[start..end]);
    let table: std::collections::BTreeSet<&str> = winit_automation_protocol::Verb::ALL
        .iter()
        .map(|verb| verb.as_str())
        .collect();
    assert_eq!(listed, table, "README.md's list of verbs against Verb::ALL");
}

#[test]
fn a_listed_span_is_named_by_its_first_word_across_a_line_break() {
    let listed = backticked("verbs: `status`, `click --hold\nMS`, `quit`");
    assert_eq!(listed, ["click", "quit", "status"].into());
}

#[test]
fn the_readme_integration_sketch_is_excerpts_of_the_minimal_example() {
    let (readme, example) = (read("README.md"), read(MINIMAL));
    let block = sketch(&readme);
    // The sketch shows the calls an integration is made of, not a few stray lines.
    // At most 15 lines (README's raw winit/wgpu integration); headless (`run_headless`) is named
    // in the prose below the block.
    assert!(
        block.lines().count() <= 15,
        "the sketch is {} lines",
        block.lines().count()
    );
    for call in [
        ".wake_event_loop(",
        "WindowSurface::new(",
        ".window_event(",
        ".frame()",
        "frame.input()",
        ".widgets(",
        ".publish()",
        ".capture(",
        ".submit(",
    ] {
        assert!(block.contains(call), "the sketch no longer shows {call}");
    }
    let drifted = drifted(block, &example);
    assert!(
        drifted.is_empty(),
        "these lines of README.md's integration sketch are not in {MINIMAL} as they \
         stand; copy them again from the file:\n{}",
        drifted
            .iter()
            .map(|e| e.join("\n"))
            .collect::<Vec<_>>()
            .join("\n// ...\n")
    );
}

#[test]
fn a_changed_line_in_an_excerpt_is_found() {
    // The positive control: the check above must see a one-character drift, in the README or in
    // the file.
    let (readme, example) = (read("README.md"), read(MINIMAL));
    let block = sketch(&readme);
    assert!(excerpts(block).len() >= 3, "{block}");
    let changed_block = block.replacen("submit(", "submit (", 1);
    assert_eq!(drifted(&changed_block, &example).len(), 1);
    let changed_file = example.replacen("WindowSurface::new(window", "WindowSurface::new(w", 1);
    assert_eq!(drifted(block, &changed_file).len(), 1);
    // Lines that are in the file but not next to each other are not an excerpt.
    let first_and_last = format!(
        "{}\n{}\n",
        example.lines().next().unwrap(),
        example.lines().last().unwrap()
    );
    assert_eq!(drifted(&first_and_last, &example).len(), 1);
}

/// The model integration stays small enough to read, and to copy, whole.
#[test]
fn the_minimal_example_is_at_most_150_lines() {
    let lines = read(MINIMAL).lines().count();
    assert!(
        lines <= 150,
        "{MINIMAL} is {lines} lines; the model integration is to fit in 150"
    );
}

/// The files a merge could leave half-done, read recursively from these folders and files.
const CHECKED: &[&str] = &[
    "README.md",
    "ARCHITECTURE.md",
    "CHANGELOG.md",
    "docs",
    "src",
    "tests",
    "examples",
    "benches",
    "scripts",
];

fn visit(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            visit(&entry.unwrap().path(), out);
        }
    } else if path
        .extension()
        .is_some_and(|e| ["md", "rs", "sh", "toml", "wgsl"].iter().any(|x| e == *x))
    {
        out.push(path.to_owned());
    }
}

#[test]
fn no_file_holds_merge_conflict_markers() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for name in CHECKED {
        visit(&root.join(name), &mut files);
    }
    assert!(files.len() > 20, "read only {} files", files.len());
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            let marker =
                ["<<<<<<< ", ">>>>>>> "].iter().any(|m| line.starts_with(m)) || line == "=======";
            if marker {
                found.push(format!("{}:{}", file.display(), i + 1));
            }
        }
    }
    assert!(found.is_empty(), "merge conflict markers at {found:?}");
}

#[test]
fn the_readme_test_example_is_the_harness_test() {
    let (readme, harness) = (read("README.md"), read("tests/examples/harness.rs"));
    let start = harness.find("// README example start\n").unwrap() + 24;
    let end = harness.find("// README example end").unwrap();
    let test = &harness[start..end];
    assert!(
        readme.contains(test),
        "README.md's test example is not tests/examples/harness.rs between its markers:\n{test}"
    );
    assert!(
        test.lines().count() + 2 <= 20,
        "the example (with its `use` line) is to fit in 20 lines"
    );
}

#[test]
fn the_recorded_test_in_the_testing_guide_is_the_checked_in_one() {
    let (guide, recorded) = (
        read("docs/testing.md"),
        read("tests/examples/recorded_gallery_cli.rs"),
    );
    assert!(
        guide.contains(&format!("```rust\n{recorded}```")),
        "docs/testing.md's recorded test is not tests/examples/recorded_gallery_cli.rs"
    );
}

/// The protocol versions a text names: `protocol=N` (a snapshot header), `protocol N` (a
/// `ready.txt` or golden line), `protocol version N` and `protocol, version N`, with their line.
/// A history section (`### Changes from version N`, up to the next `## `) names old versions on
/// purpose and is skipped.
fn named_versions(text: &str) -> Vec<(usize, u32)> {
    let mut found = Vec::new();
    let mut history = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with("### Changes from version") {
            history = true;
        } else if line.starts_with("## ") {
            history = false;
        }
        if history {
            continue;
        }
        let lower = line.to_lowercase();
        for prefix in [
            "protocol=",
            "protocol ",
            "protocol version ",
            "protocol, version ",
        ] {
            for (at, _) in lower.match_indices(prefix) {
                let digits: String = lower[at + prefix.len()..]
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                if let Ok(v) = digits.parse() {
                    found.push((i + 1, v));
                }
            }
        }
    }
    found
}

#[test]
fn the_readme_and_the_docs_name_the_protocol_version_the_code_speaks() {
    let v = winit_automation_protocol::PROTOCOL_VERSION;
    let mut files = vec!["README.md".to_owned(), "ARCHITECTURE.md".to_owned()];
    for entry in std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs")).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".md") {
            files.push(format!("docs/{name}"));
        }
    }
    let mut named = 0;
    for file in &files {
        for (line, version) in named_versions(&read(file)) {
            named += 1;
            assert_eq!(
                version, v,
                "{file}:{line} names protocol {version}; the code speaks {v}"
            );
        }
    }
    assert!(named >= 3, "only {named} mentions found in {files:?}");
}

#[test]
fn an_old_version_is_found_outside_a_history_section() {
    // The positive control: each form is read, and a history section is skipped.
    let text = "snapshot frame=1 protocol=2 quality=healthy\nprotocol 7\n\
                the drop-box protocol, version 9\n### Changes from version 2\n\
                protocol 2\n## 8. Next\nprotocol version 4\n";
    assert_eq!(named_versions(text), [(1, 2), (2, 7), (3, 9), (7, 4)]);
}

/// The first ```rust code block after the README's `Bevy 0.19:` line.
fn bevy_sketch(readme: &str) -> &str {
    let section = &readme[readme
        .find("\nBevy 0.19:")
        .expect("README.md has a \"Bevy 0.19:\" paragraph")..];
    let start = section
        .find("```rust")
        .expect("a rust block in the Bevy section");
    let body = &section[start..];
    let body = &body[body.find('\n').unwrap() + 1..];
    &body[..body.find("\n```").expect("the block's closing fence") + 1]
}

#[test]
fn the_readme_bevy_row_is_excerpts_of_the_bevy_example() {
    let (readme, example) = (read("README.md"), read("crates/bevy/examples/game.rs"));
    let block = bevy_sketch(&readme);
    assert!(
        block.lines().count() <= 10,
        "the Bevy row is {} lines",
        block.lines().count()
    );
    assert!(block.contains("app.add_plugins(AutomationPlugin::default());"));
    let stale = drifted(block, &example);
    assert!(
        stale.is_empty(),
        "these lines of README.md's Bevy row are not in crates/bevy/examples/game.rs as they \
         stand; copy them again from the file:\n{}",
        stale
            .iter()
            .map(|e| e.join("\n"))
            .collect::<Vec<_>>()
            .join("\n// ...\n")
    );
    // The positive control: a one-character drift is found.
    let changed = block.replacen("default()", "default ()", 1);
    assert_eq!(drifted(&changed, &example).len(), 1);
}

/// The workspace crates each crate of `crates/` depends on (normal dependencies, optional ones
/// too), as `cargo metadata` reads the manifests.
fn crate_graph() -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let out = crate::cargo(&[
        "metadata",
        "--format-version",
        "1",
        "--no-deps",
        "--offline",
    ]);
    let metadata: serde_json::Value = serde_json::from_slice(&out).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let crates = Path::new(metadata["workspace_root"].as_str().unwrap()).join("crates");
    let members: std::collections::BTreeSet<&str> = packages
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    packages
        .iter()
        .filter(|p| {
            // crates/NAME/Cargo.toml: the folder above the manifest's is the workspace's crates/.
            let manifest = Path::new(p["manifest_path"].as_str().unwrap());
            manifest.parent().and_then(Path::parent) == Some(crates.as_path())
        })
        .map(|p| {
            let deps = p["dependencies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["kind"].is_null())
                .map(|d| d["name"].as_str().unwrap())
                .filter(|name| members.contains(name))
                .map(str::to_owned)
                .collect();
            (p["name"].as_str().unwrap().to_owned(), deps)
        })
        .collect()
}

/// ARCHITECTURE.md's crate table, `| crate | depends on | ...`: each crate with the crates it
/// names (short names such as `link` stand for `winit-automation-link`).
fn table_graph(
    architecture: &str,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let long = |short: &str| match short {
        "winit-automation" | "bevy_winit_automation" => short.to_owned(),
        s if s.starts_with("winit-automation-") => s.to_owned(),
        s => format!("winit-automation-{s}"),
    };
    let section = &architecture[architecture.find("\n## Crates").expect("a Crates section")..];
    section
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_owned();
            // "link, service (feature `automation`)": the parentheses say when, not what.
            let mut depends = cells[2].to_owned();
            while let (Some(open), Some(close)) = (depends.find('('), depends.find(')')) {
                depends.replace_range(open..=close, "");
            }
            let deps = depends
                .split(',')
                .map(str::trim)
                .filter(|d| !d.is_empty())
                .map(long)
                .collect();
            (name, deps)
        })
        .collect()
}

/// ARCHITECTURE.md's crate table and its drawing say what Cargo says: each crate's row names the
/// workspace crates its manifest depends on, every crate has a row, and the drawing names each.
#[test]
fn the_architecture_crate_table_matches_cargo_metadata() {
    let architecture = read("ARCHITECTURE.md");
    let (cargo, table) = (crate_graph(), table_graph(&architecture));
    assert_eq!(
        table, cargo,
        "ARCHITECTURE.md's crate table against cargo metadata"
    );
    let drawing = &architecture[architecture.find("\n## Crates").unwrap()..];
    let drawing = &drawing[drawing.find("```").unwrap()..];
    let drawing = &drawing[..3 + drawing[3..].find("```").unwrap()];
    // Whole names: `winit-automation` is a part of every other name.
    let words: std::collections::BTreeSet<&str> = drawing
        .split(|c: char| c.is_whitespace() || "|/\\()".contains(c))
        .collect();
    for name in cargo.keys() {
        assert!(
            words.contains(name.as_str()),
            "the crate drawing lacks {name}"
        );
    }
}

#[test]
fn a_table_row_names_crates_by_short_names_and_drops_the_conditions() {
    let table = table_graph(
        "\n## Crates\n| crate | depends on |\n|---|---|\n| `winit-automation-cli` | protocol, \
         client (feature `x`) |\n",
    );
    let cli = &table["winit-automation-cli"];
    assert_eq!(
        cli.iter().map(String::as_str).collect::<Vec<_>>(),
        ["winit-automation-client", "winit-automation-protocol"]
    );
}
