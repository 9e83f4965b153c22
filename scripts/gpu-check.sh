#!/usr/bin/env bash
# The GPU check in steps, each well inside the device machine's 10 minutes per command; every
# step writes its log and tables straight into OUTDIR as it goes (nothing is copied at the end,
# so a step killed at its limit still leaves what it wrote). docs/gpu-check.md gives the calls in
# order and what each proves.
#
#   usage: scripts/gpu-check.sh STEP OUTDIR        (STEP: one of the names below, or `list`)
#
#   stage      here, before any device call: copies the headers and GoogleTest sources the
#              build needs into .deps/ (the device machine has no -dev packages, no network)
#   prebuilt   on the device: unpack build/prebuilt.tar.xz (scripts/gpu-bundle.sh made it here),
#              link the source folder its files name to this working copy, run one GPU test;
#              the later steps use its build folder (exit 1: use the build step instead)
#   build      configure the `gpu` preset against .deps/ for the device's architecture only
#              (GAEVAL_CUDA_ARCH, default: the device's own, read by nvidia-smi; 90 for H100/H200)
#              and build; stops itself before the limit (exit 75: call it again, ninja resumes)
#   tests      the whole suite under the `gpu` preset: GPU tests must run, a missing GPU fails
#   memcheck | initcheck | synccheck
#              compute-sanitizer on every GPU test in the tests' reduced-size mode
#              (GAEVAL_GPU_TEST_REDUCED=1: same comparisons, small batches); where the device
#              refuses the sanitizer (some sandboxed machines do), the step says so and exits 0
#   bench      the default benchmark on cpu1, cpu and cuda side by side, and its signature
#   blocks     issue 30's rows with the launch chosen per kernel and with GAEVAL_CUDA_BLOCK=256
#              (the fixed launch of before) side by side: 24-member tournament generations (Ataxx,
#              Risk), 16 islands x 24, random and weighted-vs-policy playouts, the depth-3
#              searching player against capture; the 16-thread CPU beside them (blocks.md)
#   compare    learning and pile-in on cuda against cpu in lockstep (first difference reported)
#   learn      the default learn run on the GPU (time and verification)
#   large      10^8 plans resident on the device, 10^7 resident and chunked (identical best.json)
#   profile    Nsight Compute (ncu, clocks left alone) on the workloads the first check found
#              slowest against the CPU or their targets: 24-member tournament generations
#              (Ataxx, Risk),
#              Ataxx playouts (65536 games), a 10^5-plan GAPI1 generation; each case one short
#              bench run (one sample a row) with an equal share of the step's seconds
#
# Environment: GAEVAL_STEP_SECONDS (default 540) bounds each step's own work;
# GAEVAL_CHECK_PRESET (default gpu) lets the CPU-only steps run here (`cpu`) to test the script,
# GAEVAL_CHECK_BUILD_DIR (default build/PRESET) and GAEVAL_CHECK_TARGETS (default all) with it;
# GAEVAL_TESTS_PARTS (default "gpu rest") and GAEVAL_BENCH_BACKENDS (default cpu1,cpu,cuda) narrow
# the tests and bench steps. scripts/gpu-session.sh runs several steps in one device call.
set -uo pipefail
cd "$(dirname "$0")/.."
steps="stage prebuilt build tests memcheck initcheck synccheck bench blocks compare learn large profile"
step=${1:-}
out=${2:-}
if [ "$step" = list ]; then echo "$steps"; exit 0; fi
if [ -z "$step" ] || [ -z "$out" ] || ! [[ " $steps " == *" $step "* ]]; then
    echo "usage: scripts/gpu-check.sh STEP OUTDIR (STEP: $steps)" >&2
    exit 2
