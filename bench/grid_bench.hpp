// Grid-game throughput benchmarks: perft nodes/s, playout plies/s and games/s, on the backends
// cpu1 (one thread), cpu (all cores) and cuda (skipped without a device). Each function appends
// one Row per (case, backend) and folds what it computed (node counts, game records) into
// the signature of `gaeval bench`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench.hpp"
#include "bench/workloads.hpp"
#include "games/grid/players.hpp"

namespace gaeval::bench {

struct GridPerftCase {
    std::string name;   // row label: "startpos", "gaps-a", ...
    std::string board;  // "square8:7x7", "hex:4", ...
    std::string fen;    // or "startpos"
    int depth = 6;
};

struct GridPlayoutCase {
    std::string name;  // row label; the workload is "playout <name> plies" / "... games"
    std::string board;
    grid::Player a, b;
    uint64_t cpu_games = 5000;  // batch on cpu1 and cpu (equal, so ratios compare)
    uint64_t cuda_games = 1u << 20;
};

// `gaeval bench` workloads "perft" (positions: default names or board|fen|depth) and
// "playout" (populations: games per batch). Each case runs on every backend; the results must
// agree (rows are marked otherwise) and are folded once into *signature.
void perft_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);
void playout_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);

// "tournament": one generation of `gaeval learn`'s default scheme (modern, round-robin with
// both colours, all features) from a fresh population of each size (populations: members;
// default 24 on every backend, plus 256 on cuda outside the signature), games/s. The folded
// result is every game record and the next generation's weights.
void tournament_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);

// The default cases: startpos perft 6, three gapped positions at 5, hex:4 at 4 (and startpos
// perft(8) on cuda, outside the signature); random playouts on 7x7 and hex:4; a weighted player
// against most-pieces on 7x7.
std::vector<GridPerftCase> default_grid_perft_cases();
std::vector<GridPlayoutCase> default_grid_playout_cases();

}  // namespace gaeval::bench
