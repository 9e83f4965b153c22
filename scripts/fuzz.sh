#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/fuzz_*.cpp) with clang++ and -fsanitize=fuzzer,
# address,undefined, and runs each over a seed corpus taken from the repository's data and tests.
#   usage: scripts/fuzz.sh SECONDS [TARGET...]      (SECONDS per target; targets: fen scenario
#          checkpoint player_file risk_map pac_map pac_protocol gomocup uai; default all)
#   GAEVAL_FUZZ_RUNS=N runs each target N inputs instead of SECONDS (-runs=N; SECONDS is then
#   only the upper bound), GAEVAL_FUZZ_DIR (default build/fuzz) holds binaries, corpora, logs.
# Prints one line per target: runs done, corpus size, and crashes (a crash leaves its input in
# build/fuzz/TARGET/crash-*; make it a test, then fix it). Exit 1 when any target crashed.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-}
if ! [[ $seconds =~ ^[0-9]+$ ]] || ((seconds < 1)); then
    echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2
    exit 2
fi
shift
all="fen scenario checkpoint player_file risk_map pac_map pac_protocol gomocup uai"
targets=${*:-$all}
cxx=${CXX_FUZZ:-$(command -v clang++-14 || command -v clang++)}
[ -n "$cxx" ] || { echo "fuzz: no clang++ (apt install clang-14)" >&2; exit 2; }
dir=${GAEVAL_FUZZ_DIR:-build/fuzz}
mkdir -p "$dir"

# Sources each target links besides its own file (the parsers and what they call).
sources() {
    case $1 in
    fen) echo host/ataxx/fen.cpp ;;
    scenario) echo host/pile_in/scenario_io.cpp host/io/json_fields.cpp ;;
    checkpoint) echo host/io/checkpoint.cpp host/io/run_folder.cpp ;;
    player_file) echo host/games/player_file.cpp host/io/json_fields.cpp ;;
    risk_map) echo host/risk/map.cpp host/io/json_fields.cpp "$dir/risk_classic_map.cpp" ;;
    pac_map) echo host/pac/map_io.cpp ;;
    gomocup) echo host/gomoku/gomocup.cpp host/gomoku/engine.cpp host/gomoku/patterns.cpp ;;
    pac_protocol) echo host/pac/protocol.cpp host/pac/map_io.cpp ;;
    uai) echo host/ataxx/uai.cpp host/ataxx/fen.cpp host/ataxx/engine.cpp ;;
    *) return 1 ;;
    esac
}

