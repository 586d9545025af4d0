#!/usr/bin/env bash
# The main job of this release: start the headless counter example with automation on and drive it
# end to end through the CLI, printing every answer. Exits non-zero if any step fails.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --features automation,cli --example counter --bin winit-automation
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
cli="$target_dir/debug/winit-automation"
box=$(mktemp -d)/box

"$target_dir/debug/examples/counter" --dir "$box" 2>/dev/null &
app=$!
trap 'kill $app 2>/dev/null || true' EXIT

# Wait for the handshake (the CLI says "app not running" until then).
for _ in $(seq 1 200); do
    "$cli" --dir "$box" status >/dev/null 2>&1 && break
    sleep 0.05
done

run() { printf "$ winit-automation"; printf " %q" "$@"; echo; "$cli" --dir "$box" "$@"; echo; }
run status
run snapshot
run click role=button name=Increment
run click role=button name=Increment
run type "hello, \"world\""
run snapshot -i
run find name~=count
echo "\$ winit-automation click name=Missing   (no such node: exit code 1 and a typed error expected)"
if "$cli" --dir "$box" click name=Missing 2>&1; then echo "unexpected success" >&2; exit 1; fi
echo
run quit
wait $app
echo "counter exited cleanly; ready.txt removed: $([ -e "$box/ready.txt" ] && echo no || echo yes)"
