#include "kernels/cuda_api.hpp"
#include "kernels/launch.cuh"
#include "kernels/pile_in_kernels.hpp"

namespace gaeval::cuda {

void pile_in_randomize(const pile_in::RandomizePlans& op, uint64_t n) {
    for_each_index(op, n);
    synchronize();
}

void pile_in_evaluate_gapi1(const pile_in::EvaluateGapi1& op, uint64_t n) {
    for_each_index(op, n);
    synchronize();
}

void pile_in_gapi1_step(const pile_in::Gapi1Step& op, uint64_t n) {
    for_each_index(op, n);
    synchronize();
}

void pile_in_randomize_rules(const pile_in::RandomizeRulesPlans& op, uint64_t n) {
    for_each_index(op, n);
    synchronize();
}

void pile_in_evaluate_rules(const pile_in::EvaluateRules& op, uint64_t n) {
    // Smaller blocks: the rules fitness keeps about 2 KB of per-thread state.
    for_each_index(op, n, 0, 128);
    synchronize();
}

void pile_in_rules_step(const pile_in::RulesStep& op, uint64_t n) {
    for_each_index(op, n);
    synchronize();
}

void pile_in_evaluate_gapi1_on(const pile_in::EvaluateGapi1& op, uint64_t n, const Stream& stream) {
    for_each_index(op, n, static_cast<cudaStream_t>(stream.handle()));
}

void pile_in_evaluate_rules_on(const pile_in::EvaluateRules& op, uint64_t n, const Stream& stream) {
    for_each_index(op, n, static_cast<cudaStream_t>(stream.handle()));
}

}  // namespace gaeval::cuda
