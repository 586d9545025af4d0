#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ from the golden files: the protocol's and the app's insta snapshots
# and the drop-box's ready.txt golden, plus a few answers from docs/protocol.md that no golden
# holds (journal, screenshot). One input per file; the corpus is generated, not committed.
# Usage: fuzz/seed.sh   (from anywhere; rewrites fuzz/corpus/*/seed-*)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
corpus="$root/fuzz/corpus"
mkdir -p "$corpus"/{command,lines,response,names}
rm -f "$corpus"/*/seed-*
n=0
# put TARGET TEXT: one seed file holding TEXT exactly.
put() {
  n=$((n + 1))
  printf '%s' "$2" >"$corpus/$1/seed-$n"
}
# body FILE: an insta snapshot's content, without its header.
body() { awk 'h >= 2 { print } /^---$/ && h < 2 { h++ }' "$1"; }

snaps=("$root"/crates/protocol/tests/snapshots/*.snap "$root"/tests/app/snapshots/*.snap
  "$root"/crates/dropbox/tests/snapshots/*.snap)

# command: the canonical command lines (both sides), the refused lines of the error table, each
# as a command file (newline-terminated), some with a deadline.
while IFS= read -r line; do
  line="${line#  => }"
  [ -n "$line" ] || continue
  put command "$line"$'\n'
  put command "$line --deadline 1700000000123"$'\n'
done < <(body "$root/crates/protocol/tests/snapshots/protocol__canonical_command_lines.snap")
while IFS= read -r line; do
  line="${line#\"}"
  put command "${line%\"}"$'\n'
done < <(body "$root/crates/protocol/tests/snapshots/protocol__parse_errors.snap" | grep '^"')

# lines: the first byte picks the parser (fuzz_targets/lines.rs). Every line of every golden
# goes to the node-line, snapshot-header and journal-target parsers; the multi-line answers are
# written whole.
for snap in "${snaps[@]}"; do
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    case "$line" in
      *@e[0-9]*) put lines "0$line" ;;
      snapshot\ *) put lines "1$line" ;;
      target\ *) put lines "4$line" ;;
      entry\ *) put lines "3$line" ;;
    esac
  done < <(body "$snap")
done
node='@e2 textbox "Email" value="ada@example.com" focused bounds=20,20,300x30 actions=focus,set_value'
put lines "2matches 1"$'\n'"$node"$'\n'
put lines "2matches 0"$'\n'
put lines "3entry 7 seq=12 ok frame=40 \"click @e3\""$'\n'"target role=checkbox name=\"Remember me\""$'\n'
put lines "4target from role=slider name=\"Volume\""
put lines '5next 4
lost 2
entry 3 seq=17 ok frame=212 "click @e5"
target role=button name="OK" nth=1
entry 4 seq=18 error code=not_found "drag @e7 to 120,48"
target from role=slider name="Volume"
target to role=list name="Files"
'
put lines '6frame 31
file screenshot-form.png
size 800x600
scale 1.5
bytes 45629
'

# response: each response of the responses golden, and the ready.txt golden's text.
body "$root/crates/protocol/tests/snapshots/protocol__responses.snap" |
  awk -v dir="$corpus/response" '/^---$/ { i++; next } { print > (dir "/seed-r" i) }'
put response "ok 3 find"$'\n'"matches 0"$'\n'
put response "$(body "$root/crates/dropbox/tests/snapshots/golden__ready_txt.snap")"$'\n'

# names: the drop-box's file names (the protocol golden's table), with seqs and labels.
for name in ready.txt app.lock snapshot.txt accessibility.txt windows.txt .tmp-123 \
  command-0.txt command-42.txt taken-7.txt withdrawn-18446744073709551615.txt response-9.txt \
  command-007.txt response-1.txt.tmp screenshot-latest.png screenshot-home-1.2_b.png \
  screenshot-.hidden.png 42 0; do
  put names "$name"
done
for dir in "$corpus"/*; do
  echo "$(basename "$dir"): $(find "$dir" -type f | wc -l) inputs"
done
