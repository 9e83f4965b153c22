// Lockstep comparison of two backends: the same job stepped on both, every array compared
// bit for bit after every phase, stopping at the first difference.
#pragma once

#include <cstdint>
#include <string>

#include "host/backend/backend.hpp"
#include "host/ga/pile_in_run.hpp"
#include "host/grid/grid.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval {

struct Difference {
    bool identical = true;
    std::string what;  // "identical" summary, or where it differs
    uint32_t generation = 0;
    uint64_t individual = 0;
    std::string field;  // "fitness", "gene 3", "ranking", "mean", ...
    std::string a_value, b_value;
    uint32_t generations_compared = 0;
};

// "12.5 (0x41480000)": a float with its bits.
std::string float_with_bits(float v);

// Runs job_a on backend a and job_b on backend b in lockstep (the CLI passes one job twice):
// initial genes, then per generation fitness, ranking, statistics and the next generation's
// genes. The jobs must have the same scenario size and population.
Difference compare_pile_in(const pile_in::PileInJob& job_a, const pile_in::PileInJob& job_b,
                           const BackendChoice& a, const BackendChoice& b);

// Perft divide on backends a and b: the first root child (in move order) whose subtree count
// differs, then the totals. generation = depth, individual = root child index.
Difference compare_perft(const grid::GameSetup& setup, int depth, const BackendChoice& a,
                         const BackendChoice& b, grid::EngineChoice engine = {});

// A learn job stepped on backends a and b in lockstep: every game record of every batch
// (generation = the generation, individual = game index in the batch), then every member's
// weights and value after the generation, then the final verification games.
// job_a runs on a and job_b on b (the CLI passes one job twice; same population size).
Difference compare_learn(const learn::LearnJob& job_a, const learn::LearnJob& job_b,
                         const BackendChoice& a, const BackendChoice& b);

}  // namespace gaeval
