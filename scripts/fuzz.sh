#!/usr/bin/env bash
# Fuzzes the protocol's parsers with cargo-fuzz (libFuzzer, nightly): installs cargo-fuzz when it
# is missing, seeds fuzz/corpus/ from the golden files (fuzz/seed.sh), then runs each target for
# SECONDS (default 600) with -max_total_time, at most FUZZ_JOBS (default 2) at once, and prints
# each target's executions, executions per second, corpus size and crashes. docs/fuzzing.md has
# the targets and the last figures. Not part of CI, which stays on stable.
#
# Usage: bash scripts/fuzz.sh [SECONDS] [TARGET...]     (targets: command lines response names)
# Env:   FUZZ_JOBS (parallel runs, default 2), FUZZ_SANITIZER (default none: the crates are safe
#        Rust; `address` for ASan), FUZZ_RUNS (stop a target after this many executions too,
#        default 10000000).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(command lines response names)
jobs="${FUZZ_JOBS:-2}"
sanitizer="${FUZZ_SANITIZER:-none}"
runs="${FUZZ_RUNS:-10000000}"

cargo +nightly fuzz --version >/dev/null 2>&1 || cargo +nightly install cargo-fuzz --locked
bash seed.sh
# Debug assertions stay on (overflow checks); one build for all targets.
cargo +nightly fuzz build --sanitizer "$sanitizer" --debug-assertions
mkdir -p artifacts/logs

run() {
  local target="$1"
  mkdir -p "artifacts/$target"
  # A crash stops the target; its input is in fuzz/artifacts/<target>/.
  cargo +nightly fuzz run --sanitizer "$sanitizer" --debug-assertions "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -runs="$runs" -print_final_stats=1 \
    >"artifacts/logs/$target.log" 2>&1 || true
}

for target in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  echo "fuzzing $target for ${seconds}s" >&2
  run "$target" &
done
wait

printf '%-10s %12s %8s %8s %8s %s\n' target executions exec/s seconds corpus crashes
for target in "${targets[@]}"; do
  log="artifacts/logs/$target.log"
  stat() { sed -n "s/^stat::$1: *//p" "$log" | tail -1; }
  execs="$(stat number_of_executed_units)"
  rate="$(stat average_exec_per_sec)"
  time="$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)"
  corpus="$(find "corpus/$target" -type f | wc -l)"
  crashes="$(find "artifacts/$target" -type f \( -name 'crash-*' -o -name 'oom-*' -o -name 'timeout-*' \) | wc -l)"
  printf '%-10s %12s %8s %8s %8s %s\n' "$target" "${execs:-?}" "${rate:-?}" "${time:-?}" "$corpus" "$crashes"
done
