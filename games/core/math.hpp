// Floating-point helpers that give the same bits on the host and the device.
// Bit-identical across backends: only + - * / and sqrt (both correctly rounded under
// -ffp-contract=off and --fmad=false); no transcendental functions, no fast-math intrinsics.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#include "games/core/hd.hpp"

namespace gaeval {

// Correctly rounded square root on both sides (sqrtf is IEEE-exact in CUDA without fast-math).
GAEVAL_HD_INLINE float sqrt_rn(float x) {
#if GAEVAL_DEVICE_PASS
    return __fsqrt_rn(x);
#else
    return std::sqrt(x);
#endif
}
GAEVAL_HD_INLINE double sqrt_rn(double x) {
#if GAEVAL_DEVICE_PASS
    return __dsqrt_rn(x);
#else
    return std::sqrt(x);
#endif
}

// Raw bits of a float (for signatures and order keys).
GAEVAL_HD_INLINE uint32_t float_bits(float f) {
#if GAEVAL_DEVICE_PASS
    return static_cast<uint32_t>(__float_as_uint(f));
#else
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
#endif
}

// Unsigned key whose ascending order is the float's ascending order (-0 and +0 equal; inputs
// are never NaN). Sorting (~key, index) ascending with a stable sort ranks best-first with ties
// broken by index, on the CPU (std::stable_sort) and the GPU (CUB radix sort) alike.
GAEVAL_HD_INLINE uint32_t order_key(float f) {
    uint32_t u = float_bits(f == 0.0f ? 0.0f : f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

// Exact fixed-point image of a fitness value (2^-16 units, rounded half away from zero) so that
// sums over a population are integer sums: the same in any order, on any backend.
GAEVAL_HD_INLINE int64_t fixed_point_16(float f) {
    double scaled = static_cast<double>(f) * 65536.0;
    return static_cast<int64_t>(scaled < 0.0 ? scaled - 0.5 : scaled + 0.5);
}

}  // namespace gaeval
