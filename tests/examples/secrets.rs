//! Secrets are never written down: a known secret typed into egui's gallery's password field
//! (Misc Demos, Misc widgets) through every door (the harness, the CLI, the MCP server, a
//! script, a raw command line), with a script recorder and a Rust recorder running and a trace
//! kept, then searched for in every answer, every file of the drop-box, the trace, both
//! recordings, the harness's failure artifacts and the app's log: zero hits.
//!
//! Headless, with a Vulkan driver (`mesa-vulkan-drivers`).
use std::path::Path;
use std::process::Command as Process;

use crate::common::file_with::file_with;
use crate::common::{cli_binary, mcp_session, recorder};

use winit_automation_testing::{App, By, Spawn};

/// The secret every door types. Long and odd enough that no other text holds it.
const SECRET: &str = "Sw0rdf1sh-42-zq";

/// The CLI run against the app; its stdout and stderr together.
fn cli(app: &App, args: &[&str], env: Option<(&str, &str)>) -> String {
    let mut cmd = Process::new(cli_binary::cli());
    cmd.arg("--dir").arg(app.dir()).args(args);
    if let Some((k, v)) = env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{args:?}: {text}");
    text
}

/// Every file under `dir` (recursively) whose bytes hold `needle`.
fn files_holding(dir: &Path, needle: &str) -> Vec<String> {
    let mut hits = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(d) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                pending.push(path);
            } else if std::fs::read(&path)
                .is_ok_and(|b| b.windows(needle.len()).any(|w| w == needle.as_bytes()))
            {
                hits.push(path.display().to_string());
            }
        }
    }
    hits
}

/// The gallery's password field, shown: Misc Demos open, Misc widgets expanded.
fn password_field(app: &App) -> winit_automation_testing::Node<'_> {
    app.ok("click text~=\"Misc Demos\" --settle --timeout 20000");
    app.ok("click role=disclosuretriangle name=\"Misc widgets\" --settle --timeout 20000");
    app.get_all(&By::role("textbox"))
        .into_iter()
        .find(|n| n.line().password)
        .unwrap_or_else(|| panic!("no password field:\n{}", app.snapshot()))
}

#[tokio::test(flavor = "current_thread")]
async fn a_secret_typed_through_every_door_is_written_nowhere() {
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("trace.html");
    let app = Spawn::example("egui_gallery")
        .headless(1280, 800)
        .trace(&trace)
        .start();
    app.ok("settle --timeout 20000");
    let script = tmp.path().join("recorded.txt");
    let rust = tmp.path().join("recorded.rs");
    let script_recorder = recorder::start(app.dir(), &[], &script);
    let rust_recorder = recorder::start(app.dir(), &["--rust"], &rust);

    let field = password_field(&app);
    // The field says it is one, and keeps its role.
    assert_eq!(field.role(), "textbox", "{:?}", field.line());
    let target = field.r#ref().to_string();
    let empty = field.screenshot().image;
    let mut answers = Vec::new();

    // The harness: a password field's fill is a secret by itself, and fill_secret says so.
    answers.push(field.fill(SECRET));
    answers.push(field.fill_secret(SECRET));
    answers.push(app.type_secret(SECRET));
    // The CLI: the field makes it a secret; --secret on type.
    answers.push(cli(&app, &["fill", &target, SECRET], None));
    answers.push(cli(&app, &["type", "--secret", SECRET], None));
    // A raw command line (the client library's; the CLI's `send`).
    answers.push(cli(
        &app,
        &["send", &format!("fill {target} \"{SECRET}\"")],
        None,
    ));
    answers.push(app.ok(&format!("type \"{SECRET}\" --secret")));
    // A script: it holds the placeholder, the runner reads the secret from the environment.
    let run = tmp.path().join("run.txt");
    std::fs::write(
        &run,
        format!("fill {target} \"$WINIT_AUTOMATION_SECRET\" --secret\n"),
    )
    .unwrap();
    let ran = cli(
        &app,
        &["run", run.to_str().unwrap()],
        Some(("WINIT_AUTOMATION_SECRET", SECRET)),
    );
    answers.push(ran);
    // The MCP server: the field makes it a secret, and the tool's `secret` argument.
    let client = mcp_session::start(app.dir()).await;
    for args in [
        serde_json::json!({ "target": target, "text": SECRET }),
        serde_json::json!({ "target": target, "text": SECRET, "secret": true }),
    ] {
        answers.push(mcp_session::tool(&client, "fill", args).await);
    }
    client.cancel().await.unwrap();

    // Each answer says a secret was typed, and holds nothing of it.
    for answer in &answers {
        assert!(
            !answer.contains(SECRET),
            "an answer holds the secret: {answer}"
        );
    }
    assert!(
        answers
            .iter()
            .filter(|a| a.contains("typed secret"))
            .count()
            >= 8,
        "every door's answer says `typed secret`: {answers:#?}"
    );
    // The field took the text (egui draws its bullets), and its line shows no value: not even
    // the bullets' count.
    let after = field.screenshot().image;
    assert_eq!(after.width, empty.width);
    let changed = after
        .pixels
        .iter()
        .zip(&empty.pixels)
        .filter(|(a, b)| a != b)
        .count();
    assert!(
        changed > 20,
        "the field drew the text: {changed} bytes changed"
    );
    let shown = field.refresh();
    assert_eq!(shown.value(), None, "{:?}", shown.line());

    // The recordings hold the placeholder, never the secret.
    let written = file_with(&script, "$WINIT_AUTOMATION_SECRET");
    assert!(written.contains("--secret"), "{written}");
    file_with(&rust, "fill_secret(");
    recorder::interrupt(script_recorder);
    recorder::interrupt(rust_recorder);

    // A harness failure leaves its artifacts (the tree, the journal, a screenshot).
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        app.get(&By::text("no node says this"));
    }));
    let message = match failed {
        Err(panic) => winit_automation_protocol::panic_message(&*panic),
        Ok(()) => panic!("the query found a node that is not there"),
    };
    assert!(!message.contains(SECRET), "{message}");
    let artifacts = message
        .lines()
        .find_map(|l| {
            l.split("artifacts (tree, journal, trace, screenshot): ")
                .nth(1)
        })
        .map(|p| Path::new(p.trim()).to_path_buf());

    let mut hits = files_holding(app.dir(), SECRET);
    hits.extend(files_holding(tmp.path(), SECRET));
    if let Some(dir) = &artifacts {
        assert!(dir.is_dir(), "{}", dir.display());
        hits.extend(files_holding(dir, SECRET));
    }
    let journal = app.ok("journal");
    // Every entry of a secret holds the placeholder in its quoted line.
    let typed = journal
        .lines()
        .filter(|l| l.contains("$WINIT_AUTOMATION_SECRET"));
    assert!(typed.count() >= 10, "{journal}");
    assert!(!journal.contains(SECRET), "{journal}");
    let log = app.output();
    app.quit();
    hits.extend(files_holding(tmp.path(), SECRET));
    assert!(
        !log.contains(SECRET),
        "the app's log holds the secret:\n{log}"
    );
    let html = std::fs::read_to_string(&trace).expect("the trace was written");
    assert!(html.contains("typed secret"), "the trace has the steps");
    assert_eq!(hits, Vec::<String>::new(), "files holding the secret");
}
