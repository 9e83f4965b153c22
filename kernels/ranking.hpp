// Device ranking and exact sums (CUB), twins of host/backend/cpu_ranking.hpp: identical order
// keys and tie-breaking, so both backends produce the same ranking bit for bit.
#pragma once

#include <cstdint>
#include <memory>

namespace gaeval::cuda {

class Ranker {
  public:
    Ranker();
    ~Ranker();
    Ranker(const Ranker&) = delete;
    Ranker& operator=(const Ranker&) = delete;

    // ranked[r] = index of the r-th largest fitness (ties: smaller index first): a stable
    // radix sort of (~order_key, index). Device pointers; default stream; synchronizes.
    void rank(const float* fitness, uint32_t* ranked, uint64_t n);

    // Sum of fixed_point_16(values[i]) over device values (integer: any order is exact).
    int64_t fixed_point_sum(const float* values, uint64_t n);

    // Bytes of workspace rank() needs for n items (keys, indices, CUB temporary storage).
    static uint64_t workspace_bytes(uint64_t n);

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gaeval::cuda
