#!/usr/bin/env bash
# Sets up, builds and runs every test. usage: scripts/test.sh [cpu|cuda|gpu]
# cuda (default): the CUDA code is compiled whenever nvcc exists (so that it keeps compiling),
# and GPU tests skip with a reason when no device is present; gpu: they must run.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-cuda}
scripts/setup.sh
scripts/build.sh "$preset"
status=0
ctest --preset "$preset" -j "$(nproc)" --timeout 900 || status=$?
# ctest shows "Skipped" without the reason: print each skipped test with its reason.
log="build/$preset/Testing/Temporary/LastTest.log"
if [ -f "$log" ]; then
    awk '/^\[ RUN      \]/ { test = $4 }
         /: Skipped$/ { getline reason; printf "skipped: %s: %s\n", test, reason }' "$log" | sort -u
fi
exit $status
