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

}  // namespace gaeval::cuda
