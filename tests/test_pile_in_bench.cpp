// The pile-in fitness benchmark (bench/pile_in_bench): one row per fitness x size x backend,
// rules rows priced in GAPI1 evaluations, and a signature that does not depend on the
// backends timed.
#include <gtest/gtest.h>

#include "bench/pile_in_bench.hpp"

namespace gaeval::bench {
namespace {

Axes tiny(const std::vector<std::string>& backends) {
    Axes axes;
    axes.backends = backends;
    axes.populations = {300};
    axes.models = {10};
    axes.settings.max_seconds = 0.05;
    axes.settings.min_samples = 2;
    axes.settings.warmup = 0;
    return axes;
}

TEST(PileInBench, RowsForEveryFitnessAndBackendWithTheirCost) {
    std::vector<Row> rows;
    uint64_t signature = 0xcbf29ce484222325ull;
    pile_in_fitness_rows(tiny({"cpu1", "cpu"}), rows, &signature);
    ASSERT_EQ(rows.size(), 6u);
    for (const Row& r : rows) {
        EXPECT_EQ(r.size, "pop=300 models=10v10");
        EXPECT_GT(r.throughput(), 0) << r.workload << " " << r.backend << " " << r.note;
        EXPECT_EQ(r.unit, "evaluations/s");
        if (r.workload != "pile-in gapi1") {
            EXPECT_NE(r.note.find("x gapi1 cost"), std::string::npos) << r.workload;
        }
    }
    // The signature covers the results, not the timing or the backends listed.
    std::vector<Row> once;
    uint64_t only = 0xcbf29ce484222325ull;
    Axes axes = tiny({"cpu"});
    axes.signature_only = true;
    pile_in_fitness_rows(axes, once, &only);
    EXPECT_TRUE(once.empty());
    EXPECT_EQ(only, signature);
    EXPECT_NE(signature, 0xcbf29ce484222325ull);
}

TEST(PileInBench, TheScenarioIsALegalStartUnderAos4) {
    for (int models : {10, 20, 40}) {
        const pile_in::RulesProblem p = pile_in_bench_rules(models, true);
        EXPECT_EQ(p.scenario.friendly_count, models);
        EXPECT_EQ(p.layout.words, 2 * models);  // moves and move order
    }
    EXPECT_EQ(rules_pile_in_workload().defaults.populations.back(), 10000u);
}

TEST(PileInBench, GenerationRowsWithPhasesAndABackendIndependentSignature) {
    std::vector<Row> rows;
    uint64_t signature = 0xcbf29ce484222325ull;
    Axes axes = tiny({"cpu1", "cpu"});
    axes.cuda_extra_populations = {100000000};  // cuda only: no row without a GPU
    pile_in_generation_rows(axes, rows, &signature);
    ASSERT_EQ(rows.size(), 2u);
    for (const Row& r : rows) {
        EXPECT_EQ(r.workload, "pile-in gapi1 generation");
        EXPECT_GT(r.throughput(), 0);
        EXPECT_FALSE(r.mismatch) << r.note;
        EXPECT_NE(r.note.find("evaluate"), std::string::npos) << r.note;
        EXPECT_GT(r.bytes_per_item, 2 * 10 * 4);  // two generations of 10 moves, and more
    }
    uint64_t only = 0xcbf29ce484222325ull;
    std::vector<Row> none;
    axes = tiny({"cpu1"});
    axes.signature_only = true;
    pile_in_generation_rows(axes, none, &only);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(only, signature);
}

}  // namespace
}  // namespace gaeval::bench
