//! docs/ci.md's workflow is one a user can paste: it parses as YAML, every `winit-automation`
//! option it and the page's example pass is one the CLI's `test` has, the system packages it
//! installs are the ones this project's own setup names, and the crate it installs exists.

use std::path::Path;

use yaml_rust2::{Yaml, YamlLoader};

use crate::read;

// Its other helpers serve the end-to-end tests.
#[allow(dead_code)]
#[path = "../common/cli_binary.rs"]
mod cli_binary;

const PAGE: &str = "docs/ci.md";

/// The page's fenced blocks of `lang`, in order.
fn blocks(text: &str, lang: &str) -> Vec<String> {
    let fence = format!("```{lang}\n");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find(&fence) {
        let body = &rest[start + fence.len()..];
        let end = body.find("\n```").expect("a closing fence");
        out.push(body[..end + 1].to_owned());
        rest = &body[end..];
    }
    out
}

/// Every step's `run` text in every job of the workflow.
fn runs(workflow: &Yaml) -> Vec<String> {
    let jobs = workflow["jobs"].as_hash().expect("jobs");
    assert!(!jobs.is_empty());
    jobs.values()
        .flat_map(|job| job["steps"].as_vec().expect("a job's steps").clone())
        .filter_map(|step| step["run"].as_str().map(str::to_owned))
        .collect()
}

/// The `--options` a `winit-automation test ...` command line passes.
fn test_options(line: &str) -> Vec<String> {
    let Some(at) = line.find("winit-automation test") else {
        return Vec::new();
    };
    line[at..]
        .split_whitespace()
        .filter(|w| w.starts_with("--"))
        .map(str::to_owned)
        .collect()
}

#[test]
fn the_workflow_parses_and_its_commands_exist() {
    let text = read(PAGE);
    let yaml = blocks(&text, "yaml");
    assert_eq!(yaml.len(), 1, "one workflow in {PAGE}");
    let docs = YamlLoader::load_from_str(&yaml[0]).expect("the workflow is YAML");
    let workflow = &docs[0];
    assert_eq!(workflow["name"].as_str(), Some("ui-scripts"));
    let runs = runs(workflow);

    let help = cli_binary::stdout(&cli_binary::run(Path::new("."), &["test", "--help"]));
    assert!(help.contains("--app"), "{help}");
    let mut lines: Vec<String> = runs.clone();
    lines.extend(
        blocks(&text, "text")
            .into_iter()
            .filter(|b| b.starts_with("winit-automation test")),
    );
    let mut checked = 0;
    for line in &lines {
        for option in test_options(&line.replace("\\\n", " ")) {
            assert!(
                help.contains(&option),
                "{option} is not an option of `test`:\n{help}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} options found");

    let setup = read("scripts/setup-system.sh");
    let apt = runs
        .iter()
        .find_map(|r| r.split_once("apt-get install -y "))
        .expect("the Linux leg installs packages")
        .1;
    for package in apt.split_whitespace() {
        assert!(
            setup
                .lines()
                .any(|l| l.trim_start().starts_with(&format!("{package} "))),
            "{package} is not in scripts/setup-system.sh's list"
        );
    }

    let cli = read("crates/cli/Cargo.toml");
    assert!(
        runs.iter()
            .any(|r| r.contains("cargo install winit-automation-cli"))
    );
    assert!(cli.contains("name = \"winit-automation-cli\""));
}
