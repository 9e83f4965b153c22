// The Ataxx one-ply weighted player and policies in per-thread scratch (games/ataxx/game.hpp
// scratch_best_move: the enumeration, the draw address and the best move so far in the scratch;
// features.hpp unit_score and table_features: the features' dot product summed as the counts
// become known) against the copy loop (play_match_seated<G, PlayerSet::Weighted>: best_move over
// features and weighted_score on a copy of the position a move), record for record and move hash
// for move hash, on the 7x7 fast path and on the table boards (1, 2 and 4 words, 2 and 4 player
// slots, both rule sets, 2 to 4 players: table_playouts.hpp WeightedScratch, the child scored from
// the parent and the move a word at a time): weighted players with random weights (signs mixed),
// all-zero weights (every move ties) and weights tied in pairs, against each other, random and
// both policies, every pairing and seat, from the start, from boards with blocked cells and from
// random positions, the scratch filled with garbage first; the fused scores against
// weighted_score over features bit for bit; the batch layer's tournaments, keyed tournaments and
// matches on the cpu (batches of 256 games or more play in scratch) against the copy loop; and
// GPU tests (skipped without a device).
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/lane_search.hpp"
#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "games/core/search.hpp"
#include "gpu_test_support.hpp"
#include "host/backend/backend.hpp"
#include "host/batch/batch.hpp"
#include "kernels/batch_ops.hpp"
#include "scratch_test_support.hpp"

