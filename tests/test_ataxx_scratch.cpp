// The table-geometry Ataxx boards' playouts in per-thread scratch (games/ataxx/table_playouts.hpp:
// the position in the scratch, moves made in place, moves generated a word at a time) against
// the copy loop (play_match_seated: rules.hpp's enumeration on a copy of the position a move),
// record for record and move hash for move hash: every variant (1, 2 and 4 words; 2 and 4 player
// slots), both rule sets, 2 to 4 players, boards with blocked cells, random and both policies in
// every pairing, the scratch filled with garbage first; the batch layer's tournaments, keyed
// tournaments and matches on the cpu (which play in scratch) against the copy loop; and a GPU test
// (skipped without a device) that plays the same batches on the device against the cpu.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"

namespace gaeval::ataxx {
namespace {

using testing::start_with_gaps;
using testing::TableFixture;

template <class G>
std::vector<Player<G>> playout_players() {
    std::vector<Player<G>> players(3);
    for (int policy = 1; policy <= 2; ++policy) {
        players[policy].kind = PlayerKind::Policy;
        players[policy].policy = static_cast<uint8_t>(policy);
    }
    return players;
}

// Games finished by their rules (not the ply cap) in the last compare_playouts.
uint64_t finished_games = 0;

// Every pair of playout players, `games` games each, each seat in turn: the scratch form against
// the copy loop. Returns the plies compared (0 after the first difference, which it reports).
template <int W, int P>
uint64_t compare_playouts(const GameSetup& setup, int games, uint32_t max_plies, uint64_t seed) {
    finished_games = 0;
    using G = Game<TableGeometry<W>, P>;
    const TableFixture<W, P> f(setup);
    const std::vector<Player<G>> players = playout_players<G>();
    uint64_t plies = 0;
    for (const Player<G>& a : players)
        for (const Player<G>& b : players)
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const int seat = static_cast<int>(index % setup.players);
                const GameRecord plain = play_match_seated<G, PlayerSet::Playout>(
                    f.game, f.pos, a, b, seat, seed, index, max_plies);
                HostScratch<sizeof(typename G::PlayoutScratch)> scratch;
                // Garbage in the slice first: the scratch form must write before it reads.
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                const GameRecord fast = play_match_in_scratch<G, PlayerSet::Playout>(
                    f.game, f.pos, a, b, seat, seed, index, max_plies, scratch.slice());
                if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                    ADD_FAILURE() << W << " words, " << P << " slots, players " << int(a.kind)
                                  << int(a.policy) << "/" << int(b.kind) << int(b.policy)
                                  << ", game " << index << ": plies " << plain.plies << " vs "
                                  << fast.plies;
                    return 0;
                }
                plies += plain.plies;
                finished_games += plain.stopped ? 0 : 1;
            }
    return plies;
}

TEST(AtaxxScratch, OneWordBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_playouts<1, 2>(start_with_gaps("square8:7x7", "ataxx", 2, 9), 24, 400, 3)),
              10000u);
    EXPECT_GT((compare_playouts<1, 2>(start_with_gaps("hex:3", "genetic-game", 2, 0), 24, 400, 4)),
              7500u);
    EXPECT_GT((compare_playouts<1, 4>(start_with_gaps("hex:3", "genetic-game", 3, 7), 24, 400, 5)),
              9000u);
    EXPECT_GT(
        (compare_playouts<1, 4>(start_with_gaps("square8:7x7", "genetic-game", 4, 0), 24, 400, 6)),
        17000u);
}

TEST(AtaxxScratch, TwoWordBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT(
        (compare_playouts<2, 2>(start_with_gaps("square8:10x10", "ataxx", 2, 11), 12, 600, 7)),
        13000u);
    EXPECT_GT((compare_playouts<2, 2>(start_with_gaps("hex:5", "genetic-game", 2, 0), 12, 600, 8)),
              11500u);
    EXPECT_GT((compare_playouts<2, 4>(start_with_gaps("hex:5", "genetic-game", 4, 13), 12, 600, 9)),
              16000u);
    EXPECT_GT((compare_playouts<2, 4>(start_with_gaps("square8:9x9", "ataxx", 2, 0), 12, 600, 10)),
              11000u);
}

TEST(AtaxxScratch, FourWordBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT(
        (compare_playouts<4, 2>(start_with_gaps("square8:15x15", "ataxx", 2, 17), 3, 500, 11)),
        6000u);
    EXPECT_GT((compare_playouts<4, 2>(start_with_gaps("hex:8", "genetic-game", 2, 0), 3, 500, 12)),
              6000u);
    EXPECT_GT((compare_playouts<4, 4>(start_with_gaps("offset:16x15", "genetic-game", 3, 19), 3,
                                      500, 13)),
              9000u);
    EXPECT_GT((compare_playouts<4, 4>(start_with_gaps("hex:8", "genetic-game", 4, 0), 3, 500, 14)),
              9000u);
}

// Games played to their end by the rules (small boards, a high cap): every game of the copy loop
// finishes, and the scratch form's record (winner, result, plies, move hash) is the same.
TEST(AtaxxScratch, FinishedGamesAgree) {
    EXPECT_GT((compare_playouts<1, 2>(start_with_gaps("square8:5x5", "ataxx", 2, 4), 80, 5000, 21)),
              11500u);
    EXPECT_EQ(finished_games, 720u);
    EXPECT_GT((compare_playouts<1, 4>(start_with_gaps("square8:5x5", "genetic-game", 3, 5), 80,
                                      5000, 22)),
              9000u);
    EXPECT_EQ(finished_games, 720u);
    EXPECT_GT((compare_playouts<2, 2>(start_with_gaps("square8:9x8", "genetic-game", 2, 3), 10,
                                      5000, 23)),
              6500u);
    EXPECT_EQ(finished_games, 90u);
}

