// Launch wrappers for games/core checks on the device (declared for g++ callers).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gaeval::cuda {

// For each i < n: out[4i..4i+3] = Philox4x32-10(key = in[6i..6i+1], counter = in[6i+2..6i+5]),
// computed by a kernel through games/core/rng.hpp. Host pointers; synchronizes.
void philox_raw_batch(const uint32_t* in, uint32_t* out, std::size_t n);

}  // namespace gaeval::cuda
