// One Pac-Man match played on the host, turn by turn: the per-thread players (random, greedy)
// choose through choose_move with the batch layer's draw addresses, so a match played here is
// the batch's match bit for bit; the searching bots (coevo, single) see an observation and run
// their generations as batches on the backend. Optionally logs every turn for --record.
#pragma once

#include <cstdint>
#include <vector>

#include "games/core/match.hpp"
#include "games/pac/game.hpp"
#include "host/backend/backend.hpp"
#include "host/games/session.hpp"
#include "host/pac/bot.hpp"

namespace gaeval::pac {

// Policy numbers of the host-side players (policy 1 is the game's greedy).
constexpr int kCoevoPolicy = 2;
constexpr int kSinglePolicy = 3;

// Whether a player searches on the host (coevo or single).
inline bool is_bot(const games::PlayerData& p) {
    return p.kind == PlayerKind::Policy && (p.policy == kCoevoPolicy || p.policy == kSinglePolicy);
}

// The state after one turn (the first entry: the start).
struct TurnLog {
    int turn = 0;
    int score[2] = {0, 0};
    Pac pacs[2][kMaxPacs];
    std::vector<int> eaten;  // pellet cells eaten in the turn (super pellets included)
};

struct MatchLog {
    std::vector<TurnLog> turns;
};

// Match `index` between A (in seat a_seat) and B from `start`, draws keyed by `seed`; the bots
// use `bots` (coevolution set per player) and `backend`.
GameRecord play_host_match(const Game& game, const Pos& start, const games::PlayerData& a,
                           const games::PlayerData& b, int a_seat, uint64_t seed, uint32_t index,
                           uint32_t max_plies, const BotSettings& bots,
                           const BackendChoice& backend, MatchLog* log = nullptr);

}  // namespace gaeval::pac
