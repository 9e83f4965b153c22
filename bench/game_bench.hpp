// Game throughput benchmarks over the registry: perft nodes/s, playout plies/s and games/s, and
// one generation of `gaeval learn`'s default scheme (games/s), on the backends cpu1 (one thread),
// cpu (all cores) and cuda (skipped without a device). The cases come from each game's entry
// (host/games/registry.hpp); each runs on every backend, the results must agree (rows are
// marked otherwise) and are folded once into the signature of `gaeval bench`.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/bench.hpp"
#include "bench/workloads.hpp"

namespace gaeval::bench {

// "perft": positions are case names ("startpos", "startpos d=6") or GAME|key=value,...|depth
// (and Ataxx's board|fen|depth).
void perft_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);
// "playout": populations = games per batch.
void playout_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);
// "tournament": modern, round-robin with both colours, every weight, from a fresh population of
// each size (populations: members; default 24 on every backend, plus 256 on cuda outside the
// signature). The folded result is every game record and the next generation's weights.
void tournament_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);
// "batch": each game's own batch cases (games::BatchCase), one row per case and backend.
void batch_workload(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);

}  // namespace gaeval::bench
