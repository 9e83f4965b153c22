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
    std::vector<uint32_t> best_plans;  // each generation's best plan, as read_plan gives it
};

// Evaluates and ranks the current generation into snap (its statistics and best plan).
inline void score_generation(Population& pop, Snapshot& snap) {
    pop.evaluate();
    snap.stats.push_back(pop.rank());
    std::vector<uint32_t> best(pop.gene_count());
    pop.read_plan(snap.stats.back().best_index, best.data());
    snap.best_plans.insert(snap.best_plans.end(), best.begin(), best.end());
}

inline void breed_generation(Population& pop, uint64_t seed, int made, double mutation) {
    const uint64_t survivors = pop.size() / 5 > 0 ? pop.size() / 5 : 1;
    pop.breed(BreedParams{seed, static_cast<uint32_t>(made), survivors, mutation});
}

inline void finish_snapshot(Population& pop, Snapshot& snap) {
    pop.read_genes(snap.genes);
    pop.read_fitness(snap.fitness);
    pop.read_ranking(snap.ranking);
}

inline Snapshot run_generations(Population& pop, uint64_t seed, int generations,
                                double mutation = 0.2) {
    Snapshot snap;
    pop.randomize(seed);
    for (int g = 0; g < generations; ++g) {
        score_generation(pop, snap);
        breed_generation(pop, seed, g + 1, mutation);
    }
    score_generation(pop, snap);
    finish_snapshot(pop, snap);
    return snap;
}

// run_generations, but after `switch_at` bred generations the population's genes move to
// `second` (as a checkpoint resume moves them) and the run goes on there.
inline Snapshot run_generations_resumed(Population& first, Population& second, uint64_t seed,
                                        int generations, int switch_at, double mutation = 0.2) {
    Snapshot snap;
    first.randomize(seed);
    Population* pop = &first;
    for (int g = 0; g < generations; ++g) {
        if (g == switch_at) {
            std::vector<uint32_t> genes;
            first.read_genes(genes);
            second.write_genes(genes);
            pop = &second;
        }
        score_generation(*pop, snap);
        breed_generation(*pop, seed, g + 1, mutation);
    }
    score_generation(*pop, snap);
    finish_snapshot(*pop, snap);
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
    ASSERT_EQ(a.best_plans, b.best_plans) << what << ": the best plans read back";
}

}  // namespace gaeval::pile_in
