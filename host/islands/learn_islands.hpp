// `gaeval learn --islands N`: the learn schemes (host/learn/learn.hpp) as islands, on a game or
// on a problem (LearnConfig::problem: `gaeval learn --problem NAME --islands N`). Island i
// is the job's configuration with seed island_seed(seed, i), a whole population of its own;
// its step() plays and breeds a generation, so migration follows the breeding: emigrants are
// the members of highest value (the scheme's fitness or estimated value after the step: the
// elites for modern, lifetime values for genetic-game), immigrants replace the members of
// lowest value and carry their value with them.
//
// Run folder: run.json (the learn manifest plus "islands"), islands.csv, migrations.csv,
// weights.json (the best of all islands by the scheme's best value), verification.csv (that
// player against the game's built-in players, job.verify_games each), checkpoint.json and one
// checkpoint part per rank. On a problem: best.json (the best genome of all islands and its
// fitness) instead of weights.json and verification.csv; islands.csv and migrations.csv hold
// values (higher is better: -fitness for a minimised problem), generations.csv the fitness.
#pragma once

#include <memory>

#include "host/islands/archipelago.hpp"
#include "host/learn/learn_run.hpp"

namespace gaeval::islands {

struct LearnIslandsResult {
    ArchipelagoResult archipelago;
    std::vector<float> best_weights;   // the exported player's genome weights
    std::vector<uint32_t> best_words;  // a setup's problem (word genomes): the best genome
    std::vector<learn::VerifyRow> verification;
    uint64_t games = 0;  // played by all islands, this invocation
};

// Fingerprint of a learn job with islands (the learn fingerprint, the generations, the
// islands configuration): a checkpoint only resumes the same run.
uint64_t learn_islands_fingerprint(const learn::LearnJob& job, const IslandConfig& islands);

// How a rank plays its islands' games each generation: gathered into one backend call (a
// round of calls for schemes whose step plays twice; host/learn/gathered_play.hpp), or one
// call per island and batch as each island steps in turn (the tests' second path: both give the
// same bits).
enum class IslandPlay { Gathered, PerIsland };

// The learn GA's island hooks over `job` (what run_learn_islands runs; `job` must outlive
// it), for tests that watch migration through them.
std::unique_ptr<IslandGa> make_learn_island_ga(const learn::LearnJob& job,
                                               IslandPlay how = IslandPlay::Gathered);

// Runs (or resumes, job.resume) the job as islands over `transport`; every rank calls it with
// the same job. Bad input (an occupied folder, a checkpoint of another run or rank count) is
// an InputError on every rank before anything is written.
LearnIslandsResult run_learn_islands(const learn::LearnJob& job, const IslandConfig& islands,
                                     Transport& transport, IslandPlay how = IslandPlay::Gathered);

// Games one rank plays in a generation's gathered call: the scheme's games of a generation
// (learn::games_per_generation) times the most islands a rank owns. `--backend auto` sizes the
// batch by it (host/backend/cost_model.hpp).
uint64_t learn_islands_games_per_call(const learn::LearnConfig& config, const IslandConfig& islands,
                                      int ranks);

}  // namespace gaeval::islands
