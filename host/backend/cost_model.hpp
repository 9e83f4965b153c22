// `--backend auto` for batches of games, by cost: which backend the bench measured faster for a
// batch of this game and size (issue 30). A small tournament of one-ply players runs one game a
// GPU thread, so its time on the GPU is the length of its longest game, while the CPU's time
// grows with the number of games: below some size the CPU wins. The model's constants are the
// bench's own rows (`gaeval bench --what tournament --backend cpu,cuda`, the default modern
// tournament), with the machine and date they were measured on.
#pragma once

#include <cstdint>
#include <string>

#include "host/backend/backend.hpp"

namespace gaeval {

// Measured costs of one game's tournament batches on one machine.
struct GameBatchCosts {
    const char* game;               // registered game name
    double cpu_games_per_thread_s;  // cpu row: games/s divided by its threads
    double gpu_latency_s;           // a small batch on the GPU (552 games: one game a thread)
    double gpu_games_per_s;         // a large batch on the GPU (65280 games)
    const char* measured;           // where: device, date, commit
};

// The measured costs of `game`, or nullptr when the bench has none.
const GameBatchCosts* game_batch_costs(const std::string& game);

struct BatchEstimate {
    double cpu_s = 0, gpu_s = 0;  // estimated seconds of one batch on each backend
};

// cpu: games / (threads' rate), threads capped at games; gpu: the longer of the small-batch
// latency and games at the large-batch rate.
BatchEstimate estimate_batch(const GameBatchCosts& costs, uint64_t games, int threads);

// `--backend auto` for a run whose calls are batches of `games` games of `game` (one backend call:
// a learn generation's games, with islands all of a rank's islands' games together,
// islands::learn_islands_games_per_call) played by the default one-ply players (`one_ply`: false
// for searching players, whose costs are not measured). cpu and cuda flags resolve as
// resolve_backend does; auto without a GPU is the cpu. The note names the choice and its reason
// (the two estimates, or why there are none).
BackendChoice resolve_backend_for_games(const std::string& flag, int threads,
                                        const std::string& game, uint64_t games, bool one_ply);

// For a GPU asked for by name (`--backend cuda`): a note with the two estimates where the bench
// measured such a batch faster on `cpu_threads` CPU threads; "" where the GPU is estimated
// faster or the batch has no measured cost (searching players, a game the bench has no row of).
std::string cuda_slower_note(const std::string& game, uint64_t games, bool one_ply,
                             int cpu_threads);

}  // namespace gaeval
