// The one-ply weighted player over a lane group (games/core/lane_one_ply.hpp) against the serial
// player (one_ply_weighted_move over best_move, games/core/players.hpp): the same move in
// positions of real games, with coarse weights that make many ties (which best_move's reservoir
// draws break), on the Ataxx fast path, table boards, three seats and tic-tac-toe, with 1, 2, 4,
// 8 and 32 lanes; and whole tournament batches with the lanes give the serial records, move
// hashes included; 7x7 Ataxx's lanes in scratch (play_match_lanes_in_scratch, the device's 7x7
// lane kernels) and its fused child_score against the serial player and score. The CPU runs the
// lanes as a loop: the code the GPU's lane groups run. The CUDA test plays tournaments of the
// sizes that get each lane count on the device against the CPU backend.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/connect4/connect4.hpp"
#include "games/core/lane_one_ply.hpp"
#include "games/core/lane_search.hpp"
#include "games/core/match.hpp"
#include "games/core/scratch.hpp"
#include "games/tictactoe/tictactoe.hpp"
#include "gpu_test_support.hpp"
#include "host/batch/batch.hpp"
#include "kernels/batch_ops.hpp"
#include "scratch_test_support.hpp"
#if GAEVAL_HAVE_CUDA
#include "kernels/cuda_api.hpp"
#endif

namespace gaeval {
namespace {

std::vector<float> one_ply_test_weights(std::mt19937& rng, int n, bool coarse) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> w(n);
    for (float& x : w) x = coarse ? static_cast<float>(static_cast<int>(rng() % 5) - 2) : u(rng);
    return w;
}

// Whether at least two moves of p tie for the highest one-ply score (the draws decide there).
template <class G>
bool best_score_is_tied(const G& game, const typename G::Pos& p, const float* weights) {
    const int us = game.to_move(p);
    std::vector<float> scores;
    game.for_each_move(p, [&](const typename G::Move& m) {
        float values[G::kFeatureCount];
        game.features(game.make(p, m), us, values);
        scores.push_back(weighted_score<G::kFeatureCount>(weights, values));
    });
    float best = scores[0];
    for (float s : scores) best = s > best ? s : best;
    int at_best = 0;
    for (float s : scores) at_best += s == best;
    return at_best >= 2;
}

template <int L, class G>
void compare_move(const G& game, const typename G::Pos& p, const float* weights,
                  const DrawAddress& at, const std::string& what) {
    const typename G::Move serial = one_ply_weighted_move(game, p, weights, at);
    const typename G::Move lanes = lane_one_ply_weighted_move(Lanes<L>{}, game, p, weights, at);
    EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0) << what << ", " << L << " lanes";
}

// Compares every lane count in p (a position with at least two moves, not over); returns
// whether the best score was tied there.
template <class G>
bool compare_all_lane_counts(const G& game, const typename G::Pos& p, const float* weights,
                             uint32_t key, const std::string& what) {
    for (uint32_t ply = 0; ply < 3; ++ply) {
        const DrawAddress at{1000u + key, key, ply};
        compare_move<1>(game, p, weights, at, what);
        compare_move<2>(game, p, weights, at, what);
        compare_move<4>(game, p, weights, at, what);
        compare_move<8>(game, p, weights, at, what);
        compare_move<32>(game, p, weights, at, what);
    }
    return best_score_is_tied(game, p, weights);
}

// Positions along random games from `start` (every third ply), each compared with fresh
// weights; counts the positions compared and those with a tied best score.
template <class G>
void compare_along_random_games(const G& game, const typename G::Pos& start, std::mt19937& rng,
                                int games, const std::string& what, int* compared, int* tied) {
    const Player<G> random{};
    for (int g = 0; g < games; ++g) {
        typename G::Pos p = start;
        for (uint32_t ply = 0; ply < 200 && !game.is_over(p); ++ply) {
            if (ply % 3 == 0 && game.count_moves(p) > 1) {
                const std::vector<float> w = one_ply_test_weights(rng, G::kWeightCount, ply % 2);
                ++*compared;
                *tied += compare_all_lane_counts(
                    game, p, w.data(), ply,
                    what + ", game " + std::to_string(g) + " ply " + std::to_string(ply));
                if (::testing::Test::HasFailure()) return;
            }
            p = game.make(p, choose_move(game, p, random, DrawAddress{17, uint32_t(g), ply}));
        }
    }
}

