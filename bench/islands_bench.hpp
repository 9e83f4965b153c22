// Islands in `gaeval bench --what islands` (opt-in: not in the default set, so the default
// signature is unchanged): pile-in generations of one population of N plans against two islands
// of N/2 plans each in one process (in-process transport, migration of the best 10 after every
// generation), on each backend of the axes, side by side.
#pragma once

#include "bench/workloads.hpp"

namespace gaeval::bench {

// Rows "islands pile-in" with sizes "islands=1 pop=N" and "islands=2 pop=2xN/2" (plans/s over
// 4 generations, 20 models by default); folds each run's best fitness bits into *signature.
Workload islands_workload();

// `gaeval bench --what islands-learn` (opt-in): rows "islands learn generation", one generation
// of N islands (--population, default 16) of 24 Ataxx members (learn's default scheme,
// round-robin:2), "one call" (the islands' games gathered, issue 30) and "a call per island";
// folds the gathered runs' best weights into *signature.
Workload islands_learn_workload();

}  // namespace gaeval::bench
