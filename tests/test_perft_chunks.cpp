// The device perft's budget arithmetic (kernels/perft_chunks.hpp) on the CPU: parent runs
// against a brute-force search for the fewest runs, and the budget override's parsing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <vector>

#include "host/batch/batch.hpp"
#include "host/core/error.hpp"
#include "kernels/perft_chunks.hpp"

namespace gaeval::cuda {
namespace {

// The fewest runs of consecutive parents, each run's children within `fit` or a single parent
// (dynamic programming over every split: the brute-force reference).
std::size_t fewest_runs(const std::vector<uint64_t>& counts, uint64_t fit) {
    const std::size_t n = counts.size();
    std::vector<std::size_t> best(n + 1, n + 1);
    best[0] = 0;
    for (std::size_t end = 1; end <= n; ++end)
        for (std::size_t begin = 0; begin < end; ++begin) {
            uint64_t children = 0;
            for (std::size_t i = begin; i < end; ++i) children += counts[i];
            if (children <= fit || end - begin == 1)
                best[end] = std::min(best[end], best[begin] + 1);
        }
    return best[n];
}

TEST(PerftChunks, ParentRunsAreValidAndFewest) {
    std::mt19937_64 rng(16);
    int cases = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const std::size_t n = 1 + rng() % 30;
        std::vector<uint64_t> counts(n), offsets(n);
        uint64_t total = 0;
        for (std::size_t i = 0; i < n; ++i) {
            counts[i] = rng() % 4 == 0 ? 0 : rng() % 40;
            offsets[i] = total;
            total += counts[i];
        }
        const uint64_t fit = 1 + rng() % 80;
        const auto runs = parent_runs(offsets.data(), n, total, fit);
        uint64_t next = 0;
        for (const ParentRun& r : runs) {
            ASSERT_EQ(r.begin, next);
            ASSERT_GT(r.end, r.begin);
            uint64_t children = 0;
            for (uint64_t i = r.begin; i < r.end; ++i) children += counts[i];
            EXPECT_TRUE(children <= fit || r.end - r.begin == 1)
                << "run [" << r.begin << ", " << r.end << ") has " << children << " > " << fit;
            next = r.end;
        }
        ASSERT_EQ(next, n);
        EXPECT_EQ(runs.size(), fewest_runs(counts, fit)) << "trial " << trial;
        ++cases;
    }
    EXPECT_EQ(cases, 400);
}

TEST(PerftChunks, LevelBudgetIsTheOverrideOrAQuarterOfWhatIsFree) {
    EXPECT_EQ(level_budget(0, 4000), 1000u);
    EXPECT_EQ(level_budget(4096, 1u << 30), 4096u);
}

TEST(PerftChunks, BudgetOverrideIsParsedOrRefused) {
    ::unsetenv("GAEVAL_PERFT_BUDGET");
    EXPECT_EQ(batch::perft_budget_override(), 0u);
    ::setenv("GAEVAL_PERFT_BUDGET", "65536", 1);
    EXPECT_EQ(batch::perft_budget_override(), 65536u);
    for (const char* bad : {"0", "-5", "12kb", "x", "99999999999999999999999"}) {
        ::setenv("GAEVAL_PERFT_BUDGET", bad, 1);
        EXPECT_THROW(batch::perft_budget_override(), InputError) << bad;
    }
    ::unsetenv("GAEVAL_PERFT_BUDGET");
}

}  // namespace
}  // namespace gaeval::cuda
