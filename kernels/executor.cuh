// The device half of the executor (host/backend/executor.hpp): cuda::launch<Shape, Op>, one
// generic launch for every op of every batch. The launch shape (one thread a task, with or
// without launch bounds, or a lane group of L threads a task) comes from Shape; blocks of 256
// threads, a grid of at most 16 blocks a multiprocessor (kernels/launch.cuh: grid_for) and a
// grid-stride loop over the index range itself (no offset added per index: the loop starts at
// `first`), so that lane groups are aligned tiles of a warp; the launch is checked and the call
// synchronizes (a kernel's failure surfaces here, once). Included by the kernels/*.cu files that
// instantiate ops: GAEVAL_INSTANTIATE_LAUNCH(Shape, Op).
#pragma once

#include <cuda_runtime.h>

#include "games/core/kernel_arguments.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/launch.cuh"
#include "kernels/task_shape.hpp"

namespace gaeval::cuda {

namespace executor_detail {

constexpr int kBlock = 256;

// op(i) for i in [begin, end), grid-stride.
template <class Op>
__device__ __forceinline__ void index_range(const Op& op, uint64_t begin, uint64_t end) {
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = begin + static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < end;
         i += stride) {
        op(i);
    }
}

// The op is a __grid_constant__ parameter: read in place from the parameter space even where
// the code takes its address (a reference to one of two players chosen by seat), where a plain
// by-value parameter is copied into each thread's local memory first: 128 bytes of stack in
// Connect Four's match kernels, about 1 KB in Pac-Man's (bench/results/kernel-resources.md).
template <class Op>
__global__ void index_range_kernel(const __grid_constant__ Op op, uint64_t begin, uint64_t end) {
    index_range(op, begin, end);
}

// The same with launch bounds: blocks of 256 threads and at least MinBlocks of them resident
// per multiprocessor.
template <class Op, int MinBlocks>
__global__ void __launch_bounds__(kBlock, MinBlocks)
    index_range_bounded_kernel(const __grid_constant__ Op op, uint64_t begin, uint64_t end) {
    index_range(op, begin, end);
}

// Thread index t runs lane t % L of group t / L (the range starts at a multiple of L and blocks
// are multiples of 32, so t % L is the thread's lane in its warp tile: Lanes<L>::lane()).
template <int L, class Op>
struct InLaneGroups {
    Op op;
    __device__ void operator()(uint64_t t) const { op(t / L, Lanes<L>{}); }
};

}  // namespace executor_detail

template <class Shape, class Op>
void launch(uint64_t first, uint64_t n, const Op& op) {
    using namespace executor_detail;
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    constexpr uint64_t L = Shape::lanes;
    const uint64_t threads = n * L;
    {
        TimedSection timed(TimedWork::Kernel, nullptr);
        const unsigned grid = grid_for(threads, kBlock);
        if constexpr (L > 1)
            index_range_kernel<<<grid, kBlock>>>(InLaneGroups<Shape::lanes, Op>{op}, first * L,
                                                 (first + n) * L);
        else if constexpr (Shape::min_blocks > 0)
            index_range_bounded_kernel<Op, Shape::min_blocks>
                <<<grid, kBlock>>>(op, first, first + n);
        else
            index_range_kernel<<<grid, kBlock>>>(op, first, first + n);
        GAEVAL_CUDA_CHECK_LAUNCH();
    }
    synchronize();
}

}  // namespace gaeval::cuda

// Instantiates the device half of the executor for one op in one shape (inside no namespace).
#define GAEVAL_INSTANTIATE_LAUNCH(Shape, Op) \
    template void ::gaeval::cuda::launch<Shape, Op>(uint64_t, uint64_t, const Op&);
