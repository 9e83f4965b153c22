// pile-in: the GAPI1 fitness of a pile-in plan (problems/pile_in/gapi1_fitness.hpp), maximised,
// as a problem built from a setup: the scenario (--scenario NAME|FILE, loaded and checked on
// the host by host/learn/problem_setups.cpp) is the setup, a genome is one move a friendly model
// (problems/pile_in/genome.hpp: int16 dx, dy packed in a word). The same functions `gaeval pile-in`
// calls, so `gaeval learn --problem pile-in --scheme gapi1` gives its bits.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::problems {

struct PileIn {
    using Gene = uint32_t;
    using Setup = pile_in::Scenario;
    static constexpr const char* kName = "pile-in";
    static constexpr const char* kDescription =
        "GAPI1 score of a plan of moves (one a model) on a scenario, maximised";
    static constexpr bool kMaximise = true;
    static constexpr const char* kSetupFlag = "scenario";
    static constexpr uint32_t kDefaultPopulation = 200;  // gaeval pile-in's

    pile_in::Scenario scenario;

    static PileIn from_setup(const pile_in::Scenario& s) { return PileIn{s}; }
    uint32_t dimension() const { return static_cast<uint32_t>(scenario.friendly_count); }

    // The GAPI1 fitness of the plan (float, widened exactly).
    GAEVAL_HD double fitness(const uint32_t* genome, uint32_t /*dimension*/) const {
        return pile_in::gapi1_evaluate(scenario, pile_in::GenomeGenes{genome}).fitness;
    }
    // The cpu's form (problems/problem.hpp: optional): kLanes plans at a time in SIMD lanes,
    // `genomes` kLanes plans plan-major; gapi1_fitness_lanes does gapi1_evaluate's float
    // operations in its order, so every plan gets the bits fitness() gives it. Host only.
    static constexpr int kLanes = pile_in::kGapi1Lanes;
    void fitness_lanes(const uint32_t* genomes, double* fitness) const {
        const int g = scenario.friendly_count;
        uint32_t local[pile_in::MaxFriendly * kLanes];
        for (int m = 0; m < g; ++m)
            for (int l = 0; l < kLanes; ++l) local[m * kLanes + l] = genomes[l * g + m];
        float lanes[kLanes];
        pile_in::gapi1_fitness_lanes<kLanes>(
            scenario, pile_in::PlanView{local, static_cast<uint64_t>(kLanes), g, 1}, 0, lanes);
        for (int l = 0; l < kLanes; ++l) fitness[l] = lanes[l];
    }

    // A fresh random move within the move limit (pile-in's first plans and mutation).
    GAEVAL_HD uint32_t random_gene(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                   uint32_t c2) const {
        return pile_in::pack_move(pile_in::random_move(seed, purpose, c0, c1, c2));
    }
};

}  // namespace gaeval::problems