TEST(OnePlyLanes, SameMoveAsTheSerialPlayerOnAtaxx) {
    std::mt19937 rng(31);
    int compared = 0, tied = 0;
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    compare_along_random_games(f.game, f.pos, rng, 4, "square7", &compared, &tied);
    const ataxx::testing::TableFixture<1, 2> hex(
        ataxx::testing::fen_setup("startpos", "hex:3", "ataxx", 2));
    compare_along_random_games(hex.game, hex.pos, rng, 3, "hex:3", &compared, &tied);
    const ataxx::GameSetup three = ataxx::testing::random_setup(
        rng, ataxx::parse_board_spec("square8:5x5"), ataxx::RuleSet::GeneticGame, 3, 20, 0);
    const ataxx::testing::TableFixture<1, 4> f3(three);
    compare_along_random_games(f3.game, f3.pos, rng, 4, "3 players", &compared, &tied);
    EXPECT_GT(compared, 80);
    EXPECT_GT(tied, 30);  // the reservoir draws decide often
}

TEST(OnePlyLanes, SameMoveAsTheSerialPlayerOnTicTacToe) {
    const tictactoe::Game game;
    std::mt19937 rng(32);
    int compared = 0, tied = 0;
    compare_along_random_games(game, game.start(), rng, 60, "tictactoe", &compared, &tied);
    // Zero weights: every move ties, the reservoir over all of them.
    const std::vector<float> zero(tictactoe::Game::kFeatureCount, 0.0f);
    for (uint32_t key = 0; key < 40; ++key)
        tied += compare_all_lane_counts(game, game.start(), zero.data(), key, "zero weights");
    EXPECT_GT(compared, 100);
    EXPECT_GT(tied, 60);
}

// The comparison can fail: the move of best_of's order (value, then the lowest draw, then the
// index), which a lane group gets without the replay, is not best_move's in positions with
// ties, nor is a replay that reads the lanes of a round in the wrong order.
TEST(OnePlyLanes, TheComparisonSeesOtherTieBreaks) {
    const tictactoe::Game game;
    const std::vector<float> zero(tictactoe::Game::kFeatureCount, 0.0f);
    int differ_lowest_draw = 0, differ_reversed = 0;
    for (uint32_t key = 0; key < 50; ++key) {
        const DrawAddress at{77, key, 1};
        const int serial = one_ply_weighted_move(game, game.start(), zero.data(), at).cell;
        LaneCandidate lowest;
        for (int k = 0; k < game.count_moves(game.start()); ++k) {
            LaneCandidate c;
            c.value = 0.0f;
            c.draw = philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply, uint32_t(k), 0).v[0];
            c.index = k;
            if (lane_better(c, lowest)) lowest = c;
        }
        differ_lowest_draw += game.nth_move(game.start(), lowest.index).cell != serial;
        // The reservoir over the moves in reverse order (a round read from its last lane).
        int reversed = 8;
        for (uint32_t t = 2, k = 7; t <= 9; ++t, --k) {
            const uint32_t r = philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply, k, 0).v[0];
            if (below(r, t) == 0) reversed = int(k);
        }
        differ_reversed += game.nth_move(game.start(), reversed).cell != serial;
    }
    EXPECT_GT(differ_lowest_draw, 15);
    EXPECT_GT(differ_reversed, 30);
}

// A round-robin of `members` players (each pair twice, both seats) as the schedule of a
// tournament batch.
std::vector<Pairing> round_robin(uint32_t members) {
    std::vector<Pairing> pairings;
    for (uint32_t a = 0; a < members; ++a)
        for (uint32_t b = 0; b < members; ++b)
            if (a != b) pairings.push_back(Pairing{a, b, uint8_t((a + b) % 2)});
    return pairings;
}