namespace gaeval::ataxx {
namespace {

using G = Square7Game;
using testing::fen_setup;
using testing::Square7Fixture;
using testing::start_with_gaps;
using testing::TableFixture;

template <class Game = G>
Player<Game> weighted(std::mt19937& rng, int form) {
    Player<Game> p;
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
template <class Game = G>
std::vector<Player<Game>> players() {
    std::mt19937 rng(7);
    std::vector<Player<Game>> out(3);
    for (int policy = 1; policy <= 2; ++policy) {
        out[policy].kind = PlayerKind::Policy;
        out[policy].policy = static_cast<uint8_t>(policy);
    }
    for (int form = 0; form < 5; ++form) out.push_back(weighted<Game>(rng, form));
    return out;
}

// Every pairing with a weighted player, `games` games each, each of `seats` seats in turn: the
// scratch form against the copy loop; with kLanes > 0 the lane groups' form in scratch
// (play_match_lanes_in_scratch, every lane in one call: the device's lane kernels) in the
// scratch the cpu gives a lane shape. Returns the plies compared (0 after the first difference).
template <class Game, int kLanes = 0>
uint64_t compare_weighted(const Game& game, const typename Game::Pos& pos, int seats, int games,
                          uint64_t seed, uint32_t max_plies = 400) {
    const std::vector<Player<Game>> all = players<Game>();
    uint64_t plies = 0;
    for (const Player<Game>& a : all)
        for (const Player<Game>& b : all) {
            if (a.kind != PlayerKind::Weighted && b.kind != PlayerKind::Weighted) continue;
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const int seat = static_cast<int>(index % static_cast<uint32_t>(seats));
                const GameRecord plain = play_match_seated<Game, PlayerSet::Weighted>(
                    game, pos, a, b, seat, seed, index, max_plies);
                using ScratchShape = batch_ops::play_scratch_shape_t<Game, PlayerSet::Weighted,
                                                                     (kLanes > 0 ? kLanes : 1)>;
                HostScratch<ScratchShape::scratch_bytes> scratch;
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                GameRecord fast;
                if constexpr (kLanes > 0) {
                    fast = play_match_lanes_in_scratch<Game, kLanes>(Lanes<kLanes>{}, game, pos, a,
                                                                     b, seat, seed, index,
                                                                     max_plies, scratch.slice());
                } else {
                    fast = play_match_in_scratch<Game, PlayerSet::Weighted>(
                        game, pos, a, b, seat, seed, index, max_plies, scratch.slice());
                }
                if (std::memcmp(&plain, &fast, sizeof plain) != 0) {
                    ADD_FAILURE() << kLanes << " lanes, players " << int(a.kind) << int(a.policy)
                                  << "/" << int(b.kind) << int(b.policy) << ", game " << index
                                  << ": plies " << plain.plies << " vs " << fast.plies;
                    return 0;
                }
                plies += plain.plies;
            }
        }
    return plies;
}
uint64_t compare_weighted(const Square7Fixture& f, int games, uint64_t seed) {
    return compare_weighted(f.game, f.pos, 2, games, seed);
}

// A table board's scratch form against the copy loop from its start with gaps and from
// `random_positions` random positions of the same board (pieces of every player, some blocked
// cells). Returns the plies compared.
template <int W, int P, int kLanes = 0>
uint64_t compare_table(const std::string& board, const std::string& rules, int players, int gap,
                       int games, int random_positions, uint64_t seed, uint32_t max_plies = 300) {
    const GameSetup start = start_with_gaps(board, rules, players, gap);
    uint64_t plies = 0;
    {
        const TableFixture<W, P> f(start);
        plies += compare_weighted<Game<TableGeometry<W>, P>, kLanes>(f.game, f.pos, players, games,
                                                                     seed, max_plies);
    }
    std::mt19937 rng(static_cast<uint32_t>(seed));
    for (int k = 0; k < random_positions && plies > 0; ++k) {
        const TableFixture<W, P> f(testing::random_setup(rng, start.shape, start.rules, players,
                                                         10 + static_cast<int>(rng() % 50), 5));
        const uint64_t compared = compare_weighted<Game<TableGeometry<W>, P>, kLanes>(
            f.game, f.pos, players, 1, seed + k + 1, max_plies);
        if (compared == 0) return 0;
        plies += compared;
    }
    return plies;
}

TEST(AtaxxWeightedScratch, PlaysInScratchOnlyTheWeightedSetOfTheFastPath) {
    EXPECT_TRUE((plays_in_scratch_v<G, PlayerSet::Weighted>));
    EXPECT_FALSE((plays_in_scratch_v<G, PlayerSet::Playout>));  // registers, as before
    EXPECT_FALSE((plays_in_scratch_v<G, PlayerSet::Search>));
    EXPECT_TRUE((plays_in_scratch_v<Table1Game2, PlayerSet::Playout>));
    EXPECT_FALSE(has_searching_move_v<G>);
    EXPECT_FALSE(detail::has_weighted_move<G>::value);  // the lanes and the search as before
}

// The table boards play both sets in scratch, the weighted players in a WeightedScratch: the
// playouts' slice stays the position and the move generator's two masks.
TEST(AtaxxWeightedScratch, TableBoardsPlayTheWeightedSetInTheirWeightedScratch) {
    EXPECT_TRUE((plays_in_scratch_v<Table1Game2, PlayerSet::Weighted>));
    EXPECT_TRUE((plays_in_scratch_v<Table4Game4, PlayerSet::Weighted>));
    EXPECT_TRUE((std::is_same_v<play_scratch_t<Table2Game4, PlayerSet::Weighted>,
                                Table2Game4::WeightedScratch>));
    EXPECT_TRUE((std::is_same_v<play_scratch_t<Table2Game4, PlayerSet::Playout>,
                                Table2Game4::PlayoutScratch>));
    EXPECT_TRUE((std::is_same_v<play_scratch_t<G, PlayerSet::Weighted>, G::PlayoutScratch>));
    EXPECT_EQ(sizeof(Table4Game4::PlayoutScratch), sizeof(Table4Game4::Pos) + 2 * 4 * 8);
    EXPECT_EQ(sizeof(Table2Game2::PlayoutScratch), sizeof(Table2Game2::Pos) + 2 * 2 * 8);
}

TEST(AtaxxWeightedScratch, OneWordTableBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table<1, 2>("square8:7x7", "ataxx", 2, 9, 4, 4, 41)), 10000u);
    EXPECT_GT((compare_table<1, 2>("hex:3", "genetic-game", 2, 0, 4, 4, 42)), 5000u);
    EXPECT_GT((compare_table<1, 4>("hex:3", "genetic-game", 3, 7, 3, 4, 43)), 5000u);
    EXPECT_GT((compare_table<1, 4>("square8:7x7", "genetic-game", 4, 0, 4, 4, 44)), 10000u);
}

TEST(AtaxxWeightedScratch, TwoWordTableBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table<2, 2>("square8:10x10", "ataxx", 2, 11, 2, 3, 45)), 8000u);
    EXPECT_GT((compare_table<2, 4>("hex:5", "genetic-game", 4, 13, 1, 3, 46)), 8000u);
    EXPECT_GT((compare_table<2, 4>("square8:9x9", "ataxx", 2, 0, 2, 3, 47)), 8000u);
}

