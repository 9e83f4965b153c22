// Pile-in fitness throughput for `gaeval bench`: evaluations per second of the GAPI1 fitness
// and of the rules-accurate fitness (aos4 without and with path checking, the O(n^2) one),
// for each population x unit size x backend of the axes, with each rules row's cost relative
// to GAPI1 on the same backend and size. Only evaluate() is timed (plans random, made once).
#pragma once

#include <cstdint>
#include <vector>

#include "bench/workloads.hpp"
#include "games/pile_in/rules.hpp"
#include "games/pile_in/scenario.hpp"

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

// The workload ("rules-pile-in"): populations 1e3..1e6, units of 10, 20 and 40 models.
Workload rules_pile_in_workload();

}  // namespace gaeval::bench
