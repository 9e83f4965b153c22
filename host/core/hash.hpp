// 64-bit FNV-1a over bytes, chained: h = fnv1a(data, n, h). The checksum of checkpoints, the
// fingerprint of run configurations and the bench signature.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gaeval {

constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ull;

inline uint64_t fnv1a(const void* data, std::size_t n, uint64_t h = kFnvOffset) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

}  // namespace gaeval