TEST(AtaxxWeightedScratch, FourWordTableBoardsPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table<4, 2>("square8:15x15", "ataxx", 2, 17, 1, 1, 48, 80)), 5000u);
    EXPECT_GT((compare_table<4, 4>("offset:16x15", "genetic-game", 3, 19, 1, 1, 49, 80)), 5000u);
    EXPECT_GT((compare_table<4, 4>("hex:8", "genetic-game", 4, 0, 1, 1, 50, 80)), 5000u);
}

// The table boards' lane groups in scratch (each lane a WeightedScratch: the device's 4-, 8- and
// 32-lane weighted kernels; 1 and 2 lanes too) against the copy loop, game by game: 1, 2 and 4
// words, 2 and 4 slots, both rule sets, 2 to 4 players, from starts with blocked cells (the
// gaps) and random positions (blocked cells too), every pairing with a weighted player among
// random, both policies and the five weighted players (all-zero weights, ties in pairs, three
// random sets), the scratch filled with garbage first. Returns the plies, the same for every
// lane count.
template <int W, int P>
uint64_t compare_table_lanes(const std::string& board, const std::string& rules, int players,
                             int gap, int random_positions, uint64_t seed, uint32_t max_plies) {
    const uint64_t plies[5] = {
        compare_table<W, P, 1>(board, rules, players, gap, 1, random_positions, seed, max_plies),
        compare_table<W, P, 2>(board, rules, players, gap, 1, random_positions, seed, max_plies),
        compare_table<W, P, 4>(board, rules, players, gap, 1, random_positions, seed, max_plies),
        compare_table<W, P, 8>(board, rules, players, gap, 1, random_positions, seed, max_plies),
        compare_table<W, P, 32>(board, rules, players, gap, 1, random_positions, seed, max_plies)};
    for (uint64_t p : plies) EXPECT_EQ(p, plies[0]) << board;
    return plies[0];
}

TEST(AtaxxWeightedScratch, OneWordTableLanesInScratchPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table_lanes<1, 2>("square8:7x7", "ataxx", 2, 9, 2, 71, 300)), 3000u);
    EXPECT_GT((compare_table_lanes<1, 4>("hex:3", "genetic-game", 3, 7, 2, 72, 300)), 2000u);
}

TEST(AtaxxWeightedScratch, TwoWordTableLanesInScratchPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table_lanes<2, 2>("square8:10x10", "ataxx", 2, 11, 1, 73, 200)), 3000u);
    EXPECT_GT((compare_table_lanes<2, 4>("hex:5", "genetic-game", 4, 13, 1, 74, 200)), 3000u);
}

TEST(AtaxxWeightedScratch, FourWordTableLanesInScratchPlayTheCopyLoopsGames) {
    EXPECT_GT((compare_table_lanes<4, 2>("square8:15x15", "genetic-game", 2, 17, 0, 75, 60)),
              1000u);
    EXPECT_GT((compare_table_lanes<4, 4>("hex:8", "genetic-game", 4, 0, 0, 76, 60)), 1000u);
}

// The shapes a table board's weighted batch runs in: one thread and 4, 8 and 32 lanes a game,
// all in scratch under the playouts' bounds, every one the size of the WeightedScratch that the
// cpu's one-thread form (op(i, scratch)) plays in.
TEST(AtaxxWeightedScratch, TableLaneShapesHaveTheOneThreadFormsScratch) {
    EXPECT_TRUE(lane_one_ply_in_scratch_v<Table1Game2>);
    EXPECT_TRUE(lane_one_ply_in_scratch_v<Table2Game4>);
    EXPECT_TRUE(lane_one_ply_in_scratch_v<Table4Game4>);
    using Game = Table4Game4;
    const std::vector<std::string> shapes =
        ::gaeval::testing::play_shape_names<Game, PlayerSet::Weighted>();
    const std::string bytes = std::to_string(sizeof(Game::WeightedScratch));
    EXPECT_EQ(shapes, (std::vector<std::string>{"1/4/" + bytes, "4/4/" + bytes, "8/4/" + bytes,
                                                "32/4/" + bytes}));
}

