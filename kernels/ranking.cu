#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include "games/core/math.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/launch.cuh"
#include "kernels/ranking.hpp"

namespace gaeval::cuda {

namespace {

struct MakeKeys {
    const float* fitness;
    uint32_t* keys;
    uint32_t* indices;
    __device__ void operator()(uint64_t i) const {
        keys[i] = ~order_key(fitness[i]);
        indices[i] = static_cast<uint32_t>(i);
    }
};

struct ToFixed {
    __device__ int64_t operator()(float f) const { return fixed_point_16(f); }
};

template <class T>
void ensure(DeviceArray<T>& a, uint64_t n) {
    if (a.size() < n) a = DeviceArray<T>(n);
}

}  // namespace

struct Ranker::Impl {
    DeviceArray<uint32_t> keys_in, keys_out, idx_in;
    DeviceArray<uint8_t> temp;
    DeviceArray<int64_t> sum;
};

Ranker::Ranker() : impl_(std::make_unique<Impl>()) {}
Ranker::~Ranker() = default;

uint64_t Ranker::workspace_bytes(uint64_t n) {
    size_t temp = 0;
    cub::DeviceRadixSort::SortPairs(nullptr, temp, static_cast<const uint32_t*>(nullptr),
                                    static_cast<uint32_t*>(nullptr),
                                    static_cast<const uint32_t*>(nullptr),
                                    static_cast<uint32_t*>(nullptr), static_cast<int64_t>(n));
    return 3 * n * sizeof(uint32_t) + temp;
}

void Ranker::rank(const float* fitness, uint32_t* ranked, uint64_t n) {
    Impl& m = *impl_;
    ensure(m.keys_in, n);
    ensure(m.keys_out, n);
    ensure(m.idx_in, n);
    for_each_index(MakeKeys{fitness, m.keys_in.data(), m.idx_in.data()}, n);
    size_t temp = 0;
    GAEVAL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp, m.keys_in.data(),
                                                      m.keys_out.data(), m.idx_in.data(), ranked,
                                                      static_cast<int64_t>(n)));
    ensure(m.temp, temp);
    {
        TimedSection timed(TimedWork::Kernel, nullptr);
        GAEVAL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(m.temp.data(), temp, m.keys_in.data(),
                                                          m.keys_out.data(), m.idx_in.data(),
                                                          ranked, static_cast<int64_t>(n)));
    }
    synchronize();
}

int64_t Ranker::fixed_point_sum(const float* values, uint64_t n) {
    Impl& m = *impl_;
    ensure(m.sum, 1);
    size_t temp = 0;
    GAEVAL_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
        nullptr, temp, values, m.sum.data(), static_cast<int64_t>(n), ::cuda::std::plus<int64_t>{},
        ToFixed{}, int64_t{0}));
    ensure(m.temp, temp);
    {
        TimedSection timed(TimedWork::Kernel, nullptr);
        GAEVAL_CUDA_CHECK(cub::DeviceReduce::TransformReduce(
            m.temp.data(), temp, values, m.sum.data(), static_cast<int64_t>(n),
            ::cuda::std::plus<int64_t>{}, ToFixed{}, int64_t{0}));
    }
    int64_t total = 0;
    m.sum.download(&total, 1);
    return total;
}

}  // namespace gaeval::cuda
