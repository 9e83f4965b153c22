// Evaluate-a-population batches on the device: one thread computes one index's output.
#include "games/registry.hpp"
#include "kernels/batch.hpp"
#include "kernels/cuda_api.hpp"
#include "kernels/device_game.cuh"
#include "kernels/launch.cuh"

namespace gaeval::cuda {

namespace {

template <class Op>
struct EvaluateIndexOp {
    Op op;
    const typename Op::Input* inputs;
    typename Op::Output* outputs;
    __device__ void operator()(uint64_t i) const { outputs[i] = op(inputs, i); }
};

}  // namespace

template <class Op>
void evaluate(const Op& host_op, const typename Op::Input* inputs, uint64_t input_count, uint64_t n,
              typename Op::Output* outputs) {
    if (n == 0) return;
    DeviceGame<Op> bound(host_op);  // the op's lookup tables, if it has any
    DeviceArray<typename Op::Input> device_inputs(input_count);
    device_inputs.upload(inputs, input_count);
    DeviceArray<typename Op::Output> device_outputs(n);
    for_each_index(EvaluateIndexOp<Op>{bound.game(), device_inputs.data(), device_outputs.data()},
                   n);
    synchronize();
    device_outputs.download(outputs, n);
}

#define GAEVAL_INSTANTIATE_EVALUATE(Op) \
    template void evaluate<Op>(const Op&, const Op::Input*, uint64_t, uint64_t, Op::Output*);
GAEVAL_FOR_EACH_BATCH_OP(GAEVAL_INSTANTIATE_EVALUATE)
#undef GAEVAL_INSTANTIATE_EVALUATE

}  // namespace gaeval::cuda
