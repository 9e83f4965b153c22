// Ranking and exact sums on the CPU, the twins of kernels/ranking.hpp: the same order keys
// (games/core/math.hpp), so both backends rank identically (best first, ties by index).
#pragma once

#include <cstdint>
#include <vector>

namespace gaeval {

// ranked[r] = index of the r-th largest value (ties: smaller index first).
// Small sizes run on one thread (cheaper than waking others); a parallel sort from 2^13
// values. `packed` is scratch (n words), kept by callers that rank every generation.
void rank_descending(const float* values, uint32_t* ranked, uint64_t n, int threads);
void rank_descending(const float* values, uint32_t* ranked, uint64_t n, int threads,
                     std::vector<uint64_t>& packed);

// Sum of fixed_point_16(values[i]): an integer sum, identical in any order.
int64_t fixed_point_sum(const float* values, uint64_t n, int threads);

}  // namespace gaeval
