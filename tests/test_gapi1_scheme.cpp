// GAPI1 scheme invariants: survivor counts, exactly one clone per survivor, children's genes
// from their two parents, uniform parents, the mutation rate, random moves within the limit.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <numeric>
#include <vector>

#include "host/core/error.hpp"
#include "host/pile_in/engine.hpp"
#include "host/pile_in/population.hpp"
#include "pile_in_util.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"

namespace gaeval::pile_in {
namespace {

TEST(Gapi1Scheme, SurvivorCounts) {
    GaConfig c;
    c.population = 200;
    c.crossover = 0.8;
    EXPECT_EQ(survivor_count(c), 40u);
    c.crossover = 0.0;
    EXPECT_EQ(survivor_count(c), 200u);
    c.crossover = 0.29;
    c.population = 100;
    EXPECT_EQ(survivor_count(c), 71u);  // round(28.999999999999996) = 29 eliminated
    c.crossover = 1.0;
    EXPECT_THROW(validate(c), InputError);
    c.crossover = 0.999;  // eliminates round(99.9) = 100 of 100
    EXPECT_THROW(validate(c), InputError);
    c.crossover = 0.99;  // 99 eliminated, 1 survivor: allowed
    EXPECT_NO_THROW(validate(c));
    c.crossover = -0.1;
    EXPECT_THROW(validate(c), InputError);
    c.crossover = 0.5;
    c.mutation = 1.5;
    EXPECT_THROW(validate(c), InputError);
    c.mutation = 0.2;
    c.population = 1;
    EXPECT_THROW(validate(c), InputError);
}

// A population of n random plans with the given ranking, for driving Gapi1Step directly.
struct Fixture {
    int genes = 10;
    uint64_t n = 1000;
    std::vector<uint32_t> src, dst;
    std::vector<uint32_t> ranked;
    Fixture() : src(n * genes), dst(n * genes), ranked(n) {
        RandomizePlans init{99, PlanView{src.data(), n, genes}};
        for (uint64_t i = 0; i < n; ++i) init(i);
        // A ranking that is not the identity.
        for (uint64_t r = 0; r < n; ++r) ranked[r] = static_cast<uint32_t>((r * 7919) % n);
    }
    Gapi1Step step(uint64_t survivors, double mutation) {
        Gapi1Step s;
        s.seed = 5;
        s.generation = 3;
        s.population = n;
        s.survivors = survivors;
        s.mutation_rate = mutation;
        s.ranked = ranked.data();
        s.src = PlanView{src.data(), n, genes};
        s.dst = PlanView{dst.data(), n, genes};
        return s;
    }
    uint32_t src_gene(uint64_t i, int m) const { return src[m * n + i]; }
    uint32_t dst_gene(uint64_t i, int m) const { return dst[m * n + i]; }
};

TEST(Gapi1Scheme, ExactlyOneCloneOfEachSurvivorWithoutMutation) {
    Fixture f;
    const uint64_t survivors = 200;
    Gapi1Step step = f.step(survivors, 0.0);
    for (uint64_t k = 0; k < f.n; ++k) step(k);
    for (uint64_t k = 0; k < survivors; ++k)
        for (int m = 0; m < f.genes; ++m)
            ASSERT_EQ(f.dst_gene(k, m), f.src_gene(f.ranked[k], m)) << "clone " << k;
}

TEST(Gapi1Scheme, ChildrenTakeEachGeneFromOneOfTheirParents) {
    Fixture f;
    const uint64_t survivors = 200;
    Gapi1Step step = f.step(survivors, 0.0);
    int from_a = 0, from_b = 0;
    for (uint64_t k = survivors; k < f.n; ++k) {
        step(k);
        uint64_t a, b;
        step.parents(k, a, b);
        // Parents are survivors: among the first `survivors` of the ranking.
        bool a_ok = false, b_ok = false;
        for (uint64_t r = 0; r < survivors; ++r) {
            a_ok = a_ok || f.ranked[r] == a;
            b_ok = b_ok || f.ranked[r] == b;
        }
        ASSERT_TRUE(a_ok && b_ok) << "child " << k;
        for (int m = 0; m < f.genes; ++m) {
            uint32_t g = f.dst_gene(k, m);
            ASSERT_TRUE(g == f.src_gene(a, m) || g == f.src_gene(b, m)) << k << " gene " << m;
            if (a != b && f.src_gene(a, m) != f.src_gene(b, m)) {
                from_a += g == f.src_gene(a, m);
                from_b += g == f.src_gene(b, m);
            }
        }
    }
    // Gene-wise recombination: each parent gives about half (binomial, 8000 genes: 4 sigma).
    const double total = from_a + from_b;
    EXPECT_NEAR(from_a / total, 0.5, 4 * 0.5 / std::sqrt(total));
}

TEST(Gapi1Scheme, ParentsAreUniformAmongSurvivors) {
    Fixture f;
    f.n = 100000;
    f.ranked.resize(f.n);
    std::iota(f.ranked.begin(), f.ranked.end(), 0u);
    const uint64_t survivors = 20;
    Gapi1Step step = f.step(survivors, 0.0);
    std::vector<int> count(survivors, 0);
    for (uint64_t k = survivors; k < f.n; ++k) {
        uint64_t a, b;
        step.parents(k, a, b);
        ++count[a];
        ++count[b];
    }
    const double expected = 2.0 * (f.n - survivors) / survivors;
    double chi2 = 0;
    for (int c : count) chi2 += (c - expected) * (c - expected) / expected;
    EXPECT_LT(chi2, 43.82);  // p = 0.001 for 19 degrees of freedom: no fitness weighting
}

TEST(Gapi1Scheme, MutationRateWithinStatisticalBounds) {
    Fixture f;
    const uint64_t survivors = f.n;  // all clones: every change is a mutation
    for (double rate : {0.05, 0.2, 0.5}) {
        Gapi1Step step = f.step(survivors, rate);
        for (uint64_t k = 0; k < f.n; ++k) step(k);
        int changed = 0;
        for (uint64_t k = 0; k < f.n; ++k)
            for (int m = 0; m < f.genes; ++m)
                changed += f.dst_gene(k, m) != f.src_gene(f.ranked[k], m);
        const double trials = static_cast<double>(f.n) * f.genes;
        const double sigma = std::sqrt(trials * rate * (1 - rate));
        EXPECT_NEAR(changed, trials * rate, 5 * sigma) << "rate " << rate;
    }
}

TEST(Gapi1Scheme, RandomMovesAreWithinTheLimitUniformInDirectionAndDistance) {
    const int n = 200000;
    int quadrant[4] = {};
    double mean_length = 0;
    for (int i = 0; i < n; ++i) {
        Move m = random_move(11, Purpose::InitMove, 0, static_cast<uint32_t>(i), 0);
        ASSERT_TRUE(move_within_limit(m)) << i;
        quadrant[(m.dx >= 0 ? 0 : 1) + (m.dy >= 0 ? 0 : 2)]++;
        mean_length += std::sqrt(double(m.dx) * m.dx + double(m.dy) * m.dy) / MoveScale;
    }
    mean_length /= n;
    // Distance uniform in [0, limit]: mean 1/2, standard error 0.29 / sqrt(n).
    EXPECT_NEAR(mean_length, 0.5, 5 * 0.2887 / std::sqrt(double(n)));
    for (int q : quadrant) EXPECT_NEAR(q, n / 4.0, 5 * std::sqrt(n * 0.25 * 0.75));
}

TEST(Gapi1Scheme, PopulationStepKeepsSizeAndRanksBestFirst) {
    Scenario s = testing::line_scenario(82.8f, 12.7f);
    auto pop = make_cpu_population(s, 500, 2);
    pop->randomize(3);
    pop->evaluate();
    GenerationStats st = pop->rank();
    std::vector<float> fitness;
    std::vector<uint32_t> ranked;
    pop->read_fitness(fitness);
    pop->read_ranking(ranked);
    ASSERT_EQ(ranked.size(), 500u);
    for (std::size_t r = 1; r < ranked.size(); ++r) {
        ASSERT_GE(fitness[ranked[r - 1]], fitness[ranked[r]]);
        if (fitness[ranked[r - 1]] == fitness[ranked[r]]) {
            ASSERT_LT(ranked[r - 1], ranked[r]);
        }
    }
    EXPECT_EQ(st.best, fitness[ranked[0]]);
    EXPECT_EQ(st.worst, fitness[ranked[499]]);
    double mean = 0;
    for (float v : fitness) mean += v;
    EXPECT_NEAR(st.mean, mean / 500, 1e-3);
}

}  // namespace
}  // namespace gaeval::pile_in
