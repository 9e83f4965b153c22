// Bit helpers for 64-bit words that compile on the host and the device.
// nvcc rejects the GCC builtins in device code, so each helper picks the intrinsic per pass.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"

namespace gaeval {

// Number of set bits.
GAEVAL_HD_FORCEINLINE int popcount64(uint64_t x) {
#if GAEVAL_DEVICE_PASS
    return __popcll(x);
#else
    return __builtin_popcountll(x);
#endif
}

// Index of the lowest set bit; x must be non-zero.
GAEVAL_HD_FORCEINLINE int lowest_bit(uint64_t x) {
#if GAEVAL_DEVICE_PASS
    return __ffsll(static_cast<long long>(x)) - 1;
#else
    return __builtin_ctzll(x);
#endif
}

// Index of the highest set bit; x must be non-zero.
GAEVAL_HD_FORCEINLINE int highest_bit(uint64_t x) {
#if GAEVAL_DEVICE_PASS
    return 63 - __clzll(static_cast<long long>(x));
#else
    return 63 - __builtin_clzll(x);
#endif
}

// `yes` when c, else `no`, as a masked blend: for choosing among the words of a bitboard or the
// fields of a position by a run-time index without indexing an array (nvcc compiles a plain
// select between two loads of one array back into an indexed load, which puts the array in a
// GPU thread's local memory).
GAEVAL_HD_FORCEINLINE uint64_t blend(bool c, uint64_t yes, uint64_t no) {
    return no ^ ((no ^ yes) & (uint64_t{0} - static_cast<uint64_t>(c)));
}

// x with its lowest set bit cleared.
GAEVAL_HD_FORCEINLINE uint64_t clear_lowest(uint64_t x) { return x & (x - 1); }

// Index of the k-th set bit (k counted from 0, k < popcount64(x)).
GAEVAL_HD_FORCEINLINE int nth_set_bit(uint64_t x, int k) {
    for (int i = 0; i < k; ++i) x = clear_lowest(x);
    return lowest_bit(x);
}

}  // namespace gaeval
