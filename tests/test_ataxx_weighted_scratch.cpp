// The 7x7 Ataxx one-ply weighted player and policies in per-thread scratch (games/ataxx/game.hpp
// scratch_best_move: the enumeration, the draw address and the best move so far in the scratch;
// features.hpp unit_score: the features' dot product summed as the counts become known) against
// the copy loop (play_match_seated<G, PlayerSet::Weighted>: best_move over features and
// weighted_score on a copy of the position a move), record for record and move hash for move
// hash: weighted players with random weights (signs mixed), all-zero weights (every move ties)
// and weights tied in pairs, against each other, random and both policies, every pairing and
// seat, from the start, from a board with blocked cells and from random positions, the scratch
// filled with garbage first; unit_score against weighted_score over features bit for bit; the
// batch layer's tournaments, keyed tournaments and matches on the cpu (batches of 256 games or
// more play in scratch) against the copy loop; and a GPU test (skipped without a device).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "games/core/search.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"
#include "scratch_test_support.hpp"

namespace gaeval::ataxx {
namespace {

using G = Square7Game;
using testing::fen_setup;
using testing::Square7Fixture;

Player<G> weighted(std::mt19937& rng, int form) {
    Player<G> p;
    p.kind = PlayerKind::Weighted;
    std::uniform_real_distribution<float> w(-1.0f, 1.0f);
    for (int i = 0; i < kFeatureCount; ++i) {
        if (form == 0) p.weights[i] = 0.0f;                           // every move ties
        if (form == 1) p.weights[i] = static_cast<float>(i / 2) - 3;  // tied in pairs
        if (form >= 2) p.weights[i] = w(rng);
    }
    return p;
}

// Random, capture, most-pieces and five weighted players.
std::vector<Player<G>> players() {
    std::mt19937 rng(7);
    std::vector<Player<G>> out(3);
    for (int policy = 1; policy <= 2; ++policy) {
        out[policy].kind = PlayerKind::Policy;
        out[policy].policy = static_cast<uint8_t>(policy);
    }
    for (int form = 0; form < 5; ++form) out.push_back(weighted(rng, form));
    return out;
}

// Every pairing with a weighted player, `games` games each, each seat in turn: the scratch form
// against the copy loop. Returns the plies compared (0 after the first difference).
uint64_t compare_weighted(const Square7Fixture& f, int games, uint64_t seed) {
    const std::vector<Player<G>> all = players();
    uint64_t plies = 0;
    for (const Player<G>& a : all)
        for (const Player<G>& b : all) {
            if (a.kind != PlayerKind::Weighted && b.kind != PlayerKind::Weighted) continue;
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const int seat = static_cast<int>(index % 2);
                const GameRecord plain = play_match_seated<G, PlayerSet::Weighted>(
                    f.game, f.pos, a, b, seat, seed, index, 400);
                HostScratch<sizeof(G::PlayoutScratch)> scratch;
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                const GameRecord fast = play_match_in_scratch<G, PlayerSet::Weighted>(
                    f.game, f.pos, a, b, seat, seed, index, 400, scratch.slice());
                if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                    ADD_FAILURE() << "players " << int(a.kind) << int(a.policy) << "/"
                                  << int(b.kind) << int(b.policy) << ", game " << index
                                  << ": plies " << plain.plies << " vs " << fast.plies;
                    return 0;
                }
                plies += plain.plies;
            }
        }
    return plies;
}

TEST(AtaxxWeightedScratch, PlaysInScratchOnlyTheWeightedSetOfTheFastPath) {
    EXPECT_TRUE((plays_in_scratch_v<G, PlayerSet::Weighted>));
    EXPECT_FALSE((plays_in_scratch_v<G, PlayerSet::Playout>));  // registers, as before
    EXPECT_FALSE((plays_in_scratch_v<G, PlayerSet::Search>));
    EXPECT_FALSE((plays_in_scratch_v<Table1Game2, PlayerSet::Weighted>));
    EXPECT_TRUE((plays_in_scratch_v<Table1Game2, PlayerSet::Playout>));
    EXPECT_FALSE(has_searching_move_v<G>);
    EXPECT_FALSE(detail::has_weighted_move<G>::value);  // the lanes and the search as before
}

