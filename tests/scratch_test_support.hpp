// Shared by the per-thread scratch tests (tests/test_scratch.cpp, test_ataxx_scratch.cpp,
// test_gomoku_scratch.cpp, test_pac_scratch.cpp, the lane tests): every pairing of a player
// list, the device's scratch playouts against the CPU's, and the lane ops in scratch against the
// serial player.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "games/core/lanes.hpp"
#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"
#include "kernels/batch_ops.hpp"

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

// The shapes a batch of G with the players of kSet may run in (batch_ops::for_each_play_shape),
// each as "lanes/min_blocks/scratch_bytes".
template <class G, PlayerSet kSet>
std::vector<std::string> play_shape_names() {
    std::vector<std::string> shapes;
    batch_ops::for_each_play_shape<G, kSet>([&](auto shape) {
        using S = decltype(shape);
        shapes.push_back(std::to_string(S::lanes) + "/" + std::to_string(S::min_blocks) + "/" +
                         std::to_string(S::scratch_bytes));
    });
    return shapes;
}

// The one-ply weighted set's three batch ops run as lane groups of 8 in scratch (the device's
// form: each lane a slice of play_scratch_shape_t's size, filled with junk first; the cpu runs
// the lanes as a loop), and the cpu backend's batches of the same games (a lane shape, which the
// cpu runs as op(i, scratch)), against the serial player record for record (move hashes
// included): matches of players[4] against players[1], a tournament of `pairings`, the same
// games keyed (three seeds).
template <class G>
void expect_lane_ops_in_scratch_give_serial_records(const G& game, const typename G::Pos& start,
                                                    const std::vector<Player<G>>& players,
                                                    const std::vector<Pairing>& pairings,
                                                    uint32_t max_plies, const std::string& label) {
    constexpr PlayerSet kSet = PlayerSet::Weighted;
    const uint64_t n = pairings.size();
    std::vector<GameKey> keys(n);
    for (uint64_t i = 0; i < n; ++i) keys[i] = GameKey{900 + i % 3, uint32_t(2 * i + 1)};
    std::vector<GameRecord> serial_matches(n), serial_tournament(n), serial_keyed(n);
    for (uint64_t i = 0; i < n; ++i) {
        serial_matches[i] = play_match<G, kSet>(game, start, players[4], players[1], 61,
                                                uint32_t(10 + i), max_plies);
        serial_tournament[i] = play_pairing<G, kSet>(game, start, players.data(), pairings[i], 62,
                                                     uint32_t(i), max_plies);
        serial_keyed[i] = play_pairing<G, kSet>(game, start, players.data(), pairings[i],
                                                keys[i].seed, keys[i].index, max_plies);
    }
    std::vector<GameRecord> matches(n), tournament(n), keyed(n);
    const batch_ops::PlayMatchOp<G, kSet> match_op{game, start, players[4], players[1],
                                                   61,   10,    max_plies,  matches.data()};
    const batch_ops::PlayPairingOp<G, kSet> pairing_op{
        game, start, players.data(), pairings.data(), 62, 0, max_plies, tournament.data()};
    const batch_ops::PlayKeyedPairingOp<G, kSet> keyed_op{
        game, start, players.data(), pairings.data(), keys.data(), max_plies, keyed.data()};
    using ScratchShape = batch_ops::play_scratch_shape_t<G, kSet, 8>;
    for (uint64_t i = 0; i < n; ++i) {
        HostScratch<ScratchShape::scratch_bytes> scratch;
        std::memset(scratch.bytes, 0x5A, sizeof scratch.bytes);
        match_op(i, Lanes<8>{}, scratch.slice());
        pairing_op(i, Lanes<8>{}, scratch.slice());
        keyed_op(i, Lanes<8>{}, scratch.slice());
    }
    EXPECT_EQ(records_difference(serial_matches, matches), "") << label;
    EXPECT_EQ(records_difference(serial_tournament, tournament), "") << label;
    EXPECT_EQ(records_difference(serial_keyed, keyed), "") << label;
    // The cpu backend: n games get a lane shape, which the cpu runs as op(i, scratch).
    ASSERT_GT((batch_ops::play_lanes<G, kSet>(n, 0)), 1) << label;
    BackendChoice cpu;
    cpu.kind = BackendKind::Cpu;
    cpu.threads = 2;
    cpu.name = "cpu";
    EXPECT_EQ(
        records_difference(serial_tournament, batch::play_pairings(game, start, players, pairings,
                                                                   62, max_plies, cpu)),
        "")
        << label;
    EXPECT_EQ(
        records_difference(serial_keyed, batch::play_keyed_pairings(game, start, players, pairings,
                                                                    keys, max_plies, cpu)),
        "")
        << label;
    EXPECT_EQ(records_difference(serial_matches, batch::play(game, start, players[4], players[1],
                                                             10, n, 61, max_plies, cpu)),
              "")
        << label;
}

}  // namespace gaeval::testing
