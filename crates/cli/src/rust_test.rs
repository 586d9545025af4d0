//! `record --rust FILE`: a recording as a Rust test on the harness (`winit_automation_testing`)
//! instead of a script. The recorder writes the same lines either way; this turns the lines of a
//! script (docs/scripts.md) into one `#[test]`: `Spawn` for the app it was recorded on, a query
//! (`get_by_role_and_name`, `get`) and an action (`click`, `fill`, ...) for each command, `wait_for`
//! and `assert!`s for each expectation. A line the harness has no call for is sent as it is
//! (`app.ok(...)`), so the test does what the script would.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use winit_automation_protocol::{
    Button, Command, DragMotion, Modifiers, Press, Selector, Target, Term,
};
use winit_automation_testing::compare::Tolerance;
use winit_automation_testing::script::{Expect, Script, StepKind};

/// How the recorded app was started, to start it again in the test.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Launch {
    /// `Spawn::example(name)` for an example of a cargo target directory, else the program's path.
    pub program: Program,
    /// Its arguments, but for `--dir` (the harness gives each app a private drop-box).
    pub args: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Program {
    Example(String),
    Binary(PathBuf),
}

impl Launch {
    /// The launch of the process `pid`, from `/proc` (Linux); `None` when it cannot be read.
    pub fn of_process(pid: u32) -> Option<Launch> {
        let exe = std::fs::read_link(format!("/proc/{pid}/exe")).ok()?;
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        let argv: Vec<String> = cmdline
            .split(|b| *b == 0)
            .filter(|a| !a.is_empty())
            .map(|a| String::from_utf8_lossy(a).into_owned())
            .collect();
        Some(Launch::of(&exe, argv.get(1..).unwrap_or_default()))
    }

