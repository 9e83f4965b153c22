// Grid-game throughput benchmarks: perft nodes/s, playout plies/s and games/s, on the backends
// cpu1 (one thread), cpu (all cores) and cuda (skipped without a device). Each function appends
// one Row per (case, backend) and folds what it computed (node counts, game records) into
// *signature (fnv1a chain), so that it plugs into `gaeval bench` as a workload; until then
// `gaeval perft --bench` prints grid_benchmarks().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/bench.hpp"
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

// Backend labels: "cpu1", "cpu", "cuda"; unknown labels and cuda without a device are skipped.
void grid_perft_rows(const Settings& settings, const std::vector<std::string>& backends,
                     const std::vector<GridPerftCase>& cases, std::vector<Row>& rows,
                     uint64_t* signature);
void grid_playout_rows(const Settings& settings, const std::vector<std::string>& backends,
                       const std::vector<GridPlayoutCase>& cases, std::vector<Row>& rows,
                       uint64_t* signature);

// The default cases: startpos perft 6 and 7 (8 on cuda), three gapped positions, hex:4; random
// playouts on 7x7 and hex:4; a weighted player against most-pieces on 7x7.
std::vector<GridPerftCase> default_grid_perft_cases(bool quick);
std::vector<GridPlayoutCase> default_grid_playout_cases(bool quick);

struct GridBenchOptions {
    bool quick = false;  // smaller workloads (a smoke run)
};

// Every default case on cpu1, cpu and cuda, with ratios filled in.
std::vector<Row> grid_benchmarks(const Settings& settings, const GridBenchOptions& options);

// The rows as a markdown table (backend, workload, size, samples, median, noise, throughput,
// ratios to cpu1 and cpu, signature, note).
std::string grid_table_markdown(const std::vector<Row>& rows);

}  // namespace gaeval::bench
