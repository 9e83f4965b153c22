#!/usr/bin/env bash
# Measures the rules GA (defaults) and greedy on every shipped scenario under every preset:
# in-range counts over seeds 1-5, the generation of the GA's last improvement, and the CPU
# seconds per run (user + sys, one thread: honest on a busy machine too). Prints a Markdown table.
# usage: scripts/measure-pile-in-trust.sh [GAEVAL] [SEEDS]   (defaults: build/gaeval, 5)
set -euo pipefail
cd "$(dirname "$0")/.."
gaeval=${1:-build/gaeval}
seeds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "| scenario | preset | greedy in range | GA in range, seeds 1-$seeds | GA last improvement (generation, max) | CPU s per GA run (mean) | CPU s greedy |"
echo "|---|---|---|---|---|---|---|"
for scenario in scenarios/*.json; do
    for preset in aos1 aos2 aos3 aos4; do
        g="$tmp/greedy"
        /usr/bin/time -f "%U %S" -o "$tmp/t" "$gaeval" pile-in --scenario "$scenario" --rules "$preset" \
            --solver greedy --threads 1 --quiet --json --out "$g" >"$tmp/j" 2>"$tmp/e" || {
            echo "| $(basename "$scenario" .json) | $preset | $(head -c 80 "$tmp/e") | | | | |"
            rm -rf "$g"
            continue
        }
        greedy=$(tail -1 "$tmp/j" | jq -r '.in_range_count')
        greedy_cpu=$(awk '{printf "%.3f", $1 + $2}' "$tmp/t")
        rm -rf "$g"
        counts="" last=0 cpu=0
        for seed in $(seq 1 "$seeds"); do
            o="$tmp/ga"
            /usr/bin/time -f "%U %S" -o "$tmp/t" "$gaeval" pile-in --scenario "$scenario" \
                --rules "$preset" --seed "$seed" --threads 1 --quiet --json --out "$o" >"$tmp/j"
            counts="$counts $(tail -1 "$tmp/j" | jq -r '.in_range_count')"
            found=$(tail -1 "$tmp/j" | jq -r '.generation_found')
            [ "$found" -gt "$last" ] && last=$found
            cpu=$(awk -v c="$cpu" '{printf "%.3f", c + $1 + $2}' "$tmp/t")
            rm -rf "$o"
        done
        mean=$(awk -v c="$cpu" -v n="$seeds" 'BEGIN{printf "%.2f", c / n}')
        echo "| $(basename "$scenario" .json) | $preset | $greedy |$counts | $last | $mean | $greedy_cpu |"
    done
done
