// Lockstep comparison of a pile-in job on two backends: initial genes, then per generation
// fitness, ranking, statistics and the next generation's genes, bit for bit.
#pragma once

#include "host/backend/backend.hpp"
#include "host/compare/difference.hpp"
#include "host/pile_in/run.hpp"

namespace gaeval {

// Runs job_a on backend a and job_b on backend b in lockstep (the CLI passes one job twice).
// The jobs must have the same scenario size and population.
Difference compare_pile_in(const pile_in::PileInJob& job_a, const pile_in::PileInJob& job_b,
                           const BackendChoice& a, const BackendChoice& b);

}  // namespace gaeval
