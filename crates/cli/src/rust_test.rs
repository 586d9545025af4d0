//! `record --rust FILE`: a recording as a Rust test on the harness (`winit_automation_testing`)
//! instead of a script. The recorder writes the same lines either way; this turns the lines of a
//! script (docs/scripts.md) into one `#[test]`: `Spawn` for the app it was recorded on, a query
//! (`get_by_role_and_name`, `get`) and an action (`click`, `fill`, ...) for each command, `wait_for`
//! and `assert!`s for each expectation. A line the harness has no call for is sent as it is
//! (`app.ok(...)`), so the test does what the script would.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use winit_automation_protocol::Target;
use winit_automation_testing::Allow;
use winit_automation_testing::compare::Tolerance;
use winit_automation_testing::script::{Expect, Script, StepKind};

mod calls;
mod launch;

use calls::{audit, by, command, query};
pub(crate) use launch::Launch;

/// A Rust test being recorded: the script lines so far, and the file they are rendered to, whole,
/// after each line (written beside it and renamed over it), so that it compiles whenever the
/// recording stops.
pub(crate) struct RustFile {
    pub path: PathBuf,
    pub app: String,
    pub launch: Launch,
    pub lines: Vec<String>,
}

impl RustFile {
    /// Adds script lines and writes the file again.
    pub fn push_all(&mut self, lines: &[String]) -> std::io::Result<()> {
        self.lines.extend_from_slice(lines);
        self.write()
    }

    /// Writes the file with the lines so far.
    pub fn write(&self) -> std::io::Result<()> {
        let text = render(&self.app, &self.launch, &self.lines);
        let dir = match self.path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let tmp = dir.join(format!(
            ".{}.tmp",
            self.path.file_name().unwrap_or_default().to_string_lossy()
        ));
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &self.path)
    }
}

/// The test file for the script lines `lines` (comments too) recorded from the app `app`.
pub(crate) fn render(app: &str, launch: &Launch, lines: &[String]) -> String {
    let mut body = String::new();
    for line in lines {
        let trimmed = line.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            // `//` and a space: a comment starting `!` or `/` stays a plain comment.
            let _ = writeln!(body, "    // {}", comment.trim_start());
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let statement = match Script::parse(trimmed) {
            Ok(script) => match script.steps.into_iter().next().map(|s| s.kind) {
                Some(StepKind::Command(text)) => command(&text),
                Some(StepKind::Expect(expect)) => expectation(&expect, trimmed),
                None => continue,
            },
            Err(_) => format!("// not understood: {trimmed}\n"),
        };
        for l in statement.lines() {
            let _ = writeln!(body, "    {l}");
        }
    }
    let name: String = app
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let imports: Vec<&str> = [
        ("Allow", "Allow::"),
        ("By", "By::"),
        ("Has", "Has::"),
        ("Rule", "Rule::"),
        ("Spawn", ""),
    ]
    .into_iter()
    .filter(|(_, used)| body.contains(used))
    .map(|(name, _)| name)
    .collect();
    format!(
        "//! A session recorded by `winit-automation record --rust`: each command as the harness's\n\
         //! call, each change it made as an expectation. Run it with `cargo test`.\n\
         \n\
         use winit_automation_testing::{imports};\n\
         \n\
         #[test]\n\
         fn recorded_session_of_{name}() {{\n\
         {spawn}\
         {body}\
         }}\n",
        imports = match imports.as_slice() {
            [one] => (*one).to_owned(),
            all => format!("{{{}}}", all.join(", ")),
        },
        spawn = launch.statement(),
    )
}

/// The statement for an `expect` line (`line`): the node's query, waited for with its fields as
/// the script waits for them.
fn expectation(expect: &Expect, line: &str) -> String {
    match expect {
        Expect::Node {
            selector,
            value,
            states,
            ..
        } => {
            if value.is_none() && states.is_empty() {
                return format!("app.wait_for(&{});\n", by(selector));
            }
            let mut has = String::from("Has");
            if let Some(v) = value {
                let _ = write!(has, "::value({v:?})");
            }
            for (i, state) in states.iter().enumerate() {
                if i == 0 && value.is_none() {
                    let _ = write!(has, "::state({state:?})");
                } else {
                    let _ = write!(has, ".and_state({state:?})");
                }
            }
            format!("app.expect(&{}, &{has});\n", by(selector))
        }
        Expect::Gone { selector, .. } => format!("app.wait_gone(&{});\n", by(selector)),
        // The harness compares with its default tolerance, against a path relative to the
        // test's working directory: the same only without a tolerance and a crop by ref or point.
        Expect::Screenshot {
            reference,
            crop,
            tolerance,
        } if *tolerance == Tolerance::default() => {
            let shot = match crop {
                None => "app.screenshot()".to_owned(),
                Some(Target::Selector(s)) => format!("{}.screenshot()", query(s)),
                Some(_) => return format!("// not turned into Rust: {line}\n"),
            };
            format!(
                "{shot}.assert_matches({:?});\n",
                reference.to_string_lossy()
            )
        }
        Expect::Screenshot { .. } => format!("// not turned into Rust: {line}\n"),
        Expect::Audit {
            scope,
            keyboard,
            allow,
        } => match audit(scope, *keyboard) {
            Ok(audit) => {
                let allow: Vec<String> = allow.iter().map(allow_expr).collect();
                format!("{audit}.assert_clean(&[{}]);\n", allow.join(", "))
            }
            Err(_) => format!("// not turned into Rust: {line}\n"),
        },
    }
}

