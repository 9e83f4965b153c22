// Philox known-answer vectors (Random123's kat_vectors) on the host and, when a GPU is present,
// through a kernel; plus the properties of the derived draws.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "games/core/math.hpp"
#include "games/core/rng.hpp"
#include "gpu_test_support.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/core_kernels.hpp"
#include "kernels/cuda_api.hpp"
#endif

namespace {

struct Kat {
    uint32_t key[2];
    uint32_t ctr[4];
    uint32_t expected[4];
};

// philox4x32_10 vectors from Random123's kat_vectors file.
const Kat kKats[] = {
    {{0, 0}, {0, 0, 0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0xa4093822, 0x299f31d0},
     {0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(Philox, KnownAnswerVectorsOnHost) {
    for (const Kat& k : kKats) {
        gaeval::Random4 r =
            gaeval::philox_raw(k.key[0], k.key[1], k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]);
        for (int i = 0; i < 4; ++i) EXPECT_EQ(r.v[i], k.expected[i]) << "word " << i;
    }
}

TEST(Philox, KnownAnswerVectorsOnDevice) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    std::vector<uint32_t> in, out(4 * std::size(kKats));
    for (const Kat& k : kKats) {
        in.insert(in.end(), {k.key[0], k.key[1], k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]});
    }
    gaeval::cuda::philox_raw_batch(in.data(), out.data(), std::size(kKats));
    for (std::size_t j = 0; j < std::size(kKats); ++j)
        for (int i = 0; i < 4; ++i) EXPECT_EQ(out[4 * j + i], kKats[j].expected[i]);
#endif
}

// The bench's device timing (kernels/cuda_api.hpp): one kernel and two copies are timed apart,
// with positive device times; nothing is recorded before begin or after end.
TEST(DeviceTiming, CountsTheKernelAndTheCopiesOfARegion) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    std::vector<uint32_t> in, out(4 * std::size(kKats));
    for (const Kat& k : kKats) {
        in.insert(in.end(), {k.key[0], k.key[1], k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3]});
    }
    gaeval::cuda::philox_raw_batch(in.data(), out.data(), std::size(kKats));  // untimed
    gaeval::cuda::device_timing_begin();
    gaeval::cuda::philox_raw_batch(in.data(), out.data(), std::size(kKats));
    const gaeval::cuda::DeviceTimes t = gaeval::cuda::device_timing_end();
    EXPECT_EQ(t.kernels, 1);
    EXPECT_EQ(t.transfers, 2);  // inputs in, outputs back
    EXPECT_GT(t.kernel_seconds, 0);
    EXPECT_GT(t.transfer_seconds, 0);
    EXPECT_LT(t.kernel_seconds + t.transfer_seconds, 10.0);
    gaeval::cuda::philox_raw_batch(in.data(), out.data(), std::size(kKats));  // untimed again
    gaeval::cuda::device_timing_begin();
    const gaeval::cuda::DeviceTimes none = gaeval::cuda::device_timing_end();
    EXPECT_EQ(none.kernels + none.transfers, 0);
#endif
}

TEST(Philox, PurposesAreIndependentStreams) {
    auto a = gaeval::philox(7, gaeval::Purpose::InitMove, 0, 0, 0, 0);
    auto b = gaeval::philox(7, gaeval::Purpose::ParentPick, 0, 0, 0, 0);
    auto c = gaeval::philox(8, gaeval::Purpose::InitMove, 0, 0, 0, 0);
    EXPECT_NE(a.v[0], b.v[0]);
    EXPECT_NE(a.v[0], c.v[0]);
    auto a2 = gaeval::philox(7, gaeval::Purpose::InitMove, 0, 0, 0, 0);
    EXPECT_EQ(a.v[0], a2.v[0]);
}

TEST(Philox, UnitFloatRangeAndBelowBounds) {
    EXPECT_EQ(gaeval::unit_float(0), 0.0f);
    EXPECT_LT(gaeval::unit_float(0xffffffffu), 1.0f);
    EXPECT_EQ(gaeval::below(0xffffffffu, 7), 6u);
    EXPECT_EQ(gaeval::below(0, 7), 0u);
    EXPECT_TRUE(gaeval::bernoulli(0xffffffffu, 1.0));
    EXPECT_FALSE(gaeval::bernoulli(0, 0.0));
    // below() is close to uniform: chi-square over 10 bins on 100000 draws.
    int bins[10] = {};
    for (uint32_t i = 0; i < 100000; ++i)
        ++bins[gaeval::below(gaeval::philox(3, gaeval::Purpose::Test, i, 0, 0, 0).v[0], 10)];
    double chi2 = 0;
    for (int b : bins) chi2 += (b - 10000.0) * (b - 10000.0) / 10000.0;
    EXPECT_LT(chi2, 27.88);  // p = 0.001 for 9 degrees of freedom
}

TEST(OrderKey, PreservesFloatOrder) {
    const float values[] = {-1e30f, -5.5f, -1.0f, -1e-30f, 0.0f, 1e-30f, 1.0f, 3.25f, 1e30f};
    for (std::size_t i = 0; i + 1 < std::size(values); ++i)
        EXPECT_LT(gaeval::order_key(values[i]), gaeval::order_key(values[i + 1])) << i;
    EXPECT_EQ(gaeval::order_key(-0.0f), gaeval::order_key(0.0f));
    EXPECT_EQ(gaeval::fixed_point_16(1.5f), 98304);
    EXPECT_EQ(gaeval::fixed_point_16(-1.5f), -98304);
}

}  // namespace
