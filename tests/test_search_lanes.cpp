// The lane-group search (games/core/lane_search.hpp over games/core/lanes.hpp) against the
// serial alpha-beta of games/core/search.hpp, move for move and value for value, on positions of
// real games (Ataxx 7x7 in play, table boards, three seats, tic-tac-toe), random weights (coarse
// ones make many ties, which the draws break) and depths 1 to 4, with 1, 2, 8 and 32 lanes. The
// CPU runs the lanes as a loop: the code the GPU's lane groups run.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/lane_search.hpp"
#include "games/core/match.hpp"
#include "games/core/search.hpp"
#include "games/tictactoe/tictactoe.hpp"

namespace gaeval {
namespace {

std::vector<float> lane_test_weights(std::mt19937& rng, int n, bool coarse) {
    std::uniform_real_distribution<float> u(-1.0f, 1.0f);
    std::vector<float> w(n);
    for (float& x : w) x = coarse ? static_cast<float>(static_cast<int>(rng() % 5) - 2) : u(rng);
    return w;
}

// Compares the lane search with L lanes to the serial search at `depth`; returns 1 when p was
// compared (not over), and adds a failure naming `what` on a difference.
template <int L, class G>
int compare_lanes(const G& game, const typename G::Pos& p, const float* weights, int depth,
                  const DrawAddress& at, const char* what) {
    AlphaBetaLimits limits;
    limits.depth = depth;
    const AlphaBetaResult<G> serial = alpha_beta(game, p, weights, limits, at);
    const AlphaBetaResult<G> lanes = lane_alpha_beta(Lanes<L>{}, game, p, weights, depth, at);
    EXPECT_EQ(lanes.value, serial.value) << what << ", depth " << depth << ", " << L << " lanes";
    EXPECT_EQ(std::memcmp(&lanes.move, &serial.move, sizeof serial.move), 0)
        << what << ", depth " << depth << ", " << L << " lanes";
    EXPECT_EQ(lanes.depth, serial.depth);
    return 1;
}

template <class G>
int compare_all_lane_counts(const G& game, const typename G::Pos& p, const float* weights,
                            int max_depth, uint32_t key, const char* what) {
    if (game.is_over(p) || game.count_moves(p) < 2) return 0;
    int compared = 0;
    for (int depth = 1; depth <= max_depth; ++depth) {
        const DrawAddress at{77, key, static_cast<uint32_t>(depth)};
        compared += compare_lanes<1>(game, p, weights, depth, at, what);
        compared += compare_lanes<2>(game, p, weights, depth, at, what);
        compared += compare_lanes<8>(game, p, weights, depth, at, what);
        compared += compare_lanes<32>(game, p, weights, depth, at, what);
        if (::testing::Test::HasFailure()) return compared;
    }
    return compared;
}

// Positions from real games: random players from the start, stopped after 4 to 43 plies (up to
// 120 moves: past the lane search's order cap, so unordered frames are compared too).
TEST(SearchLanes, SameMoveAndValueAsTheSerialSearchOnSquare7Ataxx) {
    using G = ataxx::Square7Game;
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    std::mt19937 rng(21);
    const Player<G> random{};
    int compared = 0, positions = 0;
    for (uint32_t trial = 0; trial < 20; ++trial) {
        G::Pos p = f.pos;
        const uint32_t plies = 4 + rng() % 40;
        for (uint32_t ply = 0; ply < plies && !f.game.is_over(p); ++ply)
            p = f.game.make(p, choose_move(f.game, p, random, DrawAddress{5, trial, ply}));
        const std::vector<float> w = lane_test_weights(rng, G::kWeightCount, trial % 2 == 0);
        const int before = compared;
        compared +=
            compare_all_lane_counts(f.game, p, w.data(), trial < 2 ? 4 : 3, trial, "square7");
        positions += compared > before;
    }
    EXPECT_GT(positions, 16);
    EXPECT_GT(compared, 200);
}

TEST(SearchLanes, SameMoveAndValueOnTableBoardsAndThreeSeats) {
    std::mt19937 rng(22);
    int compared = 0;
    for (uint32_t trial = 0; trial < 18; ++trial) {
        const std::vector<float> w = lane_test_weights(rng, ataxx::kFeatureCount, trial % 2 == 1);
        if (trial % 2 == 0) {
            const ataxx::GameSetup s = ataxx::testing::random_setup(
                rng, ataxx::parse_board_spec("hex:3"), ataxx::RuleSet::Ataxx, 2, 25, 5);
            const ataxx::testing::TableFixture<1, 2> f(s);
            compared += compare_all_lane_counts(f.game, f.pos, w.data(), 3, trial, "hex:3");
        } else {
            // Three seats: the searching seat against the other two (paranoid).
            const ataxx::GameSetup s = ataxx::testing::random_setup(
                rng, ataxx::parse_board_spec("square8:5x5"), ataxx::RuleSet::GeneticGame, 3, 20, 0);
            const ataxx::testing::TableFixture<1, 4> f(s);
            compared += compare_all_lane_counts(f.game, f.pos, w.data(), 3, trial, "3 players");
        }
    }
    EXPECT_GT(compared, 100);
}

TEST(SearchLanes, SameMoveAndValueOnTicTacToeToTheEnd) {
    const tictactoe::Game game;
    std::mt19937 rng(23);
    int compared = 0;
    for (uint32_t trial = 0; trial < 40; ++trial) {
        tictactoe::Pos p = game.start();
        const int plies = static_cast<int>(rng() % 6);
        for (int i = 0; i < plies && !game.is_over(p); ++i)
            p = game.make(p, game.nth_move(p, static_cast<int>(rng() % game.count_moves(p))));
        // Zero weights: every move ties until a win is seen, the draws decide.
        std::vector<float> w = lane_test_weights(rng, tictactoe::Game::kFeatureCount, true);
        if (trial % 4 == 0) w.assign(w.size(), 0.0f);
        compared += compare_all_lane_counts(game, p, w.data(), 6, trial, "tictactoe");
    }
    EXPECT_GT(compared, 500);
}

// Whole matches: the lane-group match (what the GPU's searching kernel plays, 8 lanes a game)
// gives the very records of the serial match, move hashes included.
TEST(SearchLanes, LaneMatchesPlayTheSerialMatchesMoveForMove) {
    using G = ataxx::Square7Game;
    const ataxx::testing::Square7Fixture f(ataxx::testing::fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    std::mt19937 rng(24);
    Player<G> searcher;
    searcher.kind = PlayerKind::Weighted;
    const std::vector<float> w = lane_test_weights(rng, G::kWeightCount, false);
    for (int i = 0; i < G::kWeightCount; ++i) searcher.weights[i] = w[i];
    Player<G> coarse = searcher;
    const std::vector<float> c = lane_test_weights(rng, G::kWeightCount, true);
    for (int i = 0; i < G::kWeightCount; ++i) coarse.weights[i] = c[i];
    const Player<G> capture = ataxx::testing::player_of_kind(1);
    int games = 0;
    for (int depth : {2, 3}) {
        searcher.depth = static_cast<uint8_t>(depth);
        coarse.depth = static_cast<uint8_t>(depth - 1);
        for (uint32_t i = 0; i < (depth == 2 ? 6u : 2u); ++i, ++games) {
            const Player<G>& other = i % 2 ? capture : coarse;
            const uint32_t cap = depth == 2 ? 400 : 40;
            const GameRecord serial = play_match_seated<G, PlayerSet::Search>(
                f.game, f.pos, searcher, other, int(i % 2), 3, i, cap);
            const GameRecord lanes = play_match_lanes<G, 8>(Lanes<8>{}, f.game, f.pos, searcher,
                                                            other, int(i % 2), 3, i, cap);
            EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0)
                << "depth " << depth << ", game " << i << ": plies " << serial.plies << " vs "
                << lanes.plies;
            EXPECT_GT(serial.plies, 10u);
        }
    }
    const tictactoe::Game ttt;
    Player<tictactoe::Game> perfect;
    perfect.kind = PlayerKind::Weighted;
    perfect.depth = 6;
    for (uint32_t i = 0; i < 20; ++i, ++games) {
        const GameRecord serial = play_match_seated<tictactoe::Game, PlayerSet::Search>(
            ttt, ttt.start(), perfect, Player<tictactoe::Game>{}, int(i % 2), 4, i, 9);
        const GameRecord lanes = play_match_lanes<tictactoe::Game, 4>(
            Lanes<4>{}, ttt, ttt.start(), perfect, Player<tictactoe::Game>{}, int(i % 2), 4, i, 9);
        EXPECT_EQ(std::memcmp(&serial, &lanes, sizeof serial), 0) << "tictactoe game " << i;
    }
    EXPECT_EQ(games, 28);
}

// The check can fail: a lane search that ignored one lane's candidates, or broke ties by lane
// instead of by draw, differs from the serial search somewhere in these positions.
TEST(SearchLanes, TheComparisonSeesALostLane) {
    const tictactoe::Game game;
    const std::vector<float> zero(tictactoe::Game::kFeatureCount, 0.0f);
    int differ = 0;
    for (uint32_t key = 0; key < 50; ++key) {
        const DrawAddress at{77, key, 1};
        AlphaBetaLimits limits;
        limits.depth = 1;
        const auto serial = alpha_beta(game, game.start(), zero.data(), limits, at);
        // Lane 0 of 8 alone: moves 0 and 8 only.
        LaneCandidate best;
        int index = 0;
        game.for_each_move(game.start(), [&](const tictactoe::Move&) {
            const int k = index++;
            if (k % 8 != 0) return;
            LaneCandidate mine;
            mine.value = 0.0f;
            mine.draw = philox(at.seed, Purpose::PlayerTieBreak, at.game, at.ply,
                               static_cast<uint32_t>(k), 0)
                            .v[0];
            mine.index = k;
            if (lane_better(mine, best)) best = mine;
        });
        differ += game.nth_move(game.start(), best.index).cell != serial.move.cell;
    }
    EXPECT_GT(differ, 30);
}

}  // namespace
}  // namespace gaeval
