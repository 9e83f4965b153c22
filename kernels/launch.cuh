// Generic launch of an index-parallel operation: a grid-stride loop over 64-bit indices calling
// op(i), the device twin of host/backend/parallel.hpp's parallel_for. The op is a trivially
// copyable functor from games/ passed by value; its result cannot depend on the launch shape.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "games/core/kernel_arguments.hpp"
#include "kernels/cuda_check.cuh"

namespace gaeval::cuda {

template <class Op>
__device__ __forceinline__ void grid_stride(const Op& op, uint64_t n) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
         i += stride) {
        op(i);
    }
}

template <class Op>
__global__ void for_each_index_kernel(Op op, uint64_t n) {
    grid_stride(op, n);
}

// The same with launch bounds: blocks of 256 threads and at least MinBlocks of them resident
// per multiprocessor, so at most 65536 / (256 * MinBlocks) registers a thread (64 for 4: half
// the warps a multiprocessor holds).
template <class Op, int MinBlocks>
__global__ void __launch_bounds__(256, MinBlocks) for_each_index_bounded_kernel(Op op, uint64_t n) {
    grid_stride(op, n);
}

// Number of multiprocessors of the current device (cached per process).
int multiprocessor_count();

// Blocks for n indices in blocks of `block` threads: enough for every index, at most 16 per
// multiprocessor (the grid-stride loop does the rest).
inline unsigned grid_for(uint64_t n, int block) {
    const uint64_t blocks_needed = (n + block - 1) / block;
    const uint64_t max_blocks = static_cast<uint64_t>(multiprocessor_count()) * 16;
    return static_cast<unsigned>(blocks_needed < max_blocks ? blocks_needed : max_blocks);
}

// Launch op(i) for i in [0, n) on the given stream (default stream when 0); asynchronous.
template <class Op>
void for_each_index(const Op& op, uint64_t n, cudaStream_t stream = 0, int block = 256) {
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    TimedSection timed(TimedWork::Kernel, stream);
    for_each_index_kernel<<<grid_for(n, block), block, 0, stream>>>(op, n);
    GAEVAL_CUDA_CHECK_LAUNCH();
}

// for_each_index in blocks of 256 with the launch bounds of for_each_index_bounded_kernel.
template <int MinBlocks, class Op>
void for_each_index_bounded(const Op& op, uint64_t n, cudaStream_t stream = 0) {
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    TimedSection timed(TimedWork::Kernel, stream);
    for_each_index_bounded_kernel<Op, MinBlocks><<<grid_for(n, 256), 256, 0, stream>>>(op, n);
    GAEVAL_CUDA_CHECK_LAUNCH();
}

}  // namespace gaeval::cuda
