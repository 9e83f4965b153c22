#include "host/backend/executor.hpp"

#if GAEVAL_HAVE_CUDA
namespace gaeval::cuda {
int multiprocessor_count();  // kernels/cuda_api.cu (declared for kernels in kernels/launch.cuh)
}  // namespace gaeval::cuda
#endif

namespace gaeval {

int device_multiprocessors(const BackendChoice& backend) {
#if GAEVAL_HAVE_CUDA
    if (executor_detail::on_device(backend)) return cuda::multiprocessor_count();
#else
    (void)backend;
#endif
    return 0;
}

}  // namespace gaeval