/// The harness's expression for an `--allow`: `Allow::rule(Rule::Contrast).on(&By::..)`.
fn allow_expr(allow: &Allow) -> String {
    let rule = allow
        .allowed_rule()
        .map(|r| format!("Allow::rule(Rule::{r:?})"));
    match (rule, allow.selector()) {
        (Some(rule), Some(s)) => format!("{rule}.on(&{})", by(s)),
        (Some(rule), None) => rule,
        (None, Some(s)) => format!("Allow::node(&{})", by(s)),
        (None, None) => unreachable!("an allow names a rule or nodes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_recorded_script_becomes_harness_calls_and_expectations() {
        let launch = Launch {
            program: launch::Program::Example("demo".into()),
            args: lines("--headless\n--size\n800x600"),
            virtual_clock: false,
        };
        let file = render(
            "demo",
            &launch,
            &lines(
                "# recorded\n\
                 fill role=textbox name=\"Name\" \"Ada\" --settle --wait 5000\n\
                 click role=checkbox name~=\"Sub\" nth=0\n\
                 click 10,20\n\
                 key ctrl+a Enter --settle --timeout 10000\n\
                 expect role=checkbox name=\"Subscribe\" checked\n\
                 expect role=text name=\"Status\" value=\"Submitted: \\\"Ada\\\"\" focused\n\
                 expect gone role=dialog\n\
                 expect role=button name=\"OK\"\n\
                 wait role=dialog --gone --timeout 10000\n\
                 #!not a doc comment",
            ),
        );
        let expected = r#"//! A session recorded by `winit-automation record --rust`: each command as the harness's
//! call, each change it made as an expectation. Run it with `cargo test`.

use winit_automation_testing::{By, Has, Spawn};

#[test]
fn recorded_session_of_demo() {
    let app = Spawn::example("demo")
        .headless(800, 600)
        .start();
    // recorded
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.get(&By::role("checkbox").and_name_contains("Sub").nth(0)).click();
    // sent as written: the harness acts on nodes; this target is a point
    app.ok("click 10,20");
    app.key("ctrl+a Enter");
    app.expect(&By::role("checkbox").and_name("Subscribe"), &Has::state("checked"));
    app.expect(&By::role("text").and_name("Status"), &Has::value("Submitted: \"Ada\"").and_state("focused"));
    app.wait_gone(&By::role("dialog"));
    app.wait_for(&By::role("button").and_name("OK"));
    app.wait_gone(&By::role("dialog"));
    // !not a doc comment
}
"#;
        assert_eq!(file, expected);
    }

    #[test]
    fn an_audit_expectation_becomes_the_harness_s_assertion_with_its_allows() {
        let launch = Launch {
            program: launch::Program::Example("demo".into()),
            args: Vec::new(),
            virtual_clock: false,
        };
        let file = render(
            "demo",
            &launch,
            &lines(
                "audit --keyboard\n\
                 expect audit clean\n\
                 expect audit clean role=dialog --keyboard --allow target-size --allow contrast role=text name~=\"hint\" --allow role=button name=\"×\"\n\
                 expect audit clean 10,20",
            ),
        );
        let body: Vec<&str> = file
            .lines()
            .skip_while(|l| !l.ends_with(".start();"))
            .skip(1)
            .collect();
        assert_eq!(
            body,
            [
                "    app.audit().keyboard().run();",
                "    app.audit().assert_clean(&[]);",
                "    app.audit().within(&By::role(\"dialog\")).keyboard().assert_clean(&[Allow::rule(Rule::TargetSize), Allow::rule(Rule::Contrast).on(&By::role(\"text\").and_name_contains(\"hint\")), Allow::node(&By::role(\"button\").and_name(\"×\"))]);",
                "    // not turned into Rust: expect audit clean 10,20",
                "}",
            ]
        );
        assert!(file.contains("use winit_automation_testing::{Allow, By, Rule, Spawn};"));
    }
}
