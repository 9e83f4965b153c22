#!/usr/bin/env bash
# A fair comparison of the `gaeval learn` schemes on 7x7 Ataxx (issue 14):
#   - one feature coding for every scheme: the features in [0, 1], higher is better;
#   - the same evaluation seeds for every scheme (paired), disjoint from the seeds any default
#     was chosen on (modern's defaults were chosen on seeds 1 to 6, docs/learn.md; nothing is
#     tuned here);
#   - three budgets of tournament games, one of them the Risk seed's own scale (100 members x 4
#     generations of ten tournaments = 3,600 games);
#   - each final best member verified against capture and most-pieces (VERIFY games each, colours
#     alternating); per row the mean win rate over the seeds with a 95% t interval, and the
#     paired difference to modern on the same seeds with its 95% t interval.
# Each scheme runs at its default population (ten-tournaments: the Risk seed's 100 members);
# generations = budget / (games per generation), rounded, at least 1 (the games column says
# what was played).
# usage: scripts/learn-fair.sh [BUDGETS] [SEEDS] [VERIFY] [RAW_CSV]
#   defaults: "1200 3600 12000" "101 ... 120" 200 (RAW_CSV: the per-run rows, default a temp file)
set -euo pipefail
cd "$(dirname "$0")/.."
budgets=${1:-"1200 3600 12000"}
seeds=${2:-"$(seq -s ' ' 101 120)"}
verify=${3:-200}
raw=${4:-}
bin=build/gaeval
[ -x "$bin" ] || bin=build/cpu/gaeval
[ -x "$bin" ] || { echo "learn-fair: build first (scripts/build.sh)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -n "$raw" ] || raw="$work/raw.csv"

# scheme | population | games per generation at that population | extra flags
schemes=(
  "modern|32|992|"
  "genetic-game|24|552|"
  "paired-blend|24|130|"
  "ten-tournaments|100|900|"
)
echo "scheme,budget,seed,population,generations,games,seconds,vs_capture,vs_most_pieces" > "$raw"
for budget in $budgets; do
  for entry in "${schemes[@]}"; do
    IFS='|' read -r scheme population per_gen extra <<<"$entry"
    generations=$(( (budget + per_gen / 2) / per_gen ))
    [ "$generations" -ge 1 ] || generations=1
    for seed in $seeds; do
      out="$work/$scheme-$budget-$seed"
      start=$(date +%s.%N)
      # shellcheck disable=SC2086
      "$bin" learn --scheme "$scheme" --population "$population" --generations "$generations" \
        --seed "$seed" --verify-every 0 --verify-games "$verify" --quiet --out "$out" \
        $extra > /dev/null 2> "$out.err" || { cat "$out.err" >&2; exit 1; }
      end=$(date +%s.%N)
      c=$(awk -F, -v g="$generations" '$1 == g && $2 == "capture" { print $7 }' "$out/verification.csv")
      m=$(awk -F, -v g="$generations" '$1 == g && $2 == "most-pieces" { print $7 }' "$out/verification.csv")
      games=$(awk -F, 'NR > 1 { g += $2 } END { print g }' "$out/generations.csv")
      secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
      echo "$scheme,$budget,$seed,$population,$generations,$games,$secs,$c,$m" >> "$raw"
      rm -rf "$out"
    done
  done
done

python3 - "$raw" <<'EOF'
import csv, math, sys
from collections import defaultdict
# Two-sided 95% Student t quantiles by degrees of freedom (n - 1).
T95 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
       9: 2.262, 10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120,
       17: 2.110, 18: 2.101, 19: 2.093, 20: 2.086, 24: 2.064, 29: 2.045, 39: 2.023}
def t95(df):
    return T95.get(df, T95[max(k for k in T95 if k <= df)] if df > 1 else 12.706)
def mean_ci(xs):
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, float("nan")
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, t95(n - 1) * sd / math.sqrt(n)
rows = list(csv.DictReader(open(sys.argv[1])))
by = defaultdict(dict)
order = []
for r in rows:
    key = (int(r["budget"]), r["scheme"])
    if key not in by:
        order.append(key)
    by[key][r["seed"]] = r
print("| budget (games) | scheme | population x generations | games played (mean) | seeds "
      "| vs capture: mean ± 95% CI | worst | vs most-pieces: mean ± 95% CI | worst "
      "| minus modern, vs capture (paired) | minus modern, vs most-pieces (paired) | s/run |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|")
for key in sorted(order, key=lambda k: (k[0], order.index(k))):
    budget, scheme = key
    runs = by[key]
    seeds = sorted(runs, key=int)
    cap = [float(runs[s]["vs_capture"]) for s in seeds]
    mp = [float(runs[s]["vs_most_pieces"]) for s in seeds]
    games = sum(int(runs[s]["games"]) for s in seeds) / len(seeds)
    secs = sum(float(runs[s]["seconds"]) for s in seeds) / len(seeds)
    r0 = runs[seeds[0]]
    cm, cc = mean_ci(cap)
    mm, mc = mean_ci(mp)
    base = by.get((budget, "modern"), {})
    if scheme != "modern" and base:
        common = [s for s in seeds if s in base]
        dc = mean_ci([float(runs[s]["vs_capture"]) - float(base[s]["vs_capture"]) for s in common])
        dm = mean_ci([float(runs[s]["vs_most_pieces"]) - float(base[s]["vs_most_pieces"])
                      for s in common])
        diff_c = f"{dc[0]:+.3f} ± {dc[1]:.3f}"
        diff_m = f"{dm[0]:+.3f} ± {dm[1]:.3f}"
    else:
        diff_c = diff_m = "(reference)"
    print(f"| {budget} | {scheme} | {r0['population']} x {r0['generations']} | {games:.0f} "
          f"| {len(seeds)} | {cm:.3f} ± {cc:.3f} | {min(cap):.3f} | {mm:.3f} ± {mc:.3f} "
          f"| {min(mp):.3f} | {diff_c} | {diff_m} | {secs:.1f} |")
EOF
