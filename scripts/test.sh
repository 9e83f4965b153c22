#!/usr/bin/env bash
# Sets up, builds and runs every test. usage: scripts/test.sh [cpu|cuda|gpu] [--which]
# No preset: cuda where a GPU is present (scripts/gpu-present.sh), cpu otherwise, so that a
# machine without a GPU does not compile CUDA kernels for tests that would only skip.
# cuda: the CUDA code is compiled whenever nvcc exists (CI asks for it, so that it keeps
# compiling) and GPU tests skip with a reason when no device is present; gpu: they must run.
# --which: print the preset that would be used and why, then exit (nothing built).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=
which_only=false
for arg in "$@"; do
    case $arg in
    cpu | cuda | gpu) preset=$arg ;;
    --which) which_only=true ;;
    *) echo "scripts/test.sh: unknown argument '$arg' (usage: scripts/test.sh [cpu|cuda|gpu] [--which])" >&2
       exit 2 ;;
    esac
done
if [ -z "$preset" ]; then
    if scripts/gpu-present.sh; then
        preset=cuda why="a GPU is present (nvidia-smi -L lists one)"
    else
        preset=cpu why="no GPU found (nvidia-smi -L lists none): CPU backend only, no CUDA compile"
    fi
else
    why="asked for"
fi
echo "test: preset $preset ($why)" >&2
$which_only && exit 0
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
