#!/usr/bin/env bash
# Searches the neighbourhood of the seed's Gomoku reward table for a table that beats it:
# every rank moved just above (x1.001) or level with every other rank (rank 1 fixed on top:
# 180 tables), each played against seed-table over GAMES games (both colours of every opening).
# Prints the tables whose win rate beats the seed table's own (the seed table against itself)
# and the best five, as a markdown table on stdout (docs/gomoku.md, "The targets").
# usage: scripts/gomoku-table-search.sh [GAMES] [SEED]   (defaults: 400 5)
set -euo pipefail
cd "$(dirname "$0")/.."
games=${1:-400}
seed=${2:-5}
bin=build/cuda/gaeval
[ -x "$bin" ] || bin=build/cpu/gaeval
[ -x "$bin" ] || { echo "gomoku-table-search: build first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names='"r1_own1","r2_enemy1","r3_1_own2_enemy2","r3_2_own2_enemy3","r3_3_own2_enemy4","r4_1_own3_enemy2","r4_2_own4_enemy2","r5_1_own3_enemy3","r5_2_own3_enemy4","r6_1_own4_enemy3","r6_2_own4_enemy4","k_acceptance"'
seed_table=(1048576 65536 8192 4096 2048 512 256 64 16 4 1 0)

# win rate of table "w0 ... w11" against seed-table
win_rate() {
  local file="$work/player.json" weights
  weights=$(echo "$@" | tr ' ' ',')
  printf '{"format":"gaeval-player","version":1,"game":"gomoku","features":[%s],"weights":[%s]}\n' \
    "$names" "$weights" >"$file"
  "$bin" play --game gomoku --a "$file" --b seed-table --games "$games" --seed "$seed" \
    --backend cpu --json 2>/dev/null | tail -1 |
    sed -E 's/.*"wins":([0-9]+).*/\1/' | awk -v n="$games" '{ printf "%.3f", $1 / n }'
}

base=$(win_rate "${seed_table[@]}")
echo "seed table against itself: win rate $base over $games games"
echo
echo "| change | win rate against seed-table |"
echo "|---|---|"
results=""
for j in $(seq 1 10); do
  for i in $(seq 1 10); do
    [ "$i" = "$j" ] && continue
    for how in above level; do
      w=("${seed_table[@]}")
      if [ "$how" = above ]; then
        w[$j]=$(awk -v x="${seed_table[$i]}" 'BEGIN { printf "%.6g", x * 1.001 }')
      else
        w[$j]=${seed_table[$i]}
      fi
      rate=$(win_rate "${w[@]}")
      results+="$rate rank index $j $how rank index $i"$'\n'
    done
  done
done
printf '%s' "$results" | sort -rn | awk -v base="$base" '
  NR <= 5 || $1 > base { printf "| rank index %s %s rank index %s | %s |\n", $4, $5, $8, $1 }'
