#!/usr/bin/env bash
# Windows, run here under Wine. First the Windows (x86_64-pc-windows-gnu) build of the listed
# crates' unit and integration tests (the CLI's with its default features, no `mcp`); then two
# examples (winit-automation's minimal.rs, the egui plugin's eframe_app.rs) and the CLI as Windows
# programs, driven across one drop-box from both sides (scripts/windows/drive.sh). Debian's Rust
# 1.96 builds std from source, mingw-w64 links, and scripts/windows/runner.sh runs each program
# under Wine 8. Doctests are left out: they do not build for a -Zbuild-std target (the Linux run
# covers them). Extra arguments go to cargo test, e.g. `scripts/wine.sh -- --nocapture`. Installs
# what it needs on Debian (scripts/setup-system.sh). Outputs: target/windows (Windows), target/
# (the Linux CLI and example).
set -euo pipefail
cd "$(dirname "$0")/.."
# The crates whose suites run as Windows programs.
packages=(winit-automation-protocol winit-automation-dropbox winit-automation-client winit-automation-cli)
bash scripts/setup-system.sh rustc-web cargo-web rust-web-src gcc-mingw-w64-x86-64 wine64 xvfb
start=$(date +%s)

# The Linux side of the drive, with the test command's features (a no-op after scripts/test.sh).
cargo build --quiet --workspace --all-features --bin winit-automation --example minimal
linux=${CARGO_TARGET_DIR:-target}/debug

. scripts/windows/env.sh
# --tests: every target whose tests run (libraries, binaries, integration tests), not doctests.
cargo test --tests --target "$WINDOWS_TARGET" "$WINDOWS_BUILD_STD" "${packages[@]/#/--package=}" "$@"
cargo build --target "$WINDOWS_TARGET" "$WINDOWS_BUILD_STD" -p winit-automation --features automation --example minimal
cargo build --target "$WINDOWS_TARGET" "$WINDOWS_BUILD_STD" -p winit-automation-egui --features automation --example eframe_app
cargo build --target "$WINDOWS_TARGET" "$WINDOWS_BUILD_STD" -p winit-automation-cli --bin winit-automation
windows=$CARGO_TARGET_DIR/$WINDOWS_TARGET/debug
scripts/windows/drive.sh "$linux/winit-automation" "$linux/examples/minimal" \
    "$windows/winit-automation.exe" "$windows/examples/minimal.exe" "$windows/examples/eframe_app.exe"
echo "wine.sh: passed in $(($(date +%s) - start)) s" >&2
