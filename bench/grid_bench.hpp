// Grid-game throughput benchmarks (perft nodes/s, random playout plies/s and games/s,
// weighted-player games/s) on the backends cpu1 (one thread), cpu (all cores) and cuda (when a
// device exists). `gaeval perft --bench` prints them until `gaeval bench` takes them over.
#pragma once

#include <string>
#include <vector>

#include "bench/bench.hpp"

namespace gaeval::bench {

struct GridBenchOptions {
    bool quick = false;  // smaller workloads (a smoke run)
};

std::vector<Row> grid_benchmarks(const Settings& settings, const GridBenchOptions& options);

// The rows as a markdown table (backend, workload, size, samples, median, noise, throughput,
// ratios to cpu1 and cpu, signature).
std::string grid_table_markdown(const std::vector<Row>& rows);

}  // namespace gaeval::bench
