// Launch wrappers for pile-in populations (device pointers inside the ops; default stream;
// each wrapper synchronizes so that host timings split the phases honestly).
#pragma once

#include <cstdint>

#include "games/pile_in/gapi1_fitness.hpp"
#include "games/pile_in/gapi1_scheme.hpp"
#include "games/pile_in/rules_fitness.hpp"
#include "games/pile_in/rules_scheme.hpp"
#include "kernels/cuda_api.hpp"

namespace gaeval::cuda {

void pile_in_randomize(const pile_in::RandomizePlans& op, uint64_t n);
void pile_in_evaluate_gapi1(const pile_in::EvaluateGapi1& op, uint64_t n);
void pile_in_gapi1_step(const pile_in::Gapi1Step& op, uint64_t n);

// Rules presets: the ops carry the RulesProblem by value (about 7 KB of kernel parameters).
void pile_in_randomize_rules(const pile_in::RandomizeRulesPlans& op, uint64_t n);
void pile_in_evaluate_rules(const pile_in::EvaluateRules& op, uint64_t n);
void pile_in_rules_step(const pile_in::RulesStep& op, uint64_t n);

// Asynchronous evaluation of one chunk on a stream (no synchronization; the chunked population
// of plans held in host memory alternates two streams so copies overlap kernels).
void pile_in_evaluate_gapi1_on(const pile_in::EvaluateGapi1& op, uint64_t n, const Stream& stream);
void pile_in_evaluate_rules_on(const pile_in::EvaluateRules& op, uint64_t n, const Stream& stream);

}  // namespace gaeval::cuda
