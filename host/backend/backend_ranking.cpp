#include "host/backend/backend_ranking.hpp"

#include <stdexcept>

#include "host/backend/cpu_ranking.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/ranking.hpp"
#endif

namespace gaeval {

#if GAEVAL_HAVE_CUDA
struct BackendRanker::Device {
    cuda::Ranker ranker;
};
#else
struct BackendRanker::Device {};
#endif

namespace {

bool on_device(const BackendChoice& backend) { return backend.kind == BackendKind::Cuda; }

[[noreturn]] void no_cuda() {
    throw std::logic_error("this gaeval was built without the CUDA backend");
}

}  // namespace

BackendRanker::BackendRanker(const BackendChoice& backend) : backend_(backend) {
    if (!on_device(backend_)) return;
#if GAEVAL_HAVE_CUDA
    device_ = std::make_unique<Device>();
#else
    no_cuda();
#endif
}

BackendRanker::~BackendRanker() = default;
BackendRanker::BackendRanker(BackendRanker&&) noexcept = default;
BackendRanker& BackendRanker::operator=(BackendRanker&&) noexcept = default;

void BackendRanker::rank(const float* fitness, uint32_t* ranked, uint64_t n) {
    if (n == 0) return;
#if GAEVAL_HAVE_CUDA
    if (device_) return device_->ranker.rank(fitness, ranked, n);
#endif
    rank_descending(fitness, ranked, n, backend_.threads, packed_);
}

int64_t BackendRanker::fixed_point_sum(const float* values, uint64_t n) {
#if GAEVAL_HAVE_CUDA
    if (device_) return device_->ranker.fixed_point_sum(values, n);
#endif
    return gaeval::fixed_point_sum(values, n, backend_.threads);
}

uint64_t BackendRanker::workspace_bytes(const BackendChoice& backend, uint64_t n) {
    if (!on_device(backend)) return n * sizeof(uint64_t);
#if GAEVAL_HAVE_CUDA
    return cuda::Ranker::workspace_bytes(n);
#else
    no_cuda();
#endif
}

}  // namespace gaeval
