// Copies between host memory and a backend's arrays that run while the executor's ops run: a
// population kept in host memory and worked on a chunk at a time (host/learn/word_population.hpp's
// chunked layout) copies the next chunk while the backend evaluates this one. On the device a
// stream of its own (non-blocking, so its copies overlap the executor's launches on the default
// stream) from page-locked host memory (BackendArray::in_host_memory); on the cpu each copy is
// made at once. Either way the copies of one queue run in the order queued, and the caller waits
// for them (wait) before it reads what they wrote or writes what they read; the same calls in the
// same order on both backends.
#pragma once

#include <cstddef>
#include <memory>

#include "host/backend/backend.hpp"
#include "host/backend/backend_array.hpp"

namespace gaeval {

class CopyQueue {
  public:
    // A queue that copies at once (the cpu's): assign a backend's before copying to its memory.
    CopyQueue();
    explicit CopyQueue(const BackendChoice& backend);
    ~CopyQueue();
    CopyQueue(CopyQueue&&) noexcept;
    CopyQueue& operator=(CopyQueue&&) noexcept;

    // Queues the copy of host[0 .. n) into dst[offset .. offset + n).
    template <class T>
    void upload(BackendArray<T>& dst, std::size_t offset, const T* host, std::size_t n) {
        check(dst.size(), offset, n);
        copy_bytes(dst.data() + offset, host, n * sizeof(T), true);
    }
    // Queues the copy of src[offset .. offset + n) into host[0 .. n).
    template <class T>
    void download(T* host, const BackendArray<T>& src, std::size_t offset, std::size_t n) {
        check(src.size(), offset, n);
        copy_bytes(host, src.data() + offset, n * sizeof(T), false);
    }
    // Returns when every copy queued so far has been made.
    void wait();

  private:
    static void check(std::size_t size, std::size_t offset, std::size_t n);
    void copy_bytes(void* dst, const void* src, std::size_t bytes, bool to_backend);
    struct Device;
    std::unique_ptr<Device> device_;  // cuda: the stream; null on the cpu
};

}  // namespace gaeval