TEST(AtaxxWeightedScratch, SevenBySevenPlaysTheCopyLoopsGames) {
    EXPECT_GT(compare_weighted(Square7Fixture(fen_setup("x5o/7/7/7/7/7/o5x x 0 1")), 6, 11),
              10000u);
    EXPECT_GT(compare_weighted(Square7Fixture(fen_setup("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1")), 4, 12),
              5000u);
    std::mt19937 rng(5);
    for (int k = 0; k < 6; ++k)
        EXPECT_GT(compare_weighted(
                      Square7Fixture(testing::random_setup(rng, Shape{}, RuleSet::Ataxx, 2, 30, 4)),
                      2, 13 + k),
                  100u);
}

TEST(AtaxxWeightedScratch, UnitScoreIsTheFeaturesDotProduct) {
    std::mt19937 rng(3);
    const std::vector<Player<G>> all = players();
    int compared = 0;
    for (int k = 0; k < 400; ++k) {
        const Square7Fixture f(testing::random_setup(rng, Shape{}, RuleSet::Ataxx, 2,
                                                     static_cast<int>(rng() % 90), k % 3 * 5));
        for (std::size_t w = 3; w < all.size(); ++w)
            for (int seat = 0; seat < 2; ++seat) {
                float values[kFeatureCount];
                f.game.features(f.pos, seat, values);
                const float plain = weighted_score<kFeatureCount>(all[w].weights, values);
                const float fused = unit_score(f.game.geo, f.pos.of(seat),
                                               f.game.opponents(f.pos, seat), all[w].weights);
                ASSERT_EQ(std::memcmp(&plain, &fused, sizeof plain), 0)
                    << "position " << k << ", weights " << w << ", seat " << seat;
                ++compared;
            }
    }
    EXPECT_EQ(compared, 400 * 5 * 2);
}

// The batch layer's three weighted batches on the cpu (384 games: the scratch shape) against the
// copy loop, game by game: a tournament of every pairing, the same games keyed (three seeds) and
// as many matches.
TEST(AtaxxWeightedScratch, BatchesOnTheCpuAreTheCopyLoopsGames) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player<G>> all = players();
    const std::vector<Pairing> pairings =
        ::gaeval::testing::all_pairings(static_cast<int>(all.size()), 2, 3);
    std::vector<GameKey> keys;
    std::vector<GameRecord> tournament, keyed, matches;
    const uint32_t max_plies = 300;
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        const auto index = static_cast<uint32_t>(i);
        keys.push_back(GameKey{i % 3, index});
        tournament.push_back(play_pairing<G, PlayerSet::Weighted>(
            f.game, f.pos, all.data(), pairings[i], 31, index, max_plies));
        keyed.push_back(play_pairing<G, PlayerSet::Weighted>(f.game, f.pos, all.data(), pairings[i],
                                                             keys[i].seed, index, max_plies));
        matches.push_back(
            play_match<G, PlayerSet::Weighted>(f.game, f.pos, all[6], all[1], 5, index, max_plies));
    }
    const BackendChoice cpu = testing::cpu_backend(2);
    using ::gaeval::testing::records_difference;
    EXPECT_EQ(records_difference(tournament, batch::play_pairings(f.game, f.pos, all, pairings, 31,
                                                                  max_plies, cpu)),
              "");
    EXPECT_EQ(records_difference(keyed, batch::play_keyed_pairings(f.game, f.pos, all, pairings,
                                                                   keys, max_plies, cpu)),
              "");
    EXPECT_EQ(records_difference(matches, batch::play(f.game, f.pos, all[6], all[1], 0,
                                                      pairings.size(), 5, max_plies, cpu)),
              "");
}

TEST(AtaxxWeightedScratchGpu, DeviceWeightedPlayInSharedScratchIsTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    // 38400 games (one thread a game in the scratch kernel on a GPU of up to 150
    // multiprocessors: batch_ops one_ply_lanes), 5120 (8 lanes) and 256 (32 lanes).
    for (int copies : {::gaeval::testing::gpu_test_size(300, 2), 40, 2})
        ::gaeval::testing::expect_device_playouts_are_the_cpus(f.game, f.pos, players(), 2, copies,
                                                               300, 6, 1);
}

}  // namespace
}  // namespace gaeval::ataxx
