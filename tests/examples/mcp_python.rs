//! `winit-automation mcp` driven by a second off-the-shelf client that nobody here wrote: the
//! official `mcp` Python SDK (2.x, from PyPI), spawning the server over stdio with its own
//! `stdio_client` and `ClientSession` (tests/examples/mcp_python/client.py), against the custom demo
//! headless. What the SDK parsed (its snake_case models: `server_info`, `input_schema`,
//! `is_error`) comes back as JSON lines and is checked here: the server's name and version, one
//! tool per verb with an object schema, a snapshot with refs, string scalars read as their type
//! and others refused by name, the selector grammar's refusals with the CLI's hints, an image, and
//! the journal.
//!
//! The SDK lives in a virtual environment made once under the target directory
//! (`target/mcp-venv`) and reused; it is installed here when missing (`python3 -m venv`, then
//! `pip install`), and a machine where that cannot be done fails the test with the command that
//! does it, never skips it. Needs `python3` and, on Debian, `python3-venv` (both in
//! scripts/setup-system.sh), and a Vulkan driver (`mesa-vulkan-drivers`) for the demo.
use crate::common::cli_binary;
use crate::common::demo;

use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use demo::*;
use serde_json::{Value, json};
use winit_automation_protocol::{Group, Verb};

/// What pip installs: the SDK's 2.x line, whose models are snake_case.
const REQUIREMENT: &str = "mcp>=2,<3";

/// The virtual environment, once per target directory.
fn venv() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("the target directory")
        .join("mcp-venv")
}

/// The commands that make the virtual environment and install the SDK, for a failure to print.
fn install_commands(venv: &Path) -> String {
    let v = venv.display();
    format!(
        "bash scripts/setup-system.sh   # python3 and python3-venv, as root\n    \
         python3 -m venv {v} && {v}/bin/python -m pip install '{REQUIREMENT}'"
    )
}

fn describe(what: &str, output: &std::io::Result<Output>) -> String {
    match output {
        Ok(o) => format!(
            "{what}: {}\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => format!("{what}: {e}"),
    }
}

/// Whether the environment's Python imports the SDK's client at a 2.x version.
fn client_ready(python: &Path) -> Result<(), String> {
    let check = "import importlib.metadata as m, mcp.client.session, mcp.client.stdio\n\
                 v = m.version('mcp')\n\
                 assert v.split('.')[0] == '2', 'mcp ' + v + ' is not 2.x'";
    let output = Command::new(python).args(["-c", check]).output();
    match &output {
        Ok(o) if o.status.success() => Ok(()),
        _ => Err(describe(
            &format!("{} -c <check>", python.display()),
            &output,
        )),
    }
}

fn make_venv(venv: &Path) -> std::io::Result<Output> {
    if venv.exists() {
        std::fs::remove_dir_all(venv)?;
    }
    Command::new("python3")
        .args(["-m", "venv"])
        .arg(venv)
        .output()
}

/// The Python that has the SDK: the cached environment, else one made and installed now.
fn python_with_the_sdk() -> PathBuf {
    let venv = venv();
    let python = venv.join("bin").join("python");
    // One installer at a time across test processes sharing the target directory.
    let lock = File::create(venv.with_extension("lock")).expect("the venv's lock file");
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::LockExclusive).expect("the venv's lock");
    if client_ready(&python).is_ok() {
        return python;
    }
    eprintln!(
        "mcp_python: installing the MCP Python SDK ({REQUIREMENT}) in {}",
        venv.display()
    );
    let mut made = make_venv(&venv);
    if !made.as_ref().is_ok_and(|o| o.status.success()) {
        // No python3, or Debian's without its venv module (python3-venv): the system setup
        // installs both (as root; otherwise it prints the command), then once more.
        let setup = Command::new("bash")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup-system.sh"))
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit())
            .status()
            .map_or_else(|e| e.to_string(), |s| s.to_string());
        let first = describe("python3 -m venv", &made);
        made = make_venv(&venv);
        if !made.as_ref().is_ok_and(|o| o.status.success()) {
            panic!(
                "cannot make the virtual environment for the MCP Python SDK.\n{first}\n\
                 scripts/setup-system.sh: {setup}\nthen {}\ninstall it with:\n    {}",
                describe("python3 -m venv", &made),
                install_commands(&venv)
            );
        }
    }
    let installed = Command::new(&python)
        .args(["-m", "pip", "install", "--disable-pip-version-check", "-q"])
        .arg(REQUIREMENT)
        .output();
    if !installed.as_ref().is_ok_and(|o| o.status.success()) {
        panic!(
            "cannot install the MCP Python SDK.\n{}\ninstall it with:\n    {}",
            describe(&format!("pip install '{REQUIREMENT}'"), &installed),
            install_commands(&venv)
        );
    }
    client_ready(&python).unwrap_or_else(|e| {
        panic!(
            "the MCP Python SDK was installed but does not import.\n{e}\ninstall it with:\n    {}",
            install_commands(&venv)
        )
    });
    python
}

