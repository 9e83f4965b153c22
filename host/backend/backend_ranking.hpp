// Ranking on a backend, one call for both (issue 31): the members of a population by fitness,
// best first, ties by index, and the generation's exact fixed-point sum, over arrays in the
// backend's memory. On the cpu the host ranking (host/backend/cpu_ranking.hpp: a sort of packed
// (~order_key, index) words); on the device the library sort (kernels/ranking.hpp: CUB's stable
// radix sort of the same keys, the indices as values), so both give the same order bit for bit:
// order_key maps -0 to +0, so equal values (either zero) keep index order.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "host/backend/backend.hpp"

namespace gaeval {

class BackendRanker {
  public:
    explicit BackendRanker(const BackendChoice& backend);
    ~BackendRanker();
    BackendRanker(BackendRanker&&) noexcept;
    BackendRanker& operator=(BackendRanker&&) noexcept;

    // ranked[r] = index of the r-th largest of fitness[0 .. n) (ties: smaller index first);
    // both pointers in the backend's memory (NaN-free values).
    void rank(const float* fitness, uint32_t* ranked, uint64_t n);
    // Sum of fixed_point_16(values[i]) over values in the backend's memory.
    int64_t fixed_point_sum(const float* values, uint64_t n);
    // Bytes rank() needs besides its input and output on `backend` for n values (packed keys on
    // the cpu; keys, indices and the sort's temporary storage on the device).
    static uint64_t workspace_bytes(const BackendChoice& backend, uint64_t n);

  private:
    struct Device;
    BackendChoice backend_;
    std::vector<uint64_t> packed_;    // cpu: the packed keys, kept between calls
    std::unique_ptr<Device> device_;  // cuda: the library sort's buffers
};

}  // namespace gaeval
