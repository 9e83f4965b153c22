#!/usr/bin/env bash
# Sets up, builds what the demo needs and runs the pile-in demo on a shipped scenario under the
# edition 4 rules: on the GPU when one is present (CUDA backend built), on the CPU otherwise (CPU
# backend only: no CUDA compile that could not run here). The first lines say which, what is
# compiled and about how long that takes; results land in runs/demo/ (a new runs/demo-N when
# that folder holds an earlier run).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
preset=cpu
scripts/gpu-present.sh && preset=cuda
# build.sh says what it compiles and about how long a first build takes before it starts.
echo "demo: building gaeval ($preset preset; the build shows its progress)" >&2
scripts/build.sh "$preset" gaeval
out=runs/demo
n=1
while [ -e "$out" ]; do n=$((n + 1)); out=runs/demo-$n; done
# The edition 4 rules as hard constraints: every plan the GA returns is legal, never worse than
# the greedy baseline it is compared with, and its picture says how to play it.
build/gaeval pile-in --scenario scenarios/demo_10v10.json --rules aos4 --population 400 \
    --generations 1000 --out "$out" "$@"
echo "demo: results in $out/ (picture.svg, best.json, generations.csv, run.json)"
