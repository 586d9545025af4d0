#!/usr/bin/env bash
# The test command: installs the system packages the tests need when they are missing
# (scripts/setup-system.sh), then every crate's tests with all features (the workspace build also
# builds the examples and the CLI the end-to-end tests run; the Bevy plugin's crate is one of them:
# a cold build of its tests takes about 6 minutes on two cores, its tests about 20 s), then the
# feature-gate test with the feature off (it proves the no-op build spawns no thread and creates
# no file), then names the adapter the GPU tests ran on.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-system.sh
cargo test --workspace --all-features
cargo test -p winit-automation-e2e --test feature_gate
# A fall-back from Vulkan to GL fails the GPU tests; this line shows the adapter either way.
cargo test --quiet -p winit-automation-e2e --all-features --test examples minimal::the_minimal_example_switches_its_colour_headless -- --nocapture 2>&1 | grep '^adapter:' || true
