// The problems' evaluation on the device (kernels/problem_ops.hpp): one launch instantiation per
// problem of problems/problems.cmake, one thread a genome; and the rewriting op of a problem whose
// scoring rewrites genomes (repair constraints; a no-op placeholder for the others); the
// narrowing of a float fitness widened to double, once.
#include "generated/problem_list.hpp"
#include "kernels/executor.cuh"
#include "kernels/problem_ops.hpp"

#define GAEVAL_INSTANTIATE_PROBLEM(P)                                                       \
    GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::problem_ops::EvaluateOp<P>) \
    GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::problem_ops::RewritingOp<P>)
GAEVAL_FOR_EACH_PROBLEM(GAEVAL_INSTANTIATE_PROBLEM)
GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::problem_ops::NarrowFitness)
