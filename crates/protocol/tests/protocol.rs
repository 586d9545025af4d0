//! The protocol's integration tests, one binary: the golden text here, the properties of the
//! grammar and of the answer lines in `protocol/props.rs`.
//!
//! Golden text: the exact bytes of the formats this crate writes (responses, canonical command
//! lines, parse errors), as docs/protocol.md shows them; the snapshots are under `snapshots/`
//! (`ready.txt`'s is the drop-box crate's, in `crates/dropbox/tests/golden.rs`). A change here is
//! a protocol change: update docs/protocol.md and review the snapshot.

// Beside this file, not in tests/ itself, where Cargo would build it as a binary of its own.
#[path = "protocol/props.rs"]
mod props;

use winit_automation_protocol::{Command, ErrorCode, Failure, Response, Verb};

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
        "snapshot --max-bytes 4000 --diff",
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
        "click @e1 --double --hold 500",
        "click @e1 --modifiers shift+hyper",
        "click @e1 --modifiers ctrl+ctrl",
        "drag @e1 to @e2 --steps 0",
        "stroke 10,10",
        "stroke role=button name=OK 10,10",
        "stroke role=button name=\"OK\" 10,10",
        "drag @e1 to @e2 --steps 5000",
        "click @e1 --hold 18446744073709551615",
        "type correct horse battery --secret",
        "up 10,10",
        "pinch @e1 0",
        "pinch @e1 2 --pan up",
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
