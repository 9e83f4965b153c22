// Shared by the parity tests: run a population through generations (randomize, then evaluate,
// rank, breed) and compare two runs bit for bit, reporting the first difference.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "host/pile_in/population.hpp"

namespace gaeval::pile_in {

struct Snapshot {
    std::vector<uint32_t> genes, ranking;
    std::vector<float> fitness;
    std::vector<GenerationStats> stats;
};

inline Snapshot run_generations(Population& pop, uint64_t seed, int generations,
                                double mutation = 0.2) {
    Snapshot snap;
    pop.randomize(seed);
    for (int g = 0; g < generations; ++g) {
        pop.evaluate();
        snap.stats.push_back(pop.rank());
        const uint64_t survivors = pop.size() / 5 > 0 ? pop.size() / 5 : 1;
        BreedParams p{seed, static_cast<uint32_t>(g + 1), survivors, mutation};
        pop.breed(p);
    }
    pop.evaluate();
    snap.stats.push_back(pop.rank());
    pop.read_genes(snap.genes);
    pop.read_fitness(snap.fitness);
    pop.read_ranking(snap.ranking);
    return snap;
}

inline void expect_identical(const Snapshot& a, const Snapshot& b, const std::string& what) {
    ASSERT_EQ(a.genes.size(), b.genes.size());
    for (std::size_t i = 0; i < a.genes.size(); ++i)
        ASSERT_EQ(a.genes[i], b.genes[i]) << what << ": first differing gene word " << i;
    for (std::size_t i = 0; i < a.fitness.size(); ++i)
        ASSERT_EQ(std::memcmp(&a.fitness[i], &b.fitness[i], sizeof(float)), 0)
            << what << ": fitness of individual " << i << ": " << a.fitness[i] << " vs "
            << b.fitness[i];
    ASSERT_EQ(a.ranking, b.ranking) << what;
    for (std::size_t g = 0; g < a.stats.size(); ++g) {
        ASSERT_EQ(a.stats[g].best, b.stats[g].best) << what << " generation " << g;
        ASSERT_EQ(a.stats[g].mean, b.stats[g].mean) << what << " generation " << g;
        ASSERT_EQ(a.stats[g].worst, b.stats[g].worst) << what << " generation " << g;
        ASSERT_EQ(a.stats[g].best_index, b.stats[g].best_index) << what << " generation " << g;
    }
}

}  // namespace gaeval::pile_in
