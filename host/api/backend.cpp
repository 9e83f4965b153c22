// Backend handles of the public API over host/backend/backend.hpp's BackendChoice.
#include <cstring>
#include <string>

#include "host/api/impl.hpp"
#include "host/core/error.hpp"
#include "kernels/cuda_api.hpp"

namespace gaeval {

std::string version() { return GAEVAL_VERSION; }

namespace {
Backend::Impl resolved(const std::string& flag, int threads) {
    return Backend::Impl{resolve_backend(flag, threads < 0 ? 0 : threads)};
}
}  // namespace

Backend Backend::cpu(int threads) {
    return Backend(std::make_shared<const Impl>(resolved("cpu", threads)));
}

Backend Backend::cuda(int device) {
    if (device < 0) throw InputError("cuda device " + std::to_string(device) + ": must be >= 0");
    std::string reason;
    if (!cuda_device_present(&reason)) throw InputError("--backend cuda: " + reason);
    if (device > 0 && select_local_device(device) != device)
        throw InputError("cuda device " + std::to_string(device) +
                         ": no such device (ordinals start at 0)");
    return Backend(std::make_shared<const Impl>(resolved("cuda", 0)));
}

Backend Backend::automatic(int threads) {
    return Backend(std::make_shared<const Impl>(resolved("auto", threads)));
}

Backend Backend::from_name(const std::string& name, int threads) {
    if (threads < 0)
        throw InputError("--threads: must be >= 1 (or 0 for all cores), got " +
                         std::to_string(threads));
    return Backend(std::make_shared<const Impl>(resolved(name, threads)));
}

bool Backend::cuda_compiled() { return gaeval::cuda_compiled(); }
bool Backend::cuda_available(std::string* reason) { return cuda_device_present(reason); }

std::string Backend::name() const { return impl_->choice.name; }
std::string Backend::device() const { return impl_->choice.device; }
std::string Backend::note() const { return impl_->choice.note; }
int Backend::threads() const { return is_cuda() ? 0 : impl_->choice.threads; }
bool Backend::is_cuda() const { return impl_->choice.name == "cuda"; }

struct DeviceBuffer::Impl {
#if GAEVAL_HAVE_CUDA
    cuda::DeviceArray<unsigned char> memory;
#endif
    std::size_t bytes = 0;
};

DeviceBuffer::DeviceBuffer(const Backend& backend, std::size_t bytes) {
    if (!backend.is_cuda())
        throw InputError("device memory needs the cuda backend, this one is " + backend.name());
    impl_ = std::make_shared<Impl>();
#if GAEVAL_HAVE_CUDA
    impl_->memory = cuda::DeviceArray<unsigned char>(bytes);
#endif
    impl_->bytes = bytes;
}

void* DeviceBuffer::data() const {
#if GAEVAL_HAVE_CUDA
    return impl_->memory.data();
#else
    return nullptr;
#endif
}

std::size_t DeviceBuffer::bytes() const { return impl_->bytes; }

namespace {
void check_copy(std::size_t bytes, std::size_t have, const char* what) {
    if (bytes > have)
        throw InputError(std::string("DeviceBuffer::") + what + ": " + std::to_string(bytes) +
                         " bytes, the buffer holds " + std::to_string(have));
}
}  // namespace

void DeviceBuffer::upload(const void* host, std::size_t bytes) {
    check_copy(bytes, impl_->bytes, "upload");
#if GAEVAL_HAVE_CUDA
    if (bytes) cuda::copy_to_device(impl_->memory.data(), host, bytes);
#else
    (void)host;
#endif
}

void DeviceBuffer::download(void* host, std::size_t bytes) const {
    check_copy(bytes, impl_->bytes, "download");
#if GAEVAL_HAVE_CUDA
    if (bytes) cuda::copy_to_host(host, impl_->memory.data(), bytes);
#else
    (void)host;
#endif
}

void require_device_memory(const void* p, const std::string& what) {
#if GAEVAL_HAVE_CUDA
    switch (cuda::pointer_kind(p)) {
        case cuda::PointerKind::CurrentDevice:
        case cuda::PointerKind::Managed:
            return;
        case cuda::PointerKind::OtherDevice:
            throw InputError(what + ": memory of another CUDA device than the backend's");
        case cuda::PointerKind::Host:
            throw InputError(what +
                             ": host memory, not the cuda device's (pass a NumPy array to "
                             "evaluate_gapi1, or copy it to the device first)");
    }
#else
    (void)p;
    throw InputError(what + ": this gaeval was built without the CUDA backend");
#endif
}

}  // namespace gaeval
