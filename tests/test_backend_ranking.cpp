// The executor-level ranking (host/backend/backend_ranking.hpp) against an independent truth: a
// stable sort of the indices by IEEE "greater than" (so -0 and +0 tie, and ties keep index
// order), on ties, zeros of both signs, infinities, subnormals, one member, and sizes that take
// the parallel sort; the fixed-point sum against a plain loop. Where there is a GPU, the device's
// library sort against the cpu's ranking on the same values.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

#include "games/core/math.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend_array.hpp"
#include "host/backend/backend_ranking.hpp"

namespace gaeval {
namespace {

std::vector<uint32_t> stable_descending(const std::vector<float>& v) {
    std::vector<uint32_t> order(v.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&](uint32_t a, uint32_t b) { return v[a] > v[b]; });
    return order;
}

std::vector<uint32_t> ranked_on(const BackendChoice& backend, const std::vector<float>& v) {
    BackendArray<float> fitness(backend, v.size());
    BackendArray<uint32_t> ranked(backend, v.size());
    fitness.upload(v.data(), v.size());
    BackendRanker ranker(backend);
    ranker.rank(fitness.data(), ranked.data(), v.size());
    std::vector<uint32_t> out(v.size());
    ranked.download(out.data(), out.size());
    return out;
}

int64_t summed_on(const BackendChoice& backend, const std::vector<float>& v) {
    BackendArray<float> values(backend, v.size());
    values.upload(v.data(), v.size());
    return BackendRanker(backend).fixed_point_sum(values.data(), v.size());
}

// Value sets the tie rule and the key's edge cases meet.
std::vector<std::vector<float>> edge_cases() {
    const float inf = std::numeric_limits<float>::infinity();
    const float tiny = std::numeric_limits<float>::denorm_min();
    const float big = std::numeric_limits<float>::max();
    std::vector<std::vector<float>> cases = {
        {3.5f},
        {2.0f, 2.0f, 2.0f, 2.0f, 2.0f},
        {0.0f, -0.0f, 0.0f, -0.0f, 1.0f, -1.0f},
        {-0.0f, tiny, -tiny, 0.0f, tiny, -tiny},
        {-inf, inf, big, -big, inf, -inf, 0.0f, big},
        {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f},
        {7.0f, 6.0f, 5.0f, 4.0f, 3.0f, 2.0f, 1.0f},
    };
    // Many ties among many members: the parallel pack and sort (from 2^13 and 2^16 values).
    for (uint64_t n : {uint64_t{9000}, uint64_t{70000}}) {
        std::vector<float> v(n);
        uint64_t x = 12345;
        for (float& f : v) {
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            f = static_cast<float>(static_cast<int>((x >> 33) % 41) - 20) * 0.25f;
        }
        cases.push_back(v);
    }
    return cases;
}

TEST(BackendRanker, TheCpuRankingIsTheStableDescendingOrderTiesByIndex) {
    for (int threads : {1, 2}) {
        const BackendChoice cpu = resolve_backend("cpu", threads);
        for (const std::vector<float>& v : edge_cases()) {
            SCOPED_TRACE("threads " + std::to_string(threads) + " n " + std::to_string(v.size()));
            EXPECT_EQ(ranked_on(cpu, v), stable_descending(v));
            // The sum of values whose fixed-point image fits (not the infinities' case).
            int64_t sum = 0;
            bool fits = true;
            for (float f : v) {
                fits = fits && std::fabs(f) < 1e9f;
                sum += fits ? fixed_point_16(f) : 0;
            }
            if (fits) {
                EXPECT_EQ(summed_on(cpu, v), sum);
            }
        }
    }
}

TEST(BackendRanker, NoMembersIsNoWork) {
    const BackendChoice cpu = resolve_backend("cpu", 2);
    BackendRanker ranker(cpu);
    ranker.rank(nullptr, nullptr, 0);
    EXPECT_EQ(ranker.fixed_point_sum(nullptr, 0), 0);
    EXPECT_EQ(BackendRanker::workspace_bytes(cpu, 10), 10 * sizeof(uint64_t));
}

// The device's library sort (CUB) against the cpu's ranking, the same values (where there is a
// GPU).
TEST(BackendRanker, OnTheDeviceIsTheCpuRanking) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cuda = resolve_backend("cuda", 2), cpu = resolve_backend("cpu", 2);
    for (const std::vector<float>& v : edge_cases()) {
        SCOPED_TRACE("n " + std::to_string(v.size()));
        EXPECT_EQ(ranked_on(cuda, v), ranked_on(cpu, v));
        if (std::all_of(v.begin(), v.end(), [](float f) { return std::fabs(f) < 1e9f; })) {
            EXPECT_EQ(summed_on(cuda, v), summed_on(cpu, v));
        }
    }
}

}  // namespace
}  // namespace gaeval
