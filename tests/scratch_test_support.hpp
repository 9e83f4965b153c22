// Shared by the per-thread scratch tests (tests/test_scratch.cpp, test_ataxx_scratch.cpp,
// test_gomoku_scratch.cpp, test_pac_scratch.cpp): every pairing of a player list, and the
// device's scratch playouts against the CPU's.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "games/core/match.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"

namespace gaeval::testing {

// Every (a, b, seat) of `players` players and `seats` seats, `copies` times over.
inline std::vector<Pairing> all_pairings(int players, int seats, int copies = 1) {
    std::vector<Pairing> pairings;
    for (int copy = 0; copy < copies; ++copy)
        for (int a = 0; a < players; ++a)
            for (int b = 0; b < players; ++b)
                for (int seat = 0; seat < seats; ++seat)
                    pairings.push_back(Pairing{static_cast<uint32_t>(a), static_cast<uint32_t>(b),
                                               static_cast<uint8_t>(seat)});
    return pairings;
}

// The device's playouts against the CPU's, record for record (move hashes included): a
// tournament of `copies` times every pairing of `players` over `seats` seats, the same games
// keyed (three seeds), and as many matches of players[a] against players[b].
template <class G>
void expect_device_playouts_are_the_cpus(const G& game, const typename G::Pos& start,
                                         const std::vector<Player<G>>& players, int seats,
                                         int copies, int max_plies, int a, int b) {
    const std::vector<Pairing> pairings =
        all_pairings(static_cast<int>(players.size()), seats, copies);
    std::vector<GameKey> keys;
    const std::size_t per_copy = pairings.size() / static_cast<std::size_t>(copies);
    for (std::size_t i = 0; i < pairings.size(); ++i)
        keys.push_back(GameKey{(i / per_copy) % 3, static_cast<uint32_t>(i)});
    const BackendChoice cpu = resolve_backend("cpu", 0), gpu = resolve_backend("cuda", 0);
    EXPECT_EQ(records_difference(
                  batch::play_pairings(game, start, players, pairings, 91, max_plies, cpu),
                  batch::play_pairings(game, start, players, pairings, 91, max_plies, gpu)),
              "");
    EXPECT_EQ(records_difference(
                  batch::play_keyed_pairings(game, start, players, pairings, keys, max_plies, cpu),
                  batch::play_keyed_pairings(game, start, players, pairings, keys, max_plies, gpu)),
              "");
    const uint64_t games = pairings.size();
    EXPECT_EQ(records_difference(
                  batch::play(game, start, players[a], players[b], 0, games, 5, max_plies, cpu),
                  batch::play(game, start, players[a], players[b], 0, games, 5, max_plies, gpu)),
              "");
}

}  // namespace gaeval::testing
