#!/usr/bin/env bash
# Records the golden files of cases.txt: tests/data/pile_in/golden/record.sh BINARY (run from the
# source root). Per case NAME: NAME.csv (generations.csv without its timing columns), NAME.json
# (best.json) and NAME.checkpoint (the FNV-1a 64 hash of checkpoint.bin, as the test computes it).
set -euo pipefail
binary=$1
dir=tests/data/pile_in/golden
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
grep -v '^#' "$dir/cases.txt" | while read -r name args; do
    [ -n "$name" ] || continue
    # shellcheck disable=SC2086
    "$binary" pile-in $args --backend cpu --threads 2 --quiet --out "$work/$name" >/dev/null
    cut -d, -f1-5,7 "$work/$name/generations.csv" >"$dir/$name.csv"
    cp "$work/$name/best.json" "$dir/$name.json"
    python3 - "$work/$name/checkpoint.bin" >"$dir/$name.checkpoint" <<'PY'
import sys
h = 0xcbf29ce484222325
for b in open(sys.argv[1], 'rb').read():
    h = ((h ^ b) * 0x100000001b3) & 0xffffffffffffffff
print('%016x' % h)
PY
    echo "$name: $(wc -l <"$dir/$name.csv") lines, checkpoint $(cat "$dir/$name.checkpoint")"
done
