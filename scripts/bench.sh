#!/usr/bin/env bash
# The benchmarks: builds the release demo the windowed measurements drive, then runs every bench
# target. Prints one table row per target; asserts nothing. Needs xvfb and mesa-vulkan-drivers.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --all-features --examples
cargo bench --quiet --all-features --bench trees --bench frame
