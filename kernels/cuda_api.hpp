// Plain C++ view of the CUDA runtime for host/ code: device discovery, device memory and copies.
// Never names cudaStream_t or any CUDA type, so g++ compiles every includer. Implemented in
// kernels/cuda_api.cu; only linked when the build has the CUDA backend (GAEVAL_HAVE_CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

namespace gaeval::cuda {

// Any CUDA failure: the message names file, line, the expression and cudaGetErrorString.
class Error : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A device allocation that does not fit: the message names the bytes asked for and free.
class OutOfMemory : public Error {
  public:
    using Error::Error;
};

struct DeviceInfo {
    bool present = false;  // a usable device exists
    std::string reason;    // why not, when !present
    std::string name;      // e.g. "NVIDIA H100 80GB HBM3"
    int ordinal = 0;
    int multiprocessors = 0;
    int compute_major = 0, compute_minor = 0;
    std::size_t total_memory = 0, free_memory = 0;  // bytes
    int driver_version = 0, runtime_version = 0;    // e.g. 13000
    double memory_bandwidth_gbs = 0;                // theoretical, from clock and bus width
};

// Device 0's properties. Never throws: any error from cudaGetDeviceCount (machines with nvcc
// and no driver answer cudaErrorInsufficientDriver) means "no GPU", with the reason kept.
DeviceInfo query_device();

// With several devices, makes device (local_rank mod count) the current one of this process
// (islands over MPI: one GPU per rank on a machine); returns the ordinal made current, or -1
// when there is no device or only one (nothing changed). Never throws.
int select_device_for_rank(int local_rank);

// The block of every launch whose shape is chosen per kernel (kernels/launch_config.hpp), from
// now on in this process: 0 restores the choice, a multiple of 32 from 32 to 1024 forces that
// block as GAEVAL_CUDA_BLOCK does (which sets it at the first launch). For tests and benches that
// check that no result depends on the block; never changes a launch in flight.
void force_block(int block);

// Device memory (cudaMalloc, never managed memory). Synchronous copies on the default stream.
void* device_malloc(std::size_t bytes);
void device_free(void* p) noexcept;
void copy_to_device(void* dst, const void* src, std::size_t bytes);
void copy_to_host(void* dst, const void* src, std::size_t bytes);
void copy_on_device(void* dst, const void* src, std::size_t bytes);
void device_memset(void* p, int value, std::size_t bytes);
void synchronize();
std::size_t free_device_memory();

// Where `p` points, by cudaPointerGetAttributes: memory of the current device (cudaMalloc'd, or
// managed memory), or anything else (host memory, another device's, an unknown address). Clears
// the error an unknown address leaves. Arrays handed in by CuPy or PyTorch are checked with it.
enum class PointerKind { CurrentDevice, Managed, OtherDevice, Host };
PointerKind pointer_kind(const void* p);
// Waits until the work queued on `stream` (a cudaStream_t as an integer; 0 or the legacy and
// per-thread default handles 1 and 2: the default stream) has finished.
void stream_synchronize(std::uintptr_t stream);

// Device time, by CUDA events, of the work the calling host thread issues between
// device_timing_begin() and device_timing_end(): kernels (every launch of kernels/launch.cuh and
// the library sorts, scans and reductions of perft and ranking) and host<->device copies, summed
// apart (copies that overlap kernels count in both). Events are recorded only while timing is on;
// device_timing_end() waits for the last of them. `gaeval bench` times its cuda rows this way.
struct DeviceTimes {
    double kernel_seconds = 0;
    double transfer_seconds = 0;
    int kernels = 0;    // timed kernel sections
    int transfers = 0;  // timed copies
};
void device_timing_begin();
DeviceTimes device_timing_end();

enum class TimedWork { Kernel, Transfer };

// While timing is on, records an event on `stream` (a cudaStream_t; null: the default stream)
// when made and another when destroyed, and counts the time between as `work`. Does nothing
// when timing is off. Never throws from the destructor (a failed record drops the section).
class TimedSection {
  public:
    TimedSection(TimedWork work, void* stream);
    ~TimedSection();
    TimedSection(const TimedSection&) = delete;
    TimedSection& operator=(const TimedSection&) = delete;

