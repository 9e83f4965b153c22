// Launches of the pile-in ops (problems/pile_in: randomize, evaluate, breed) on the device, for
// host/pile_in/cuda_population.cpp. The ops carry device pointers (a rules op also carries its
// RulesProblem by value: about 7 KB of kernel parameters).
#pragma once

#include <cstdint>

#include "kernels/cuda_api.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/gapi1_scheme.hpp"
#include "problems/pile_in/rules_fitness.hpp"
#include "problems/pile_in/rules_scheme.hpp"

namespace gaeval::cuda {

// op(i) for i < n on the default stream, then a synchronization (so that host timings split
// the phases honestly). Instantiated for RandomizePlans, EvaluateGapi1, Gapi1Step,
// RandomizeRulesPlans, EvaluateRules and RulesStep.
template <class Op>
void run_pile_in(const Op& op, uint64_t n);

// op(i) for i < n on `stream`, asynchronous (the chunked population alternates two streams so
// that copies overlap kernels). Instantiated for EvaluateGapi1 and EvaluateRules.
template <class Op>
void run_pile_in_on(const Op& op, uint64_t n, const Stream& stream);

}  // namespace gaeval::cuda
