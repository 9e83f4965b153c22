// Pile-in fitness throughput for `gaeval bench`: evaluations per second of the GAPI1 fitness
// and of the rules-accurate fitness (aos4 without and with path checking, the O(n^2) one),
// for each population x unit size x backend of the axes, with each rules row's cost relative
// to GAPI1 on the same backend and size. Only evaluate() is timed (plans random, made once).
#pragma once

#include <cstdint>
#include <vector>

#include "bench/workloads.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::bench {

// The benchmark's problem for a unit of `models`: two ranks of 32 mm bases, the front rank
// 1" from an enemy line of as many 32 mm bases plus one oval in every five (exact oval
// geometry is part of the cost); reach 1/2".
pile_in::Scenario pile_in_bench_scenario(int models);

// That scenario under aos4 (path checking on or off).
pile_in::RulesProblem pile_in_bench_rules(int models, bool path_check);

// Rows "pile-in gapi1", "pile-in aos4", "pile-in aos4+paths" for every (population, models,
// backend) of the axes; rules rows note their cost in GAPI1 evaluations. Rows whose sample
// would take over 20 x settings.max_seconds (estimated from a pilot) are reported as skipped.
// Folds the fitness bits of each (fitness, size) once into *signature.
void pile_in_fitness_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);

// The workload ("rules-pile-in"): by default 1e4 plans of 20 models (--population and
// --models widen it, e.g. 1e3..1e6 and 10, 20, 40).
Workload rules_pile_in_workload();

// Rows "pile-in gapi1 generation": one GAPI1 generation (evaluate, rank, breed) per sample for
// every (population, models, backend), with the phase split, the bytes per plan and the
// footprint; the axes' cuda_extra_populations run on cuda alone. Folds generation 0 and 1 of a
// fixed 1000-plan population (checked on every backend) into *signature.
void pile_in_generation_rows(const Axes& axes, std::vector<Row>& rows, uint64_t* signature);

// The workload ("pile-in"): 1e4 and 1e5 plans of 20 models; on cuda also 1e6, 1e7, 1e8.
Workload pile_in_workload();
// Opt-in (--what streamed): resident and streamed pile-in populations side by side.
Workload streamed_workload();

}  // namespace gaeval::bench
