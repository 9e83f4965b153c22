// Grid games on either backend with one API: perft and batches of matches. The cpu backend runs
// the games/grid functions over OpenMP threads, the cuda backend the same functions in kernels
// (kernels/grid_kernels.hpp); both give the same bits for the same inputs.
#pragma once

#include <cstdint>
#include <vector>

#include "games/grid/playout.hpp"
#include "games/grid/setup.hpp"
#include "host/backend/backend.hpp"

namespace gaeval::grid {

// Which engine serves a setup: the 7x7 fast path when it applies, else the table geometry of
// the smallest size class; `generic` forces the table geometry (to check one against the other).
struct EngineChoice {
    bool generic = false;
};

// Human-readable name of the variant a setup runs on ("square7 fast path", "table W=2 P=4").
std::string variant_name(const GameSetup& setup, EngineChoice engine = {});

// Leaf count of the move tree of `setup` to `depth` (>= 0). Synchronous; exact on any backend.
uint64_t perft(const GameSetup& setup, int depth, const BackendChoice& backend,
               EngineChoice engine = {});

// Perft of each child of the root, in move order (a forced pass is one child; none when the game
// is over): the subtree counts sum to perft(setup, depth). depth >= 1.
std::vector<uint64_t> perft_divide(const GameSetup& setup, int depth, const BackendChoice& backend,
                                   EngineChoice engine = {});

struct PlayRequest {
    Player a, b;
    uint64_t games = 100;  // matches 0 .. games-1 (A's seat alternates with the index)
    uint64_t seed = 1;
    uint32_t max_plies = 10000;  // a game still running after this many plies is scored as is
};

// Plays every match of the request from `start`; records[i] is match i. Synchronous.
std::vector<GameRecord> play_batch(const GameSetup& start, const PlayRequest& request,
                                   const BackendChoice& backend, EngineChoice engine = {});

// A tournament batch: records[i] = play_pairing(start, players, pairings[i], seed, i, max_plies),
// game i of the batch (its draws keyed by seed and i). Synchronous; every index of a pairing
// must name a player (std::invalid_argument otherwise).
std::vector<GameRecord> play_pairings(const GameSetup& start, const std::vector<Player>& players,
                                      const std::vector<Pairing>& pairings, uint64_t seed,
                                      uint32_t max_plies, const BackendChoice& backend,
                                      EngineChoice engine = {});

// Totals of a batch for player A, summed in index order.
struct PlaySummary {
    uint64_t games = 0, wins = 0, draws = 0, losses = 0, stopped = 0, plies = 0;
    double score() const { return games ? (wins + 0.5 * draws) / games : 0.0; }
    double mean_plies() const { return games ? static_cast<double>(plies) / games : 0.0; }
    // 95% confidence interval of A's score (wins + draws / 2 per game): normal approximation
    // with the sample variance of the per-game scores 1, 1/2, 0, clipped to [0, 1].
    void score_interval(double* low, double* high) const;
};
PlaySummary summarize(const std::vector<GameRecord>& records);

}  // namespace gaeval::grid
