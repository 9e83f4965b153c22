// Learning tests' common run: a learn configuration stepped on the cpu over a game session, then
// its best member against a built-in player.
#pragma once

#include <string>
#include <vector>

#include "host/backend/backend.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/learn/learn.hpp"

namespace gaeval::learn::testing {

struct LearnedAgainst {
    LearnState state;            // after c.generations steps
    games::PlaySummary summary;  // its best member (A) against the built-in
};

// Steps c (validated here) for c.generations generations on the cpu, then plays `games` games
// (draws keyed by `seed`, at most `max_plies` plies) of the best member against `opponent`.
inline LearnedAgainst learn_then_play(const games::GameSession& session, LearnConfig c,
                                      const std::string& opponent, uint64_t games, uint64_t seed,
                                      uint32_t max_plies) {
    validate(c);
    const BackendChoice backend = resolve_backend("cpu", 0);
    const PlayFn play = [&](const std::vector<games::PlayerData>& players,
                            const std::vector<Pairing>& pairings, uint64_t s) {
        return session.play_pairings(players, pairings, s, c.max_plies, backend);
    };
    LearnedAgainst out{initial_state(c), {}};
    for (uint32_t g = 0; g < c.generations; ++g) step(c, out.state, play);
    games::PlayRequest request;
    request.a = player_of(c, out.state.best_weights.data());
    games::builtin_player(opponent, session.info(), &request.b);
    request.games = games;
    request.seed = seed;
    request.max_plies = max_plies;
    out.summary = games::summarize(games::play(session, request, backend));
    return out;
}

}  // namespace gaeval::learn::testing