// The batch ops' lane form in scratch on a table board (what each lane of the device's 8-lane
// groups runs, every lane in one call, the scratch filled with garbage): matches, a tournament
// and the same games keyed give the copy loop's records; and the cpu backend's small batches
// (fewer than 256 games: a lane shape, which the cpu runs as op(i, scratch) in a buffer of the
// shape's size) give them too.
template <int W, int P>
void expect_table_lane_ops_agree(const std::string& board, const std::string& rules, int seats,
                                 int gap, uint32_t max_plies) {
    using Game = ataxx::Game<TableGeometry<W>, P>;
    const TableFixture<W, P> f(start_with_gaps(board, rules, seats, gap));
    const std::vector<Player<Game>> all = players<Game>();
    const std::vector<Pairing> pairings =
        ::gaeval::testing::all_pairings(static_cast<int>(all.size()), seats);
    ::gaeval::testing::expect_lane_ops_in_scratch_give_serial_records(f.game, f.pos, all, pairings,
                                                                      max_plies, board);
}

TEST(AtaxxWeightedScratch, TableLaneOpsInScratchGiveTheCopyLoopsRecords) {
    expect_table_lane_ops_agree<1, 4>("hex:3", "genetic-game", 3, 7, 200);
    expect_table_lane_ops_agree<2, 2>("square8:10x10", "ataxx", 2, 11, 150);
    expect_table_lane_ops_agree<4, 4>("hex:8", "genetic-game", 3, 0, 60);
}

// The weighted player's score of every child of random table positions, from the scratch (the
// parent and the move a word at a time, the terms summed as the counts are known: the device's
// form, table_features<true>, and the game's child_score_in) against weighted_score over
// features() of the child made by make(), bit for bit.
template <int W, int P>
int compare_table_scores(const std::string& board, RuleSet rules, int seats, uint32_t seed) {
    using Game = ataxx::Game<TableGeometry<W>, P>;
    const std::vector<Player<Game>> all = players<Game>();
    std::mt19937 rng(seed);
    const Shape shape = parse_board_spec(board);
    int compared = 0;
    for (int k = 0; k < 60; ++k) {
        const TableFixture<W, P> f(testing::random_setup(rng, shape, rules, seats,
                                                         static_cast<int>(rng() % 90), k % 3 * 5));
        typename Game::WeightedScratch s;
        std::memset(static_cast<void*>(&s), 0xA5, sizeof s);
        s.pos = f.pos;
        f.game.mover_sets(s.pos, s);
        for (std::size_t w = 3; w < all.size(); ++w)
            f.game.for_each_grow_and_jump(f.pos, [&](Move m) {
                float values[kFeatureCount];
                f.game.features(f.game.make(f.pos, m), f.pos.side, values);
                const float plain = weighted_score<kFeatureCount>(all[w].weights, values);
                const typename Game::ChildWords child{f.game, s.pos, s.empty, m};
                UnitScore score(all[w].weights, f.game.geo.playable().count());
                table_features<true>(f.game.geo, child, s.work,
                                     [&](Feature feature, int n) { score.add(feature, n); });
                const float fused = score.total();
                // And the game's score (on the cpu its features' words in a local).
                const float game_score = f.game.child_score_in(s.pos, m, all[w].weights, s);
                if ((std::memcmp(&plain, &fused, sizeof plain) != 0 ||
                     std::memcmp(&plain, &game_score, sizeof plain) != 0) &&
                    compared >= 0) {
                    ADD_FAILURE() << board << " position " << k << ", weights " << w << ", move "
                                  << m.from << "-" << m.to << ": " << plain << " vs " << fused
                                  << " and " << game_score;
                    compared = -1'000'000;
                }
                ++compared;
            });
    }
    return compared;
}

