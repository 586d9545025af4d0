#!/usr/bin/env bash
# Installs the system packages the tests and the quickstart need, when they are missing, on Debian
# or Ubuntu: as root directly, else through `sudo -n` where that works without a password;
# otherwise it stops (exit 1) with the exact command to run. The one place that knows the list:
# scripts/test.sh, scripts/quickstart.sh and .ci/run call it. Then it names the Vulkan drivers
# it finds, so a fall-back to GL is visible before any test runs.
#
# Another script that needs other packages names them as arguments: they are checked and installed
# the same way instead of the list below, and no drivers are named
# (`bash scripts/setup-system.sh rustc-web cargo-web`: scripts/cross-check.sh).
#
# For checking this script only (never needed otherwise):
#   WINIT_AUTOMATION_SETUP_PACKAGES="pkg ..."  checks these packages instead of the list below
#                                              (name one that is not installed to see the path
#                                              that installs, or the one that stops);
#   WINIT_AUTOMATION_SETUP_DRY_RUN=1           prints the install commands instead of running them.
set -euo pipefail

# Why each package is here:
packages=(
    mesa-vulkan-drivers # lavapipe: the software Vulkan adapter every GPU test renders on
    xvfb                # the virtual X server the windowed end-to-end tests run in (xvfb-run)
    xauth               # xvfb-run needs it; only a recommendation of xvfb
    weston              # the headless Wayland compositor the Wayland tests run in (*_under_weston)
    libgl1-mesa-dri     # llvmpipe for GL: the windowed tests of FrameTarget's blit path
    libegl1             # wgpu's GL backend loads libEGL
    libegl-mesa0        # ... and Mesa's EGL implementation behind it
    libx11-xcb1         # winit's X11 backend loads these client libraries at run time
    libxcursor1
    libxrandr2
    libxi6
    libxkbcommon-x11-0
    python3             # scripts/quickstart.sh reads `cargo metadata` with it
    python3-venv        # tests/examples/mcp_python.rs makes a venv for the MCP Python SDK (ensurepip)
    chromium            # tests/examples/trace_viewer.rs opens a trace's HTML file in headless Chromium
)
if [ $# -gt 0 ]; then
    packages=("$@")
elif [ -n "${WINIT_AUTOMATION_SETUP_PACKAGES:-}" ]; then
    read -r -a packages <<<"$WINIT_AUTOMATION_SETUP_PACKAGES"
fi

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
    echo "setup-system: not a Debian or Ubuntu system; install these by hand if a test asks: ${packages[*]}" >&2
else
    missing=()
    for pkg in "${packages[@]}"; do
        status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
        [ "$status" = installed ] || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        install=(apt-get install -y -q --no-install-recommends "${missing[@]}")
        if [ "$(id -u)" -eq 0 ]; then
            as=()
        elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
            as=(sudo -n)
        else
            echo "setup-system: missing system packages: ${missing[*]}" >&2
            echo "setup-system: run this once (as root), then run the command again:" >&2
            echo "    sudo apt-get update && sudo ${install[*]}" >&2
            exit 1
        fi
        echo "setup-system: installing ${missing[*]}" >&2
        if [ -n "${WINIT_AUTOMATION_SETUP_DRY_RUN:-}" ]; then
            echo "setup-system: dry run, would run: ${as[*]} apt-get update -q && ${as[*]} ${install[*]}" >&2
        else
            "${as[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
            "${as[@]}" env DEBIAN_FRONTEND=noninteractive "${install[@]}"
        fi
    fi
fi

# The Vulkan drivers the loader will see: lavapipe is `lvp_icd`. Without one, wgpu falls back to
# GL and the tests that need Vulkan fail saying so; this line says it first. Only for the tests' list.
[ $# -eq 0 ] || exit 0
icds=$(ls /usr/share/vulkan/icd.d/ /etc/vulkan/icd.d/ 2>/dev/null | grep '\.json$' | tr '\n' ' ' || true)
echo "setup-system: Vulkan drivers: ${icds:-none (wgpu will fall back to GL)}" >&2
if command -v vulkaninfo >/dev/null; then
    vulkaninfo --summary 2>/dev/null | grep -E 'deviceName|driverName' | sed 's/^ */setup-system: /' >&2 || true
fi
