#!/usr/bin/env bash
# (The first comparison, before issue 14. The fair one, with paired seeds, intervals and three
# budgets, is scripts/learn-fair.sh.)
# Compares the four `gaeval learn` schemes on the same budget of tournament games (7x7 Ataxx,
# all features, each scheme's defaults otherwise) over several seeds, verifying each final best
# member with 1000 games against random, capture and most-pieces. Prints a markdown table
# (one row per scheme and seed, then per-scheme means) on stdout.
# usage: scripts/learn-schemes.sh [BUDGET_GAMES] [SEEDS] [BACKEND]   (defaults: 39680 "1 2 3" cpu)
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-39680}
seeds=${2:-"1 2 3"}
backend=${3:-cpu}
bin=build/gaeval
[ -x "$bin" ] || bin=build/cpu/gaeval
[ -x "$bin" ] || { echo "learn-schemes: build first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# scheme | games per generation at its default population | extra flags
schemes=(
  "modern|992|"
  "genetic-game|552|"
  "paired-blend|130|"
  "ten-tournaments|900|"
  "ten-tournaments|900|--init-range -10:10"
)
echo "| scheme | seed | population | generations | games | seconds | vs random | vs capture | vs most-pieces |"
echo "|---|---|---|---|---|---|---|---|---|"
summary=""
for entry in "${schemes[@]}"; do
  IFS='|' read -r scheme per_gen extra <<<"$entry"
  generations=$(( (budget + per_gen - 1) / per_gen ))
  for seed in $seeds; do
    out="$work/$scheme-$seed-${extra//[^a-z0-9]/}"
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$bin" learn --scheme "$scheme" --generations "$generations" --seed "$seed" \
      --backend "$backend" --verify-every 0 --verify-games 1000 --quiet --json --out "$out" \
      $extra > "$out.json" 2>/dev/null
    end=$(date +%s.%N)
    row=$(awk -F, -v g="$generations" '$1 == g { printf "%s=%s ", $2, $7 }' "$out/verification.csv")
    games=$(awk -F, 'NR > 1 { g += $2 } END { print g }' "$out/generations.csv")
    population=$(grep -o '"population":[0-9]*' "$out.json" | head -1 | cut -d: -f2)
    r=$(echo "$row" | tr ' ' '\n' | awk -F= '$1 == "random" { print $2 }')
    c=$(echo "$row" | tr ' ' '\n' | awk -F= '$1 == "capture" { print $2 }')
    m=$(echo "$row" | tr ' ' '\n' | awk -F= '$1 == "most-pieces" { print $2 }')
    secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    label=$scheme${extra:+ $extra}
    echo "| $label | $seed | $population | $generations | $games | $secs | $r | $c | $m |"
    summary+="${label// /_} $r $c $m $secs"$'\n'
  done
done
echo
echo "| scheme | mean vs random | mean vs capture | mean vs most-pieces | worst vs capture | worst vs most-pieces | mean seconds |"
echo "|---|---|---|---|---|---|---|"
printf "%s" "$summary" | awk '
  { n[$1]++; r[$1] += $2; c[$1] += $3; m[$1] += $4; s[$1] += $5;
    if (!($1 in wc) || $3 < wc[$1]) wc[$1] = $3; if (!($1 in wm) || $4 < wm[$1]) wm[$1] = $4;
    if (!($1 in order)) { order[$1] = ++k; names[k] = $1 } }
  END { for (i = 1; i <= k; i++) { x = names[i];
    printf "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.1f |\n", x, r[x]/n[x], c[x]/n[x], m[x]/n[x], wc[x], wm[x], s[x]/n[x] } }'
