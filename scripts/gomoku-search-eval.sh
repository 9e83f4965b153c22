#!/usr/bin/env bash
# The learning target of Gomoku's weighted-search player (docs/gomoku.md, "weighted-search"):
# learns its table with the seed's scheme (`gaeval learn --game gomoku --depth 2`, the seed's
# defaults otherwise) and from random tables (`--scheme modern --population 16 --generations
# 20 --depth 2`), learn seeds 1 2 3 each, then plays GAMES games per row (both colours of every
# opening, evaluation seed 1001: no learn run uses it) of
#   - the seed table alone (seed-table) and inside the search (data/gomoku/seed-table-search.json)
#   - each learned table inside the search
# against seed-table, threat-search and random, and threat-search against seed-table. Prints a
# markdown table with the win rate's 95% interval (Wilson score) on stdout.
# usage: scripts/gomoku-search-eval.sh [GAMES] [LEARN FLAGS...]   (default 2000; LEARN FLAGS go
# to every learn run, e.g. --verify-every 0; the runs go to runs/gomoku-search-<seed> and
# runs/gomoku-search-random-<seed>; a finished run there is reused, never overwritten)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-2000}
shift || true
bin=build/cuda/gaeval
[ -x "$bin" ] || bin=build/cpu/gaeval
[ -x "$bin" ] || { echo "gomoku-search-eval: build first (scripts/build.sh)" >&2; exit 2; }
eval_seed=1001

row() {  # row LABEL A B
  local json
  json=$("$bin" play --game gomoku --a "$2" --b "$3" --games "$games" --seed "$eval_seed" \
    --backend cpu --json 2>/dev/null | tail -1)
  echo "$json" | awk -v label="$1" -v b="$3" '{
    match($0, /"wins":[0-9]+/); w = substr($0, RSTART + 7, RLENGTH - 7);
    match($0, /"draws":[0-9]+/); d = substr($0, RSTART + 8, RLENGTH - 8);
    match($0, /"losses":[0-9]+/); l = substr($0, RSTART + 9, RLENGTH - 9);
    match($0, /"seconds":[0-9.e+-]+/); s = substr($0, RSTART + 10, RLENGTH - 10);
    n = w + d + l; p = w / n; z = 1.96;
    c = (p + z * z / (2 * n)) / (1 + z * z / n);
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
    printf "| %s | %s | %d | %d | %d | %d | %.1f%% (%.1f-%.1f) | %.3f | %.0f s |\n",
      label, b, n, w, d, l, 100 * p, 100 * (c - h), 100 * (c + h), (w + d / 2) / n, s }'
}

mkdir -p runs
for seed in 1 2 3; do
  [ -e "runs/gomoku-search-$seed/weights.json" ] && continue
  "$bin" learn --game gomoku --depth 2 --seed "$seed" --quiet --backend cpu "$@" \
    --out "runs/gomoku-search-$seed" >&2
done
for seed in 1 2 3; do
  [ -e "runs/gomoku-search-random-$seed/weights.json" ] && continue
  "$bin" learn --game gomoku --scheme modern --population 16 --generations 20 --depth 2 \
    --seed "$seed" --quiet --backend cpu "$@" --out "runs/gomoku-search-random-$seed" >&2
done

echo "| player (A) | opponent (B) | games | A wins | draws | A losses | A wins, 95% CI | A's score | time |"
echo "|---|---|---|---|---|---|---|---|---|"
row "seed table alone (seed-table)" seed-table seed-table
row "threat-search" threat-search seed-table
for b in seed-table threat-search random; do
  row "seed table in the search" data/gomoku/seed-table-search.json "$b"
  for seed in 1 2 3; do
    row "learned in the search, learn seed $seed" "runs/gomoku-search-$seed/weights.json" "$b"
  done
  for seed in 1 2 3; do
    row "learned from random tables in the search, learn seed $seed" \
      "runs/gomoku-search-random-$seed/weights.json" "$b"
  done
done
