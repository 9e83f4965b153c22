// rastrigin: f(x) = 10 D + sum over j of (x_j^2 - 10 cos(2 pi x_j)), x_j in [-5.12, 5.12],
// minimised: a bowl covered with a grid of local minima (one near every integer point), the
// global optimum f = 0 at x = 0. The example problem of docs/adding-a-problem.md.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"

namespace gaeval::problems {

// cos(2 pi x) from + - * / only, the same bits on host and device (CUDA's cos and glibc's may
// differ in the last bit): x is reduced to r = x - round(x) in [-1/2, 1/2] by the 1.5 * 2^52
// trick (exact for |x| < 2^51), then to a quarter turn q in [0, 1/4] by symmetry, and
// cos(2 pi q) is its Taylor series to the 22nd power in Horner form (error below 1e-16 on a
// quarter turn). cos_two_pi(0) is 1 exactly.
GAEVAL_HD_INLINE double cos_two_pi(double x) {
    const double shift = 6755399441055744.0;  // 1.5 * 2^52
    double r = x - ((x + shift) - shift);
    if (r < 0) r = -r;
    double sign = 1;
    if (r > 0.25) {
        r = 0.5 - r;
        sign = -1;
    }
    const double theta = 6.283185307179586 * r;
    const double t = theta * theta;
    // 1 - t/(1*2) (1 - t/(3*4) (1 - t/(5*6) (...)))
    double series = 1;
    for (int k = 11; k >= 1; --k) series = 1 - t / double((2 * k - 1) * (2 * k)) * series;
    return sign * series;
}

struct Rastrigin {
    static constexpr const char* kName = "rastrigin";
    static constexpr const char* kDescription =
        "10 D + sum of (x_j^2 - 10 cos 2 pi x_j), minimised; optimum 0 at x = 0";
    static constexpr bool kMaximise = false;
    static constexpr uint32_t kDefaultDimension = 10;
    static constexpr uint32_t kMaxDimension = 4096;
    static constexpr float kLow = -5.12f, kHigh = 5.12f;
    static constexpr double kOptimum = 0.0;

    // Bit-identical on host and device: cos_two_pi, products and a sum in gene order.
    GAEVAL_HD double fitness(const float* genome, uint32_t dimension) const {
        double sum = 10.0 * dimension;
        for (uint32_t j = 0; j < dimension; ++j) {
            const double x = genome[j];
            sum += x * x - 10.0 * cos_two_pi(x);
        }
        return sum;
    }
};

}  // namespace gaeval::problems
