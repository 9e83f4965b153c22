// A batch of games between two players on a session, and its totals for player A.
#pragma once

#include <cstdint>
#include <vector>

#include "games/core/match.hpp"
#include "host/games/session.hpp"

namespace gaeval::games {

struct PlayRequest {
    PlayerData a, b;
    uint64_t first = 0;    // the batch's first match index
    uint64_t games = 100;  // matches first .. first+games-1 (A's seat alternates with the index)
    uint64_t seed = 1;
    uint32_t max_plies = 10000;  // a game still running after this many plies is scored as is
};

inline std::vector<GameRecord> play(const GameSession& session, const PlayRequest& r,
                                    const BackendChoice& backend) {
    return session.play(r.a, r.b, r.first, r.games, r.seed, r.max_plies, backend);
}

// Totals of a batch for player A, summed in index order.
struct PlaySummary {
    uint64_t games = 0, wins = 0, draws = 0, losses = 0, stopped = 0, plies = 0;
    double score() const { return games ? (wins + 0.5 * draws) / games : 0.0; }
    PlaySummary& operator+=(const PlaySummary& o) {
        games += o.games, wins += o.wins, draws += o.draws, losses += o.losses;
        stopped += o.stopped, plies += o.plies;
        return *this;
    }
    double mean_plies() const { return games ? static_cast<double>(plies) / games : 0.0; }
    // 95% confidence interval of A's score (wins + draws / 2 per game): the Wilson interval,
    // the one `learn` prints too (never a zero-width 1 - 1 for 1000 wins of 1000).
    void score_interval(double* low, double* high) const;
};
PlaySummary summarize(const std::vector<GameRecord>& records);

}  // namespace gaeval::games
