// The workloads of `gaeval bench`: each runs its axes (sizes x backends), appends one Row per
// combination, and folds the results it computed (fitness bits, node counts, game outcomes)
// into the run's signature: a regression fingerprint that every backend must reproduce.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/bench.hpp"

namespace gaeval::bench {

struct Axes {
    std::vector<std::string> backends;   // "cpu1" (one thread), "cpu" (all cores), "cuda"
    std::vector<uint64_t> populations;   // pile-in / tournament sizes
    std::vector<int> models;             // pile-in unit sizes (N v N)
    std::vector<std::string> positions;  // perft positions (case names or setups)
    std::vector<std::string> games;      // games of the game workloads (empty: the default ones)
    Settings settings;
    bool signature_only = false;  // compute the results once, time nothing
    // Sizes only a GPU runs within the budget (e.g. 1e7, 1e8 plans): timed on cuda alone and
    // left out of the signature; cleared when the user gives --population.
    std::vector<uint64_t> cuda_extra_populations;
};

struct Workload {
    std::string name;  // "pile-in", "rules-pile-in", "perft", "playout", "tournament"
    std::string summary;
    Axes defaults;  // the fixed default workload (backends aside)
    // Appends rows; folds every computed result into *signature (fnv1a chain).
    std::function<void(const Axes&, std::vector<Row>&, uint64_t*)> run;
    bool opt_in = false;  // run only when --what names it (not part of the default signature)
};

// Every workload this build has, in table order.
std::vector<Workload> all_workloads();

}  // namespace gaeval::bench
