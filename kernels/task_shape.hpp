// What host/backend/executor.hpp and the kernels share about a launch, in plain C++ (g++ and
// nvcc): the shape of a task on the device, the lane that writes a lane group's result, and the
// declaration of the device half of the executor (defined in kernels/executor.cuh).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/lanes.hpp"

namespace gaeval {

// How one task maps to device threads: kLanes threads a task (1: one thread a task), and, with
// kMinBlocks > 0, launch bounds of blocks of 256 threads with at least kMinBlocks of them
// resident on a multiprocessor (at most 65536 / (256 * kMinBlocks) registers a thread; a lane
// group's threads are bounded alike). kScratchBytes > 0 (with launch bounds): the task is
// op(i, ThreadScratch), or op(i, Lanes<kLanes>, ThreadScratch) in each lane of a group, with that
// many bytes of scratch a thread (games/core/scratch.hpp: on the device a slice of the block's
// dynamic shared memory, each lane its own, blocks of at most 256 threads chosen by the occupancy
// the scratch leaves; on the cpu a buffer on the stack, and op(i, ThreadScratch) for every
// shape). The cpu runs the other shapes as op(i).
template <int kLanes = 1, int kMinBlocks = 0, int kScratchBytes = 0>
struct TaskShape {
    static_assert(kLanes == 1 || kScratchBytes == 0 || kMinBlocks > 0,
                  "a lane group with scratch runs under launch bounds");
    static constexpr int lanes = kLanes;
    static constexpr int min_blocks = kMinBlocks;
    static constexpr int scratch_bytes = kScratchBytes;
};

// Whether this lane writes the group's result: lane 0 on the device; on the cpu, where one call
// runs every lane, always.
template <int L>
GAEVAL_HD_INLINE bool leads(const Lanes<L>& lanes) {
#if GAEVAL_DEVICE_PASS
    return lanes.lane() == 0;
#else
    (void)lanes;
    return true;
#endif
}

namespace cuda {
// op over [first, first + n) in Shape on the default stream: op(i) for one thread a task,
// op(g, Lanes<L>{}) in each lane of a group otherwise (op(i, scratch) and op(g, Lanes<L>{},
// scratch) for a Shape with scratch); synchronized, errors checked (throws
// cuda::Error). Defined in kernels/executor.cuh, instantiated by the .cu file that lists the op.
template <class Shape, class Op>
void launch(uint64_t first, uint64_t n, const Op& op);
}  // namespace cuda

}  // namespace gaeval
