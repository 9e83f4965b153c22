// Ops of the public API (host/api/): the GAPI1 fitness over plans the caller holds plan-major
// (plan i's genes contiguous: a NumPy array of shape (n, genes)), run by the executor
// (host/backend/executor.hpp) in the caller's memory on the cpu. They call the functions
// `gaeval pile-in`'s population calls (problems/pile_in/gapi1_fitness.hpp), so the fitness bits are
// the same. Instantiated for the device in kernels/api_ops.cu.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"

namespace gaeval::api_ops {

// Plans per block of the cpu form: the CPU population's SIMD width.
using pile_in::kGapi1Lanes;

// One plan per index: fitness[i] = gapi1_evaluate(plan i). The device form (a plan a thread:
// kernels/api_ops.cu instantiates it) and the cpu's tail.
struct EvaluateGapi1Plans {
    pile_in::Scenario scenario;
    const uint32_t* genes = nullptr;  // n x scenario.friendly_count, plan-major
    float* fitness = nullptr;
    GAEVAL_HD void operator()(uint64_t i) const {
        const int g = scenario.friendly_count;
        fitness[i] = pile_in::gapi1_evaluate(scenario, pile_in::GenomeGenes{genes + i * g}).fitness;
    }
};

// Block b: plans [L b, L b + L) of n, gathered gene-major into a stack block and scored in SIMD
// lanes by gapi1_fitness_lanes (every lane the float operations of gapi1_evaluate, in its order:
// the same bits); a last partial block one plan at a time. The cpu form only: on the device a
// block a thread took 140 registers and a 25.9 KB stack (12.5% occupancy), so the device runs
// EvaluateGapi1Plans, whose bits are the same (host_only: no .cu file compiles this one).
struct EvaluateGapi1Blocks {
    using host_only = void;
    pile_in::Scenario scenario;
    const uint32_t* genes = nullptr;
    float* fitness = nullptr;
    uint64_t n = 0;
    GAEVAL_HD void operator()(uint64_t block) const {
        constexpr int L = kGapi1Lanes;
        const int g = scenario.friendly_count;
        const uint64_t first = block * L;
        if (first + L > n) {
            const EvaluateGapi1Plans one{scenario, genes, fitness};
            for (uint64_t i = first; i < n; ++i) one(i);
            return;
        }
        uint32_t local[pile_in::MaxFriendly * L];
        const uint32_t* plans = genes + first * g;
        for (int m = 0; m < g; ++m)
            for (int l = 0; l < L; ++l) local[m * L + l] = plans[l * g + m];
        const pile_in::PlanView view{local, static_cast<uint64_t>(L), g, 1};
        pile_in::gapi1_fitness_lanes<L>(scenario, view, 0, fitness + first);
    }
};

}  // namespace gaeval::api_ops
