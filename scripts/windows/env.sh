# Sourced, not run (`. scripts/windows/env.sh`): points cargo at Debian's Rust 1.96 (rustc-web,
# cargo-web, rust-web-src), the mingw-w64 linker and Wine 8, so that
#   cargo test --target x86_64-pc-windows-gnu $WINDOWS_BUILD_STD ...
# builds std from source for Windows and runs each test binary under Wine (scripts/windows/runner.sh).
# Build outputs go to target/windows ($WINDOWS_TARGET_DIR overrides): Debian's rustc cannot reuse
# rustup's artifacts. scripts/wine.sh is the usual entry point. Returns 1, naming the apt packages
# to install, when one is missing. Sets no shell options (it runs in the caller's shell).

_wa_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
_wa_missing=()
[[ -x /usr/bin/rustc ]] || _wa_missing+=(rustc-web)
[[ -x /usr/bin/cargo ]] || _wa_missing+=(cargo-web)
[[ -d /usr/lib/rustlib/src/rust/library ]] || _wa_missing+=(rust-web-src)
command -v x86_64-w64-mingw32-gcc >/dev/null || _wa_missing+=(gcc-mingw-w64-x86-64)
[[ -x /usr/lib/wine/wine64 ]] || _wa_missing+=(wine64)
if ((${#_wa_missing[@]})); then
    echo "scripts/windows/env.sh: missing; install with: sudo apt-get install ${_wa_missing[*]}" >&2
    unset _wa_root _wa_missing
    return 1
fi

export PATH=/usr/bin:$PATH       # Debian's cargo before rustup's proxy in ~/.cargo/bin
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
export RUSTC_BOOTSTRAP=1         # -Zbuild-std on a stable toolchain
export CARGO_TARGET_DIR=${WINDOWS_TARGET_DIR:-$_wa_root/target/windows}
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc
export CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER=$_wa_root/scripts/windows/runner.sh
# Tests unwind (cargo keeps panic=unwind for tests and adds panic_unwind for std; std always
# depends on panic_abort), so std, std,panic_abort and std,panic_unwind build the same here.
WINDOWS_BUILD_STD=-Zbuild-std=std,panic_abort
WINDOWS_TARGET=x86_64-pc-windows-gnu
unset _wa_root _wa_missing