  private:
    int slot_ = -1;
    void* stream_ = nullptr;
};

// A CUDA stream (opaque to host code); kernels and copies issued on it run in order.
class Stream {
  public:
    Stream();
    ~Stream();
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    void* handle() const { return stream_; }  // cudaStream_t
    void synchronize() const;

  private:
    void* stream_ = nullptr;
};

// Page-locked host memory (cudaMallocHost) so that copies overlap kernels; OutOfMemory (naming
// the bytes) when the host cannot pin that much.
void* host_pinned_malloc(std::size_t bytes);
void host_pinned_free(void* p) noexcept;

// Asynchronous 1-D copies of `bytes` bytes on a stream (returns before the copy ends; pinned
// host memory lets it overlap kernels). The chunked population copies one gene row per call
// (host/pile_in/chunk_copies.hpp): no pitch, so no limit from the driver's maximum pitch.
void copy_to_device_async(void* dst, const void* src, std::size_t bytes, const Stream& stream);
void copy_to_host_async(void* dst, const void* src, std::size_t bytes, const Stream& stream);

// Where an owning array's memory comes from.
struct DeviceMemory {
    static void* allocate(std::size_t bytes) { return device_malloc(bytes); }
    static void release(void* p) noexcept { device_free(p); }
};
struct PinnedHostMemory {
    static void* allocate(std::size_t bytes) { return host_pinned_malloc(bytes); }
    static void release(void* p) noexcept { host_pinned_free(p); }
};

// Owning array of n trivially copyable T in the memory of `Memory`; move-only.
template <class T, class Memory>
class OwnedArray {
  public:
    OwnedArray() = default;
    explicit OwnedArray(std::size_t n) : n_(n) {
        if (n) data_ = static_cast<T*>(Memory::allocate(n * sizeof(T)));
    }
    ~OwnedArray() { Memory::release(data_); }
    OwnedArray(const OwnedArray&) = delete;
    OwnedArray& operator=(const OwnedArray&) = delete;
    OwnedArray(OwnedArray&& o) noexcept
        : data_(std::exchange(o.data_, nullptr)), n_(std::exchange(o.n_, 0)) {}
    OwnedArray& operator=(OwnedArray&& o) noexcept {
        if (this != &o) {
            Memory::release(data_);
            data_ = std::exchange(o.data_, nullptr);
            n_ = std::exchange(o.n_, 0);
        }
        return *this;
    }
    T* data() { return data_; }
    const T* data() const { return data_; }
    std::size_t size() const { return n_; }
    std::size_t bytes() const { return n_ * sizeof(T); }

  private:
    T* data_ = nullptr;
    std::size_t n_ = 0;
};

// Page-locked host memory (copies overlap kernels); elements readable on the host.
template <class T>
class PinnedArray : public OwnedArray<T, PinnedHostMemory> {
  public:
    using OwnedArray<T, PinnedHostMemory>::OwnedArray;
    T& operator[](std::size_t i) { return this->data()[i]; }
    const T& operator[](std::size_t i) const { return this->data()[i]; }
};

// Device memory, with synchronous copies from and to the host.
template <class T>
class DeviceArray : public OwnedArray<T, DeviceMemory> {
  public:
    using OwnedArray<T, DeviceMemory>::OwnedArray;
    void upload(const T* src, std::size_t n, std::size_t offset = 0) {
        copy_to_device(this->data() + offset, src, n * sizeof(T));
    }
    void download(T* dst, std::size_t n, std::size_t offset = 0) const {
        copy_to_host(dst, this->data() + offset, n * sizeof(T));
    }
};

}  // namespace gaeval::cuda
