#!/usr/bin/env bash
# Configures and builds one preset (default: cuda = CUDA backend when nvcc exists), all targets
# or the ones named after it; build/gaeval then points at this preset's binary. Before
# compiling it says what it will compile and about how long that takes.
# usage: scripts/build.sh [--plan] [cpu|cuda|gpu] [target...]   (--plan: say it, build nothing)
set -euo pipefail
cd "$(dirname "$0")/.."
plan_only=false
if [ "${1:-}" = --plan ]; then
    plan_only=true
    shift
fi
preset=${1:-cuda}
shift || true
dir=build/$preset
# --plan on a configured tree reads it as it is (nothing regenerated).
$plan_only && [ -f "$dir/build.ninja" ] || cmake --preset "$preset" >/dev/null
targets=("$@")
# What a fresh build compiles (ninja -t commands: every compile and link step) and about how
# long: CUDA files (.cu, nvcc) take minutes each, C++ files seconds. Per-file costs on one idle
# core of the 2-core AMD EPYC machine: C++ about 5 s on average (gaeval alone, 70 steps, built
# in 2 min 43 s on 2 cores, setup included), a kernel file about 4 min (the whole CUDA build
# took 58 min on 2 loaded cores).
commands=$(ninja -C "$dir" -t commands "${targets[@]}")
total=$(grep -c . <<<"$commands" || true)
cu_total=$(grep -c 'nvcc' <<<"$commands" || true)
cores=$(nproc)
seconds=$(((total - cu_total) * 5 / cores + cu_total * 240 / cores))
what=${targets[*]:-everything (gaeval, its tests, the benchmarks)}
cuda_note="no CUDA files"
((cu_total == 0)) || cuda_note="$cu_total of them CUDA files (nvcc), minutes each"
estimate="a first build is $total steps ($cuda_note), about $(((seconds + 59) / 60)) min on $cores"
estimate+=" idle cores, several times that on a busy machine"
if [ -s "$dir/.ninja_log" ]; then
    echo "build: $preset preset, $what: compiling what changed ($estimate)" >&2
else
    echo "build: $preset preset, $what: $estimate" >&2
fi
$plan_only && exit 0
if ((${#targets[@]})); then
    for t in "${targets[@]}"; do cmake --build --preset "$preset" --target "$t"; done
else
    cmake --build --preset "$preset"
fi
ln -sfn "$preset/gaeval" build/gaeval
