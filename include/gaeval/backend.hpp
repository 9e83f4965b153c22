// A backend handle of the public API: where gaeval evaluates (the CPU's cores on OpenMP threads,
// or a CUDA device). Cheap to copy; every call that takes one runs there and returns when done.
//
//   gaeval::Backend cpu = gaeval::Backend::cpu(4);      // 4 threads (0: every core)
//   gaeval::Backend gpu = gaeval::Backend::cuda();      // InputError without a device
//   gaeval::Backend any = gaeval::Backend::automatic(); // cuda when a device exists, else cpu
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace gaeval {

// The library's version ("0.1.0").
std::string version();

class Backend {
  public:
    // The CPU backend with `threads` OpenMP threads (<= 0: all cores).
    static Backend cpu(int threads = 0);
    // The CUDA backend on device `device` (an ordinal of cudaGetDeviceCount; chosen for the
    // whole process before its first CUDA call); InputError naming the reason when this build
    // has no CUDA backend or no device is usable.
    static Backend cuda(int device = 0);
    // cuda when a device is usable, else cpu with `threads` threads; note() says why.
    static Backend automatic(int threads = 0);
    // From a CLI flag value: "cpu", "cuda" or "auto" (InputError otherwise).
    static Backend from_name(const std::string& name, int threads = 0);

    // True when this library was built with the CUDA backend; whether a device is usable (and
    // if not, why in *reason).
    static bool cuda_compiled();
    static bool cuda_available(std::string* reason = nullptr);

    std::string name() const;    // "cpu" or "cuda"
    std::string device() const;  // the CPU model and thread count, or the GPU's name
    std::string note() const;    // why automatic() picked what it picked ("" otherwise)
    int threads() const;         // cpu threads (resolved, >= 1); 0 on cuda
    bool is_cuda() const;

    struct Impl;
    const Impl& impl() const { return *impl_; }

  private:
    explicit Backend(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
    std::shared_ptr<const Impl> impl_;
};

// Memory on a cuda backend's device (cudaMalloc), freed with the last copy of the handle: arrays
// that stay on the GPU between calls (evaluate_gapi1_device), and what the Python module hands to
// CuPy or PyTorch. InputError on a backend that is not cuda; cuda::OutOfMemory when it does not
// fit. Copies are synchronous; `bytes` of upload/download at most bytes().
class DeviceBuffer {
  public:
    DeviceBuffer(const Backend& backend, std::size_t bytes);
    void* data() const;
    std::size_t bytes() const;
    void upload(const void* host, std::size_t bytes);
    void download(void* host, std::size_t bytes) const;

    struct Impl;

  private:
    std::shared_ptr<Impl> impl_;
};

}  // namespace gaeval
