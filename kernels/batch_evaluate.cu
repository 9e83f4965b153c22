// Evaluate-a-population batches on the device (host/batch/batch.hpp: evaluate): the executor's
// launch of kernels/batch_ops.hpp's EvaluateOp, one thread an index (in per-thread scratch for an
// op with a Scratch type: evaluate_shape), for every op of
// GAEVAL_FOR_EACH_BATCH_OP (games/registry.hpp).
#include "games/registry.hpp"
#include "kernels/batch_ops.hpp"
#include "kernels/executor.cuh"

namespace gaeval::cuda {

#define GAEVAL_INSTANTIATE_EVALUATE(Op)                                               \
    template void launch<batch_ops::evaluate_shape_t<Op>, batch_ops::EvaluateOp<Op>>( \
        uint64_t, uint64_t, const batch_ops::EvaluateOp<Op>&);
GAEVAL_FOR_EACH_BATCH_OP(GAEVAL_INSTANTIATE_EVALUATE)
#undef GAEVAL_INSTANTIATE_EVALUATE

}  // namespace gaeval::cuda
