#!/usr/bin/env bash
# One call on a GPU machine (nvcc, cmake, ninja; no network, no -dev packages): build against
# the staged dependencies, run the whole suite under the `gpu` preset (GPU tests must run, not
# skip), compute-sanitizer memcheck and racecheck on the GPU tests, the default benchmark and a
# large-population run. Logs and tables go to the folder given as the argument.
#
#   here:     scripts/stage-deps.sh            (stages .deps/ from this machine's packages)
#   there:    scripts/gpu-check.sh OUTDIR      (with .deps carried along)
# Through the workplace's device tool (8 files come back): carry .deps and run
#   scripts/gpu-check.sh /tmp/gc; s=$?; tar czf $OUT/gpu-check.tgz -C /tmp/gc .; \
#   cp /tmp/gc/summary.txt /tmp/gc/bench.md $OUT/; exit $s
set -uo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/gpu-check.sh OUTDIR}
mkdir -p "$out"
log() { echo "gpu-check: $*" | tee -a "$out/summary.txt"; }
status=0

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>&1
    nvcc --version | tail -2
    cmake --version | head -1
    echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
} >"$out/machine.txt" 2>&1
cat "$out/machine.txt"

[ -d .deps ] || { log "no .deps/: run scripts/stage-deps.sh here first and carry .deps"; exit 2; }
deps="-DGAEVAL_DEPS_DIR=$PWD/.deps"
if ! { cmake --preset gpu "$deps" && cmake --build --preset gpu; } >"$out/build.log" 2>&1; then
    log "BUILD FAILED (see build.log)"; tail -30 "$out/build.log"; exit 1
fi
log "build ok"

if ctest --preset gpu -j 8 --timeout 900 >"$out/tests.log" 2>&1; then
    log "tests: $(grep -E 'tests passed' "$out/tests.log")"
else
    status=1; log "TESTS FAILED: $(grep -E 'tests passed|tests failed' "$out/tests.log")"
    grep -E "\(Failed\)|\(SEGFAULT\)|\(Timeout\)" "$out/tests.log" | head -20 | tee -a "$out/summary.txt"
fi
grep -q "Skipped" "$out/tests.log" && log "skipped tests: $(grep -c '(Skipped)' "$out/tests.log")"

gpu_filter='*Cuda*:*Device*:*Gpu*'
if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck; do
        if compute-sanitizer --tool $tool --error-exitcode 9 build/gpu/tests/gaeval_tests \
            --gtest_filter="$gpu_filter" >"$out/sanitizer-$tool.log" 2>&1; then
            log "compute-sanitizer $tool: clean"
        else
            status=1; log "compute-sanitizer $tool: ERRORS (see sanitizer-$tool.log)"
        fi
    done
else
    log "compute-sanitizer not found: skipped"
fi

if build/gpu/gaeval bench --backend cpu1,cpu,cuda --markdown "$out/bench.md" \
    --csv "$out/bench.csv" >"$out/bench.log" 2>&1; then
    log "bench: $(grep -i signature "$out/bench.log" | tail -1)"
else
    status=1; log "BENCH FAILED (see bench.log)"
fi

# The bench signature must be the one the CPU records (tests/data/bench_signature.txt).
if grep -q "signature: $(head -c 16 tests/data/bench_signature.txt)" "$out/bench.log"; then
    log "bench signature: equal to tests/data/bench_signature.txt"
else
    status=1; log "BENCH SIGNATURE DIFFERS from tests/data/bench_signature.txt"
fi

# Learning on the GPU against the CPU in lockstep, then the default learn run on the GPU (its
# time and verification go to learn-cuda.log; the weights must equal a CPU run's).
if build/gpu/gaeval compare --a cuda --b cpu learn --generations 5 >"$out/compare-learn.log" 2>&1; then
    log "compare learn cuda vs cpu: $(head -1 "$out/compare-learn.log")"
else
    status=1; log "COMPARE LEARN FAILED (see compare-learn.log)"
fi
# Risk (issue 12): the seed's scheme on the GPU against the CPU, every game and weight.
if build/gpu/gaeval compare --a cuda --b cpu learn --game risk --generations 2 --verify-games 200 \
    >"$out/compare-learn-risk.log" 2>&1; then
    log "compare learn risk cuda vs cpu: $(head -1 "$out/compare-learn-risk.log")"
else
    status=1; log "COMPARE LEARN RISK FAILED (see compare-learn-risk.log)"
fi
if build/gpu/gaeval learn --backend cuda --out "$out/learn-cuda" \
    >"$out/learn-cuda.log" 2>&1; then
    log "learn (defaults, cuda): $(grep -E 'learned|vs ' "$out/learn-cuda.log" | tr '\n' ' ')"
else
    status=1; log "LEARN FAILED (see learn-cuda.log)"
fi

# Searching players on the GPU (one game per thread): the learned player at depth 3 against
# capture, games/s to put beside the CPU's in bench/results/search-cpu.md.
if [ -f "$out/learn-cuda/weights.json" ] && build/gpu/gaeval play --backend cuda \
    --a "$out/learn-cuda/weights.json" --depth-a 3 --b capture --games 10000 --max-plies 400 \
    >"$out/search-cuda.log" 2>&1; then
    log "search depth 3 (cuda): $(tail -2 "$out/search-cuda.log" | tr '\n' ' ')"
else
    status=1; log "SEARCH PLAY FAILED (see search-cuda.log)"
fi

# Large populations: 10^8 plans of 20 models resident on the device (about 18 GB), then the
# same job at 10^7 resident and chunked (plans in host memory, streamed to the GPU 10^6 at a
# time): the two must give byte-identical best.json.
run_large() {  # name, population, extra environment
    local name=$1 pop=$2; shift 2
    if env "$@" build/gpu/gaeval pile-in --scenario scenarios/line_20v20.json --population "$pop" \
        --generations 5 --backend cuda --no-checkpoint --out "$out/$name" --json \
        >"$out/$name.log" 2>&1; then
        log "$name: $(tail -1 "$out/$name.log")"
    else
        status=1; log "$name FAILED (see $name.log)"
    fi
    cp "$out/$name/generations.csv" "$out/$name-generations.csv" 2>/dev/null
}
run_large large-1e8 100000000
run_large large-1e7 10000000
run_large chunked-1e7 10000000 GAEVAL_CUDA_CHUNK=1000000
if cmp -s "$out/large-1e7/best.json" "$out/chunked-1e7/best.json"; then
    log "resident and chunked 1e7 runs: identical best.json"
else
    status=1; log "RESIDENT AND CHUNKED 1e7 RUNS DIFFER"
fi
log "done, status $status"
exit $status
