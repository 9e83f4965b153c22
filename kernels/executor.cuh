// The device half of the executor (host/backend/executor.hpp): cuda::launch<Shape, Op>, one
// generic launch for every op of every batch. The launch shape (one thread a task, with or
// without launch bounds, or a lane group of L threads a task) comes from Shape; the block and grid
// are chosen per kernel and per launch (kernels/launch.cuh: launch_shape, from the kernel's
// occupancy and the device's multiprocessors; kernels with launch bounds keep the 256 threads
// their bounds demand; GAEVAL_CUDA_BLOCK forces one block; a task with scratch gets its slice of
// the block's dynamic shared memory, which the block's size accounts for), and a grid-stride loop
// runs over the index range itself (no offset added per index: the loop starts at `first`), so that
// lane groups are aligned tiles of a warp (every block is a multiple of 32 threads) and no result
// depends on the shape; the launch is checked and the call synchronizes (a kernel's failure
// surfaces here, once). Included by the kernels/*.cu files that
// instantiate ops: GAEVAL_INSTANTIATE_LAUNCH(Shape, Op).
#pragma once

#include <cuda_runtime.h>

#include "games/core/kernel_arguments.hpp"
#include "games/core/scratch.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/cuda_check.cuh"
#include "kernels/launch.cuh"
#include "kernels/task_shape.hpp"

namespace gaeval::cuda {

namespace executor_detail {

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
__global__ void __launch_bounds__(kDefaultBlock, MinBlocks)
    index_range_bounded_kernel(const __grid_constant__ Op op, uint64_t begin, uint64_t end) {
    index_range(op, begin, end);
}

// The same for a task with per-thread scratch, with launch bounds as above (blocks of at most
// 256 threads; the bounds cap the registers, the scratch decides how many blocks are resident):
// thread t of a block gets bytes [t * Bytes, (t + 1) * Bytes) of the block's dynamic shared
// memory (the launch gives block * Bytes); a lane group's threads each their own.
template <class Op, int Bytes, int MinBlocks>
__global__ void __launch_bounds__(kDefaultBlock, MinBlocks)
    index_range_scratch_kernel(const __grid_constant__ Op op, uint64_t begin, uint64_t end) {
    extern __shared__ __align__(16) unsigned char scratch_shared[];
    const ThreadScratch scratch{scratch_shared + static_cast<uint32_t>(threadIdx.x) * Bytes};
    const uint64_t stride = static_cast<uint64_t>(gridDim.x) * blockDim.x;
    for (uint64_t i = begin + static_cast<uint64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < end;
         i += stride) {
        op(i, scratch);
    }
}

// Thread index t runs lane t % L of group t / L (the range starts at a multiple of L and blocks
// are multiples of 32, so t % L is the thread's lane in its warp tile: Lanes<L>::lane()).
// With scratch: each lane its own slice (op(g, Lanes<L>{}, scratch)).
template <int L, class Op>
struct InLaneGroups {
    Op op;
    __device__ void operator()(uint64_t t) const { op(t / L, Lanes<L>{}); }
    __device__ void operator()(uint64_t t, const ThreadScratch& scratch) const {
        op(t / L, Lanes<L>{}, scratch);
    }
};

}  // namespace executor_detail

template <class Shape, class Op>
void launch(uint64_t first, uint64_t n, const Op& op) {
    using namespace executor_detail;
    static_assert(fits_kernel_parameters<Op>(),
                  "kernel argument not trivially copyable or over the 32,764-byte parameter "
                  "limit (games/core/kernel_arguments.hpp)");
    if (n == 0) return;
    constexpr int L = Shape::lanes;
    const uint64_t threads = n * L;
    // The shape first (the first launch of a kernel queries its occupancy), outside the timing.
    if constexpr (L > 1 && Shape::scratch_bytes > 0) {
        using Grouped = InLaneGroups<L, Op>;
        constexpr int kBytes = static_cast<int>(scratch_slice_bytes(Shape::scratch_bytes));
        constexpr int kMin = Shape::min_blocks;
        const void* kernel =
            reinterpret_cast<const void*>(&index_range_scratch_kernel<Grouped, kBytes, kMin>);
        const LaunchShape shape = launch_shape(kernel, threads, L, 0, kBytes);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_scratch_kernel<Grouped, kBytes, kMin>
            <<<shape.grid, shape.block, static_cast<std::size_t>(shape.block) * kBytes>>>(
                Grouped{op}, first * L, (first + n) * L);
        GAEVAL_CUDA_CHECK_LAUNCH();
    } else if constexpr (L > 1 && Shape::min_blocks > 0) {
        using Grouped = InLaneGroups<L, Op>;
        constexpr int kMin = Shape::min_blocks;
        const LaunchShape shape =
            launch_shape(reinterpret_cast<const void*>(&index_range_bounded_kernel<Grouped, kMin>),
                         threads, L, kDefaultBlock);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_bounded_kernel<Grouped, kMin>
            <<<shape.grid, shape.block>>>(Grouped{op}, first * L, (first + n) * L);
        GAEVAL_CUDA_CHECK_LAUNCH();
    } else if constexpr (L > 1) {
        using Grouped = InLaneGroups<L, Op>;
        const LaunchShape shape =
            launch_shape(reinterpret_cast<const void*>(&index_range_kernel<Grouped>), threads, L);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_kernel<<<shape.grid, shape.block>>>(Grouped{op}, first * L, (first + n) * L);
        GAEVAL_CUDA_CHECK_LAUNCH();
    } else if constexpr (Shape::scratch_bytes > 0) {
        static_assert(Shape::min_blocks > 0, "a task with scratch runs under launch bounds");
        constexpr int kBytes = static_cast<int>(scratch_slice_bytes(Shape::scratch_bytes));
        constexpr int kMin = Shape::min_blocks;
        const void* kernel =
            reinterpret_cast<const void*>(&index_range_scratch_kernel<Op, kBytes, kMin>);
        const LaunchShape shape = launch_shape(kernel, threads, 1, 0, kBytes);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_scratch_kernel<Op, kBytes, kMin>
            <<<shape.grid, shape.block, static_cast<std::size_t>(shape.block) * kBytes>>>(
                op, first, first + n);
        GAEVAL_CUDA_CHECK_LAUNCH();
    } else if constexpr (Shape::min_blocks > 0) {
        const LaunchShape shape = launch_shape(
            reinterpret_cast<const void*>(&index_range_bounded_kernel<Op, Shape::min_blocks>),
            threads, 1, kDefaultBlock);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_bounded_kernel<Op, Shape::min_blocks>
            <<<shape.grid, shape.block>>>(op, first, first + n);
        GAEVAL_CUDA_CHECK_LAUNCH();
    } else {
        const LaunchShape shape =
            launch_shape(reinterpret_cast<const void*>(&index_range_kernel<Op>), threads, 1);
        TimedSection timed(TimedWork::Kernel, nullptr);
        index_range_kernel<<<shape.grid, shape.block>>>(op, first, first + n);
        GAEVAL_CUDA_CHECK_LAUNCH();
    }
    synchronize();
}

}  // namespace gaeval::cuda

// Instantiates the device half of the executor for one op in one shape (inside no namespace).
#define GAEVAL_INSTANTIATE_LAUNCH(Shape, Op) \
    template void ::gaeval::cuda::launch<Shape, Op>(uint64_t, uint64_t, const Op&);