// One-ply weighted players with random weights (every third coarse), and a capture player when
// the game has policies.
template <class G>
std::vector<Player<G>> one_ply_members(std::mt19937& rng, uint32_t members) {
    std::vector<Player<G>> players(members);
    for (uint32_t i = 0; i < members; ++i) {
        players[i].kind = PlayerKind::Weighted;
        const std::vector<float> w = one_ply_test_weights(rng, G::kWeightCount, i % 3 == 0);
        for (int k = 0; k < G::kWeightCount; ++k) players[i].weights[k] = w[k];
    }
    if (G::kPolicyCount > 0) {
        players.back().kind = PlayerKind::Policy;
        players.back().policy = 1;
    }
    return players;
}

// The tournament with L lanes a game against the serial records (PlayerSet::Weighted, what the
// CPU backend plays); returns the games compared.
template <int L, class G>
int compare_tournament(const G& game, const typename G::Pos& start,
                       const std::vector<Player<G>>& players, const std::vector<Pairing>& pairings,
                       uint32_t max_plies, const std::string& what) {
    for (uint32_t i = 0; i < pairings.size(); ++i) {
        const Pairing& pr = pairings[i];
        const GameRecord serial =
            play_pairing<G, PlayerSet::Weighted>(game, start, players.data(), pr, 41, i, max_plies);
        const GameRecord lanes = play_match_lanes<G, L, PlayerSet::Weighted>(
            Lanes<L>{}, game, start, players[pr.a], players[pr.b], pr.a_seat, 41, i, max_plies);
        EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0)
            << what << ", " << L << " lanes, game " << i << ": plies " << serial.plies << " vs "
            << lanes.plies;
        if (::testing::Test::HasFailure()) return int(i);
    }
    return int(pairings.size());
}

template <class G>
int compare_tournament_all_lane_counts(const G& game, const typename G::Pos& start,
                                       std::mt19937& rng, uint32_t members, uint32_t max_plies,
                                       const std::string& what) {
    const std::vector<Player<G>> players = one_ply_members<G>(rng, members);
    const std::vector<Pairing> pairings = round_robin(members);
    int games = 0;
    games += compare_tournament<1>(game, start, players, pairings, max_plies, what);
    games += compare_tournament<4>(game, start, players, pairings, max_plies, what);
    games += compare_tournament<8>(game, start, players, pairings, max_plies, what);
    games += compare_tournament<32>(game, start, players, pairings, max_plies, what);
    return games;
}

TEST(OnePlyLanes, TournamentRecordsEqualTheSerialOnes) {
    std::mt19937 rng(33);
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    EXPECT_EQ(compare_tournament_all_lane_counts(f.game, f.pos, rng, 5, 400, "square7"), 80);
    const ataxx::testing::TableFixture<1, 2> hex(
        ataxx::testing::fen_setup("startpos", "hex:3", "ataxx", 2));
    EXPECT_EQ(compare_tournament_all_lane_counts(hex.game, hex.pos, rng, 4, 300, "hex:3"), 48);
    const ataxx::testing::TableFixture<1, 4> three(ataxx::testing::random_setup(
        rng, ataxx::parse_board_spec("square8:5x5"), ataxx::RuleSet::GeneticGame, 3, 20, 0));
    EXPECT_EQ(compare_tournament_all_lane_counts(three.game, three.pos, rng, 4, 300, "3 players"),
              48);
    const tictactoe::Game ttt;
    EXPECT_EQ(compare_tournament_all_lane_counts(ttt, ttt.start(), rng, 8, 9, "tictactoe"), 224);
}

// The searching kernels' lane matches (PlayerSet::Search, 8 lanes) move their one-ply players
// with the one-ply lanes now: a tournament of searching and one-ply players, still the serial
// records.
TEST(OnePlyLanes, SearchingLaneMatchesWithOnePlyPlayersStayTheSerialOnes) {
    using G = ataxx::Square7Game;
    std::mt19937 rng(34);
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    std::vector<Player<G>> players = one_ply_members<G>(rng, 4);
    players[0].depth = 2;
    const std::vector<Pairing> pairings = round_robin(4);
    for (uint32_t i = 0; i < pairings.size(); ++i) {
        const Pairing& pr = pairings[i];
        const GameRecord serial =
            play_pairing<G, PlayerSet::Search>(f.game, f.pos, players.data(), pr, 43, i, 120);
        const GameRecord lanes = play_match_lanes<G, 8, PlayerSet::Search>(
            Lanes<8>{}, f.game, f.pos, players[pr.a], players[pr.b], pr.a_seat, 43, i, 120);
        EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0) << "game " << i;
    }
}