fi
mkdir -p "$out" || { echo "gpu-check: cannot create $out" >&2; exit 2; }
out=$(cd "$out" && pwd)
preset=${GAEVAL_CHECK_PRESET:-gpu}
limit=${GAEVAL_STEP_SECONDS:-540}
bdir=${GAEVAL_CHECK_BUILD_DIR:-build/$preset}
# A bundle unpacked and proven by the prebuilt step: its build folder, its libraries.
if [ -z "${GAEVAL_CHECK_BUILD_DIR:-}" ] && [ -f build/prebuilt.ok ]; then
    bdir=$(sed -n 's/^build=//p' build/prebuilt.txt)
    export LD_LIBRARY_PATH=$PWD/$bdir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
fi
bin=$bdir/gaeval
tests_bin=$bdir/tests/gaeval_tests
scratch=${TMPDIR:-/tmp}/gaeval-gpu-check
status=0
started=$SECONDS

log() { echo "gpu-check $step: $*" | tee -a "$out/summary.txt"; }
fail() { status=1; log "FAILED: $*"; }
# Seconds left of this step's budget (at least 1).
left() { local l=$((limit - (SECONDS - started))); ((l > 0)) && echo "$l" || echo 1; }
# Runs a command under the step's remaining time; 124 means it ran out.
bounded() { timeout --signal=TERM --kill-after=10 "$(left)" "$@"; }
need_binary() {
    [ -x "$bin" ] || { log "no $bin: run the build step first (on the same warm machine)"; exit 2; }
}

machine() {
    {
        echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
        echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
        command -v nvidia-smi >/dev/null &&
            nvidia-smi --query-gpu=name,memory.total,driver_version,compute_cap --format=csv,noheader
        command -v nvcc >/dev/null && nvcc --version | tail -2
        cmake --version | head -1
        echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
    } >"$out/machine.txt" 2>&1
}

# The device's architecture as CMake wants it (9.0 -> 90), or empty without nvidia-smi.
device_arch() {
    nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .'
}

case $step in
stage)
    scripts/stage-deps.sh >"$out/stage.log" 2>&1 || { fail "see stage.log"; exit 1; }
    log "$(tail -1 "$out/stage.log")"
    ;;