    /// The launch of `exe` with `args`.
    pub fn of(exe: &Path, args: &[String]) -> Launch {
        let in_examples = exe
            .parent()
            .and_then(Path::file_name)
            .is_some_and(|d| d == "examples");
        let program = match exe.file_name().and_then(|n| n.to_str()) {
            Some(name) if in_examples => Program::Example(name.to_owned()),
            _ => Program::Binary(exe.to_owned()),
        };
        let mut kept = Vec::new();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if arg == "--dir" {
                args.next();
            } else if !arg.starts_with("--dir=") {
                kept.push(arg.clone());
            }
        }
        Launch {
            program,
            args: kept,
        }
    }

    /// The `Spawn` expression.
    fn spawn(&self) -> String {
        let mut out = match &self.program {
            Program::Example(name) => format!("Spawn::example({name:?})"),
            Program::Binary(path) => format!("Spawn::binary({:?})", path.to_string_lossy()),
        };
        match headless(&self.args) {
            Some((w, h)) => {
                let _ = write!(out, "\n        .headless({w}, {h})");
            }
            None if !self.args.is_empty() => {
                let _ = write!(out, "\n        .args({:?})", self.args);
            }
            None => {}
        }
        out.push_str("\n        .start()");
        out
    }
}

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
    /// Adds a script line and writes the file again.
    pub fn push(&mut self, line: &str) -> std::io::Result<()> {
        self.lines.push(line.to_owned());
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

/// `Some((w, h))` when the arguments are exactly `--headless --size WxH` (in any order), which
/// `Spawn::headless` gives.
fn headless(args: &[String]) -> Option<(u32, u32)> {
    let [a, b, c] = args else { return None };
    let size = match (a.as_str(), b.as_str(), c.as_str()) {
        ("--headless", "--size", size) | ("--size", size, "--headless") => size,
        _ => return None,
    };
    let (w, h) = size.split_once('x')?;
    Some((w.parse().ok()?, h.parse().ok()?))
}

/// The test file for the script lines `lines` (comments too) recorded from the app `app`.
pub(crate) fn render(app: &str, launch: &Launch, lines: &[String]) -> String {
    let mut body = String::new();
    let mut uses_by = false;
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
        uses_by |= statement.contains("By::");
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
    let imports = if uses_by { "By, Spawn" } else { "Spawn" };
    format!(
        "//! A session recorded by `winit-automation record --rust`: each command as the harness's\n\
         //! call, each change it made as an assertion. Run it with `cargo test`.\n\
         \n\
         use winit_automation_testing::{{{imports}}};\n\
         \n\
         #[test]\n\
         fn recorded_session_of_{name}() {{\n    \
         let app = {spawn};\n\
         {body}\
         }}\n",
        spawn = launch.spawn(),
    )
}

/// The query that finds a selector's one node.
fn query(selector: &Selector) -> String {
    if let ([Term::Role(role), Term::Name(name)], None) = (selector.terms.as_slice(), selector.nth)
    {
        return format!("app.get_by_role_and_name({role:?}, {name:?})");
    }
    format!("app.get(&{})", by(selector))
}

/// The `By` of a selector.
fn by(selector: &Selector) -> String {
    let mut out = String::from("By");
    for (i, term) in selector.terms.iter().enumerate() {
        let (method, value) = match term {
            Term::Role(v) => ("role", v),
            Term::Name(v) => ("name", v),
            Term::NameContains(v) => ("name_contains", v),
            Term::Id(v) => ("id", v),
            Term::Text(v) => ("text", v),
            Term::TextContains(v) => ("text_contains", v),
            Term::Label(v) => ("label", v),
            Term::LabelContains(v) => ("label_contains", v),
        };
        // `By` has a constructor for each term but name_contains, which only chains.
        if i == 0 && method != "name_contains" {
            let _ = write!(out, "::{method}({value:?})");
        } else {
            if i == 0 {
                out.push_str("::default()");
            }
            let _ = write!(out, ".and_{method}({value:?})");
        }
    }
    if let Some(n) = selector.nth {
        let _ = write!(out, ".nth({n})");
    }
    out
}

/// The statement for a command line; `app.ok(line)` where the harness has no call that means
/// the same (a point or a ref target, a flag its calls do not take).
fn command(line: &str) -> String {
    let raw = || format!("app.ok({line:?});\n");
    let Ok(command) = Command::parse(line) else {
        return raw();
    };
    // The harness's actions settle and wait for their target themselves; other flags it does
    // not take.
    if command
        .act_options()
        .is_some_and(|o| o.no_scroll || o.frames.is_some() || o.timeout_ms.is_some())
    {
        return raw();
    }
    let on = |target: &Target, call: String| match target {
        Target::Selector(s) => format!("{}.{call};\n", query(s)),
        _ => raw(),
    };
    match &command {
        Command::Click {
            target,
            button,
            press,
            modifiers,
            ..
        } => click_call(*button, *press, *modifiers).map_or_else(raw, |c| on(target, c)),
        Command::Pinch {
            target,
            scale,
            pan: None,
            ..
        } => on(target, format!("pinch({scale:?})")),
        Command::Pinch {
            target,
            scale,
            pan: Some(p),
            ..
        } if *scale == 1.0 => on(target, format!("two_finger_pan({:?}, {:?})", p.x, p.y)),
        Command::Stroke {
            points,
            button: Button::Left,
            modifiers,
            ..
        } if modifiers.is_empty() => match stroke_call(points) {
            Some((first, call)) => on(first, call),
            None => raw(),
        },
        Command::Hover { target, .. } => on(target, "hover()".into()),
        Command::Focus { target, .. } => on(target, "focus()".into()),
        // A secret is read from the environment when the test runs, never written in it.
        Command::Fill {
            target,
            secret: true,
            ..
        } => on(target, format!("fill_secret(&{SECRET_FROM_ENV})")),
        Command::Fill { target, text, .. } => on(target, format!("fill({text:?})")),
        Command::Scroll { target, dx, dy, .. } => on(target, format!("scroll({dx:?}, {dy:?})")),
        Command::Action {
            target,
            action,
            value,
            ..
        } => on(
            target,
            format!(
                "action({:?}, {value:?})",
                winit_automation_protocol::action_name(*action)
            ),
        ),
        Command::Drag {
            from,
            to,
            motion,
            modifiers,
            ..
        } => drag_call(to, *motion, *modifiers).map_or_else(raw, |c| on(from, c)),
        Command::Wait { selector, gone, .. } => {
            if *gone {
                format!("app.wait_gone(&{});\n", by(selector))
            } else {
                format!("app.wait_for(&{});\n", by(selector))
            }
        }
        Command::Type { secret: true, .. } => format!("app.type_secret(&{SECRET_FROM_ENV});\n"),
        Command::Type { text, .. } => format!("app.type_text({text:?});\n"),
        Command::Key { chords, .. } => {
            let chords: Vec<String> = chords.iter().map(ToString::to_string).collect();
            format!("app.key({:?});\n", chords.join(" "))
        }
        _ => raw(),
    }
}

/// The harness's call on a node for a `click`; `None` for a click it has no call for.
fn click_call(button: Button, press: Press, modifiers: Modifiers) -> Option<String> {
    Some(match (button, press, modifiers.is_empty()) {
        (Button::Left, Press::Single, true) => "click()".into(),
        (Button::Left, Press::Single, false) => {
            format!("click_with({})", modifiers_expr(modifiers))
        }
        (Button::Left, Press::Double, true) => "double_click()".into(),
        (Button::Left, Press::Hold(ms), true) => format!("long_press({ms})"),
        (Button::Right, Press::Single, true) => "right_click()".into(),
        _ => return None,
    })
}

/// The harness's call on the node a `stroke` starts at, with that node: `None` unless every
/// later point is a point.
fn stroke_call(points: &[Target]) -> Option<(&Target, String)> {
    let (first, rest) = points.split_first()?;
    let rest: Vec<String> = rest
        .iter()
        .map(|p| match p {
            Target::Point(p) => Some(format!("({:?}, {:?})", p.x, p.y)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    Some((first, format!("stroke(&[{}])", rest.join(", "))))
}

/// The harness's call on the node a `drag` starts at: `drag_to(..)` with the defaults, else
/// `drag(..)` shaped by its flags; `None` for an end given as a ref.
fn drag_call(to: &Target, motion: DragMotion, modifiers: Modifiers) -> Option<String> {
    let to = match to {
        Target::Selector(s) => format!("&{}", query(s)),
        Target::Point(p) => format!("({:?}, {:?})", p.x, p.y),
        Target::Ref(_) => return None,
    };
    if motion == DragMotion::default() && modifiers.is_empty() {
        return Some(format!("drag_to({to})"));
    }
    let mut call = format!("drag({to})");
    if let Some(n) = motion.steps {
        let _ = write!(call, ".steps({n})");
    }
    if let Some(ms) = motion.hold_ms {
        let _ = write!(call, ".hold({ms})");
    }
    if let Some(ms) = motion.dwell_ms {
        let _ = write!(call, ".dwell({ms})");
    }
    if !modifiers.is_empty() {
        let _ = write!(call, ".modifiers({})", modifiers_expr(modifiers));
    }
    Some(format!("{call}.perform()"))
}

/// The expression a generated test reads a recorded secret with (the journal kept only
/// [`winit_automation_protocol::SECRET_PLACEHOLDER`]).
const SECRET_FROM_ENV: &str = "std::env::var(\"WINIT_AUTOMATION_SECRET\").expect(\"set WINIT_AUTOMATION_SECRET to the secret this test types\")";

/// The harness's expression for modifiers: `winit_automation_testing::Modifiers::CTRL |
/// winit_automation_testing::Modifiers::SHIFT`.
fn modifiers_expr(m: Modifiers) -> String {
    let names = [
        (m.ctrl, "CTRL"),
        (m.alt, "ALT"),
        (m.shift, "SHIFT"),
        (m.meta, "META"),
    ];
    let held: Vec<String> = names
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| format!("winit_automation_testing::Modifiers::{n}"))
        .collect();
    held.join(" | ")
}

/// The statements for an `expect` line (`line`): the node's query once it is there, then one
/// assertion per field.
fn expectation(expect: &Expect, line: &str) -> String {
    match expect {
        Expect::Node {
            selector,
            value,
            states,
            ..
        } => {
            let query = format!("app.wait_for(&{})", by(selector));
            if value.is_none() && states.is_empty() {
                return format!("{query};\n");
            }
            let mut out = format!("let node = {query};\n");
            if let Some(v) = value {
                if v.is_empty() {
                    out.push_str("assert_eq!(node.value().unwrap_or(\"\"), \"\");\n");
                } else {
                    let _ = writeln!(out, "assert_eq!(node.value(), Some({v:?}));");
                }
            }
            for state in states {
                let check = match state.as_str() {
                    "checked" => "node.is_checked()".to_owned(),

                    "focused" => "node.is_focused()".to_owned(),
                    "disabled" => "node.is_disabled()".to_owned(),
                    other => format!("node.line().has({other:?})"),
                };
                let _ = writeln!(out, "assert!({check}, \"{state}: {{:?}}\", node.line());");
            }
            out
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn a_recorded_script_becomes_harness_calls_and_assertions() {
        let launch = Launch::of(
            Path::new("/w/target/debug/examples/demo"),
            &lines("--headless\n--size\n800x600\n--dir\n/tmp/box"),
        );
        assert_eq!(launch.program, Program::Example("demo".into()));
        assert_eq!(launch.args, ["--headless", "--size", "800x600"]);
        let file = render(
            "demo",
            &launch,
            &lines(
                "# recorded\n\
                 fill role=textbox name=\"Name\" \"Ada\" --settle --wait 5000\n\
                 click role=checkbox name~=\"Sub\" nth=0\n\
                 click 10,20\n\
                 key ctrl+a Enter\n\
                 expect role=checkbox name=\"Subscribe\" checked\n\
                 expect role=text name=\"Status\" value=\"Submitted: \\\"Ada\\\"\"\n\
                 expect gone role=dialog\n\
                 expect role=button name=\"OK\"\n\
                 wait role=dialog --gone --timeout 10000\n\
                 #!not a doc comment",
            ),
        );
        let expected = r#"//! A session recorded by `winit-automation record --rust`: each command as the harness's
//! call, each change it made as an assertion. Run it with `cargo test`.

use winit_automation_testing::{By, Spawn};

#[test]
fn recorded_session_of_demo() {
    let app = Spawn::example("demo")
        .headless(800, 600)
        .start();
    // recorded
    app.get_by_role_and_name("textbox", "Name").fill("Ada");
    app.get(&By::role("checkbox").and_name_contains("Sub").nth(0)).click();
    app.ok("click 10,20");
    app.key("ctrl+a Enter");
    let node = app.wait_for(&By::role("checkbox").and_name("Subscribe"));
    assert!(node.is_checked(), "checked: {:?}", node.line());
    let node = app.wait_for(&By::role("text").and_name("Status"));
    assert_eq!(node.value(), Some("Submitted: \"Ada\""));
    app.wait_gone(&By::role("dialog"));
    app.wait_for(&By::role("button").and_name("OK"));
    app.wait_gone(&By::role("dialog"));
    // !not a doc comment
}
"#;
        assert_eq!(file, expected);
    }

    #[test]
    fn other_programs_keep_their_path_and_arguments() {
        let launch = Launch::of(
            Path::new("/opt/app/bin/viewer"),
            &lines("--dir=/tmp/x\n--theme\ndark"),
        );
        assert_eq!(
            launch.spawn(),
            "Spawn::binary(\"/opt/app/bin/viewer\")\n        .args([\"--theme\", \"dark\"])\n        .start()"
        );
    }

    #[test]
    fn gestures_and_secrets_become_harness_calls() {
        let q = "app.get_by_role_and_name(\"button\", \"Go\")";
        for (line, call) in [
            (
                "click role=button name=Go --modifiers ctrl+shift",
                "click_with(winit_automation_testing::Modifiers::CTRL | winit_automation_testing::Modifiers::SHIFT)",
            ),
            ("click role=button name=Go --hold 800", "long_press(800)"),
            ("drag role=button name=Go to 10,20", "drag_to((10.0, 20.0))"),
            (
                "drag role=button name=Go to 10,20 --steps 3 --dwell 0",
                "drag((10.0, 20.0)).steps(3).dwell(0).perform()",
            ),
            (
                "stroke \"role=button name=Go\" 10,20 30,40",
                "stroke(&[(10.0, 20.0), (30.0, 40.0)])",
            ),
            ("pinch role=button name=Go 2", "pinch(2.0)"),
            (
                "fill role=button name=Go \"$WINIT_AUTOMATION_SECRET\" --secret",
                "fill_secret(&std::env::var(\"WINIT_AUTOMATION_SECRET\").expect(\"set WINIT_AUTOMATION_SECRET to the secret this test types\"))",
            ),
        ] {
            assert_eq!(command(line), format!("{q}.{call};\n"), "{line}");
        }
        // What the harness has no call for is sent as written.
        for line in [
            "down role=button name=Go",
            "up",
            "click role=button name=Go --middle",
        ] {
            assert_eq!(command(line), format!("app.ok({line:?});\n"));
        }
    }
}