// 7x7 Ataxx's lane groups in scratch (play_match_lanes_in_scratch: one playout scratch a lane,
// the position read where it is used, the policies in the scratch, the score fused: the device's
// 4-, 8- and 32-lane weighted kernels) against the serial copy loop (play_match_seated<G,
// PlayerSet::Weighted>), record for record with move hashes, 1, 2, 4, 8 and 32 lanes: every
// pairing with a weighted player among random, capture, most-pieces and five weighted players
// (all-zero weights: every move ties; weights tied in pairs; three random sets), both seats, the
// scratch filled with garbage first. Returns the plies compared (0 after the first difference).
std::vector<Player<ataxx::Square7Game>> square7_lane_players() {
    using G = ataxx::Square7Game;
    std::mt19937 rng(37);
    std::vector<Player<G>> out(3);
    for (int policy = 1; policy <= 2; ++policy) {
        out[policy].kind = PlayerKind::Policy;
        out[policy].policy = static_cast<uint8_t>(policy);
    }
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    for (int form = 0; form < 5; ++form) {
        Player<G> p;
        p.kind = PlayerKind::Weighted;
        for (int i = 0; i < G::kWeightCount; ++i)
            p.weights[i] = form == 0 ? 0.0f : form == 1 ? static_cast<float>(i / 2) - 3 : u(rng);
        out.push_back(p);
    }
    return out;
}

template <int L>
uint64_t compare_square7_lanes_in_scratch(const ataxx::testing::Square7Fixture& f, int games,
                                          uint64_t seed, const std::string& what) {
    using G = ataxx::Square7Game;
    const std::vector<Player<G>> all = square7_lane_players();
    uint64_t plies = 0;
    for (const Player<G>& a : all)
        for (const Player<G>& b : all) {
            if (a.kind != PlayerKind::Weighted && b.kind != PlayerKind::Weighted) continue;
            for (uint32_t index = 0; index < static_cast<uint32_t>(games); ++index) {
                const int seat = static_cast<int>(index % 2);
                const GameRecord serial = play_match_seated<G, PlayerSet::Weighted>(
                    f.game, f.pos, a, b, seat, seed, index, 400);
                HostScratch<sizeof(G::PlayoutScratch)> scratch;
                std::memset(scratch.bytes, 0xA5, sizeof scratch.bytes);
                const GameRecord lanes = play_match_lanes_in_scratch<G, L>(
                    Lanes<L>{}, f.game, f.pos, a, b, seat, seed, index, 400, scratch.slice());
                if (std::memcmp(&serial, &lanes, sizeof serial) != 0) {
                    ADD_FAILURE() << what << ", " << L << " lanes, players " << int(a.kind)
                                  << int(a.policy) << "/" << int(b.kind) << int(b.policy)
                                  << ", game " << index << ": plies " << serial.plies << " vs "
                                  << lanes.plies;
                    return 0;
                }
                plies += serial.plies;
            }
        }
    return plies;
}

uint64_t compare_square7_lanes_in_scratch_all_counts(const ataxx::testing::Square7Fixture& f,
                                                     int games, uint64_t seed,
                                                     const std::string& what) {
    const uint64_t one = compare_square7_lanes_in_scratch<1>(f, games, seed, what);
    const uint64_t plies[4] = {compare_square7_lanes_in_scratch<2>(f, games, seed, what),
                               compare_square7_lanes_in_scratch<4>(f, games, seed, what),
                               compare_square7_lanes_in_scratch<8>(f, games, seed, what),
                               compare_square7_lanes_in_scratch<32>(f, games, seed, what)};
    for (uint64_t p : plies) EXPECT_EQ(p, one) << what;
    return one;
}

