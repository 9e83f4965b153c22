// Memory an executor op reads and writes that stays in the backend's memory across calls
// (host/backend/executor.hpp's BackendInput and BackendOutput live for one call), and the cpu
// backend that host code runs an op on with its own threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/backend/executor.hpp"
#include "host/backend/memory.hpp"
#include "host/backend/parallel.hpp"

namespace gaeval {

// The cpu backend on `threads` host threads (<= 0: every core), without resolve_backend's
// description of the machine: what a scheme breeds on when it runs on the host (c.threads).
inline BackendChoice host_threads_backend(int threads) {
    BackendChoice choice;
    choice.kind = BackendKind::Cpu;
    choice.threads = threads > 0 ? threads : default_thread_count();
    choice.name = "cpu";
    return choice;
}

// Whether the backend's memory is apart from the host's (the device's): whether genomes kept in
// host memory leave the backend's memory free (host/learn/population_layout.hpp).
inline bool memory_apart_from_host(const BackendChoice& backend) {
    return executor_detail::on_device(backend);
}

// Bytes free in the backend's memory: the device's free memory, or the host's available memory
// on the cpu (0: unknown).
inline uint64_t backend_free_memory(const BackendChoice& backend) {
    if (executor_detail::on_device(backend)) {
#if GAEVAL_HAVE_CUDA
        return cuda::free_device_memory();
#else
        executor_detail::no_cuda();
#endif
    }
    return available_host_memory();
}

// n T kept in the backend's memory across calls (a population that stays on its backend between
// generations): on the cpu a host array, on the device a device array. upload and download copy
// n elements from `offset` on between the caller's host memory and it.
template <class T>
class BackendArray {
  public:
    BackendArray() = default;
    BackendArray(const BackendChoice& backend, std::size_t n) : n_(n) {
        if (executor_detail::on_device(backend)) {
#if GAEVAL_HAVE_CUDA
            device_ = cuda::DeviceArray<T>(n);
            data_ = device_.data();
#else
            executor_detail::no_cuda();
#endif
        } else {
            host_.resize(n);
            data_ = host_.data();
        }
    }
    // n T in host memory, for a population kept there while `backend` works on chunks of it:
    // page-locked when the backend is the device, so that a CopyQueue's copies overlap its ops
    // (host/backend/copy_queue.hpp); a plain host array on the cpu.
    static BackendArray in_host_memory(const BackendChoice& backend, std::size_t n) {
        BackendArray a;
        a.n_ = n;
        if (executor_detail::on_device(backend)) {
#if GAEVAL_HAVE_CUDA
            a.pinned_ = cuda::PinnedArray<T>(n);
            a.data_ = a.pinned_.data();
            a.pinned_host_ = true;
            return a;
#else
            executor_detail::no_cuda();
#endif
        }
        a.host_.resize(n);
        a.data_ = a.host_.data();
        return a;
    }
    BackendArray(BackendArray&&) = default;
    BackendArray& operator=(BackendArray&&) = default;
    BackendArray(const BackendArray&) = delete;
    BackendArray& operator=(const BackendArray&) = delete;

    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return n_; }
    void upload(const T* host, std::size_t n, std::size_t offset = 0) {
        check(n, offset);
        if (in_host_memory()) {
            std::copy(host, host + n, data_ + offset);
            return;
        }
#if GAEVAL_HAVE_CUDA
        device_.upload(host, n, offset);
#endif
    }
    void download(T* host, std::size_t n, std::size_t offset = 0) const {
        check(n, offset);
        if (in_host_memory()) {
            std::copy(data_ + offset, data_ + offset + n, host);
            return;
        }
#if GAEVAL_HAVE_CUDA
        device_.download(host, n, offset);
#endif
    }
    void swap(BackendArray& other) {
        std::swap(n_, other.n_);
        std::swap(data_, other.data_);
        std::swap(pinned_host_, other.pinned_host_);
        host_.swap(other.host_);
#if GAEVAL_HAVE_CUDA
        std::swap(device_, other.device_);
        std::swap(pinned_, other.pinned_);
#endif
    }
    // Whether the elements are in host memory (the cpu backend's arrays, in_host_memory's).
    bool in_host_memory() const { return !host_.empty() || pinned_host_ || n_ == 0; }

  private:
    void check(std::size_t n, std::size_t offset) const {
        if (offset > n_ || n > n_ - offset)
            throw std::logic_error("BackendArray: a copy past the array's end");
    }
    std::size_t n_ = 0;
    T* data_ = nullptr;
    bool pinned_host_ = false;
    std::vector<T> host_;
#if GAEVAL_HAVE_CUDA
    cuda::DeviceArray<T> device_;
    cuda::PinnedArray<T> pinned_;
#endif
};

// n T that ops read and write in place, from the caller's host memory: on the cpu that memory
// itself, on the device a copy there that finish() copies back.
template <class T>
class BackendInOut {
  public:
    BackendInOut(const BackendChoice& backend, T* host, std::size_t n)
        : host_(host), data_(host), n_(n) {
        if (!executor_detail::on_device(backend)) return;
        there_ = BackendArray<T>(backend, n);
        there_.upload(host, n);
        data_ = there_.data();
    }
    T* data() { return data_; }
    void finish() {
        if (data_ != host_) there_.download(host_, n_);
    }

  private:
    T* host_;
    T* data_;
    std::size_t n_;
    BackendArray<T> there_;
};

}  // namespace gaeval
