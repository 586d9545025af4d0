//! A test harness for apps that run the plugin (feature `testing`).
//!
//! - [`compare`]: screenshot comparison with a per-pixel threshold and a budget of failed pixels,
//!   the measure egui_kittest uses (through `dify`).
#![allow(clippy::print_stdout, clippy::print_stderr)]

pub mod compare;