TEST(OnePlyLanes, SevenBySevenLanesInScratchPlayTheSerialGames) {
    using ataxx::testing::fen_setup;
    using ataxx::testing::Square7Fixture;
    EXPECT_GT(compare_square7_lanes_in_scratch_all_counts(
                  Square7Fixture(fen_setup("x5o/7/7/7/7/7/o5x x 0 1")), 2, 51, "start"),
              3000u);
    EXPECT_GT(compare_square7_lanes_in_scratch_all_counts(
                  Square7Fixture(fen_setup("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1")), 2, 52, "blocked"),
              3000u);
    std::mt19937 rng(38);
    for (int k = 0; k < 4; ++k)
        EXPECT_GT(compare_square7_lanes_in_scratch_all_counts(
                      Square7Fixture(ataxx::testing::random_setup(rng, Shape{},
                                                                  ataxx::RuleSet::Ataxx, 2, 30, 4)),
                      1, 53 + k, "random position " + std::to_string(k)),
                  50u);
}

// 7x7 Ataxx's child_score (the fused unit_score the lanes use) is the generic score, features
// and weighted_score of the position after the move, bit for bit: every move of positions along
// random games, both seats, random and coarse weights.
TEST(OnePlyLanes, SevenBySevenChildScoreIsTheFeaturesDotProduct) {
    using G = ataxx::Square7Game;
    static_assert(detail::has_child_score<G>::value, "7x7 Ataxx fuses the lanes' score");
    std::mt19937 rng(39);
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const Player<G> random{};
    int compared = 0;
    for (uint32_t g = 0; g < 6; ++g) {
        G::Pos p = f.pos;
        for (uint32_t ply = 0; ply < 300 && !f.game.is_over(p); ++ply) {
            const std::vector<float> w = one_ply_test_weights(rng, G::kWeightCount, ply % 3 == 0);
            for (int seat = 0; seat < 2; ++seat)
                f.game.for_each_move(p, [&](const G::Move& m) {
                    float values[G::kFeatureCount];
                    f.game.features(f.game.make(p, m), seat, values);
                    const float plain = weighted_score<G::kFeatureCount>(w.data(), values);
                    const float fused = child_score(f.game, p, m, seat, w.data());
                    EXPECT_EQ(std::memcmp(&plain, &fused, sizeof plain), 0)
                        << "game " << g << ", ply " << ply << ", seat " << seat;
                    ++compared;
                });
            if (::testing::Test::HasFailure()) return;
            p = f.game.make(p, choose_move(f.game, p, random, DrawAddress{19, g, ply}));
        }
    }
    EXPECT_GT(compared, 20000);
}

// Which games' lanes play in scratch, and the shapes a 7x7 weighted batch runs in: one thread a
// game in the scratch and 4, 8 and 32 lanes with a playout scratch a lane, all under the
// playouts' launch bounds; tic-tac-toe and Connect Four keep their register lanes.
TEST(OnePlyLanes, LanesPlayInScratchOnTheSevenBySevenFastPath) {
    EXPECT_TRUE(lane_one_ply_in_scratch_v<ataxx::Square7Game>);
    EXPECT_TRUE(lane_one_ply_in_scratch_v<ataxx::Table1Game2>);  // test_ataxx_weighted_scratch.cpp
    EXPECT_FALSE(lane_one_ply_in_scratch_v<tictactoe::Game>);
    EXPECT_FALSE(lane_one_ply_in_scratch_v<connect4::Game>);
    using G = ataxx::Square7Game;
    const std::vector<std::string> shapes =
        ::gaeval::testing::play_shape_names<G, PlayerSet::Weighted>();
    const std::string bytes = std::to_string(sizeof(G::PlayoutScratch));
    EXPECT_EQ(shapes, (std::vector<std::string>{"1/4/" + bytes, "4/4/" + bytes, "8/4/" + bytes,
                                                "32/4/" + bytes}));
}

// The batch ops' lane form in scratch (what each lane of the device's 8-lane groups runs) on the
// cpu, every lane in one call: matches, a tournament and the same games keyed give the serial
// records; and the cpu backend's small batches (4, 8 or 32 lanes a game: op(i, scratch) on the
// cpu) give them too.
TEST(OnePlyLanes, SevenBySevenLaneOpsInScratchGiveTheSerialRecords) {
    using G = ataxx::Square7Game;
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    const std::vector<Player<G>> all = square7_lane_players();
    const std::vector<Pairing> pairings = round_robin(static_cast<uint32_t>(all.size()));
    ::gaeval::testing::expect_lane_ops_in_scratch_give_serial_records(f.game, f.pos, all, pairings,
                                                                      300, "7x7");
}

