#!/usr/bin/env bash
# Configures and builds one preset (default: cuda = CUDA backend when nvcc exists), all targets
# or the ones named after it; build/gaeval then points at this preset's binary.
# usage: scripts/build.sh [cpu|cuda|gpu] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-cuda}
shift || true
cmake --preset "$preset" >/dev/null
if (($#)); then
    for t in "$@"; do cmake --build --preset "$preset" --target "$t"; done
else
    cmake --build --preset "$preset"
fi
ln -sfn "$preset/gaeval" build/gaeval
