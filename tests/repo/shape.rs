//! The codebase's shape, as rules a change cannot break unnoticed: files of one job (at most 600
//! lines, or their first lines say why they are one piece), functions of one job (at most 120
//! lines in the crates, tests aside), one facade (the no-op build comes from
//! `feature`, not from `cfg` twins in `automation.rs`), a README a newcomer reads in five minutes, an
//! ARCHITECTURE.md of two screens and a CHANGELOG that speaks to users, not of issue numbers.

use crate::read;
use std::path::{Path, PathBuf};

/// The most lines a file holds before its first lines must say why it is one piece.
const MAX_LINES: usize = 600;
/// What a longer file's first lines say.
const ONE_PIECE: &str = "one piece";
/// The most lines a function of the crates holds (tests aside): a longer one does more than one
/// job.
const MAX_FUNCTION_LINES: usize = 120;

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of `dirs` longer than [`MAX_LINES`] whose first five lines do not say
/// [`ONE_PIECE`], with their lengths.
fn too_long(texts: &[(String, String)]) -> Vec<String> {
    texts
        .iter()
        .filter_map(|(name, text)| {
            let lines = text.lines().count();
            let says_why = text.lines().take(5).any(|l| l.contains(ONE_PIECE));
            (lines > MAX_LINES && !says_why).then(|| format!("{name}: {lines} lines"))
        })
        .collect()
}

#[test]
fn no_file_in_the_crates_or_examples_is_over_600_lines_without_saying_why() {
    let mut files = Vec::new();
    for dir in ["crates", "examples"] {
        rust_files(&root().join(dir), &mut files);
    }
    assert!(files.len() > 50, "read only {} files", files.len());
    let texts: Vec<(String, String)> = files
        .iter()
        .map(|f| {
            (
                f.strip_prefix(root()).unwrap().display().to_string(),
                std::fs::read_to_string(f).unwrap(),
            )
        })
        .collect();
    let found = too_long(&texts);
    assert!(found.is_empty(), "files of more than one job: {found:#?}");
}

#[test]
fn a_long_file_is_found_unless_it_says_why() {
    // The positive control: the rule sees a long file, and its exemption is read.
    let long = "fn f() {}\n".repeat(MAX_LINES + 1);
    let why = format!("//! The table, in one piece: split, it would be read twice.\n{long}");
    let texts = vec![("long.rs".to_owned(), long), ("why.rs".to_owned(), why)];
    assert_eq!(
        too_long(&texts),
        [format!("long.rs: {} lines", MAX_LINES + 1)]
    );
}

/// Every function and method of `source` (tests and `#[cfg(test)]` modules aside) as
/// `(lines, "file:line name")`, counted from `fn` to the closing brace.
fn function_lengths(file: &str, source: &str) -> Vec<(usize, String)> {
    use syn::visit::Visit;

    struct Lengths<'a> {
        file: &'a str,
        found: Vec<(usize, String)>,
    }
    impl Lengths<'_> {
        /// Records a function from its `fn` to its closing brace (its docs and attributes aside).
        fn record(&mut self, sig: &syn::Signature, body: &syn::Block) {
            let (first, last) = (
                sig.fn_token.span.start().line,
                body.brace_token.span.close().end().line,
            );
            let name = &sig.ident;
            let place = format!("{}:{first} {name}", self.file);
            self.found.push((last - first + 1, place));
        }
    }
    fn is_test(attrs: &[syn::Attribute]) -> bool {
        attrs.iter().any(|a| {
            a.path().is_ident("test")
                || (a.path().is_ident("cfg")
                    && a.parse_args::<syn::Ident>().is_ok_and(|i| i == "test"))
        })
    }
    impl<'ast> Visit<'ast> for Lengths<'_> {
        fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
            if !is_test(&m.attrs) {
                syn::visit::visit_item_mod(self, m);
            }
        }
        fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
            if !is_test(&f.attrs) {
                self.record(&f.sig, &f.block);
                syn::visit::visit_item_fn(self, f);
            }
        }
        fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
            if let Some(body) = f.default.as_ref().filter(|_| !is_test(&f.attrs)) {
                self.record(&f.sig, body);
            }
            syn::visit::visit_trait_item_fn(self, f);
        }
        fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
            if !is_test(&f.attrs) {
                self.record(&f.sig, &f.block);
                syn::visit::visit_impl_item_fn(self, f);
            }
        }
    }
    let parsed = syn::parse_file(source).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut lengths = Lengths {
        file,
        found: Vec::new(),
    };
    lengths.visit_file(&parsed);
    lengths.found
}

