// The word schemes' breeding on the device (kernels/breed_ops.hpp): gapi1's op for every problem
// of problems/problems.cmake (a no-op for problems over real genes) and its generation 0, rules'
// op and its generation 0 (pile-in's RandomizeRulesPlans), one thread a member.
#include "generated/problem_list.hpp"
#include "kernels/breed_ops.hpp"
#include "kernels/executor.cuh"

#define GAEVAL_INSTANTIATE_BREEDING(P)                                                      \
    GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::breed_ops::Gapi1WordsOp<P>) \
    GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::breed_ops::Gapi1InitOp<P>)
GAEVAL_FOR_EACH_PROBLEM(GAEVAL_INSTANTIATE_BREEDING)
#undef GAEVAL_INSTANTIATE_BREEDING
GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::breed_ops::BreedRules)
GAEVAL_INSTANTIATE_LAUNCH(::gaeval::TaskShape<1>, ::gaeval::pile_in::RandomizeRulesPlans)
