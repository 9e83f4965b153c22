// What a kernel may take by value: the one launch (kernels/launch.cuh) passes an operation
// struct and a 64-bit count, and checks both with this at compile time; tests/
// test_kernel_arguments.cpp checks every game and pile-in operation with g++ too, so that a CPU
// build notices a struct outgrowing the limit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace gaeval {

// Kernel parameters: 32,764 bytes since CUDA 12.1 on sm_70 and newer (4,096 before). The
// pile-in operations carry their scenario by value (EvaluateRules is about 8 KB), which is why
// CMakeLists.txt requires CUDA 12.1.
constexpr std::size_t KernelParameterBytes = 32764;

// True when `Op` can be a kernel argument next to a uint64_t count: trivially copyable (copied
// to the device as bytes) and within the parameter space.
template <class Op>
constexpr bool fits_kernel_parameters() {
    return std::is_trivially_copyable_v<Op> &&
           sizeof(Op) + sizeof(uint64_t) + alignof(Op) <= KernelParameterBytes;
}

}  // namespace gaeval
