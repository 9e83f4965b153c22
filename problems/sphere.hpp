// sphere: f(x) = sum of x_j^2 over the genome, minimised; the optimum is 0 at x = 0. The
// smallest problem (docs/adding-a-problem.md starts from it).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"

namespace gaeval::problems {

struct Sphere {
    static constexpr const char* kName = "sphere";
    static constexpr const char* kDescription = "sum of x_j^2, minimised; optimum 0 at x = 0";
    static constexpr bool kMaximise = false;
    static constexpr uint32_t kDefaultDimension = 10;
    static constexpr uint32_t kMaxDimension = 4096;
    static constexpr float kLow = -5.12f, kHigh = 5.12f;
    static constexpr double kOptimum = 0.0;

    // Bit-identical on host and device: products and a sum in gene order, in double.
    GAEVAL_HD double fitness(const float* genome, uint32_t dimension) const {
        double sum = 0;
        for (uint32_t j = 0; j < dimension; ++j) sum += double(genome[j]) * double(genome[j]);
        return sum;
    }
};

}  // namespace gaeval::problems
