#!/usr/bin/env bash
# The main job: start the custom demo headless (no window, no display; Vulkan lavapipe from
# mesa-vulkan-drivers is enough) and drive it end to end through the drop-box with the CLI:
# snapshot, click, type, a refused command, screenshot. Prints every answer, the final snapshot
# and the path of the screenshot. Exits non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Vulkan lavapipe and python3, when missing (see the script for how it installs).
bash scripts/setup-system.sh

cargo build --quiet --features winit-automation-e2e/automation -p winit-automation-e2e --example demo -p winit-automation-cli --bin winit-automation
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
cli="$target_dir/debug/winit-automation"
work=$(mktemp -d)
box="$work/box"

# No display at all: the demo draws into an offscreen texture.
env -u DISPLAY -u WAYLAND_DISPLAY "$target_dir/debug/examples/demo" --headless --dir "$box" 2>"$work/demo.log" &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT

# Wait for the handshake (the CLI says "app not running" until then), then for the first tree.
for _ in $(seq 1 600); do
    "$cli" --dir "$box" status >/dev/null 2>&1 && break
    sleep 0.05
done
"$cli" --dir "$box" wait role=textbox >/dev/null

run() { printf '$ winit-automation'; printf ' %q' "$@"; echo; "$cli" --dir "$box" "$@"; echo; }
run status
run snapshot -i
run click 'role=checkbox name=Subscribe' --settle
run click role=textbox
run type "Ada \"the Countess\" Lovelace"
run click role=button name=Submit --settle
echo "\$ winit-automation click name=Missing   (no such node: exit code 1 and a typed error expected)"
if "$cli" --dir "$box" click name=Missing 2>&1; then echo "unexpected success" >&2; exit 1; fi
echo
run screenshot quickstart --out "$work/quickstart.png"
echo "== the final snapshot"
"$cli" --dir "$box" snapshot --force
echo
echo "== the screenshot: $work/quickstart.png ($(wc -c < "$work/quickstart.png") bytes)"
run quit
wait $app
grep -E "adapter" "$work/demo.log" || true
echo "demo exited cleanly; ready.txt removed: $([ -e "$box/ready.txt" ] && echo no || echo yes)"
