//! `winit-automation mcp` driven by an off-the-shelf MCP client (rmcp's own client, spawning the
//! server over stdio) against the custom demo headless: the tool list, a snapshot, filling and
//! submitting the form, a screenshot whose image decodes to the window's size, and a typed error.
//!
//! Needs a Vulkan driver (`mesa-vulkan-drivers`) for the demo.
use crate::common::demo;
use crate::common::mcp_session;
use crate::common::trace_data;

use base64::Engine as _;
use demo::*;
use mcp_session::{call, text};
use rmcp::model::ContentBlock;
use winit_automation_protocol::Verb;

#[tokio::test(flavor = "current_thread")]
async fn an_mcp_client_fills_and_submits_the_demo_s_form_and_gets_its_screenshot() {
    let demo = start("demo", Mode::Headless(800, 600));
    wait_for(&demo, "button \"Submit\"", "the demo publishes its tree");
    let client = mcp_session::start(demo.dir()).await;

    // The server names itself, with instructions for the host.
    let info = client.peer_info().expect("the server's initialize result");
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "winit-automation");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    let instructions = info.instructions.as_deref().unwrap_or("");
    assert!(instructions.contains("A ref (@e12)"), "{instructions}");

    // With --caps all, one tool per verb, with the CLI's names, `apps` to find live apps and
    // `help` for a tool's details.
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    let expected: Vec<&str> = Verb::ALL
        .iter()
        .map(|v| v.spec().name)
        .chain(["apps", "help"])
        .collect();
    assert_eq!(
        names, expected,
        "one tool per verb of the table, then `apps` and `help`"
    );
    let click = tools.iter().find(|t| t.name == "click").unwrap();
    assert!(
        serde_json::to_string(&click.input_schema)
            .unwrap()
            .contains("\"target\""),
        "{:?}",
        click.input_schema
    );

    // The interactive snapshot: short lines with refs.
    let snapshot = call(&client, "snapshot", serde_json::json!({})).await;
    let s = text(&snapshot);
    assert_ne!(snapshot.is_error, Some(true), "{s}");
    assert!(s.contains("textbox \"Name\""), "{s}");
    assert!(!s.contains("bounds="), "{s}");

    // The clock, as an agent stops it and moves it on: `clock run` answers once the frames of
    // its steps are drawn, with the time they reached.
    let stopped = text(&call(&client, "clock", serde_json::json!({"what": "virtual"})).await);
    let at = |answer: &str| winit_automation_protocol::ClockAnswer::parse(answer).unwrap();
    let stopped = at(&stopped);
    assert!(stopped.virtual_clock && stopped.paused, "{stopped:?}");
    let ran = call(
        &client,
        "clock",
        serde_json::json!({"what": "run", "ms": 250, "step": 50}),
    )
    .await;
    let ran = at(&text(&ran));
    assert_eq!(
        ran.time - stopped.time,
        std::time::Duration::from_millis(250)
    );
    assert!(
        ran.frames >= stopped.frames + 5,
        "a frame per step: {ran:?}"
    );
    let real = at(&text(
        &call(&client, "clock", serde_json::json!({"what": "real"})).await,
    ));
    assert!(!real.virtual_clock && real.time >= ran.time, "{real:?}");

    // A trace of what follows, with frames, for a person to look at afterwards.
    let started = call(
        &client,
        "trace",
        serde_json::json!({"what": "start", "screenshots": true}),
    )
    .await;
    assert!(
        text(&started).contains("screenshots on"),
        "{}",
        text(&started)
    );

    // Fill the form and submit it: each action answers with what changed once the UI settled.
    let filled = call(
        &client,
        "fill",
        serde_json::json!({"target": "role=textbox name=Name", "text": "Ada"}),
    )
    .await;
    let f = text(&filled);
    assert!(f.contains("value=\"Ada\""), "{f}");
    // As short as the interactive snapshot: no bounds or action lists.
    assert!(!f.contains("bounds=") && !f.contains("actions="), "{f}");
    let submitted = call(
        &client,
        "click",
        serde_json::json!({"target": "role=button name=Submit"}),
    )
    .await;
    let t = text(&submitted);
    assert_ne!(submitted.is_error, Some(true), "{t}");
    assert!(
        t.contains("target @e") && t.contains("button \"Submit\""),
        "{t}"
    );
    let done = call(
        &client,
        "wait",
        serde_json::json!({"selector": "text~=\"Submitted: Ada\"", "timeout": 10000}),
    )
    .await;
    assert_ne!(done.is_error, Some(true), "{}", text(&done));
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("session.html");
    let stopped = call(
        &client,
        "trace",
        serde_json::json!({"what": "stop", "file": file.to_str().unwrap()}),
    )
    .await;
    assert!(text(&stopped).contains("steps 3\n"), "{}", text(&stopped));
    let data = trace_data::trace_data(&std::fs::read_to_string(&file).unwrap());
    let fill = &data["steps"][0];
    assert_eq!(fill["verb"], "fill");
    assert_eq!(fill["targets"][0]["selector"], "role=textbox name=\"Name\"");
    assert!(
        fill["image"].as_u64().is_some(),
        "the frame after it: {fill}"
    );

    // The exact frame as an image: a PNG of the window's size.
    let shot = call(&client, "screenshot", serde_json::json!({"label": "mcp"})).await;
    let image = shot
        .content
        .iter()
        .find_map(|c| match c {
            ContentBlock::Image(i) => Some(i.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no image in {:?}", text(&shot)));
    assert_eq!(image.mime_type, "image/png");
    let png = base64::engine::general_purpose::STANDARD
        .decode(&image.data)
        .unwrap();
    let reader = png::Decoder::new(std::io::Cursor::new(png))
        .read_info()
        .expect("a PNG");
    assert_eq!((reader.info().width, reader.info().height), (800, 600));

    // A typed error for a node that is not there: a tool error with its code and hint.
    let missing = call(
        &client,
        "click",
        serde_json::json!({"target": "role=button name=Nope"}),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    let m = text(&missing);
    assert!(m.starts_with("error not_found: "), "{m}");
    assert!(m.contains("\nhint: "), "{m}");

    // Scalars sent as strings, as some hosts do, are read as the schema's type; a value of no such
    // type is refused naming the argument.
    let typed = call(
        &client,
        "fill",
        serde_json::json!({"target": "role=textbox name=Name", "text": "Grace", "settle": "true", "timeout": "5000"}),
    )
    .await;
    assert!(text(&typed).contains("value=\"Grace\""), "{}", text(&typed));
    let wrong = call(
        &client,
        "click",
        serde_json::json!({"target": "@e1", "settle": "maybe"}),
    )
    .await;
    assert_eq!(wrong.is_error, Some(true));
    assert!(
        text(&wrong).starts_with("error bad_tool_argument: argument settle must be a boolean"),
        "{}",
        text(&wrong)
    );

    // The one grammar: an unquoted value with spaces and an unknown role are refused with the
    // CLI's and the command line's code, message and hint.
    let unquoted = call(
        &client,
        "find",
        serde_json::json!({"selector": "role=button name~=Sub mit"}),
    )
    .await;
    assert_eq!(
        text(&unquoted),
        "error bad_argument: \"mit\" after name~=Sub is not a selector term\nhint: quote a value with spaces: role=button name~=\"Sub mit\"\n"
    );
    let typo = call(
        &client,
        "find",
        serde_json::json!({"selector": "role=buton"}),
    )
    .await;
    assert!(
        text(&typo).starts_with(
            "error bad_argument: unknown role \"buton\"\nhint: did you mean role=button"
        ),
        "{}",
        text(&typo)
    );

    // The journal is a tool too: what was answered, with the selectors refs resolved to.
    let journal = call(&client, "journal", serde_json::json!({})).await;
    let j = text(&journal);
    assert!(
        j.contains("\"click role=button name=\\\"Submit\\\" --settle"),
        "{j}"
    );

    // One session drives several apps: `dir` picks one per call.
    let other = start("demo", Mode::Headless(640, 480));
    wait_for(
        &other,
        "button \"Submit\"",
        "the second demo publishes its tree",
    );
    let windows = call(&client, "windows", serde_json::json!({"dir": other.dir()})).await;
    assert!(
        text(&windows).contains("size=640x480"),
        "{}",
        text(&windows)
    );
    let windows = call(&client, "windows", serde_json::json!({})).await;
    assert!(
        text(&windows).contains("size=800x600"),
        "{}",
        text(&windows)
    );
    other.quit();

    // The live app is listed under its parent directory.
    let apps = call(
        &client,
        "apps",
        serde_json::json!({"root": demo.dir().parent().unwrap()}),
    )
    .await;
    assert!(
        text(&apps).contains(&demo.dir().display().to_string()),
        "{}",
        text(&apps)
    );

    client.cancel().await.unwrap();
    demo.quit();
}

/// Bad options are refused before any session starts, with a hint: an unknown group, and
/// `--json` (the server speaks MCP's own JSON-RPC).
#[test]
fn the_server_refuses_an_unknown_group_and_json_output() {
    let dir = tempfile::tempdir().unwrap();
    for (args, said) in [
        (
            vec!["mcp", "--caps", "gestures,vision"],
            "no capability group \"vision\"",
        ),
        (vec!["mcp", "--json"], "hint: drop --json"),
    ] {
        let out = crate::common::cli_binary::run(dir.path(), &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = crate::common::cli_binary::stderr(&out);
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(
            crate::common::cli_binary::stdout(&out).is_empty(),
            "{args:?}"
        );
    }
}
