#!/usr/bin/env bash
# Installs the system packages the tests need when they are missing, on Debian or Ubuntu:
#   mesa-vulkan-drivers  lavapipe, the software Vulkan adapter the GPU tests run on
#   xvfb, xauth          a virtual X server for the windowed tests (xvfb-run needs xauth)
# As root it installs directly, elsewhere through `sudo -n` where that works; otherwise it stops
# and prints the exact command to run. Set WINIT_AUTOMATION_NO_INSTALL=1 to only check.
set -euo pipefail

packages=(mesa-vulkan-drivers xvfb xauth)
missing=()
for pkg in "${packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

install="apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ${missing[*]}"
if ! command -v apt-get >/dev/null 2>&1 || [ "${WINIT_AUTOMATION_NO_INSTALL:-0}" = 1 ]; then
    echo "setup: missing system packages: ${missing[*]}" >&2
    echo "setup: install them with: sudo sh -c '$install'" >&2
    exit 1
fi
echo "setup: installing ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then
    sh -c "$install"
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo -n sh -c "$install"
else
    echo "setup: missing system packages: ${missing[*]}, and no root or passwordless sudo to install them" >&2
    echo "setup: run: sudo sh -c '$install'" >&2
    exit 1
fi