prebuilt)
    machine
    rm -f build/prebuilt.ok
    [ -f build/prebuilt.tar.xz ] || { log "no build/prebuilt.tar.xz: make it here with scripts/gpu-bundle.sh and carry it"; exit 1; }
    tar xJf build/prebuilt.tar.xz build/prebuilt.txt || { fail "cannot read build/prebuilt.tar.xz"; exit 1; }
    src=$(sed -n 's/^source=//p' build/prebuilt.txt)
    rel=$(sed -n 's/^build=//p' build/prebuilt.txt)
    made=$(sed -n 's/^commit=//p' build/prebuilt.txt)
    here=$(git rev-parse HEAD 2>/dev/null || echo unknown)
    if [ "$made" != "$here" ]; then
        fail "the bundle is of ${made:0:7}, this working copy of ${here:0:7}: bundle this commit"
        exit 1
    fi
    # ctest files and tests name the source folder of the bundling machine: it becomes a link here.
    if [ "$(cd "$src" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
        if [ -e "$src" ] || [ -L "$src" ]; then
            fail "$src exists on this machine: the bundle's paths cannot point here"; exit 1
        fi
        mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src" || { fail "cannot link $src"; exit 1; }
    fi
    rm -rf "$rel" && tar xJf build/prebuilt.tar.xz "$rel" || { fail "cannot unpack $rel"; exit 1; }
    export LD_LIBRARY_PATH=$PWD/$rel/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    "$rel/tests/gaeval_tests" --gtest_filter=Philox.KnownAnswerVectorsOnDevice >"$out/prebuilt.log" 2>&1
    rc=$?
    ran="PASSED.*1 test"
    [ "$preset" = cpu ] && ran="PASSED|SKIPPED.*1 test"  # trying the step without a GPU
    if ((rc != 0)) || ! grep -qE "$ran" "$out/prebuilt.log" ||
        { [ "$preset" != cpu ] && grep -q "SKIPPED" "$out/prebuilt.log"; }; then
        fail "the bundle's GPU test did not pass here (see prebuilt.log)"; exit 1
    fi
    touch build/prebuilt.ok
    log "the bundle of ${made:0:7} ($(sed -n 's/^nvcc=//p' build/prebuilt.txt)) runs here: build folder $rel"
    ;;

build)
    machine
    [ -d .deps ] || [ ! -f build/deps.tar.xz ] || tar xJf build/deps.tar.xz
    [ -d .deps/include ] || { log "no .deps/: run 'scripts/gpu-check.sh stage' here first and carry .deps"; exit 2; }
    args=(--preset "$preset" -B "$bdir" "-DGAEVAL_DEPS_DIR=$PWD/.deps")
    if [ "$preset" != cpu ]; then
        arch=${GAEVAL_CUDA_ARCH:-$(device_arch)}
        [ -n "$arch" ] || { log "no GPU architecture (nvidia-smi gave none; set GAEVAL_CUDA_ARCH)"; exit 2; }
        args+=("-DCMAKE_CUDA_ARCHITECTURES=$arch")
        log "CUDA architecture $arch"
    fi
    if ! cmake "${args[@]}" >"$out/build.log" 2>&1; then
        fail "configure (see build.log)"; tail -20 "$out/build.log"; exit 1
    fi
    targets=()
    for t in ${GAEVAL_CHECK_TARGETS:-}; do targets+=(--target "$t"); done
    bounded cmake --build "$bdir" -j "$(nproc)" "${targets[@]}" >>"$out/build.log" 2>&1
    rc=$?
    if ((rc == 124 || rc == 137)); then
        log "not finished after ${limit}s: call this step again (ninja resumes where it stopped)"
        exit 75
    elif ((rc != 0)); then
        fail "build (see build.log)"; grep -m5 -E "error|Error" "$out/build.log"; exit 1
    fi
    log "build ok in $((SECONDS - started)) s"
    ;;

tests)
    need_binary
    # The GPU tests first (they must run, not skip, under the gpu preset), then all the others.
    gpu_tests='Cuda|Device|Gpu'
    for part in ${GAEVAL_TESTS_PARTS:-gpu rest}; do
        sel=(-R "$gpu_tests")
        [ $part = rest ] && sel=(-E "$gpu_tests")
        bounded ctest --test-dir "$bdir" "${sel[@]}" -j "$(nproc)" --timeout 300 \
            --output-on-failure >"$out/tests-$part.log" 2>&1
        rc=$?
        line=$(grep -E "tests passed" "$out/tests-$part.log")
        if ((rc == 124)); then
            fail "$part: ran out of ${limit}s (see tests-$part.log)"
        elif ((rc == 0)); then
            log "$part: $line"
        else
            fail "$part: ${line:-no summary} (see tests-$part.log)"
            grep -E "\(Failed\)|\(SEGFAULT\)|\(Timeout\)" "$out/tests-$part.log" | head -20 |
                tee -a "$out/summary.txt"
        fi
        skipped=$(grep -c "(Skipped)" "$out/tests-$part.log")
        ((skipped)) && log "$part: skipped tests: $skipped"
    done
    ;;

