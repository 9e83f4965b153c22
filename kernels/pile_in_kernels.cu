#include "kernels/cuda_api.hpp"
#include "kernels/launch.cuh"
#include "kernels/pile_in_kernels.hpp"

namespace gaeval::cuda {

namespace {
// Threads per block: the rules fitness keeps about 2 KB of per-thread state.
template <class Op>
constexpr int kBlock = 256;
template <>
constexpr int kBlock<pile_in::EvaluateRules> = 128;
}  // namespace

template <class Op>
void run_pile_in(const Op& op, uint64_t n) {
    for_each_index(op, n, 0, kBlock<Op>);
    synchronize();
}

template <class Op>
void run_pile_in_on(const Op& op, uint64_t n, const Stream& stream) {
    for_each_index(op, n, static_cast<cudaStream_t>(stream.handle()), kBlock<Op>);
}

template void run_pile_in(const pile_in::RandomizePlans&, uint64_t);
template void run_pile_in(const pile_in::EvaluateGapi1&, uint64_t);
template void run_pile_in(const pile_in::Gapi1Step&, uint64_t);
template void run_pile_in(const pile_in::RandomizeRulesPlans&, uint64_t);
template void run_pile_in(const pile_in::EvaluateRules&, uint64_t);
template void run_pile_in(const pile_in::RulesStep&, uint64_t);
template void run_pile_in_on(const pile_in::EvaluateGapi1&, uint64_t, const Stream&);
template void run_pile_in_on(const pile_in::EvaluateRules&, uint64_t, const Stream&);

}  // namespace gaeval::cuda
