#!/usr/bin/env bash
# Islands against one population of the same total size, on paired seeds (issue 15):
#   scripts/measure-islands.sh BUILD_DIR SCENARIO TOTAL ISLANDS GENERATIONS SEEDS [extra flags]
# e.g. scripts/measure-islands.sh build/cpu scenarios/horde_40v40.json 2000 4 200 "1 2 3 4 5 6 7 8 9 10"
# Prints one line per seed (fitness of one population, of the islands, difference) and the mean
# paired difference with its 95% t interval. The island settings come from ISLAND_FLAGS
# (default: ring, every 10 generations, best 2 replace the worst 2, fixed before any seed ran);
# extra flags go to both arms. EQUALISE=generations (default) runs both arms for GENERATIONS;
# EQUALISE=evaluations gives the one population one more generation per migration (each
# migration re-evaluates every island once: floor((GENERATIONS - 1) / migrate-every) of them),
# so that both arms evaluate the same number of plans.
set -euo pipefail
build=$1 scenario=$2 total=$3 islands=$4 generations=$5 seeds=$6
shift 6
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(pile-in --scenario "$scenario" --threads 1 --quiet --json
        --checkpoint-every 1000000 "$@")
island_flags=${ISLAND_FLAGS:---migrate-every 10 --migrants 2}
one_generations=$generations
if [ "${EQUALISE:-generations}" = evaluations ]; then
    every=$(sed -n 's/.*--migrate-every[ =]\([0-9]*\).*/\1/p' <<<"$island_flags")
    every=${every:-10}
    case "$island_flags" in
    *unconnected*) ;;
    *) if [ "$islands" -gt 1 ]; then
           one_generations=$((generations + (generations - 1) / every))
       fi ;;
    esac
elif [ "${EQUALISE:-generations}" != generations ]; then
    echo "EQUALISE must be generations or evaluations, not ${EQUALISE}" >&2
    exit 2
fi
# "fitness in_range_count" of the best plan, from the --json line
result() { tail -1 | sed -n 's/.*"fitness":\([-0-9.e+]*\).*"in_range_count":\([0-9]*\).*/\1 \2/p'; }
for s in $seeds; do
    one=$("$build/gaeval" "${common[@]}" --seed "$s" --population "$total" \
        --generations "$one_generations" --out "$work/one-$s" | result)
    many=$("$build/gaeval" "${common[@]}" --seed "$s" --population $((total / islands)) \
        --generations "$generations" --islands "$islands" $island_flags --out "$work/isl-$s" | result)
    echo "$s $one $many"
done | awk '
    BEGIN { print "seed one_population islands difference in_range_one in_range_islands" }
    { d = $4 - $2; printf "%s %s %s %.2f %s %s\n", $1, $2, $4, d, $3, $5; n++; sum += d; sq += d * d
      if (d > 0) wins++
      r = $5 - $3; rsum += r; rsq += r * r; if (r > 0) rwins++; if (r < 0) rlosses++ }
    END {
        if (n == 0) exit 1
        mean = sum / n; var = (sq - n * mean * mean) / (n - 1); se = sqrt(var / n)
        # two-sided 95% t quantiles for n - 1 = 1..40 degrees of freedom; beyond, the quantile
        # at 60, then at 120 (a little wider than the exact one)
        split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042 2.040 2.037 2.035 2.032 2.030 2.028 2.026 2.024 2.023 2.021", t, " ")
        q = (n - 1 <= 40) ? t[n - 1] : (n - 1 <= 60) ? 2.000 : 1.980
        printf "mean difference (islands - one) %.2f, 95%% CI [%.2f, %.2f], islands better on %d of %d seeds\n",
               mean, mean - q * se, mean + q * se, wins, n
        rmean = rsum / n; rse = sqrt((rsq - n * rmean * rmean) / (n - 1) / n)
        printf "models in range (islands - one) %.2f, 95%% CI [%.2f, %.2f], islands more on %d, fewer on %d of %d seeds\n",
               rmean, rmean - q * rse, rmean + q * rse, rwins, rlosses, n
    }'
