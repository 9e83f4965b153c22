#!/usr/bin/env bash
# Islands against one population of the same total size, on paired seeds (issue 15):
#   scripts/measure-islands.sh BUILD_DIR SCENARIO TOTAL ISLANDS GENERATIONS SEEDS [extra flags]
# e.g. scripts/measure-islands.sh build/cpu scenarios/horde_40v40.json 2000 4 200 "1 2 3 4 5 6 7 8 9 10"
# Prints one line per seed (fitness of one population, of the islands, difference) and the mean
# paired difference with its 95% t interval. The island settings come from ISLAND_FLAGS
# (default: ring, every 10 generations, best 2 replace the worst 2, fixed before any seed ran);
# extra flags go to both arms.
set -euo pipefail
build=$1 scenario=$2 total=$3 islands=$4 generations=$5 seeds=$6
shift 6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(pile-in --scenario "$scenario" --generations "$generations" --threads 1 --quiet --json
        --checkpoint-every 1000000 "$@")
fitness() { sed -n 's/.*"fitness":\([-0-9.e+]*\).*/\1/p' | tail -1; }
for s in $seeds; do
    one=$("$build/gaeval" "${common[@]}" --seed "$s" --population "$total" --out "$work/one-$s" | fitness)
    many=$("$build/gaeval" "${common[@]}" --seed "$s" --population $((total / islands)) \
        --islands "$islands" ${ISLAND_FLAGS:---migrate-every 10 --migrants 2} --out "$work/isl-$s" | fitness)
    echo "$s $one $many"
done | awk '
    BEGIN { print "seed one_population islands difference" }
    { d = $3 - $2; printf "%s %s %s %.2f\n", $1, $2, $3, d; n++; sum += d; sq += d * d
      if (d > 0) wins++ }
    END {
        mean = sum / n; var = (sq - n * mean * mean) / (n - 1); se = sqrt(var / n)
        # two-sided 95% t quantiles for n - 1 = 1..30 degrees of freedom
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
        q = (n - 1 <= 30) ? t[n - 1] : 1.96
        printf "mean difference (islands - one) %.2f, 95%% CI [%.2f, %.2f], islands better on %d of %d seeds\n",
               mean, mean - q * se, mean + q * se, wins, n
    }'
