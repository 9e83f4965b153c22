// The public API's pile-in op on the device (kernels/api_ops.hpp): a plan a thread.
#include "kernels/api_ops.hpp"
#include "kernels/executor.cuh"

GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::api_ops::EvaluateGapi1Plans)
