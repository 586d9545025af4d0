//! Golden text: the exact bytes of every format the crate writes, as docs/protocol.md shows them.
//! A change here is a protocol change: update docs/protocol.md and review the snapshot.

use winit_automation_dropbox::Ready;
use winit_automation_protocol::{Command, ErrorCode, Failure, PROTOCOL_VERSION, Response, Verb};

#[test]
fn ready_txt() {
    let ready = Ready {
        protocol: PROTOCOL_VERSION,
        pid: 4242,
        app: "demo".into(),
        crate_version: "0.1.0".into(),
        started_unix_ms: 1_796_155_036_123,
        queue_capacity: 256,
        max_command_bytes: 65536,
    };
    insta::assert_snapshot!(ready.to_text());
}

#[test]
fn responses() {
    let ok = Response::ok(7, Some(Verb::Click), "frame 42\nclicked @e3");
    let empty = Response::ok(8, Some(Verb::Quit), "");
    let error = Response::error(
        9,
        Some(Verb::Click),
        Failure::new(
            ErrorCode::Ambiguous,
            "role=button matches 2 nodes",
            "add name=... or nth=N to pick one",
        )
        .with_body("@e3 button \"Save\"\n@e9 button \"Save\""),
    );
    let unparsable = Response::error(10, None, Command::parse("jump \"a\\nb\"").unwrap_err());
    insta::assert_snapshot!(format!(
        "{}---\n{}---\n{}---\n{}",
        ok.to_text(),
        empty.to_text(),
        error.to_text(),
        unparsable.to_text()
    ));
}

#[test]
fn canonical_command_lines() {
    let inputs = [
        "status",
        "windows",
        "snapshot --interactive --depth 2 --scope @e4",
        "snapshot --raw --force --diff",
        "find name~=Sav role=button nth=1",
        "get 12,40",
        "wait role=dialog --gone --timeout 3000",
        "settle --frames 3",
        "clean --dry-run --keep 3",
        "click --double @e3 --settle",
        "hover role=link name=\"Help\"",
        "drag @e1 300,40.5",
        "scroll @e9 0 120",
        "type \"tab\\there\\nand a \\\"quote\\\"\"",
        "fill id=email \"ada@example.com\"",
        "key Return CTRL+A shift+tab",
        "action @e5 set_value 42",
        "focus @e2",
        "resize 1280 720",
        "screenshot",
        "screenshot after-click --ref \"role=dialog\"",
        "quit",
    ];
    let table: String = inputs
        .iter()
        .map(|i| format!("{i}\n  => {}\n", Command::parse(i).unwrap().to_line()))
        .collect();
    insta::assert_snapshot!(table);
}

#[test]
fn parse_errors() {
    let inputs = [
        "",
        "jump",
        "click",
        "click @e0",
        "click hello",
        "status now",
        "snapshot --colour",
        "snapshot -i --raw",
        "type \"unterminated",
        "type \"bad \\q escape\"",
        "find @e1",
        "find role~=button",
        "key hyper+x",
        "action @e1 fly",
        "resize 0 10",
        "screenshot ../../etc/passwd",
        "scroll @e1 0",
        "click @e1 --frames 2",
    ];
    let table: String = inputs
        .iter()
        .map(|i| {
            let e = Command::parse(i).unwrap_err();
            format!("{i:?}\n  {} {:?}\n  hint {:?}\n", e.code, e.message, e.hint)
        })
        .collect();
    insta::assert_snapshot!(table);
}