/// One tool call of the plan the Python client makes, in order.
fn call(tool: &str, arguments: Value) -> Value {
    json!({"tool": tool, "arguments": arguments})
}

/// Runs the Python client against the server for `dir`, with the server's own options, with
/// `plan`; returns its JSON lines.
fn run_client(python: &Path, dir: &Path, options: &[&str], plan: &[Value]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/examples/mcp_python/client.py");
    let mut child = Command::new(python)
        .arg(&script)
        .arg(cli_binary::cli())
        .arg("mcp")
        .arg("--dir")
        .arg(dir)
        .args(options)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the Python client starts");
    let plan = serde_json::to_vec(plan).unwrap();
    child.stdin.take().unwrap().write_all(&plan).unwrap();
    // The client bounds every request and the whole session itself (client.py's timeouts).
    let output = child.wait_with_output().expect("the Python client ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the Python MCP client failed ({}):\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}\nstderr:\n{stderr}")))
        .collect()
}

fn text(answer: &Value) -> &str {
    answer["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {answer}"))
}

/// The bytes of a step's result as the SDK serialized it (client.py's `bytes`).
fn bytes(step: &Value) -> u64 {
    step["bytes"]
        .as_u64()
        .unwrap_or_else(|| panic!("no bytes in {step}"))
}

fn is_error(answer: &Value) -> bool {
    answer["is_error"].as_bool().unwrap_or(false)
}