memcheck | initcheck | synccheck)
    need_binary
    sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null)
    [ -n "$sanitizer" ] || { log "compute-sanitizer not found: skipped"; exit 0; }
    # The fault tests' GPU twin kills child processes at random moments: not a sanitizer's job.
    filter=${GAEVAL_SANITIZER_FILTER:-'*Cuda*:*Device*:*Gpu*:-Faults.*'}
    # Probe: one small GPU test. A device that refuses the sanitizer ("Device not supported",
    # error 999 at the first allocation) is reported as a skip, not as a failure.
    "$sanitizer" --tool "$step" "$tests_bin" --gtest_filter='Philox.KnownAnswerVectorsOnDevice' \
        >"$out/$step-probe.log" 2>&1
    if grep -qiE "not supported|unknown error|error 999|cudaErrorUnknown|Device not supported" \
        "$out/$step-probe.log"; then
        log "the device refuses compute-sanitizer ($(grep -m1 -iE 'not supported|999|unknown' "$out/$step-probe.log")): skipped"
        exit 0
    fi
    # Current compute-sanitizer takes no value after --track-unused-memory (it read "no" as the
    # program): initcheck runs with its defaults.
    GAEVAL_GPU_TEST_REDUCED=1 bounded "$sanitizer" --tool "$step" --error-exitcode 9 \
        "$tests_bin" --gtest_filter="$filter" >"$out/$step.log" 2>&1
    rc=$?
    if ((rc == 0)); then
        log "clean ($(grep -E 'ERROR SUMMARY' "$out/$step.log" | tail -1))"
    elif ((rc == 124)); then
        fail "ran out of ${limit}s (see $step.log; narrow GAEVAL_SANITIZER_FILTER)"
    else
        fail "rc $rc: $(grep -E 'ERROR SUMMARY|FAILED' "$out/$step.log" | head -3 | tr '\n' ' ')"
    fi
    ;;

bench)
    need_binary
    backends=${GAEVAL_BENCH_BACKENDS:-cpu1,cpu,cuda}
    [ "$preset" = cpu ] && backends=cpu1,cpu
    bounded "$bin" bench --backend "$backends" --markdown "$out/bench.md" --csv "$out/bench.csv" \
        >"$out/bench.log" 2>&1 || fail "bench (see bench.log)"
    # The signature must be the one the CPU records (tests/data/bench_signature.txt).
    expected=$(head -c 16 tests/data/bench_signature.txt)
    if grep -q "signature: $expected" "$out/bench.log"; then
        log "signature $expected, equal to tests/data/bench_signature.txt"
    else
        fail "signature differs from tests/data/bench_signature.txt ($expected)"
    fi
    ;;