TEST(AtaxxWeightedScratch, TableScoresAreTheFeaturesDotProduct) {
    EXPECT_GT((compare_table_scores<1, 2>("square8:7x7", RuleSet::Ataxx, 2, 61)), 10000);
    EXPECT_GT((compare_table_scores<1, 4>("hex:3", RuleSet::GeneticGame, 3, 62)), 5000);
    EXPECT_GT((compare_table_scores<2, 2>("square8:10x10", RuleSet::Ataxx, 2, 63)), 10000);
    EXPECT_GT((compare_table_scores<2, 4>("hex:5", RuleSet::GeneticGame, 4, 64)), 10000);
    EXPECT_GT((compare_table_scores<4, 2>("hex:8", RuleSet::GeneticGame, 2, 65)), 10000);
    EXPECT_GT((compare_table_scores<4, 4>("square8:15x15", RuleSet::GeneticGame, 4, 66)), 10000);
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

// The batch layer's three weighted batches on the cpu (384 games and more: the scratch shape)
// against the copy loop, game by game: a tournament of every pairing, the same games keyed
// (three seeds) and as many matches.
template <class Game>
void expect_cpu_batches_agree(const Game& game, const typename Game::Pos& pos, int seats,
                              int copies, uint32_t max_plies) {
    const std::vector<Player<Game>> all = players<Game>();
    const std::vector<Pairing> pairings =
        ::gaeval::testing::all_pairings(static_cast<int>(all.size()), seats, copies);
    std::vector<GameKey> keys;
    std::vector<GameRecord> tournament, keyed, matches;
    for (std::size_t i = 0; i < pairings.size(); ++i) {
        const auto index = static_cast<uint32_t>(i);
        keys.push_back(GameKey{i % 3, index});
        tournament.push_back(play_pairing<Game, PlayerSet::Weighted>(
            game, pos, all.data(), pairings[i], 31, index, max_plies));
        keyed.push_back(play_pairing<Game, PlayerSet::Weighted>(game, pos, all.data(), pairings[i],
                                                                keys[i].seed, index, max_plies));
        matches.push_back(
            play_match<Game, PlayerSet::Weighted>(game, pos, all[6], all[1], 5, index, max_plies));
    }
    ASSERT_GE(pairings.size(), 384u);
    const BackendChoice cpu = testing::cpu_backend(2);
    using ::gaeval::testing::records_difference;
    EXPECT_EQ(records_difference(
                  tournament, batch::play_pairings(game, pos, all, pairings, 31, max_plies, cpu)),
              "");
    EXPECT_EQ(records_difference(keyed, batch::play_keyed_pairings(game, pos, all, pairings, keys,
                                                                   max_plies, cpu)),
              "");
    EXPECT_EQ(records_difference(matches, batch::play(game, pos, all[6], all[1], 0, pairings.size(),
                                                      5, max_plies, cpu)),
              "");
}

TEST(AtaxxWeightedScratch, BatchesOnTheCpuAreTheCopyLoopsGames) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    expect_cpu_batches_agree(f.game, f.pos, 2, 6, 300);
}

TEST(AtaxxWeightedScratch, TableBatchesOnTheCpuAreTheCopyLoopsGames) {
    const TableFixture<2, 2> ten(start_with_gaps("square8:10x10", "ataxx", 2, 11));
    expect_cpu_batches_agree(ten.game, ten.pos, 2, 3, 150);
    const TableFixture<4, 4> hex(start_with_gaps("hex:8", "genetic-game", 3, 0));
    expect_cpu_batches_agree(hex.game, hex.pos, 3, 2, 100);
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

TEST(AtaxxWeightedScratchGpu, DeviceTableWeightedPlayInSharedScratchIsTheCpusGames) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    // Every pairing of the eight players 100 times (thousands of games: the one-thread scratch
    // kernel), 40 times and twice (the lane shapes), on a board of each size class.
    const int many = ::gaeval::testing::gpu_test_size(100, 2);
    const TableFixture<1, 4> hex3(start_with_gaps("hex:3", "genetic-game", 4, 7));
    const TableFixture<2, 2> ten(start_with_gaps("square8:10x10", "ataxx", 2, 11));
    const TableFixture<4, 4> hex8(start_with_gaps("hex:8", "genetic-game", 3, 0));
    for (int copies : {many, 40, 2}) {
        ::gaeval::testing::expect_device_playouts_are_the_cpus(
            hex3.game, hex3.pos, players<Table1Game4>(), 4, copies, 300, 6, 1);
        ::gaeval::testing::expect_device_playouts_are_the_cpus(
            ten.game, ten.pos, players<Table2Game2>(), 2, copies, 300, 6, 1);
        ::gaeval::testing::expect_device_playouts_are_the_cpus(
            hex8.game, hex8.pos, players<Table4Game4>(), 3, copies, 200, 6, 1);
    }
}

}  // namespace
}  // namespace gaeval::ataxx