// A tournament of every pairing (each seat), copied `copies` times with keys of three seeds.
struct Schedule {
    std::vector<Pairing> pairings;
    std::vector<GameKey> keys;
};
Schedule schedule(int players, int seats, int copies) {
    Schedule s;
    for (int copy = 0; copy < copies; ++copy)
        for (int a = 0; a < players; ++a)
            for (int b = 0; b < players; ++b)
                for (int seat = 0; seat < seats; ++seat) {
                    s.pairings.push_back(Pairing{static_cast<uint32_t>(a), static_cast<uint32_t>(b),
                                                 static_cast<uint8_t>(seat)});
                    s.keys.push_back(GameKey{static_cast<uint64_t>(copy % 3),
                                             static_cast<uint32_t>(s.keys.size())});
                }
    return s;
}

// The batch layer's three playout batches of a board on `backend` against `reference` (the copy
// loop when reference is null), game by game.
template <int W, int P>
void expect_batches_agree(const GameSetup& setup, int copies, uint32_t max_plies,
                          const BackendChoice& backend, const BackendChoice* reference) {
    using G = Game<TableGeometry<W>, P>;
    const TableFixture<W, P> f(setup);
    const std::vector<Player<G>> players = playout_players<G>();
    const Schedule s = schedule(static_cast<int>(players.size()), setup.players, copies);
    const auto plain = [&](auto&& play_one) {
        std::vector<GameRecord> records;
        for (std::size_t i = 0; i < s.pairings.size(); ++i) records.push_back(play_one(i));
        return records;
    };
    const auto tournament = [&](const BackendChoice& on) {
        return batch::play_pairings(f.game, f.pos, players, s.pairings, 31, max_plies, on);
    };
    const auto keyed = [&](const BackendChoice& on) {
        return batch::play_keyed_pairings(f.game, f.pos, players, s.pairings, s.keys, max_plies,
                                          on);
    };
    const uint64_t games = s.pairings.size();
    const auto matches = [&](const BackendChoice& on) {
        return batch::play(f.game, f.pos, players[1], players[0], 0, games, 5, max_plies, on);
    };
    using ::gaeval::testing::records_difference;
    if (reference) {
        EXPECT_EQ(records_difference(tournament(*reference), tournament(backend)), "");
        EXPECT_EQ(records_difference(keyed(*reference), keyed(backend)), "");
        EXPECT_EQ(records_difference(matches(*reference), matches(backend)), "");
        return;
    }
    EXPECT_EQ(records_difference(plain([&](std::size_t i) {
                                     return play_pairing<G, PlayerSet::Playout>(
                                         f.game, f.pos, players.data(), s.pairings[i], 31,
                                         static_cast<uint32_t>(i), max_plies);
                                 }),
                                 tournament(backend)),
              "");
    EXPECT_EQ(records_difference(plain([&](std::size_t i) {
                                     return play_pairing<G, PlayerSet::Playout>(
                                         f.game, f.pos, players.data(), s.pairings[i],
                                         s.keys[i].seed, s.keys[i].index, max_plies);
                                 }),
                                 keyed(backend)),
              "");
    EXPECT_EQ(records_difference(plain([&](std::size_t i) {
                                     return play_match<G, PlayerSet::Playout>(
                                         f.game, f.pos, players[1], players[0], 5,
                                         static_cast<uint32_t>(i), max_plies);
                                 }),
                                 matches(backend)),
              "");
}

TEST(AtaxxScratch, BatchPlayoutsOnTheCpuAreTheCopyLoopsGames) {
    const BackendChoice cpu = testing::cpu_backend(2);
    expect_batches_agree<2, 2>(start_with_gaps("square8:10x10", "ataxx", 2, 11), 2, 300, cpu,
                               nullptr);
    expect_batches_agree<4, 4>(start_with_gaps("hex:8", "genetic-game", 3, 0), 1, 200, cpu,
                               nullptr);
}

TEST(AtaxxScratchGpu, DevicePlayoutsInSharedScratchAreTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const BackendChoice cpu = testing::cpu_backend(0), gpu = resolve_backend("cuda", 0);
    const int copies = ::gaeval::testing::gpu_test_size(120, 2);  // thousands of games: many blocks
    expect_batches_agree<1, 4>(start_with_gaps("hex:3", "genetic-game", 4, 7), copies, 600, gpu,
                               &cpu);
    expect_batches_agree<2, 2>(start_with_gaps("square8:10x10", "ataxx", 2, 11), copies, 600, gpu,
                               &cpu);
    expect_batches_agree<2, 4>(start_with_gaps("hex:5", "genetic-game", 3, 0), copies, 600, gpu,
                               &cpu);
    expect_batches_agree<4, 2>(start_with_gaps("square8:15x15", "ataxx", 2, 17), copies, 400, gpu,
                               &cpu);
    expect_batches_agree<4, 4>(start_with_gaps("offset:16x15", "genetic-game", 4, 0), copies, 400,
                               gpu, &cpu);
}

}  // namespace
}  // namespace gaeval::ataxx
