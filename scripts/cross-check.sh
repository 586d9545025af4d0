#!/usr/bin/env bash
# Checks and lints, from this Linux machine, every crate a user adds for Windows
# (x86_64-pc-windows-msvc) and macOS (aarch64-apple-darwin): `cargo clippy -D warnings` over the
# protocol, drop-box, client, testing and CLI crates (with `mcp`), and winit-automation, the egui
# plugin and (Windows only, see below) the Bevy plugin (with `automation`), with their tests and
# examples. No SDK and no
# linker: it compiles, it never links. The rustup toolchains carry no other target's std, so it
# uses Debian's Rust (rustc-web, cargo-web, rust-web-clippy, with its std's sources in
# rust-web-src), which scripts/setup-system.sh installs when missing, and builds std for each
# target (`-Zbuild-std`, allowed on a stable compiler by RUSTC_BOOTSTRAP=1). Its own target
# directory, target/cross: Debian's rustc cannot use artifacts of rustup's. Prints each target's
# time and exits non-zero if either fails. Cold, on two cores shared with another build, Windows
# took 13 minutes and macOS 8.5 (std, Bevy and wgpu included); after an edit, seconds.
#
# Usage: bash scripts/cross-check.sh [TARGET...]      (default: both targets above)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh rustc-web cargo-web rust-web-clippy rust-web-src

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-pc-windows-msvc aarch64-apple-darwin)

# Debian's tools by their paths, whatever PATH says (rustup's proxies come first there):
# cargo-clippy runs $CARGO with its own clippy-driver (the one beside it) on the workspace's
# crates, and cargo runs $RUSTC on the others and on std.
export CARGO=/usr/bin/cargo RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/cross
unset RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER

# --all-targets: every crate's tests, examples and benches check on both targets too, so none is
# left to --lib/--bins (type-checked, never run or linked). The Bevy crate needs it: its
# dev-dependency on blake3 with `pure` keeps blake3's C out of the build (crates/bevy/Cargo.toml);
# a --lib check leaves dev-dependencies out and fails in blake3's build script. --keep-going:
# every crate whose dependencies check is checked, so one run shows every error.
packages=(
    -p winit-automation-protocol
    -p winit-automation-dropbox
    -p winit-automation-client
    -p winit-automation-testing
    -p winit-automation-cli
    -p winit-automation
    -p winit-automation-egui
)
features=winit-automation-cli/mcp,winit-automation/automation,winit-automation-egui/automation
# The Bevy plugin has no code of its own that differs by platform (no cfg of an OS, no file or
# process call: those are the drop-box's and the service's, checked on both targets), so one
# target proves it; Bevy is the largest build of the check, and macOS skips it.
bevy=(-p bevy_winit_automation --features bevy_winit_automation/automation)

status=0
times=()
for target in "${targets[@]}"; do
    echo "cross-check: $target" >&2
    start=$(date +%s)
    extra=()
    [ "$target" = aarch64-apple-darwin ] || extra=("${bevy[@]}")
    if /usr/bin/cargo-clippy clippy --target "$target" -Zbuild-std=std,panic_abort --keep-going \
        "${packages[@]}" --features "$features" "${extra[@]}" --all-targets -- -D warnings; then
        result=ok
    else
        result=failed
        status=1
    fi
    times+=("$target: $(($(date +%s) - start)) s, $result")
done
for line in "${times[@]}"; do
    echo "cross-check: $line" >&2
done
exit "$status"
