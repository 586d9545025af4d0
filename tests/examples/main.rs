//! The crate's examples and published apps as a person or an agent meets them: started as child
//! processes through the harness (`winit_automation_testing::Spawn`), headless or in a window, and
//! driven through every front end (the client library, the CLI, scripts, the MCP server, recorded
//! Rust tests). What a test needs beyond the machine's Vulkan driver is in its name:
//! `under_xvfb` (a virtual X server), `under_weston` (a headless Weston, for Wayland),
//! `in_chromium` (headless Chromium), `from_pypi` (the MCP Python SDK, installed from PyPI). The
//! README's test command installs all four and runs every test.
#![cfg(feature = "automation")]

#[path = "../common/mod.rs"]
mod common;

mod audit;
mod audit_doors;
mod e2e;
mod eframe;
mod gallery;
mod harness;
mod mcp;
mod mcp_python;
mod minimal;
mod record_gallery;
mod record_rust;
mod recorded_demo;
mod recorded_gallery_cli;
mod recorded_gallery_mcp;
mod scripts;
mod secrets;
mod suites;
mod trace_viewer;
mod wayland;
