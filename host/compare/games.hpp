// Lockstep comparison of two backends on game jobs: perft divide and learning runs.
#pragma once

#include "host/backend/backend.hpp"
#include "host/compare/difference.hpp"
#include "host/games/session.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval {

// Perft divide on backends a and b: the first root child (in move order) whose subtree count
// differs, then the totals. generation = depth, individual = root child index.
Difference compare_perft(const games::GameSession& session, int depth, const BackendChoice& a,
                         const BackendChoice& b);

// A learn job stepped on backends a and b in lockstep: every game record of every batch
// (generation = the generation, individual = game index in the batch), then every member's
// weights and value after the generation, then the final verification games.
// job_a runs on a and job_b on b (the CLI passes one job twice; same population size).
// A problem job (LearnConfig::problem): every evaluation's fitness bits (generation, genome
// index in the call; field "fitness (evaluation K)"), then every member's genes ("weight J")
// and value; a problem has no verification games.
Difference compare_learn(const learn::LearnJob& job_a, const learn::LearnJob& job_b,
                         const BackendChoice& a, const BackendChoice& b);

}  // namespace gaeval
