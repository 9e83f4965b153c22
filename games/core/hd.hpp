// GAEVAL_HD: one function, two callers. Under nvcc a function marked GAEVAL_HD compiles for the
// host and the device; under g++ the macro is empty. Code in games/ uses only what both sides
// compute identically: + - * / and sqrt on float/double, integer arithmetic, no std:: algorithms.
#pragma once

#include <cstdint>

// GAEVAL_HD_INLINE asks for inlining: forced on the device (nvcc's __forceinline__), a hint
// under g++. GAEVAL_HD_FORCEINLINE forces it on both sides (always_inline under g++/clang): for
// the small functions of hot loops (bit helpers, the Ataxx move maker, move counter and
// game-over test, perft's child counting), which g++ otherwise left as calls whose results went
// through memory (45%, 23% and 5% of perft's time). Not the default for every GAEVAL_HD_INLINE
// function: forcing all of them made some translation units compile 4x longer (gomoku's).
#if defined(__CUDACC__)
#define GAEVAL_HD __host__ __device__
#define GAEVAL_HD_INLINE __host__ __device__ __forceinline__
#define GAEVAL_HD_FORCEINLINE __host__ __device__ __forceinline__
// A large function that device code should call rather than inline at every call site (keeps
// nvcc's compile time and memory down); header definitions still need `inline`.
#define GAEVAL_HD_NOINLINE __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define GAEVAL_HD
#define GAEVAL_HD_INLINE inline
#define GAEVAL_HD_FORCEINLINE __attribute__((always_inline)) inline
#define GAEVAL_HD_NOINLINE
#else
#define GAEVAL_HD
#define GAEVAL_HD_INLINE inline
#define GAEVAL_HD_FORCEINLINE inline
#define GAEVAL_HD_NOINLINE
#endif

// True while compiling device code (nvcc's device pass).
#if defined(__CUDA_ARCH__)
#define GAEVAL_DEVICE_PASS 1
#else
#define GAEVAL_DEVICE_PASS 0
#endif

namespace gaeval {

template <class T>
GAEVAL_HD_INLINE constexpr T min(T a, T b) {
    return b < a ? b : a;
}
template <class T>
GAEVAL_HD_INLINE constexpr T max(T a, T b) {
    return a < b ? b : a;
}
template <class T>
GAEVAL_HD_INLINE constexpr T abs(T a) {
    return a < T(0) ? -a : a;
}
template <class T>
GAEVAL_HD_INLINE constexpr T clamp(T v, T lo, T hi) {
    return v < lo ? lo : (hi < v ? hi : v);
}
template <class T>
GAEVAL_HD_INLINE void swap(T& a, T& b) {
    T t = a;
    a = b;
    b = t;
}

}  // namespace gaeval
