#!/usr/bin/env bash
# Sets up, builds and runs the pile-in demo on a shipped scenario, on the GPU when one is
# present and on the CPU otherwise (the first lines say which). Results land in runs/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh cuda >/dev/null
out=runs/demo
build/cuda/gaeval pile-in --scenario scenarios/demo_10v10.json --generations 300 --out "$out" "$@"
echo "demo: results in $out (best.json, picture.svg, generations.csv, run.json)"
