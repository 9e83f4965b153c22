#!/usr/bin/env bash
# Islands against one population of the same total size in `gaeval learn`, on paired seeds
# (issue 15):
#   scripts/measure-islands-learn.sh BUILD_DIR GAME TOTAL ISLANDS GENERATIONS SEEDS [extra flags]
# e.g. scripts/measure-islands-learn.sh build/cpu ataxx 32 4 40 "$(seq 301 310)" --tournament random:4
# Each seed runs one population of TOTAL members and ISLANDS islands of TOTAL/ISLANDS members
# for GENERATIONS generations; the exported best is verified once, after the last generation,
# against every built-in player (VERIFY games each, default 200). The score of a run is its mean
# win rate against the built-in players other than random. Prints one line per seed and the mean
# paired difference (islands - one) with its 95% t interval. Use a tournament whose games grow
# linearly with the members (random:M) so that both arms play the same games per generation;
# learn's migration plays no extra game (an immigrant keeps its value). The island settings come
# from ISLAND_FLAGS (default: ring, every 10 generations, the best 1 replaces the worst 1);
# extra flags go to both arms.
set -euo pipefail
build=$1 game=$2 total=$3 islands=$4 generations=$5 seeds=$6
shift 6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(learn --game "$game" --generations "$generations" --threads 1 --quiet --verify-every 0
        --verify-games "${VERIFY:-200}" --panel-games 0 "$@")
island_flags=${ISLAND_FLAGS:---migrate-every 10 --migrants 1}
# mean win rate against the built-in players other than random, after the last generation
score() {
    awk -F, -v g="$generations" '$1 == g && $2 != "random" { s += $7; n++ }
        END { if (n == 0) exit 1; printf "%.4f", s / n }' "$1/verification.csv"
}
for s in $seeds; do
    "$build/gaeval" "${common[@]}" --seed "$s" --population "$total" --out "$work/one-$s" > /dev/null
    # shellcheck disable=SC2086
    "$build/gaeval" "${common[@]}" --seed "$s" --population $((total / islands)) \
        --islands "$islands" $island_flags --out "$work/isl-$s" > /dev/null
    echo "$s $(score "$work/one-$s") $(score "$work/isl-$s")"
done | awk '
    BEGIN { print "seed one_population islands difference" }
    { d = $3 - $2; printf "%s %s %s %.4f\n", $1, $2, $3, d; n++; sum += d; sq += d * d
      if (d > 0) wins++; if (d < 0) losses++ }
    END {
        if (n == 0) exit 1
        mean = sum / n; se = sqrt((sq - n * mean * mean) / (n - 1) / n)
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042 2.040 2.037 2.035 2.032 2.030 2.028 2.026 2.024 2.023 2.021", t, " ")
        q = (n - 1 <= 40) ? t[n - 1] : (n - 1 <= 60) ? 2.000 : 1.980
        printf "mean win rate difference (islands - one) %.4f, 95%% CI [%.4f, %.4f], islands better on %d, worse on %d of %d seeds\n",
               mean, mean - q * se, mean + q * se, wins, losses, n
    }'