blocks)
    need_binary
    # Each case runs twice on cuda, first with the launch chosen per kernel (its shapes logged by
    # GAEVAL_CUDA_LAUNCH_LOG=1), then with GAEVAL_CUDA_BLOCK=256; the CPU rows once, in the first
    # run. Outputs and CSVs are appended to blocks.log as each run ends; blocks.md is the table.
    rm -rf "$scratch/blocks"; mkdir -p "$scratch/blocks"
    dev=cuda; cpu_rows=cpu,cuda; seconds=1; islands=16; depth3_games=10000; cpu_depth3_games=3000
    if [ "$preset" = cpu ]; then  # the script's logic without a GPU: cpu rows, small sizes
        dev=cpu; cpu_rows=cpu; seconds=0.2; islands=2; depth3_games=40; cpu_depth3_games=40
    fi
    : >"$out/blocks.log"
    csvs=()
    bench_case() {  # name, bench arguments...
        local name=$1; shift
        local mode backends csv
        for mode in chosen 256; do
            backends=$dev
            [ $mode = chosen ] && backends=$cpu_rows
            [ $mode = 256 ] && [ "$preset" = cpu ] && continue
            csv=$scratch/blocks/$name-$mode.csv
            local env=(GAEVAL_CUDA_LAUNCH_LOG=1)
            [ $mode = 256 ] && env=(GAEVAL_CUDA_BLOCK=256)
            if bounded env "${env[@]}" "$bin" bench "$@" --backend "$backends" \
                --max-seconds "$seconds" --min-samples 3 --csv "$csv" \
                >"$scratch/blocks/$name-$mode.log" 2>&1; then
                csvs+=("$mode:$csv")
            else
                fail "$name, $mode (see blocks.log)"
            fi
            { echo "== $name, $mode: ${env[*]} $bin bench $* --backend $backends"
              cat "$scratch/blocks/$name-$mode.log" "$csv" 2>/dev/null; } >>"$out/blocks.log"
        done
    }
    bench_case tournament --what tournament --game ataxx,risk --population 24
    bench_case islands --what islands-learn --population "$islands"
    bench_case playout --what playout --game ataxx
    # The depth-3 searching player (data/ataxx/default-player.json) against capture.
    depth3() {  # mode, backend, games
        local mode=$1 backend=$2 games=$3 env=() rate
        [ $mode = chosen ] && env=(GAEVAL_CUDA_LAUNCH_LOG=1)
        [ $mode = 256 ] && env=(GAEVAL_CUDA_BLOCK=256)
        if bounded env "${env[@]}" "$bin" play --backend "$backend" \
            --a data/ataxx/default-player.json --depth-a 3 --b capture --games "$games" \
            --max-plies 400 --json >"$scratch/blocks/depth3-$mode.log" 2>&1; then
            rate=$(grep -o '"games_per_s":[0-9.e+]*' "$scratch/blocks/depth3-$mode.log" | cut -d: -f2)
            echo "$mode $backend $games ${rate%.*}" >>"$scratch/blocks/depth3.txt"
            log "depth 3 vs capture, $backend ($mode): $games games, ${rate%.*} games/s"
        else
            fail "depth 3, $mode (see blocks.log)"
        fi
        { echo "== depth 3, $mode, $backend: ${env[*]}"; cat "$scratch/blocks/depth3-$mode.log"; } >>"$out/blocks.log"
    }
    depth3 chosen "$dev" "$depth3_games"
    [ "$preset" = cpu ] || depth3 256 cuda "$depth3_games"
    [ "$preset" = cpu ] || depth3 cpu cpu "$cpu_depth3_games"
    # The table: every row of the chosen run beside the same row at 256 (cuda median and kernel
    # seconds) and the CPU's median.
    {
        echo "# Launch chosen per kernel against GAEVAL_CUDA_BLOCK=256 ($(git rev-parse --short HEAD 2>/dev/null))"
        echo
        echo "Throughput per row (the CPU's at its own size, all threads), cuda's kernel seconds (CUDA events):"
        echo
        echo "| workload | size | unit | cpu | cuda chosen | cuda 256 | chosen / 256 | kernel s chosen | kernel s 256 |"
        echo "|---|---|---|---:|---:|---:|---:|---:|---:|"
        awk -v files="${csvs[*]}" '
            # Minimal CSV split: quoted fields may hold commas.
            function split_csv(line, f,    n, i, c, q, cur) {
                n = 0; cur = ""; q = 0
                for (i = 1; i <= length(line); i++) {
                    c = substr(line, i, 1)
                    if (c == "\"") q = !q
                    else if (c == "," && !q) { f[++n] = cur; cur = "" }
                    else cur = cur c
                }
                f[++n] = cur
                return n
            }
            BEGIN {
                nfiles = split(files, list, " ")
                for (k = 1; k <= nfiles; k++) {
                    mode = list[k]; sub(/:.*/, "", mode)
                    file = list[k]; sub(/^[^:]*:/, "", file)
                    first = 1
                    while ((getline line < file) > 0) {
                        if (first) { first = 0; continue }
                        split_csv(line, f)
                        # workload, size, backend, samples, median_s, noise, throughput, unit, ..., kernel_s (14)
                        size = f[2]; sub(/ games=[0-9]+$/, "", size)
                        if (f[3] == "cpu") key = f[1] SUBSEP size
                        else key = f[1] SUBSEP f[2]
                        unit[f[1]] = f[8]
                        if (f[3] == "cpu") { cpu[key] = f[7]; if (!(key in seen)) { seen[key] = 1; order[++rows] = key } }
                        else if (f[3] == "cuda") {
                            med[mode, f[1] SUBSEP f[2]] = f[7]; ker[mode, f[1] SUBSEP f[2]] = f[14]
                            if (!((f[1] SUBSEP f[2]) in seen)) { seen[f[1] SUBSEP f[2]] = 1; order[++rows] = f[1] SUBSEP f[2] }
                            cuda_of[f[1] SUBSEP size] = f[1] SUBSEP f[2]
                        }
                    }
                    close(file)
                }
                for (r = 1; r <= rows; r++) {
                    key = order[r]
                    if (key in cuda_of && cuda_of[key] != key) continue  # a cpu row shown with its cuda row
                    split(key, kk, SUBSEP)
                    size = kk[2]; sub(/ games=[0-9]+$/, "", size)
                    c = cpu[kk[1] SUBSEP size]; a = med["chosen", key]; b = med["256", key]
                    ratio = (a > 0 && b > 0) ? sprintf("%.2f", a / b) : ""
                    printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", kk[1], kk[2], unit[kk[1]], c, a, b, ratio, ker["chosen", key], ker["256", key]
                }
            }'
        echo
        echo "Depth-3 searching player (data/ataxx/default-player.json, --depth-a 3) against capture (games/s as \`play\` reports them):"
        echo
        echo "| launch | backend | games | games/s |"
        echo "|---|---|---:|---:|"
        awk '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$scratch/blocks/depth3.txt" 2>/dev/null
        echo
        echo "Launch shapes chosen (GAEVAL_CUDA_LAUNCH_LOG=1), one line per kernel and shape:"
        echo
        echo '```'
        grep -h "gaeval: launch" "$scratch"/blocks/*-chosen.log 2>/dev/null | sort -u | head -60
        echo '```'
    } >"$out/blocks.md"
    log "blocks.md: $(grep -c '^| [a-z]' "$out/blocks.md") rows"
    ;;

compare)
    need_binary
    a=cuda
    [ "$preset" = cpu ] && a=cpu
    run_compare() {  # name, compare arguments...
        local name=$1; shift
        if bounded "$bin" compare --a "$a" --b cpu "$@" >"$out/compare-$name.log" 2>&1; then
            log "$name: $(head -1 "$out/compare-$name.log")"
        else
            fail "$name (see compare-$name.log)"
        fi
    }
    run_compare learn learn --generations 5
    run_compare learn-risk learn --game risk --generations 2 --verify-games 200
    run_compare pile-in pile-in --scenario scenarios/line_20v20.json --population 100000 \
        --generations 5
    ;;

learn)
    need_binary
    rm -rf "$scratch/learn"; mkdir -p "$scratch"
    backend=cuda
    [ "$preset" = cpu ] && backend=cpu
    if bounded "$bin" learn --backend "$backend" --out "$scratch/learn" >"$out/learn.log" 2>&1; then
        log "$(grep -E 'learned|vs ' "$out/learn.log" | tr '\n' ' ')"
    else
        fail "learn (see learn.log)"
    fi
    # Searching players on the GPU (one game per thread): the learned player at depth 3 against
    # capture, games/s to put beside the CPU's in bench/results/search-cpu.md.
    if [ -f "$scratch/learn/weights.json" ] && bounded "$bin" play --backend "$backend" \
        --a "$scratch/learn/weights.json" --depth-a 3 --b capture --games 10000 --max-plies 400 \
        >"$out/search.log" 2>&1; then
        log "search depth 3 ($backend): $(tail -2 "$out/search.log" | tr '\n' ' ')"
    else
        fail "search play (see search.log)"
    fi
    ;;

large)
    need_binary
    rm -rf "$scratch/large"; mkdir -p "$scratch/large"
    # 10^8 plans of 20 models resident on the device (about 18 GB); the same job at 10^7
    # resident, streamed on the device (survivors kept there, plans made 10^6 at a time) and
    # with plans in host memory (10^6 at a time): byte-identical best.json; then 5 x 10^8 plans
    # (about 90 GB resident: streamed on an 80 GB card, forced streaming on a larger one), two
    # generations; last, the bench's resident-vs-streamed rows (plans/s and the phase split).
    sizes="large-1e8:100000000 large-1e7:10000000 streamed-1e7:10000000 hostchunk-1e7:10000000 huge-5e8:500000000"
    [ "$preset" = cpu ] && sizes="large-1e5:100000 streamed-1e5:100000"
    for entry in $sizes; do
        name=${entry%%:*}; pop=${entry#*:}
        env=()
        generations=5
        case $name in
        streamed-*) env=(GAEVAL_CUDA_CHUNK=1000000 GAEVAL_CPU_CHUNK=10000) ;;
        hostchunk-*) env=(GAEVAL_CUDA_HOST_CHUNK=1000000) ;;
        huge-*)
            generations=2
            free_mib=$(nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits 2>/dev/null | head -1)
            [ "${free_mib:-0}" -gt 100000 ] && env=(GAEVAL_CUDA_CHUNK=50000000) ;;
        esac
        backend=cuda
        [ "$preset" = cpu ] && backend=cpu
        caselog=$scratch/large/$name.log
        if bounded env "${env[@]}" "$bin" pile-in --scenario scenarios/line_20v20.json \
            --population "$pop" --generations "$generations" --backend "$backend" --no-checkpoint \
            --out "$scratch/large/$name" --json >"$caselog" 2>&1; then
            log "$name: $(grep -m1 'streamed\|host memory' "$caselog") $(tail -1 "$caselog")"
        else
            fail "$name (see large.log)"
        fi
        { echo "== $name (${env[*]:-no environment}) =="; cat "$caselog"; } >>"$out/large.log"
    done
    small=large-1e7; [ "$preset" = cpu ] && small=large-1e5
    for other in streamed hostchunk; do
        o=$scratch/large/$other-${small#large-}
        [ -d "$o" ] || continue
        if cmp -s "$scratch/large/$small/best.json" "$o/best.json"; then
            log "resident and $other ${small#large-} runs: identical best.json"
        else
            fail "resident and $other ${small#large-} runs differ"
        fi
    done
    if bounded "$bin" bench --what streamed --backend "$backend" >"$out/streamed.md" 2>&1; then
        log "bench streamed: $(grep -c streamed "$out/streamed.md") streamed rows (streamed.md)"
    else
        fail "bench streamed (see streamed.md)"
    fi
    ;;
profile)
    need_binary
    ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
    [ -n "$ncu" ] || { log "ncu not found: skipped"; exit 0; }
    # Each case: the first few kernels of one short bench run (one sample a row), speed of
    # light, occupancy and launch statistics (registers, block size), as text; each case gets an
    # equal share of the seconds left, so that a slow one cannot starve the next.
    cases_left=4
    quick=(--backend cuda --max-seconds 0.2 --min-samples 1)
    profile() {  # name, gaeval arguments...
        local name=$1; shift
        local share=$(($(left) / cases_left))
        cases_left=$((cases_left - 1))
        if timeout --signal=TERM --kill-after=10 "$share" "$ncu" --clock-control none \
            --launch-skip 1 --launch-count 2 \
            --section SpeedOfLight --section Occupancy --section LaunchStats \
            "$bin" "$@" >"$out/profile-$name.txt" 2>&1; then
            log "$name: $(grep -m1 -E 'Duration' "$out/profile-$name.txt" | tr -s ' ')"
        else
            fail "$name (see profile-$name.txt)"
        fi
    }
    # One game a run: the tournament workload's rows of several games would let the skipped
    # launches land on another game's kernels (on 2026-11-27 "tournament" profiled Gomoku's).
    profile tournament bench --what tournament "${quick[@]}" --population 24 --game ataxx
    profile tournament-risk bench --what tournament "${quick[@]}" --population 24 --game risk
    profile playout bench --what playout "${quick[@]}" --games ataxx --population 65536
    profile pile-in bench --what pile-in "${quick[@]}" --population 1e5 --models 20
    ;;
esac
log "done in $((SECONDS - started)) s, status $status"
exit $status
