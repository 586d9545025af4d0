#!/usr/bin/env bash
# The test command. It sets itself up: the system packages the tests need (lavapipe, Xvfb) are
# installed first when missing (scripts/setup-system.sh). Then everything with all features, then
# the feature-gate test with the feature off (it proves the no-op build spawns no thread and
# creates no file).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
cargo test --all-features
cargo test --test feature_gate
