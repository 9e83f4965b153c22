#!/usr/bin/env bash
# Sets up, builds what the demo needs and runs the pile-in demo on a shipped scenario: on the GPU
# when one is present (CUDA backend built), on the CPU otherwise (CPU backend only: no CUDA
# compile that could not run here). The first lines say which; results land in runs/demo/ (a
# new runs/demo-N when that folder holds an earlier run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
preset=cpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU &&
    { command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; }; then
    preset=cuda
fi
echo "demo: building gaeval ($preset preset; the build shows its progress)" >&2
scripts/build.sh "$preset" gaeval
out=runs/demo
n=1
while [ -e "$out" ]; do n=$((n + 1)); out=runs/demo-$n; done
build/gaeval pile-in --scenario scenarios/demo_10v10.json --mutation 0.1 --out "$out" "$@"
echo "demo: results in $out/ (picture.svg, best.json, generations.csv, run.json)"
