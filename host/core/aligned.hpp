// Vectors whose data starts on a cache line. Threads that write neighbouring chunks of one
// array (breeding's round-robin chunks, the evaluator's lane blocks) then share no line when a
// chunk is a whole number of lines; with malloc's 16-byte alignment every chunk boundary was a
// line two cores wrote.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace gaeval {

constexpr std::size_t kCacheLine = 64;

template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(kCacheLine)));
    }
    void deallocate(T* p, std::size_t) noexcept {
        ::operator delete(p, std::align_val_t(kCacheLine));
    }
    template <class U>
    bool operator==(const CacheLineAllocator<U>&) const noexcept {
        return true;
    }
    template <class U>
    bool operator!=(const CacheLineAllocator<U>&) const noexcept {
        return false;
    }
};

template <class T>
using line_vector = std::vector<T, CacheLineAllocator<T>>;

}  // namespace gaeval
