#!/usr/bin/env bash
# One drop-box, two systems. Windows programs run under Wine and the Linux CLI drives them:
# examples/minimal.rs (winit-automation's) headless, then in a window on Wine's X11 driver; and
# examples/eframe_app.rs (the egui plugin's) in a window, where egui's hit test verifies the click.
# Then the Linux build of minimal runs headless and the Windows CLI drives it. Each drive clicks a
# button and checks the effect in the tree; the Linux CLI also takes a screenshot and checks that
# its pixels are the frame after the click. Wine maps the Linux root to drive Z:, so both sides
# name one folder. Needs the programs built (scripts/wine.sh builds them) and Xvfb: Wine's
# graphics driver wants an X display even for Vulkan and for the headless app. Exits non-zero on
# the first check that fails, with what the apps said.
#
# Usage: scripts/windows/drive.sh LINUX_CLI LINUX_MINIMAL WINDOWS_CLI WINDOWS_MINIMAL WINDOWS_EFRAME
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
linux_cli=$1 linux_app=$2 windows_cli=$3 windows_app=$4 windows_eframe=$5
work=$(mktemp -d /tmp/winit-automation-wine.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "drive.sh: $*" >&2
    for log in "$work"/*.log; do echo "--- $log" >&2; tail -n 20 "$log" >&2; done
    exit 1
}
# Z:\tmp\... for a Linux path.
windows_path() { printf 'Z:%s' "${1//\//\\}"; }

# One X display for Wine, started here and ended here.
fd=$work/display
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$fd" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [[ -s $fd ]] && break; sleep 0.1; done
[[ -s $fd ]] || fail "Xvfb did not start"
export DISPLAY=:$(head -n1 "$fd")
# Lavapipe through Wine's Vulkan: the DX12 adapter (vkd3d) loses eframe's device at its request.
export WGPU_BACKEND=vulkan

# The Linux CLI with a deadline that covers a software-rendered first frame.
cli() { "$linux_cli" --timeout 30000 "$@"; }
win_cli() { "$here/runner.sh" "$windows_cli" --timeout 30000 "$@"; }

# Waits until the app in DIR has published a tree with the button; prints the button's ref.
button_ref() {
    local dir=$1 snapshot
    for _ in $(seq 600); do
        snapshot=$(cli --dir "$dir" snapshot 2>/dev/null || true)
        if [[ $snapshot == *'button "Switch"'* ]]; then
            grep -o '@e[0-9]* button "Switch"' <<<"$snapshot" | cut -d' ' -f1
            return
        fi
        sleep 0.1
    done
    fail "no button in $dir's tree after 60 s: $snapshot"
}

# Clicks the button through CLI ($1: cli or win_cli), then checks the label in the Linux CLI's
# snapshot and, with a screenshot, the frame's centre pixel (yellow: 255,255,0).
click_and_check() {
    local via=$1 dir=$2 shown=$3 ref answer after
    ref=$(button_ref "$dir")
    answer=$($via --dir "$shown" click "$ref") || fail "click $ref: $answer"
    echo "drive.sh: click $ref through $via: ${answer//$'\n'/ | }" >&2
    after=$(cli --dir "$dir" snapshot)
    [[ $after == *'"Colour: yellow"'* ]] || fail "the click did not switch the colour: $after"
    cli --dir "$dir" screenshot drive --out "$work/shot.png" >/dev/null || fail "screenshot"
    python3 - "$work/shot.png" <<'PY' || fail "the screenshot is not the frame after the click"
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, width, height = 8, b"", 0, 0
while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    if kind == b"IHDR":
        width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        assert (depth, colour) == (8, 6), f"8-bit RGBA expected, got {depth} {colour}"
    elif kind == b"IDAT":
        idat += body
    pos += 12 + length
raw, stride = zlib.decompress(idat), width * 4 + 1
rows, prev = [], bytearray(width * 4)
for y in range(height):
    kind, line = raw[y * stride], bytearray(raw[y * stride + 1:(y + 1) * stride])
    for i in range(len(line)):
        a = line[i - 4] if i >= 4 else 0
        b, c = prev[i], prev[i - 4] if i >= 4 else 0
        p = a + b - c
        pred = [0, a, b, (a + b) // 2,
                a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c) else b if abs(p - b) <= abs(p - c) else c][kind]
        line[i] = (line[i] + pred) & 0xFF
    rows.append(line)
    prev = line
r, g, b = rows[height // 2][width // 2 * 4:width // 2 * 4 + 3]
print(f"drive.sh: screenshot {width}x{height}, centre pixel {r},{g},{b}", file=sys.stderr)
assert r >= 250 and g >= 250 and b <= 5, "not yellow"
PY
}

# Wine answers a folder's security from its Unix mode and ignores the DACL a Windows program sets,
# so a folder the Windows app made itself may be open to everyone (and refused, as it should be);
# here each Windows app's folder is made private first, from the Linux side.
private() { mkdir -m 700 "$1"; }

# 0. A folder anyone may write to is refused by the Windows app's check, which names Everyone.
dir=$work/open
mkdir -m 777 "$dir" && chmod 777 "$dir"
if WINIT_AUTOMATION_DIR=$(windows_path "$dir") timeout 120 "$here/runner.sh" "$windows_app" \
    --headless >"$work/open.log" 2>&1; then
    fail "the Windows app took a folder of mode 777"
fi
grep -q 'Writable.*Everyone' "$work/open.log" || fail "the refusal does not name Everyone"
echo "drive.sh: the Windows app refused a folder everyone may write to" >&2

# 1. The Windows example, headless and then windowed, driven by the Linux CLI.
for mode in headless window; do
    dir=$work/windows-$mode
    private "$dir"
    args=()
    [[ $mode == headless ]] && args=(--headless)
    WINIT_AUTOMATION_DIR=$(windows_path "$dir") "$here/runner.sh" "$windows_app" "${args[@]}" \
        >"$work/windows-$mode.log" 2>&1 &
    pids+=($!)
    click_and_check cli "$dir" "$dir"
    cli --dir "$dir" quit >/dev/null || fail "quit"
    echo "drive.sh: the Windows example ($mode) was driven from Linux" >&2
done

# 2. The Windows eframe app in a window: fill, then a click that egui's hit test verifies.
dir=$work/windows-eframe
private "$dir"
WINIT_AUTOMATION_DIR=$(windows_path "$dir") "$here/runner.sh" "$windows_eframe" \
    >"$work/windows-eframe.log" 2>&1 &
pids+=($!)
for i in $(seq 600); do
    [[ $(cli --dir "$dir" snapshot 2>/dev/null || true) == *'button "Greet"'* ]] && break
    ((i < 600)) || fail "no Greet button in the eframe app's tree after 60 s"
    sleep 0.1
done
answer=$(cli --dir "$dir" fill role=textbox Ada --settle) || fail "fill: $answer"
[[ $answer == *'value="Ada"'* ]] || fail "the field does not hold what was filled: $answer"
answer=$(cli --dir "$dir" click role=button name=Greet --settle) || fail "click: $answer"
[[ $answer == *$'\nhit verified\n'* ]] || fail "the click is not verified: $answer"
[[ $answer == *'Hello, Ada!'* ]] || fail "the click did not greet: $answer"
cli --dir "$dir" screenshot greeted --out "$work/greeted.png" >/dev/null || fail "screenshot"
cli --dir "$dir" quit >/dev/null || fail "quit"
echo "drive.sh: the Windows eframe app was driven from Linux: fill, a verified click, a screenshot" >&2

# 3. The Linux example, headless, driven by the Windows CLI (through Z:).
dir=$work/linux
WINIT_AUTOMATION_DIR=$dir "$linux_app" --headless >"$work/linux.log" 2>&1 &
pids+=($!)
click_and_check win_cli "$dir" "$(windows_path "$dir")"
cli --dir "$dir" quit >/dev/null || fail "quit"
echo "drive.sh: the Linux example was driven from Windows" >&2
