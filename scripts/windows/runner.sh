#!/usr/bin/env bash
# Cargo runner for x86_64-pc-windows-gnu (CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER, set by
# scripts/windows/env.sh): `runner.sh prog.exe args...` runs the program under Wine 8 and exits
# with its exit code. Before that it
# - builds the bcryptprimitives.dll shim (process_prng.c; Rust >= 1.78's std needs ProcessPrng,
#   which Wine 8 lacks) once into $CARGO_TARGET_DIR/wine-shim and installs it in the prefix's
#   system32;
# - makes a private Wine prefix, $CARGO_TARGET_DIR/wine-prefix, on first use (no Mono/Gecko
#   prompts, no menu entries);
# - sets INSTA_WORKSPACE_ROOT to the workspace root as Wine sees it (Z:\...).
# Console programs need no X display. For graphical ones, with DISPLAY unset, WINE_XVFB=1 starts
# an Xvfb for this run and stops it afterwards.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
target=${CARGO_TARGET_DIR:-$root/target/windows}
wine=/usr/lib/wine/wine64
exe=$1
shift

dll=$target/wine-shim/bcryptprimitives.dll
if [[ ! $dll -nt $here/process_prng.c ]]; then
    mkdir -p "${dll%/*}"
    x86_64-w64-mingw32-gcc -shared -O2 -s -o "$dll.$$" "$here/process_prng.c" -ladvapi32
    mv -f "$dll.$$" "$dll"
fi

export WINEPREFIX=$target/wine-prefix WINEARCH=win64 WINEDEBUG=${WINEDEBUG:--all}
export WINEDLLOVERRIDES="mscoree,mshtml=;winemenubuilder.exe=d"
export INSTA_WORKSPACE_ROOT="Z:${root//\//\\}"
if [[ ! -f $WINEPREFIX/system.reg ]]; then
    # Once per prefix; flock keeps two cargo runs from making it together. wineboot's chatter
    # (e.g. the missing 32-bit rundll32.exe: harmless on a 64-bit-only Wine) goes to a log.
    mkdir -p "$target"
    (
        flock 9
        if [[ ! -f $WINEPREFIX/system.reg ]]; then
            echo "runner.sh: making the Wine prefix $WINEPREFIX" >&2
            timeout 300 "$wine" wineboot --init >"$target/wine-prefix.log" 2>&1 &&
                timeout 120 "${wine%64}server64" -w ||
                { cat "$target/wine-prefix.log" >&2; rm -rf "$WINEPREFIX"; exit 1; }
        fi
    ) 9>"$target/wine-prefix.lock"
fi
# The shim goes into the prefix's system32, where every program of the prefix finds it: a test
# binary in deps/ and the CLI it starts from debug/ alike. Copied under a temporary name and
# renamed, so a program that has the old one mapped keeps it whole.
system32=$WINEPREFIX/drive_c/windows/system32
if ! cmp -s "$dll" "$system32/bcryptprimitives.dll"; then
    cp -f "$dll" "$system32/.bcryptprimitives.$$" && mv -f "$system32/.bcryptprimitives.$$" "$system32/bcryptprimitives.dll"
fi

if [[ -n ${DISPLAY:-} || ${WINE_XVFB:-0} != 1 ]]; then
    exec "$wine" "$exe" "$@"
fi
# Our own Xvfb on a free display (it writes the number it took to fd 3).
command -v Xvfb >/dev/null || { echo "runner.sh: WINE_XVFB=1 needs Xvfb: sudo apt-get install xvfb" >&2; exit 1; }
fd=$(mktemp)
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$fd" 2>/dev/null &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null; rm -f "$fd"' EXIT
for _ in $(seq 100); do [[ -s $fd ]] && break; sleep 0.1; done
[[ -s $fd ]] || { echo "runner.sh: Xvfb did not start" >&2; exit 1; }
export DISPLAY=:$(head -n1 "$fd")
# A wineserver still up from a run without a display keeps a desktop with no graphics driver
# ("Application tried to create a window, but no driver could be loaded"): let it exit first.
"${wine%64}server64" -w
rc=0
"$wine" "$exe" "$@" || rc=$?
"${wine%64}server64" -w  # Wine's desktop process holds our display: let it end before Xvfb
exit "$rc"
