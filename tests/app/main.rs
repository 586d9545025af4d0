//! The plugin and its service thread driven in process, through the drop-box, by the test app of
//! tests/common (`TestApp`: a frame loop with no window and no GPU unless a test adds one), and
//! by the real CLI against it. One binary, one module per subject; nothing here needs a display,
//! a browser or the network.
#![cfg(feature = "automation")]

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod bursts;
mod capture;
mod cli;
mod deadlines;
mod dropbox;
mod gestures;
mod input;
mod journal;
mod noise;
mod pipelined;
mod protocol_version;
mod secrets;
mod targeting;
mod trace;
mod trees;
mod visible;

/// The child app some tests start as another process (`common::ChildApp`): this binary re-run
/// with `--exact child_app`.
#[test]
#[ignore = "entry point of the child-app process other tests start"]
fn child_app() {
    common::child_app_main(deadlines::form_child);
}
