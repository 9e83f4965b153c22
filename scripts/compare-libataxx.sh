#!/usr/bin/env bash
# gaeval's Ataxx perft and random playouts against libataxx, one thread each, same positions,
# runs alternating (libataxx, gaeval, libataxx, ...) so that a change in machine load hits both.
#
# usage: scripts/compare-libataxx.sh LIBATAXX_SRC [GAEVAL_BINARY] [ROUNDS]
#   LIBATAXX_SRC   a libataxx source tree that you obtained yourself: the folder holding its
#                  CMakeLists.txt that defines `ataxx_static` and libataxx/position.hpp (the
#                  `src` folder of a checkout). This script downloads nothing, and the project
#                  contains no libataxx code: the driver below only calls its public API
#                  (Position(fen), perft, legal_moves, makemove, result, max_moves).
#   GAEVAL_BINARY  default build/cpu/gaeval
#   ROUNDS         alternating rounds (default 3); each number reported is the best of them
# Builds libataxx (its own CMake flags) and a small driver in ${TMPDIR:-/tmp}/gaeval-libataxx,
# outside the project. Prints a markdown table on stdout; progress on stderr. Not run by tests.
set -euo pipefail

if [ $# -lt 1 ] || [ ! -f "$1/CMakeLists.txt" ] || [ ! -f "$1/libataxx/position.hpp" ]; then
    echo "usage: scripts/compare-libataxx.sh LIBATAXX_SRC [GAEVAL_BINARY] [ROUNDS] (LIBATAXX_SRC: the folder with libataxx's CMakeLists.txt and libataxx/position.hpp)" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
gaeval=${2:-build/cpu/gaeval}
rounds=${3:-3}
if [ ! -x "$gaeval" ]; then
    echo "compare-libataxx: no gaeval binary at $gaeval (build it: cmake --preset cpu && cmake --build build/cpu --target gaeval)" >&2
    exit 2
fi
if ! [[ "$rounds" =~ ^[1-9][0-9]*$ ]]; then
    echo "compare-libataxx: ROUNDS must be a positive integer, got '$rounds'" >&2
    exit 2
fi
gaeval=$(cd "$(dirname "$gaeval")" && pwd)/$(basename "$gaeval")

work=${TMPDIR:-/tmp}/gaeval-libataxx
mkdir -p "$work"
cat > "$work/main.cpp" <<'EOF'
// Driver for libataxx (written by gaeval's scripts/compare-libataxx.sh; no libataxx code here).
//   bench perft FEN DEPTH MIN_SECONDS -> "nodes=N nps=X"   (best sample, at least 3 samples)
//   bench playout GAMES SEED          -> "plies=P plies_per_s=X games_per_s=Y"
// Playouts: uniformly random legal moves (xorshift64) from the start position until result()
// is decided (libataxx's game over or 50-move rule).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <libataxx/position.hpp>

using namespace libataxx;

static double now() {
    using C = std::chrono::steady_clock;
    return std::chrono::duration<double>(C::now().time_since_epoch()).count();
}

int main(int argc, char** argv) {
    const std::string what = argc > 1 ? argv[1] : "";
    if (what == "perft" && argc == 5) {
        const Position pos{std::string(argv[2])};
        const int depth = std::atoi(argv[3]);
        const double min_s = std::atof(argv[4]);
        double best = 1e30, total = 0;
        std::uint64_t nodes = 0;
        for (int samples = 0; total < min_s || samples < 3; ++samples) {
            const double t0 = now();
            nodes = pos.perft(depth);
            const double dt = now() - t0;
            best = dt < best ? dt : best;
            total += dt;
        }
        std::printf("nodes=%llu nps=%.6e\n", static_cast<unsigned long long>(nodes), nodes / best);
        return 0;
    }
    if (what == "playout" && argc == 4) {
        const int games = std::atoi(argv[2]);
        std::uint64_t state = std::strtoull(argv[3], nullptr, 10) * 0x9e3779b97f4a7c15ull + 1;
        std::uint64_t plies = 0;
        const double t0 = now();
        for (int g = 0; g < games; ++g) {
            Position pos{std::string("x5o/7/7/7/7/7/o5x x 0 1")};
            Move moves[max_moves];
            while (pos.result() == Result::None) {
                const int n = pos.legal_moves(moves);
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.makemove(moves[(state >> 32) % static_cast<std::uint64_t>(n)]);
                ++plies;
            }
        }
        const double dt = now() - t0;
        std::printf("plies=%llu plies_per_s=%.6e games_per_s=%.6e\n",
                    static_cast<unsigned long long>(plies), plies / dt, games / dt);
        return 0;
    }
    std::fprintf(stderr, "usage: bench perft FEN DEPTH MIN_SECONDS | bench playout GAMES SEED\n");
    return 2;
}
EOF
cat > "$work/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.12)
project(gaeval_libataxx_driver LANGUAGES CXX)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release)
endif()
add_subdirectory("$src" libataxx)
add_executable(bench main.cpp)
set_target_properties(bench PROPERTIES CXX_STANDARD 20)
target_link_libraries(bench PRIVATE ataxx_static)
EOF
echo "building libataxx from $src in $work/build" >&2
cmake -S "$work" -B "$work/build" -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 ||
    { echo "compare-libataxx: configuring libataxx failed, see $work/configure.log" >&2; exit 1; }
cmake --build "$work/build" -j 2 > "$work/build.log" 2>&1 ||
    { echo "compare-libataxx: building libataxx failed, see $work/build.log" >&2; exit 1; }
ref="$work/build/bench"

