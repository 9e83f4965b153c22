// Per-thread scratch: working memory a task indexes at run time (a Risk position's army counts
// by territory, a sort buffer), which a GPU thread can keep in registers only when every index is
// known at compile time; anything else goes to local memory (the "stack" of ptxas' report). The
// executor hands a task that asks for it (TaskShape's scratch bytes, kernels/task_shape.hpp) a
// ThreadScratch: on the device the thread's slice of the block's dynamic shared memory, on the
// CPU a buffer on the calling thread's stack, so the CPU tests run the very code the device runs.
// A task sees only its own slice; nothing in it survives the task (each task writes before it
// reads), and no result may depend on where the slice lives.
#pragma once

#include <cstddef>
#include <type_traits>

#include "games/core/hd.hpp"

namespace gaeval {

// Slices are aligned to this many bytes (every trivially copyable struct of games/ fits it).
constexpr std::size_t kScratchAlign = 16;

// The bytes a task of `bytes` scratch is given: rounded up to kScratchAlign, so that every
// thread's slice starts aligned.
constexpr std::size_t scratch_slice_bytes(std::size_t bytes) {
    return (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}

struct ThreadScratch {
    unsigned char* bytes;
    // The slice as a T (trivially copyable, no larger than the slice, at most kScratchAlign
    // aligned); its contents are whatever the slice held: the task writes before it reads.
    template <class T>
    GAEVAL_HD_INLINE T& as() const {
        static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= kScratchAlign,
                      "scratch holds trivially copyable data");
        return *reinterpret_cast<T*>(bytes);
    }
};

// The CPU's slice for one task of `Bytes` scratch: a buffer on the stack of the thread that
// runs it (host/backend/executor.hpp).
template <std::size_t Bytes>
struct HostScratch {
    alignas(kScratchAlign) unsigned char bytes[scratch_slice_bytes(Bytes)];
    ThreadScratch slice() { return ThreadScratch{bytes}; }
};

}  // namespace gaeval
