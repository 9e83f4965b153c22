#!/usr/bin/env bash
# Sets up, builds and runs every test. usage: scripts/test.sh [cpu|cuda|gpu]
# cuda (default): GPU tests skip with a reason when no device is present; gpu: they must run.
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-cuda}
scripts/setup.sh
scripts/build.sh "$preset"
ctest --preset "$preset" -j "$(nproc)" --timeout 900