#[test]
fn no_function_of_the_crates_is_over_120_lines() {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    let mut lengths: Vec<(usize, String)> = files
        .iter()
        .filter(|f| {
            // A crate's tests/ and its tests.rs files are tests.
            let relative = f.strip_prefix(root()).unwrap();
            !relative.components().any(|c| c.as_os_str() == "tests")
                && f.file_name().is_some_and(|n| n != "tests.rs")
        })
        .flat_map(|f| {
            let name = f.strip_prefix(root()).unwrap().display().to_string();
            function_lengths(&name, &std::fs::read_to_string(f).unwrap())
        })
        .collect();
    assert!(
        lengths.len() > 500,
        "measured only {} functions",
        lengths.len()
    );
    lengths.sort_by_key(|(lines, _)| std::cmp::Reverse(*lines));
    println!("the longest functions:");
    for (lines, place) in lengths.iter().take(10) {
        println!("{lines:5} {place}");
    }
    let long: Vec<_> = lengths
        .iter()
        .filter(|(lines, _)| *lines > MAX_FUNCTION_LINES)
        .collect();
    assert!(long.is_empty(), "functions of more than one job: {long:#?}");
}

#[test]
fn a_long_function_is_found_and_a_test_is_not() {
    // The positive control: a long function, method and provided trait method are measured;
    // tests are not.
    let body = "    let _ = 1;\n".repeat(MAX_FUNCTION_LINES);
    let source = format!(
        "fn long() {{\n{body}}}\nstruct S;\nimpl S {{\n    fn method(&self) {{\n{body}    }}\n}}\n\
         trait T {{\n    fn provided(&self) {{\n{body}    }}\n    fn required(&self);\n}}\n\
         #[test]\nfn a_test() {{\n{body}}}\n#[cfg(test)]\nmod tests {{\n    fn helper() {{\n{body}    }}\n}}\n"
    );
    let lengths = function_lengths("x.rs", &source);
    let long = MAX_FUNCTION_LINES + 2;
    assert_eq!(
        lengths,
        [
            (long, "x.rs:1 long".to_owned()),
            (long, format!("x.rs:{} method", long + 3)),
            (long, format!("x.rs:{} provided", 2 * long + 5)),
        ]
    );
}

#[test]
fn the_facade_is_written_once() {
    let facade = read("crates/winit-automation/src/automation.rs");
    let cfgs = facade.matches("cfg(").count();
    assert!(
        cfgs <= 1,
        "automation.rs has {cfgs} `cfg(`: the no-op build belongs in crates/winit-automation/src/feature/"
    );
    // Nor are the other public types twins: the frame, the later capture and the input.
    for file in [
        "crates/winit-automation/src/frame.rs",
        "crates/winit-automation/src/toolkit_capture.rs",
        "crates/winit-automation/src/input.rs",
    ] {
        let text = read(file);
        let twins = text.matches("cfg(feature").count() + text.matches("cfg(not(feature").count();
        assert_eq!(
            twins, 0,
            "{file} compiles differently with the feature off; use crate::feature"
        );
    }
}

#[test]
fn the_readme_fits_five_minutes_and_architecture_two_screens() {
    let readme = read("README.md").lines().count();
    assert!(
        readme <= 250,
        "README.md is {readme} lines; move detail to docs/"
    );
    let architecture = read("ARCHITECTURE.md").lines().count();
    assert!(
        architecture <= 130,
        "ARCHITECTURE.md is {architecture} lines; move detail to docs/internals.md"
    );
}

#[test]
fn the_changelog_speaks_of_changes_not_of_issue_numbers() {
    let changelog = read("CHANGELOG.md");
    let numbered: Vec<&str> = changelog
        .lines()
        .filter(|l| {
            let lower = l.to_lowercase();
            lower.contains("issue ")
                || l.split(|c: char| !(c.is_alphanumeric() || c == '#'))
                    .any(|w| {
                        w.len() > 1
                            && w.starts_with('#')
                            && w[1..].chars().all(|c| c.is_ascii_digit())
                    })
        })
        .collect();
    assert!(
        numbered.is_empty(),
        "CHANGELOG.md names issues: {numbered:#?}"
    );
}