// The rule of the lane count (one_ply_lanes): the fewest of 1, 4, 8, 32 lanes with which the
// games give every multiprocessor 256 threads, else 32; never more lanes for more games.
TEST(OnePlyLanes, LaneCountByBatchSize) {
    EXPECT_EQ(one_ply_lanes(552, 132), 32);  // 24 members, round-robin:2, on an H100
    EXPECT_EQ(one_ply_lanes(4224, 132), 8);  // 4224 * 8 = 33792 = 132 * 256
    EXPECT_EQ(one_ply_lanes(4223, 132), 32);
    EXPECT_EQ(one_ply_lanes(8832, 132), 4);  // 16 islands of 24 members
    EXPECT_EQ(one_ply_lanes(33792, 132), 1);
    EXPECT_EQ(one_ply_lanes(65280, 132), 1);  // 256 members
    EXPECT_EQ(one_ply_lanes(65536, 132), 1);
    EXPECT_EQ(one_ply_lanes(552, 0), 1);  // no count known: one multiprocessor
    int previous = 32;
    for (uint64_t games = 1; games < 100000; games += 97) {
        const int lanes = one_ply_lanes(games, 132);
        EXPECT_LE(lanes, previous) << games << " games";
        EXPECT_TRUE(lanes == 1 || lanes == 4 || lanes == 8 || lanes == 32);
        previous = lanes;
    }
}

// On the device: tournaments of one-ply players of the sizes that get 32, 8, 4 and 1 lanes a
// game on this GPU give the CPU backend's records.
TEST(OnePlyLanes, CudaTournamentsMatchCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    const BackendChoice gpu = resolve_backend("cuda", 0);
    const BackendChoice cpu = resolve_backend("cpu", 0);
    const int multiprocessors = cuda::query_device().multiprocessors;
    const uint64_t fill = uint64_t(multiprocessors) * kOnePlyFillThreadsPerMultiprocessor;
    std::mt19937 rng(35);
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    using G = ataxx::Square7Game;
    const std::vector<Player<G>> players = one_ply_members<G>(rng, 24);
    const std::vector<Pairing> all = round_robin(24);  // 552 games
    // Sizes: 552 games (32 lanes), then the least that gets 8 and 4 lanes, as pieces of the
    // 24-member schedule repeated.
    std::vector<uint64_t> sizes = {all.size(), (fill + 7) / 8, (fill + 3) / 4};
    if (gaeval::testing::gpu_tests_reduced()) sizes = {64};
    for (uint64_t n : sizes) {
        std::vector<Pairing> pairings(n);
        for (uint64_t i = 0; i < n; ++i) pairings[i] = all[i % all.size()];
        const uint32_t max_plies = 300;
        const auto on_cpu =
            batch::play_pairings(f.game, f.pos, players, pairings, 5, max_plies, cpu);
        const auto on_gpu =
            batch::play_pairings(f.game, f.pos, players, pairings, 5, max_plies, gpu);
        ASSERT_EQ(on_cpu.size(), on_gpu.size());
        std::size_t first = n;
        for (std::size_t i = 0; i < n && first == n; ++i)
            if (std::memcmp(&on_cpu[i], &on_gpu[i], sizeof(GameRecord)) != 0) first = i;
        EXPECT_EQ(first, n) << n << " games (" << one_ply_lanes(n, multiprocessors)
                            << " lanes): first difference in game " << first;
        // The same games keyed (the keyed op's lanes in scratch).
        std::vector<GameKey> keys(n);
        for (uint64_t i = 0; i < n; ++i) keys[i] = GameKey{300 + i % 5, uint32_t(3 * i)};
        EXPECT_EQ(
            gaeval::testing::records_difference(
                batch::play_keyed_pairings(f.game, f.pos, players, pairings, keys, max_plies, cpu),
                batch::play_keyed_pairings(f.game, f.pos, players, pairings, keys, max_plies, gpu)),
            "")
            << "keyed, " << n << " games";
    }
    // 1 lane (the one-thread kernel) on tic-tac-toe, cheap enough at the fill size.
    const tictactoe::Game ttt;
    const std::vector<Player<tictactoe::Game>> ttt_players =
        one_ply_members<tictactoe::Game>(rng, 24);
    for (uint64_t n : {gaeval::testing::gpu_test_size<uint64_t>(fill, 64), uint64_t(552)}) {
        std::vector<Pairing> pairings(n);
        for (uint64_t i = 0; i < n; ++i) pairings[i] = all[i % all.size()];
        const auto on_cpu =
            batch::play_pairings(ttt, ttt.start(), ttt_players, pairings, 6, 9, cpu);
        const auto on_gpu =
            batch::play_pairings(ttt, ttt.start(), ttt_players, pairings, 6, 9, gpu);
        ASSERT_EQ(on_cpu.size(), on_gpu.size());
        EXPECT_EQ(std::memcmp(on_cpu.data(), on_gpu.data(), n * sizeof(GameRecord)), 0)
            << "tictactoe, " << n << " games (" << one_ply_lanes(n, multiprocessors) << " lanes)";
    }
    // Matches (play_matches): a small batch of one-ply against capture, 32 lanes a game.
    const Player<G> capture = ataxx::testing::player_of_kind(1);
    const auto m_cpu = batch::play(f.game, f.pos, players[0], capture, 0, 300, 8, 300, cpu);
    const auto m_gpu = batch::play(f.game, f.pos, players[0], capture, 0, 300, 8, 300, gpu);
    EXPECT_EQ(std::memcmp(m_cpu.data(), m_gpu.data(), m_cpu.size() * sizeof(GameRecord)), 0);
#endif
}

