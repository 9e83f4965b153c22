#!/usr/bin/env bash
# Sets up, builds and runs the pile-in demo on a shipped scenario, on the GPU when one is
# present and on the CPU otherwise (the first lines say which). Results land in runs/demo/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
mkdir -p runs
if ! scripts/build.sh cuda >runs/build.log 2>&1; then
    tail -30 runs/build.log
    echo "demo: build failed (full log: runs/build.log)" >&2
    exit 1
fi
out=runs/demo
build/cuda/gaeval pile-in --scenario scenarios/demo_10v10.json --mutation 0.1 --out "$out" "$@"
echo "demo: results in $out/ (picture.svg, best.json, generations.csv, run.json)"
