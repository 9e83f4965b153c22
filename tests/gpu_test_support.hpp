// GPU tests: skip with a reason when no device is present, except under the `gpu` preset
// (GAEVAL_REQUIRE_GPU=1), where a missing device is a failure.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "host/backend/backend.hpp"

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
