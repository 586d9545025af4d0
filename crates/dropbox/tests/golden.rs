//! Golden text: the exact bytes of the file this crate writes on its own, `ready.txt`, as
//! docs/protocol.md shows it (the protocol crate's goldens are in `crates/protocol/tests/`). A
//! change here is a protocol change: update docs/protocol.md and review the snapshot.

use winit_automation_dropbox::Ready;
use winit_automation_protocol::PROTOCOL_VERSION;

#[test]
fn ready_txt() {
    let ready = Ready {
        protocol: PROTOCOL_VERSION,
        pid: 4242,
        os: "linux".into(),
        app: "demo".into(),
        crate_version: "0.1.0".into(),
        started_unix_ms: 1_796_155_036_123,
        queue_capacity: 256,
        max_command_bytes: 65536,
    };
    insta::assert_snapshot!(ready.to_text());
}