# The published positions (../shared/data/ataxx_perft.md): start, the three gap positions, a
# lone pair, two crowded midgames, the 3o3 cross; one depth each (about 0.05 s to 1 s per count).
# Each side counts each position 3 times per round (the best counts): the same number of samples.
positions=(
    "x5o/7/7/7/7/7/o5x x 0 1|6"
    "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1|6"
    "x5o/7/2-1-2/3-3/2-1-2/7/o5x x 0 1|6"
    "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1|6"
    "7/7/7/2x1o2/7/7/7 x 0 1|6"
    "7/7/7/7/ooooooo/ooooooo/xxxxxxx x 0 1|7"
    "xoxoxox/oxoxoxo/7/7/7/7/3x3 x 0 1|5"
    "3o3/7/7/3x3/7/7/3o3 x 0 1|6"
)
games=20000

gaeval_perft() {  # FEN DEPTH: "nodes nps", the best of 3 runs
    local best=0 nodes=0 line n
    for _ in 1 2 3; do
        line=$("$gaeval" perft --backend cpu --threads 1 --fen "$1" --depth "$2" --json 2>/dev/null | tail -1)
        nodes=$(sed -E 's/.*"nodes":([0-9]+).*/\1/' <<< "$line")
        n=$(sed -E 's/.*"nps":([0-9.e+]+).*/\1/' <<< "$line")
        best=$(awk -v a="$best" -v b="$n" 'BEGIN { print (b > a ? b : a) }')
    done
    echo "$nodes $best"
}
gaeval_playout() {  # random playouts from the start, one thread: plies/s and games/s
    local csv="$work/gaeval-playout.csv"
    "$gaeval" bench --what playout --game ataxx --backend cpu1 --max-seconds 2 --csv "$csv" > /dev/null 2>&1
    local plies games
    plies=$(grep '^"playout random plies","square8:7x7' "$csv" | cut -d, -f7)
    games=$(grep '^"playout random games","square8:7x7' "$csv" | cut -d, -f7)
    echo "$plies $games"
}

declare -A ref_best gae_best ref_nodes gae_nodes
for ((r = 1; r <= rounds; ++r)); do
    echo "round $r of $rounds (load: $(cut -d' ' -f1-3 /proc/loadavg))" >&2
    for entry in "${positions[@]}"; do
        fen=${entry%|*}
        depth=${entry#*|}
        out=$("$ref" perft "$fen" "$depth" 0)
        nodes=$(sed -E 's/.*nodes=([0-9]+).*/\1/' <<< "$out")
        nps=$(sed -E 's/.*nps=([0-9.e+]+).*/\1/' <<< "$out")
        ref_nodes[$entry]=$nodes
        ref_best[$entry]=$(awk -v a="${ref_best[$entry]:-0}" -v b="$nps" 'BEGIN { print (b > a ? b : a) }')
        read -r nodes nps < <(gaeval_perft "$fen" "$depth")
        gae_nodes[$entry]=$nodes
        gae_best[$entry]=$(awk -v a="${gae_best[$entry]:-0}" -v b="$nps" 'BEGIN { print (b > a ? b : a) }')
    done
    out=$("$ref" playout "$games" "$r")
    p=$(sed -E 's/.*plies_per_s=([0-9.e+]+).*/\1/' <<< "$out")
    g=$(sed -E 's/.*games_per_s=([0-9.e+]+).*/\1/' <<< "$out")
    ref_best[plies]=$(awk -v a="${ref_best[plies]:-0}" -v b="$p" 'BEGIN { print (b > a ? b : a) }')
    ref_best[games]=$(awk -v a="${ref_best[games]:-0}" -v b="$g" 'BEGIN { print (b > a ? b : a) }')
    read -r p g < <(gaeval_playout)
    gae_best[plies]=$(awk -v a="${gae_best[plies]:-0}" -v b="$p" 'BEGIN { print (b > a ? b : a) }')
    gae_best[games]=$(awk -v a="${gae_best[games]:-0}" -v b="$g" 'BEGIN { print (b > a ? b : a) }')
done

status=0
echo "| workload | position | depth | nodes (both) | libataxx | gaeval | gaeval / libataxx |"
echo "|---|---|---|---|---|---|---|"
for entry in "${positions[@]}"; do
    fen=${entry%|*}
    depth=${entry#*|}
    nodes=${ref_nodes[$entry]}
    if [ "$nodes" != "${gae_nodes[$entry]}" ]; then
        echo "compare-libataxx: counts differ at '$fen' depth $depth: libataxx $nodes, gaeval ${gae_nodes[$entry]}" >&2
        nodes="$nodes vs ${gae_nodes[$entry]} (DIFFER)"
        status=1
    fi
    awk -v f="$fen" -v d="$depth" -v n="$nodes" -v a="${ref_best[$entry]}" -v b="${gae_best[$entry]}" \
        'BEGIN { printf "| perft | `%s` | %s | %s | %.0f M nodes/s | %.0f M nodes/s | %.2fx |\n", f, d, n, a / 1e6, b / 1e6, b / a }'
done
awk -v a="${ref_best[plies]}" -v b="${gae_best[plies]}" \
    'BEGIN { printf "| random playouts | start | | | %.2f M plies/s | %.2f M plies/s | %.2fx |\n", a / 1e6, b / 1e6, b / a }'
awk -v a="${ref_best[games]}" -v b="${gae_best[games]}" \
    'BEGIN { printf "| random playouts | start | | | %.1f k games/s | %.1f k games/s | %.2fx |\n", a / 1e3, b / 1e3, b / a }'
exit $status
