#!/usr/bin/env bash
# The test command: everything with all features, then the feature-gate test with the feature off
# (it proves the no-op build spawns no thread and creates no file).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --all-features
cargo test --test feature_gate
