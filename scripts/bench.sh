#!/usr/bin/env bash
# The benchmarks: one table row per performance target, measured here, against its target.
# Builds the release demo the windowed and headless rows drive, runs every bench target, then the
# feature-off checks. Asserts nothing. Needs xvfb, mesa-vulkan-drivers and binutils (nm).
# After the first release build it takes about five minutes on two cores.
#
#   scripts/bench.sh [--peer DIR]
#   scripts/bench.sh --compare REF [REF2]
#
# --peer DIR: a Native SDK checkout with its `ui-inbox` example and CLI built with automation
# (../shared/peer-native/README.md, docs/performance.md): benches/versus.rs then measures it
# beside this crate, taking turns per block of samples, and prints the ratios.
# --compare REF: only the click A/B (benches/compare.rs): REF's release demo and CLI, built once
# into target/compare and kept there, against the working tree's, clicks in turns, three
# sittings; prints p50 and p99 of both and their ratios, and exits with 1 when this tree's p50 is
# more than 10% above REF's. Run it before any change on the click's path (docs/performance.md).
# With REF2, REF2's build stands in for the working tree's (a bisect's step).
set -euo pipefail
# built_at runs in $(...), where bash drops -e unless told: a failed build must stop the script.
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
usage="usage: scripts/bench.sh [--peer DIR] | scripts/bench.sh --compare REF [REF2]"
compare=""
against=""
while [ $# -gt 0 ]; do
    case "$1" in
        --peer)
            [ $# -ge 2 ] || { echo "bench.sh: --peer needs the Native SDK checkout" >&2; exit 2; }
            [ -x "$2/examples/ui-inbox/zig-out/bin/ui-inbox" ] || {
                echo "bench.sh: no $2/examples/ui-inbox/zig-out/bin/ui-inbox; build the peer first (docs/performance.md)" >&2
                exit 2
            }
            export WINIT_AUTOMATION_PEER="$(cd "$2" && pwd)"
            shift 2
            ;;
        --compare)
            [ $# -ge 2 ] || { echo "bench.sh: --compare needs a commit, tag or branch (e.g. --compare 56cf73a)" >&2; exit 2; }
            compare="$2"
            shift 2
            if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
                against="$1"
                shift
            fi
            ;;
        -h|--help)
            sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "bench.sh: unknown argument $1 ($usage)" >&2
            exit 2
            ;;
    esac
done
target_dir=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')

# A commit's release demo and CLI, built once into target/compare/bin/<commit> (cached there);
# prints that folder.
built_at() {
    local sha cache bin src
    sha=$(git rev-parse --verify --quiet "$1^{commit}") || {
        echo "bench.sh: $1 names no commit here (a commit, tag or branch: git rev-parse must know it)" >&2
        exit 2
    }
    sha=${sha:0:12}
    cache="$target_dir/compare"
    bin="$cache/bin/$sha"
    if [ ! -x "$bin/demo" ] || [ ! -x "$bin/winit-automation" ]; then
        echo "bench.sh: building $1 ($sha)'s release demo and CLI into $cache (once; kept for the next run)" >&2
        src="$cache/src/$sha"
        rm -rf "$src"
        mkdir -p "$src"
        git archive "$sha" | tar -x -C "$src"
        # Its own workspace: the sources lie under this one's target folder, and cargo would
        # take them for a member of this workspace.
        grep -q '^\[workspace\]' "$src/Cargo.toml" || printf '\n[workspace]\n' >>"$src/Cargo.toml"
        (
            cd "$src"
            export CARGO_TARGET_DIR="$cache/target"
            cargo build --release --quiet --example demo --features automation
            # The CLI is a crate of its own since the workspace split; before, a feature of the root.
            if [ -d crates/cli ]; then
                cargo build --release --quiet -p winit-automation-cli --bin winit-automation
            else
                cargo build --release --quiet --bin winit-automation --features cli
            fi
        ) >&2
        mkdir -p "$bin"
        cp "$cache/target/release/examples/demo" "$cache/target/release/winit-automation" "$bin/"
        rm -rf "$src"
    fi
    echo "$bin"
}

if [ -n "$compare" ]; then
    export WINIT_AUTOMATION_COMPARE WINIT_AUTOMATION_COMPARE_NAME="$compare"
    WINIT_AUTOMATION_COMPARE=$(built_at "$compare")
    if [ -n "$against" ]; then
        # Two commits, neither the working tree: a bisect's step.
        export WINIT_AUTOMATION_COMPARE_WITH WINIT_AUTOMATION_COMPARE_WITH_NAME="$against"
        WINIT_AUTOMATION_COMPARE_WITH=$(built_at "$against")
        cargo bench --quiet --features automation --bench compare --no-run
    else
        cargo build --release --quiet --example demo --features automation
        cargo build --release --quiet -p winit-automation-cli --bin winit-automation
    fi
    exec cargo bench --quiet --features automation --bench compare
fi

# The examples the benches start, and the release CLI (its own crate) the CLI rows run.
cargo build --release --quiet --workspace --all-features --examples --bins
cargo bench --quiet --all-features --bench floor --bench versus --bench backlog --bench trees --bench frame --bench clicks --bench trace --bench suite
# The same render loop with the feature off (the shim).
cargo bench --quiet --bench frame_off
# The Bevy plugin's cost per frame inside Bevy (a release build of Bevy: long the first time).
cargo bench --quiet -p bevy_winit_automation --features automation --bench frame_cost

# The feature off: the demo built without it has no automation thread at run time and no
# automation code in its symbol table.
cargo build --release --quiet --example demo
demo="$target_dir/release/examples/demo"
# (link's plain data types, such as WindowState, are the app's own data in both builds.)
symbols=$(nm -C "$demo" | grep -c -E 'winit_automation_(dropbox|service|tree|acting|audit|trace)::|winit_automation_link::(render|pictures|request)|winit_automation::capture|automation::feature::start' || true)
names=$(grep -c -a 'automation-svc' "$demo" || true)
box=$(mktemp -d)
xvfb-run -a -s "-screen 0 1280x800x24" "$demo" --dir "$box/box" >/dev/null 2>&1 &
runner=$!
threads=-1
for _ in $(seq 1 100); do
    pid=$(pgrep -f -n "^$demo" || true)
    if [ -n "$pid" ] && [ -d "/proc/$pid/task" ]; then
        sleep 1
        threads=$(cat /proc/"$pid"/task/*/comm 2>/dev/null | grep -c automation-svc || true)
        files=$(ls -A "$box" | wc -l)
        break
    fi
    sleep 0.1
done
pkill -f "^$demo" || true
wait $runner 2>/dev/null || true
verdict=MISSED
[ "$symbols" = 0 ] && [ "$names" = 0 ] && [ "$threads" = 0 ] && [ "${files:-1}" = 0 ] && verdict=met
echo "| feature off: demo binary, automation symbols / 'automation-svc' strings / threads at run time / files created | $symbols / $names / $threads / ${files:-?} | | 0 / 0 / 0 / 0 | $verdict |"
