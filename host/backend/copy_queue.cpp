#include "host/backend/copy_queue.hpp"

#include <cstring>
#include <stdexcept>

#include "kernels/cuda_api.hpp"

namespace gaeval {

#if GAEVAL_HAVE_CUDA
struct CopyQueue::Device {
    cuda::Stream stream;
};
#else
struct CopyQueue::Device {};
#endif

CopyQueue::CopyQueue() = default;

CopyQueue::CopyQueue(const BackendChoice& backend) {
    if (!memory_apart_from_host(backend)) return;
#if GAEVAL_HAVE_CUDA
    device_ = std::make_unique<Device>();
#else
    executor_detail::no_cuda();
#endif
}

CopyQueue::~CopyQueue() = default;
CopyQueue::CopyQueue(CopyQueue&&) noexcept = default;
CopyQueue& CopyQueue::operator=(CopyQueue&&) noexcept = default;

void CopyQueue::check(std::size_t size, std::size_t offset, std::size_t n) {
    if (offset > size || n > size - offset)
        throw std::logic_error("CopyQueue: a copy past the array's end");
}

void CopyQueue::copy_bytes(void* dst, const void* src, std::size_t bytes, bool to_backend) {
    if (bytes == 0) return;
#if GAEVAL_HAVE_CUDA
    if (device_) {
        if (to_backend)
            cuda::copy_to_device_async(dst, src, bytes, device_->stream);
        else
            cuda::copy_to_host_async(dst, src, bytes, device_->stream);
        return;
    }
#else
    (void)to_backend;
#endif
    std::memcpy(dst, src, bytes);
}

void CopyQueue::wait() {
#if GAEVAL_HAVE_CUDA
    if (device_) device_->stream.synchronize();
#endif
}

}  // namespace gaeval
