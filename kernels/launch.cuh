// Generic launch of an index-parallel operation: a grid-stride loop over 64-bit indices calling
// op(i), the device twin of host/backend/parallel.hpp's parallel_for. The op is a trivially
// copyable functor from games/ passed by value; its result cannot depend on the launch shape,
// which is chosen per kernel and per launch (kernels/launch_config.hpp).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "games/core/kernel_arguments.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/launch_config.hpp"

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
__global__ void __launch_bounds__(kDefaultBlock, MinBlocks)
    for_each_index_bounded_kernel(Op op, uint64_t n) {
    grid_stride(op, n);
}

// Number of multiprocessors of the current device (cached per process).
int multiprocessor_count();

// Resident blocks a multiprocessor of the current device holds of `kernel` (a __global__
// function's address) per block size, by cudaOccupancyMaxActiveBlocksPerMultiprocessor with
// block * scratch_bytes of dynamic shared memory (scratch bytes a thread: 0 for most kernels;
// sizes whose scratch exceeds the device's shared memory a block count 0); queried once per
// kernel, then cached. Thread-safe. A kernel whose scratch does not fit one warp's block throws
// cuda::Error (scratch_fit_error).
const Occupancy& kernel_occupancy(const void* kernel, int scratch_bytes = 0);

// The forced block: GAEVAL_CUDA_BLOCK, read at the first launch (kernels/launch_config.hpp:
// parse_block_override; 0 when unset, "auto" or invalid: host/backend/backend.cpp refuses an
// invalid value before any launch), or what force_block (kernels/cuda_api.hpp) set since.
int forced_block();

// The launch of `threads` threads of `kernel` (tasks of `lanes` threads): choose_launch with the
// kernel's occupancy, the device's multiprocessors and GAEVAL_CUDA_BLOCK; `fixed_block` > 0 (a
// kernel whose launch bounds demand that block, or a caller's block) keeps that block and only
// sizes the grid; `scratch_bytes` a thread of dynamic shared memory (kernel_occupancy) count in
// the occupancy. GAEVAL_CUDA_LAUNCH_LOG=1 prints each new (kernel, shape) once on stderr:
// registers, threads, block, grid and resident warps a multiprocessor.
LaunchShape launch_shape(const void* kernel, uint64_t threads, int lanes, int fixed_block = 0,
                         int scratch_bytes = 0);

// Launch op(i) for i in [0, n) on the given stream (default stream when 0); asynchronous.
// `block` 0: chosen for this kernel and n (launch_shape); otherwise that block.
template <class Op>
void for_each_index(const Op& op, uint64_t n, cudaStream_t stream = 0, int block = 0) {
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    const LaunchShape shape =
        launch_shape(reinterpret_cast<const void*>(&for_each_index_kernel<Op>), n, 1, block);
    TimedSection timed(TimedWork::Kernel, stream);
    for_each_index_kernel<<<shape.grid, shape.block, 0, stream>>>(op, n);
    GAEVAL_CUDA_CHECK_LAUNCH();
}

// for_each_index in blocks of 256 with the launch bounds of for_each_index_bounded_kernel.
template <int MinBlocks, class Op>
void for_each_index_bounded(const Op& op, uint64_t n, cudaStream_t stream = 0) {
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    const LaunchShape shape =
        launch_shape(reinterpret_cast<const void*>(&for_each_index_bounded_kernel<Op, MinBlocks>),
                     n, 1, kDefaultBlock);
    TimedSection timed(TimedWork::Kernel, stream);
    for_each_index_bounded_kernel<Op, MinBlocks><<<shape.grid, shape.block, 0, stream>>>(op, n);
    GAEVAL_CUDA_CHECK_LAUNCH();
}

}  // namespace gaeval::cuda
