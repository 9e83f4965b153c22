#!/usr/bin/env bash
# Configures and builds one preset (default: cuda = CUDA backend when nvcc exists).
# usage: scripts/build.sh [cpu|cuda|gpu]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-cuda}
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