// On the device: Connect Four's one-ply kernels, which run under launch bounds in every lane
// shape (kernels/batch_ops.hpp: one_ply_fits_bounds_v), give the CPU's records: tournaments of
// the sizes that get 32, 8, 4 and 1 lanes a game, the same games keyed (the keyed op rereads its
// seed), and matches, one-ply players with random weights, ties (all-zero weights) and the
// win-block policy in every seat.
TEST(OnePlyLanes, CudaConnectFourUnderBoundsMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
#if GAEVAL_HAVE_CUDA
    using G = connect4::Game;
    const BackendChoice gpu = resolve_backend("cuda", 0);
    const BackendChoice cpu = resolve_backend("cpu", 0);
    const int multiprocessors = cuda::query_device().multiprocessors;
    const uint64_t fill = uint64_t(multiprocessors) * kOnePlyFillThreadsPerMultiprocessor;
    std::mt19937 rng(36);
    const G game;
    std::vector<Player<G>> players = one_ply_members<G>(rng, 24);
    for (float& w : players[1].weights) w = 0.0f;  // every move ties
    players.back().policy = 0;                     // win-block
    const std::vector<Pairing> all = round_robin(24);
    std::vector<uint64_t> sizes = {all.size(), (fill + 7) / 8, (fill + 3) / 4, fill};
    if (gaeval::testing::gpu_tests_reduced()) sizes = {64};
    for (uint64_t n : sizes) {
        std::vector<Pairing> pairings(n);
        std::vector<GameKey> keys(n);
        for (uint64_t i = 0; i < n; ++i) {
            pairings[i] = all[i % all.size()];
            keys[i] = GameKey{1000 + i % 7, uint32_t(n - i)};
        }
        const auto same = [&](const std::vector<GameRecord>& a, const std::vector<GameRecord>& b,
                              const char* what) {
            ASSERT_EQ(a.size(), b.size());
            EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size() * sizeof(GameRecord)), 0)
                << what << ", " << n << " games (" << one_ply_lanes(n, multiprocessors)
                << " lanes)";
        };
        same(batch::play_pairings(game, game.start(), players, pairings, 7, 42, cpu),
             batch::play_pairings(game, game.start(), players, pairings, 7, 42, gpu), "pairings");
        same(batch::play_keyed_pairings(game, game.start(), players, pairings, keys, 42, cpu),
             batch::play_keyed_pairings(game, game.start(), players, pairings, keys, 42, gpu),
             "keyed");
        same(batch::play(game, game.start(), players[0], players[1], 0, n, 9, 42, cpu),
             batch::play(game, game.start(), players[0], players[1], 0, n, 9, 42, gpu), "matches");
    }
#endif
}

}  // namespace
}  // namespace gaeval
