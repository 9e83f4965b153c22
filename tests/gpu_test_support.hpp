// GPU tests: skip with a reason when no device is present, except under the `gpu` preset
// (GAEVAL_REQUIRE_GPU=1), where a missing device is a failure.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "games/core/match.hpp"
#include "host/backend/backend.hpp"

namespace gaeval::testing {

// GAEVAL_GPU_TEST_REDUCED=1 (set by scripts/gpu-check.sh's sanitizer steps, whose kernels run
// 10 to 100 times slower): the GPU parity tests play reduced sizes, so that one sanitizer covers
// every GPU test within its budget. The comparisons stay the same; only the sizes shrink.
inline bool gpu_tests_reduced() {
    const char* v = std::getenv("GAEVAL_GPU_TEST_REDUCED");
    return v && *v && std::string(v) != "0";
}

// `full`, or `reduced` in the reduced mode.
template <class T>
T gpu_test_size(T full, T reduced) {
    return gpu_tests_reduced() ? reduced : full;
}

// "" when two backends' game records are equal byte for byte (moves by their hash), else where
// they first differ.
inline std::string records_difference(const std::vector<GameRecord>& x,
                                      const std::vector<GameRecord>& y) {
    if (x.size() != y.size()) return "sizes differ";
    for (std::size_t i = 0; i < x.size(); ++i)
        if (std::memcmp(&x[i], &y[i], sizeof(GameRecord)) != 0)
            return "first difference in game " + std::to_string(i);
    return "";
}

}  // namespace gaeval::testing

#define GAEVAL_REQUIRE_DEVICE_OR_SKIP()                                        \
    do {                                                                       \
        std::string gaeval_reason_;                                            \
        if (!::gaeval::cuda_device_present(&gaeval_reason_)) {                 \
            if (GAEVAL_REQUIRE_GPU) {                                          \
                FAIL() << "GPU required (gpu preset) but: " << gaeval_reason_; \
            } else {                                                           \
                GTEST_SKIP() << "no GPU: " << gaeval_reason_;                  \
            }                                                                  \
        }                                                                      \
    } while (0)