# Seed corpora: the shipped scenarios, FENs of the perft table, maps, players and checkpoints
# written by small runs (when build/cpu/gaeval exists), protocol sessions.
seed() {
    local t=$1 c=$dir/$t/seeds
    rm -rf "$c"; mkdir -p "$c"
    # Inputs that once crashed a target (each also a test in tests/): always replayed first.
    cp tests/fuzz/regressions/"$t"-* "$c/" 2>/dev/null
    case $t in
    fen)
        grep -o '`[^`]*`' tests/data/ataxx_perft.md | tr -d '`' | head -40 |
            while read -r fen; do printf '\x00%s' "$fen" >"$c/$(echo "$fen" | md5sum | cut -c1-12)"; done ;;
    scenario) cp scenarios/*.json "$c/"; cp tests/data/pile_in/*.json "$c/" 2>/dev/null ;;
    risk_map) cp data/risk/classic.json "$c/" ;;
    pac_map)
        printf '#######\n#.....#\n#.#.#.#\n#.....#\n#######\n' >"$c/small.txt"
        find tests/data -name '*.txt' -path '*pac*' -exec cp {} "$c/" \; ;;
    gomocup)
        printf 'START 15\nBEGIN\nTURN 7,7\nTURN 8,8\nINFO timeout_turn 1000\nRESTART\nBOARD\n7,7,1\n8,8,2\nDONE\nABOUT\nEND\n' >"$c/session.txt"
        printf 'START 20\nINFO rule 1\nTURN 0,0\nTAKEBACK 0,0\nEND\n' >"$c/rule.txt" ;;
    pac_protocol)
        printf '9 5\n#########\n#       #\n# ## ## #\n#       #\n#########\n' >"$c/map.txt"
        { cat "$c/map.txt"; printf '0 0\n2\n0 1 1 1 ROCK 0 0\n0 0 7 1 ROCK 0 0\n2\n2 1 1\n1 3 10\n'
          printf '1 0\n2\n0 1 2 1 ROCK 4 9\n0 0 6 1 DEAD 0 0\n1\n3 1 1\n'; } >"$c/turns.txt" ;;
    uai)
        printf 'uai\nisready\nuainewgame\nposition startpos moves f2 g1e3\ngo depth 2\nquit\n' >"$c/session.txt"
        printf 'setoption name depth value 3\nposition fen x5o/7/7/7/7/7/o5x x 0 1\ngo wtime 1000 btime 1000\nstop\n' >"$c/fen.txt"
        printf 'position startpos moves 0000\ngo infinite\nstop\nposition fen bad\ngo movetime 5\n' >"$c/bad.txt" ;;
    player_file | checkpoint)
        local gaeval=build/cpu/gaeval
        [ -x "$gaeval" ] || gaeval=build/gaeval  # the binary built last (the test command's)
        if [ -x "$gaeval" ]; then
            local run=$dir/seed-runs
            rm -rf "$run"
            "$gaeval" learn --scheme genetic-game --population 4 --generations 1 \
                --tournament round-robin --max-plies 60 --verify-games 2 --backend cpu --quiet \
                --out "$run/learn" >/dev/null 2>&1
            "$gaeval" pile-in --scenario scenarios/s1_line_5v5.json --population 20 \
                --generations 2 --backend cpu --quiet --out "$run/pile" >/dev/null 2>&1
            cp "$run/learn/weights.json" "$c/" 2>/dev/null
            [ "$t" = checkpoint ] && { cp "$run/learn/checkpoint.bin" "$c/learn.bin";
                                       cp "$run/pile/checkpoint.bin" "$c/pile.bin"; } 2>/dev/null
        fi
        [ "$t" = player_file ] && printf '{"format": "gaeval-player", "version": 1, "game": "ataxx", "weights": {"material": 1}}' >"$c/min.json"
        [ "$t" = checkpoint ] && printf 'GAEVALCK\x01\x00\x00\x00' >"$c/head.bin" ;;
    esac
}

cxxflags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
          -ffp-contract=off -DGAEVAL_HAVE_CUDA=0 -DGAEVAL_VERSION=\"fuzz\" -I. -Wno-unused-command-line-argument)
if [[ " $targets " == *" risk_map "* ]]; then  # the classic map compiled in (CMakeLists.txt)
    python3 - "$dir/risk_classic_map.cpp" <<'EOF'
import sys
text = open("data/risk/classic.json").read()
src = open("host/risk/classic_map.cpp.in").read().replace("@GAEVAL_RISK_CLASSIC_MAP@", text)
open(sys.argv[1], "w").write(src)
EOF
fi

# Build every target first, as many at once as the machine has cores (each is a few parser
# sources: about 10 s of clang each), then run them one after another.
jobs=${GAEVAL_FUZZ_JOBS:-$(nproc)}
for t in $targets; do
    srcs=$(sources "$t") || { echo "fuzz: unknown target '$t' (targets: $all)" >&2; exit 2; }
    mkdir -p "$dir/$t/corpus"
    while (($(jobs -rp | wc -l) >= jobs)); do wait -n; done
    "$cxx" "${cxxflags[@]}" "tests/fuzz/fuzz_$t.cpp" $srcs -o "$dir/$t/fuzz_$t" \
        >"$dir/$t/build.log" 2>&1 || rm -f "$dir/$t/fuzz_$t" &
done
wait

status=0
for t in $targets; do
    if [ ! -x "$dir/$t/fuzz_$t" ]; then
        echo "fuzz $t: BUILD FAILED (see $dir/$t/build.log)"; status=1; continue
    fi
    seed "$t"
    runs=()
    [ -n "${GAEVAL_FUZZ_RUNS:-}" ] && runs=(-runs="$GAEVAL_FUZZ_RUNS")
    (cd "$dir/$t" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
        "./fuzz_$t" corpus seeds -max_total_time="$seconds" "${runs[@]}" -max_len=16384 \
        -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >fuzz.log 2>&1)
    rc=$?
    done_runs=$(grep -E '^stat::number_of_executed_units' "$dir/$t/fuzz.log" | awk '{print $2}')
    corpus=$(ls "$dir/$t/corpus" | wc -l)
    crashes=$(ls "$dir/$t" | grep -cE '^(crash|leak|timeout|oom)-')
    echo "fuzz $t: ${done_runs:-?} runs, corpus $corpus, crashes $crashes, rc $rc"
    ((rc != 0 || crashes > 0)) && status=1
done
exit $status
