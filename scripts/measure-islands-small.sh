#!/usr/bin/env bash
# Islands of small populations over long runs against one population of the same total size and
# the same evaluations (issue 15; bench/results/islands-cpu.md, section 3):
#   scripts/measure-islands-small.sh BUILD_DIR
# One population of 100 plans against 4 islands of 25 (ring, the best 1 every 100 generations
# replacing the worst), mutation 0.05 (horde: 0.025), 4000 generations (one population 4039).
# Runs the judged case on its 200 fresh seeds, then its first 40 seeds and the two other
# scenarios; about 12 minutes on one loaded core.
set -euo pipefail
build=${1:?usage: scripts/measure-islands-small.sh BUILD_DIR}
here=$(cd "$(dirname "$0")" && pwd)
export EQUALISE=evaluations ISLAND_FLAGS="--migrate-every 100 --migrants 1"
run() { "$here/measure-islands.sh" "$build" "$here/../scenarios/$1.json" 100 4 4000 "$2" --mutation "$3"; }
echo "== line_20v20, seeds 41-100 and 111-250 (judged; 101-110 were the pilot seeds)"
run line_20v20 "$(seq 41 100) $(seq 111 250)" 0.05
echo "== line_20v20, seeds 1-40"
run line_20v20 "$(seq 1 40)" 0.05
echo "== horde_40v40, seeds 1-20"
run horde_40v40 "$(seq 1 20)" 0.025
echo "== demo_10v10, seeds 1-20"
run demo_10v10 "$(seq 1 20)" 0.05