#[test]
fn the_official_python_sdk_initializes_lists_the_verbs_and_drives_the_demo_from_pypi() {
    let python = python_with_the_sdk();
    let demo = start("demo", Mode::Headless(800, 600));
    wait_for(&demo, "button \"Submit\"", "the demo publishes its tree");

    let plan = [
        call("snapshot", json!({})),
        // Scalars sent as strings, as MCP Inspector's CLI sends them.
        call(
            "fill",
            json!({"target": "role=textbox name=Name", "text": "Ada", "settle": "true", "timeout": "5000"}),
        ),
        call("find", json!({"selector": "role=textbox name=Name"})),
        call(
            "fill",
            json!({"target": "role=textbox name=Name", "text": "Ada", "settle": "maybe"}),
        ),
        call("find", json!({"selector": "role=button name~=Open Save"})),
        call("find", json!({"selector": "role=buton"})),
        call("screenshot", json!({"label": "python"})),
        call("help", json!({"topic": "drag"})),
        // Outside the groups the server lists by default: refused, saying how to list it.
        call("journal", json!({})),
    ];
    let lines = run_client(&python, demo.dir(), &[], &plan);
    assert_eq!(lines.len(), 2 + plan.len(), "{lines:#?}");

    // initialize: the server names itself, at the crate's version, with instructions about refs.
    let init = &lines[0];
    assert_eq!(init["step"], "initialize", "{init}");
    assert_eq!(init["server_info"]["name"], "winit-automation", "{init}");
    assert_eq!(
        init["server_info"]["version"],
        env!("CARGO_PKG_VERSION"),
        "{init}"
    );
    let instructions = init["instructions"].as_str().unwrap_or("");
    assert!(
        !instructions.trim().is_empty()
            && instructions.contains("@e")
            && instructions.to_lowercase().contains("ref"),
        "{init}"
    );

    // tools/list: the core group's verbs, in the table's order, then `apps` and `help`; with
    // the instructions, under 12,000 bytes as the SDK reads them.
    let tools_line = &lines[1];
    assert_eq!(tools_line["step"], "tools", "{tools_line}");
    let tools = tools_line["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    let core: Vec<&str> = Group::Core
        .verbs()
        .map(|v| v.spec().name)
        .chain(["apps", "help"])
        .collect();
    assert_eq!(names, core);
    let first_bytes = bytes(init) + bytes(tools_line);
    eprintln!(
        "mcp_python: initialize {} + tools/list {} = {first_bytes} bytes for {} tools",
        bytes(init),
        bytes(tools_line),
        names.len()
    );
    assert!(first_bytes < 12_000, "{first_bytes} bytes");
    // The core group's names are pinned apart from the table by the protocol's own test.
    for tool in tools {
        let schema = &tool["input_schema"];
        assert_eq!(schema["type"], "object", "{tool}");
        // Every verb's tool takes the app's `dir`; `apps` takes the `root` it searches under,
        // `help` its `topic`.
        let picks = match tool["name"].as_str() {
            Some("apps") => "root",
            Some("help") => "topic",
            _ => "dir",
        };
        assert_eq!(
            schema["properties"][picks]["type"], "string",
            "no {picks}: {tool}"
        );
        assert!(
            tool["description"]
                .as_str()
                .is_some_and(|d| !d.trim().is_empty()),
            "no description: {tool}"
        );
    }
    // A tool's description is its verb's one sentence; the details are `help`'s.
    for verb in Group::Core.verbs() {
        let tool = &tools[names.iter().position(|n| *n == verb.spec().name).unwrap()];
        assert_eq!(tool["description"], verb.spec().about, "{tool}");
    }
    let click = &tools[names.iter().position(|n| *n == "click").unwrap()]["input_schema"];
    assert!(
        click["required"]
            .as_array()
            .is_some_and(|r| r.contains(&json!("target"))),
        "{click}"
    );
    assert_eq!(click["properties"]["target"]["type"], "string", "{click}");
    assert_eq!(click["properties"]["settle"]["type"], "boolean", "{click}");

    let answers = &lines[2..];
    for (answer, sent) in answers.iter().zip(&plan) {
        assert_eq!(answer["step"], "call", "{answer}");
        assert_eq!(answer["tool"], sent["tool"], "{answer}");
    }
    let [
        snapshot,
        filled,
        found,
        maybe,
        unquoted,
        typo,
        screenshot,
        drag_help,
        unlisted,
    ] = answers
    else {
        panic!("{answers:#?}")
    };

    // The interactive snapshot: refs, the form's button.
    let s = text(snapshot);
    assert!(!is_error(snapshot), "{snapshot}");
    assert!(s.contains("@e") && s.contains("button \"Submit\""), "{s}");
    assert!(s.contains("textbox \"Name\""), "{s}");

    // "true" and "5000" were read as a boolean and an integer: the fill settled, and the field
    // holds the text.
    assert!(!is_error(filled), "{filled}");
    let f = text(filled);
    assert!(f.contains("settled frame "), "{f}");
    assert!(f.contains("textbox \"Name\" value=\"Ada\""), "{f}");
    assert!(!is_error(found), "{found}");
    assert!(
        text(found).contains("textbox \"Name\" value=\"Ada\""),
        "{found}"
    );

    // "maybe" is no boolean: a tool error naming the argument.
    assert!(is_error(maybe), "{maybe}");
    let m = text(maybe);
    assert!(m.starts_with("error bad_tool_argument:"), "{m}");
    assert!(m.contains("settle"), "{m}");

    // The selector grammar's refusals, with the CLI's hints.
    assert!(is_error(unquoted), "{unquoted}");
    let u = text(unquoted);
    assert!(u.starts_with("error bad_argument:"), "{u}");
    assert!(
        u.lines()
            .any(|l| l == "hint: quote a value with spaces: role=button name~=\"Open Save\""),
        "{u}"
    );
    assert!(is_error(typo), "{typo}");
    let t = text(typo);
    assert!(t.starts_with("error bad_argument:"), "{t}");
    assert!(
        t.lines()
            .any(|l| l.starts_with("hint: ") && l.contains("role=button")),
        "{t}"
    );

    // The frame as an image the SDK parsed: a PNG.
    assert!(!is_error(screenshot), "{screenshot}");
    let images = screenshot["images"].as_array().unwrap();
    assert_eq!(images.len(), 1, "{screenshot}");
    assert_eq!(images[0]["mime_type"], "image/png", "{screenshot}");
    assert!(
        images[0]["base64_len"].as_u64().unwrap() > 100,
        "{screenshot}"
    );

    // `help` has what the list leaves out: the details, each argument, the command line.
    assert!(!is_error(drag_help), "{drag_help}");
    let h = text(drag_help);
    assert!(h.contains(Verb::Drag.spec().details), "{h}");
    assert!(
        h.contains("dwell (integer)") && h.contains("as a command line: drag FROM [to] TO"),
        "{h}"
    );

    // A tool of a group the server does not list is refused, saying how to list it.
    assert!(is_error(unlisted), "{unlisted}");
    let u = text(unlisted);
    assert!(
        u.starts_with("error not_listed: journal is in the trace group"),
        "{u}"
    );
    assert!(
        u.contains("hint: start the server with --caps trace"),
        "{u}"
    );

    // `--caps all`: every verb's tool, then `apps` and `help`; the journal now answers, with
    // the first session's fill among its entries.
    let lines = run_client(
        &python,
        demo.dir(),
        &["--caps", "all"],
        &[call("journal", json!({}))],
    );
    let names: Vec<&str> = lines[1]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    let every: Vec<&str> = Verb::ALL
        .iter()
        .map(|v| v.spec().name)
        .chain(["apps", "help"])
        .collect();
    assert_eq!(names, every);
    eprintln!(
        "mcp_python: --caps all: initialize {} + tools/list {} bytes for {} tools",
        bytes(&lines[0]),
        bytes(&lines[1]),
        names.len()
    );
    let journal = &lines[2];
    assert!(!is_error(journal), "{journal}");
    let j = text(journal);
    assert!(j.lines().any(|l| l.starts_with("entry ")), "{j}");
    assert!(
        j.lines()
            .any(|l| l.starts_with("entry ") && l.contains("fill role=textbox name=")),
        "{j}"
    );

    // The server's cap and a call's own; `--no-diffs`: an action settles, its diff left out.
    let plan = [
        call("snapshot", json!({})),
        call("snapshot", json!({"max-bytes": 500})),
        call("snapshot", json!({"max-bytes": "0"})),
        call(
            "fill",
            json!({"target": "role=textbox name=Name", "text": "Grace"}),
        ),
        // `apps` takes the `root` it searches, not the verbs' `dir`: refused, never ignored.
        call("apps", json!({"dir": demo.dir()})),
    ];
    let lines = run_client(
        &python,
        demo.dir(),
        &["--max-bytes", "550", "--no-diffs"],
        &plan,
    );
    let [server_cap, own_cap, uncapped, filled, apps] = &lines[2..] else {
        panic!("{lines:#?}")
    };
    for (answer, cap) in [(server_cap, 550), (own_cap, 500)] {
        let t = text(answer);
        assert!(t.len() <= cap, "{} bytes: {t}", t.len());
        assert!(
            t.contains(&format!("[cut to {cap} bytes")) && t.contains(" left out"),
            "{t}"
        );
        // Said in this door's words: the arguments an agent passes, not the CLI's flags.
        assert!(
            t.contains("a larger max-bytes]") && !t.contains("--max-bytes"),
            "{t}"
        );
    }
    let whole = text(uncapped);
    assert!(!whole.contains("[cut to ") && whole.len() > 550, "{whole}");
    assert!(whole.contains("button \"Submit\""), "{whole}");
    let f = text(filled);
    assert!(!is_error(filled), "{filled}");
    assert!(f.contains("\nsettled frame "), "{f}");
    let last = f.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("[diff left out: ")
            && last.ends_with(" (the server's --no-diffs); snapshot shows the tree now]"),
        "{f}"
    );
    assert!(!f.contains("\n~ "), "{f}");
    assert!(is_error(apps), "{apps}");
    let a = text(apps);
    assert!(
        a.starts_with("error bad_tool_argument: apps takes no argument dir\nhint: apps takes root"),
        "{a}"
    );

    demo.quit();
}
