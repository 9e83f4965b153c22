#!/usr/bin/env bash
# `gaeval pile-in --backend cpu` before and after it ran on the one GA engine, side by side:
#   scripts/measure-pile-in-engine.sh BEFORE_BINARY AFTER_BINARY [ROUNDS]
# Each round runs both binaries (order alternating) on the same settings and prints one row a
# run: the load average (1 min) at its start, the process's wall time, then seconds summed from
# generations.csv (total,
# evaluate_s, select_s, vary_s = breeding) and whether best.json and the results columns of
# generations.csv equal the first run's (they must: the same bits).
set -euo pipefail
before=$1 after=$2 rounds=${3:-3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # LABEL BINARY CASE ARGS...
    local label=$1 binary=$2 case=$3
    shift 3
    local out="$work/$case-$label-$RANDOM"
    local load
    load=$(cut -d' ' -f1 /proc/loadavg)
    local t0 t1
    t0=$(date +%s.%N)
    "$binary" pile-in "$@" --backend cpu --threads 2 --quiet --out "$out" >/dev/null
    t1=$(date +%s.%N)
    local sums
    sums=$(awk -F, 'NR > 1 { t += $8; e += $9; s += $10; v += $11 }
                    END { printf "%.2f | %.2f | %.3f | %.2f", t, e, s, v }' "$out/generations.csv")
    cut -d, -f1-5,7 "$out/generations.csv" >"$out/results.csv"
    local same=yes
    if [ -f "$work/$case.results.csv" ]; then
        cmp -s "$out/results.csv" "$work/$case.results.csv" || same=NO
        cmp -s "$out/best.json" "$work/$case.best.json" || same=NO
    else
        cp "$out/results.csv" "$work/$case.results.csv"
        cp "$out/best.json" "$work/$case.best.json"
    fi
    echo "| $case | $label | $load | $(echo "$t1 - $t0" | bc -l | xargs printf '%.2f') | $sums | $same |"
}
echo "| case | binary | load | wall s | generations s | evaluate s | select s | vary s | same bits |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---|"
gapi1=(--scenario scenarios/demo_10v10.json --population 20000 --generations 50 --seed 1)
horde=(--scenario scenarios/horde_40v40.json --population 100000 --generations 10 --seed 4)
rules=(--scenario scenarios/demo_10v10.json --rules aos4 --population 20000 --generations 20 --seed 1)
for ((r = 0; r < rounds; ++r)); do
    for c in gapi1 horde rules; do
        declare -n args=$c
        if ((r % 2 == 0)); then
            run before "$before" "$c" "${args[@]}"
            run after "$after" "$c" "${args[@]}"
        else
            run after "$after" "$c" "${args[@]}"
            run before "$before" "$c" "${args[@]}"
        fi
    done
done
