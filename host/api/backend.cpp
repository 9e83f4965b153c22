// Backend handles of the public API over host/backend/backend.hpp's BackendChoice.
#include <string>

#include "host/api/impl.hpp"
#include "host/core/error.hpp"

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

}  // namespace gaeval
