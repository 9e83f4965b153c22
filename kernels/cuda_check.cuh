// Error checking for CUDA runtime calls and launches (cuCollections style): the thrown
// gaeval::cuda::Error names the file, the line, the expression and cudaGetErrorString.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "kernels/cuda_api.hpp"

namespace gaeval::cuda::detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* expr, const char* file,
                                          int line) {
    throw Error(std::string(file) + ":" + std::to_string(line) + ": " + expr + ": " +
                cudaGetErrorName(err) + ": " + cudaGetErrorString(err));
}
}  // namespace gaeval::cuda::detail

#define GAEVAL_CUDA_CHECK(expr)                                                               \
    do {                                                                                      \
        cudaError_t gaeval_err_ = (expr);                                                     \
        if (gaeval_err_ != cudaSuccess)                                                       \
            ::gaeval::cuda::detail::throw_cuda_error(gaeval_err_, #expr, __FILE__, __LINE__); \
    } while (0)

// After every launch: launch-configuration errors now, execution errors at the next sync.
#define GAEVAL_CUDA_CHECK_LAUNCH() GAEVAL_CUDA_CHECK(cudaGetLastError())
