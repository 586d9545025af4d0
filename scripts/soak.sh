#!/usr/bin/env bash
# The soak: egui's gallery headless (the debug build), driven by four writers at once with a mix of
# valid, invalid, oversized and expiring commands, screenshots with `clean`, and trace starts and
# stops, for DURATION seconds and at least MIN commands (benches/soak.rs). Checks that every
# command was answered exactly once (or withdrawn at its deadline, its documented fate), that the
# drop-box is left with no entry, temporary file or unread response, that the gallery never
# panicked and quits with exit 0, and that its resident memory grew by less than 10 MiB from the
# first minute to the end. Prints the figures; exits non-zero when a check fails. Not run by CI.
# Needs mesa-vulkan-drivers (lavapipe).
#
#   scripts/soak.sh [DURATION_SECS [MIN_COMMANDS]]     (defaults: 600 and 20000)
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
    -h|--help)
        sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
esac
duration=${1:-600}
min=${2:-20000}
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')

cargo build --quiet --workspace --all-features --examples --bins
# The soak program itself, in the dev profile (cargo bench would build the whole workspace in
# release): its path from cargo's messages.
soak=$(cargo build --quiet --all-features --bench soak --message-format=json \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m["target"]["name"] == "soak" and m.get("executable"):
        print(m["executable"])')
work=$(mktemp -d)
echo "soak: drop-box and logs in $work"
status=0
"$soak" --app "$target_dir/debug/examples/egui_gallery" --dir "$work/box" --work "$work" \
    --duration "$duration" --min-commands "$min" || status=$?
if [ "$status" = 0 ]; then
    rm -rf "$work"
else
    echo "soak: failed; the drop-box and the gallery's stderr are kept in $work" >&2
fi
exit "$status"
