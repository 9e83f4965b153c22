// The clock engine of `gaeval uai` (host/ataxx/engine.hpp) against independent truth: its
// bit-sliced feature counts against games/ataxx/features.hpp's per-piece counts, its leaf score
// against the training evaluator (unit features, weighted_score), and the value of every
// completed fixed depth against games/core/search.hpp's alpha_beta (a second implementation,
// without table, aspiration or PVS) and plain minimax (tests/search_test_support.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/search.hpp"
#include "host/ataxx/default_player.hpp"
#include "host/ataxx/engine.hpp"
#include "search_test_support.hpp"

namespace gaeval::ataxx {
namespace {

using testing::fen_setup;
using testing::Square7Fixture;

const std::vector<float> kWeights = {1.0f,  -1.0f, 0.5f,  0.25f,  0.125f,  0.0f, -0.5f, -1.0f,
                                     -1.5f, 0.1f,  -0.5f, -0.25f, -0.125f, 0.0f, -0.1f};
// Weights of the shape a learned player has (every feature in [0, 1], higher better).
const std::vector<float> kPositiveWeights = {3.1f,  2.7f, 0.4f,  0.9f,  0.2f,   0.05f, 1.3f, 0.7f,
                                             0.35f, 0.6f, 0.15f, 0.45f, 0.125f, 0.8f,  0.3f};

// A position reached by `plies` random moves from a FEN (stops early at a finished game).
Square7Fixture random_game_position(std::mt19937& rng, const std::string& fen, int plies) {
    Square7Fixture f(fen_setup(fen));
    for (int i = 0; i < plies && !f.game.is_over(f.pos); ++i) {
        const int n = f.game.count_moves(f.pos);
        int pick = static_cast<int>(rng() % static_cast<unsigned>(n)), k = 0;
        Move chosen;
        f.game.for_each_move(f.pos, [&](const Move& m) {
            if (k++ == pick) chosen = m;
        });
        f.pos = f.game.make(f.pos, chosen);
    }
    return f;
}

// Positions of every phase: random boards (with and without gaps) and random games.
std::vector<Square7Fixture> sample_positions(int count, uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<Square7Fixture> out;
    const char* starts[] = {"startpos", "x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1",
                            "x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1"};
    while (static_cast<int>(out.size()) < count) {
        const int kind = static_cast<int>(out.size() % 4);
        if (kind == 3) {
            const GameSetup s = testing::random_setup(rng, Shape{}, RuleSet::Ataxx, 2,
                                                      20 + static_cast<int>(rng() % 60),
                                                      static_cast<int>(rng() % 15));
            Square7Fixture f(s);
            if (!f.game.is_over(f.pos)) out.push_back(f);
            continue;
        }
        Square7Fixture f = random_game_position(rng, starts[kind], static_cast<int>(rng() % 70));
        if (!f.game.is_over(f.pos)) out.push_back(f);
    }
    return out;
}

// A random setup of a game that can end within a few plies, the `tries`-th drawn from rng: a
// crowded board (70-94 pieces in all) on even tries, lone pieces (8-17) on odd ones.
Square7Fixture near_end_setup(std::mt19937& rng, int tries) {
    const int pieces =
        tries % 2 == 0 ? 70 + static_cast<int>(rng() % 25) : 8 + static_cast<int>(rng() % 10);
    return Square7Fixture(testing::random_setup(rng, Shape{}, RuleSet::Ataxx, 2, pieces,
                                                static_cast<int>(rng() % 10)));
}

// Positions of near_end_setup where plain alpha-beta finds a win for the side to move within
// 3 plies under `weights`: the first `count` of at most `max_tries` setups drawn from `seed`.
std::vector<Square7Fixture> forced_win_positions(const float* weights, uint32_t seed, int count,
                                                 int max_tries) {
    std::mt19937 rng(seed);
    std::vector<Square7Fixture> out;
    for (int tries = 0; tries < max_tries && static_cast<int>(out.size()) < count; ++tries) {
        const Square7Fixture f = near_end_setup(rng, tries);
        if (f.game.is_over(f.pos)) continue;
        AlphaBetaLimits ab;
        ab.depth = 3;
        if (alpha_beta<Square7Game, 8>(f.game, f.pos, weights, ab, DrawAddress{1, 0, 0}).value >=
            kAlphaBetaWin - 1000.0f)
            out.push_back(f);
    }
    return out;
}

TEST(AtaxxEngine, LeafScoreIsTheTrainingEvaluatorsFloat) {
    std::mt19937 rng(11);
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        for (int i = 0; i < 2000; ++i) {
            const GameSetup s =
                testing::random_setup(rng, Shape{}, RuleSet::Ataxx, 2,
                                      static_cast<int>(rng() % 101), static_cast<int>(rng() % 20));
            const Square7Fixture f(s);
            const Evaluator eval(w->data(), f.game.geo.playable().count());
            for (int seat = 0; seat < 2; ++seat) {
                float unit[kFeatureCount];
                f.game.features(f.pos, seat, unit);
                const float truth = weighted_score<kFeatureCount>(w->data(), unit);
                const float fast = eval.score(f.game, f.pos, seat);
                ASSERT_EQ(float_bits(fast), float_bits(truth)) << "case " << i << " seat " << seat;
            }
        }
    }
}

// Every completed depth's value equals alpha_beta's at that depth, with one engine (and its
// transposition table) kept across all positions and depths, as a game keeps it.
TEST(AtaxxEngine, FixedDepthValueEqualsTheFixedDepthSearch) {
    const std::atomic<bool> never{false};
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        Engine engine(*w, 4);
        const auto positions = sample_positions(60, w == &kWeights ? 1 : 2);
        int compared = 0;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const Square7Fixture& f = positions[i];
            const int max_depth = i % 20 == 0 ? 5 : 4;
            std::vector<float> values;
            EngineLimits limits;
            limits.depth = max_depth;
            const EngineResult r =
                engine.search(f.game, f.pos, limits, never,
                              [&](const EngineReport& rep) { values.push_back(rep.value); });
            ASSERT_FALSE(r.stopped);
            // Iterations end early only at a finished game every line reaches (a proven win or
            // loss), whose value no deeper search changes.
            ASSERT_GE(values.size(), 1u);
            for (int d = 1; d <= max_depth; ++d) {
                AlphaBetaLimits ab;
                ab.depth = d;
                const float truth =
                    alpha_beta<Square7Game, 8>(f.game, f.pos, w->data(), ab, DrawAddress{1, 0, 0})
                        .value;
                const float got = d <= static_cast<int>(values.size()) ? values[d - 1] : r.value;
                ASSERT_EQ(float_bits(got), float_bits(truth))
                    << "position " << i << " depth " << d << ": " << got << " vs " << truth;
                ++compared;
            }
            EXPECT_EQ(float_bits(r.value), float_bits(values.back()));
        }
        EXPECT_GE(compared, 240);
    }
}

// The move played has the value reported: its own value by plain minimax one ply shallower
// equals the root's (depths 1 and 2 everywhere, 3 where few moves are left).
TEST(AtaxxEngine, TheMovePlayedHasTheReportedValue) {
    const std::atomic<bool> never{false};
    Engine engine(kPositiveWeights, 4);
    const auto positions = sample_positions(40, 5);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Square7Fixture& f = positions[i];
        const int seat = f.pos.side;
        const int moves = f.game.count_moves(f.pos);
        for (int depth = 1; depth <= (moves <= 12 ? 3 : 2); ++depth) {
            EngineLimits limits;
            limits.depth = depth;
            const EngineResult r = engine.search(f.game, f.pos, limits, never);
            const float root =
                gaeval::testing::minimax(f.game, f.pos, kPositiveWeights.data(), seat, depth, 0);
            const float child = gaeval::testing::minimax(
                f.game, f.game.make(f.pos, r.move), kPositiveWeights.data(), seat, depth - 1, 1);
            if (r.depth == depth) {
                ASSERT_EQ(r.value, root) << "position " << i;
            }
            ASSERT_EQ(child, root) << "position " << i << " depth " << depth;
        }
    }
}

// Near the 50-move rule the clock decides values: a table keyed without it would carry a value
// across positions that differ only in their clock.
TEST(AtaxxEngine, HalfmoveClockNearTheLimitIsPartOfTheValue) {
    const std::atomic<bool> never{false};
    Engine engine(kPositiveWeights, 4);
    for (int halfmove : {10, 97, 98, 99, 96, 60, 97}) {
        const Square7Fixture f(
            fen_setup("x5o/7/7/3x3/7/7/o5x o " + std::to_string(halfmove) + " 40"));
        for (int depth = 1; depth <= 4; ++depth) {
            EngineLimits limits;
            limits.depth = depth;
            const EngineResult r = engine.search(f.game, f.pos, limits, never);
            AlphaBetaLimits ab;
            ab.depth = depth;
            const float truth = alpha_beta<Square7Game, 8>(f.game, f.pos, kPositiveWeights.data(),
                                                           ab, DrawAddress{1, 0, 0})
                                    .value;
            ASSERT_EQ(float_bits(r.value), float_bits(truth))
                << "halfmove " << halfmove << " depth " << depth;
        }
    }
}

// Searches with reductions (play on the clock) fill the same table; a later exact search on
// the same positions must not take their values.
TEST(AtaxxEngine, ExactSearchIgnoresValuesOfReducedSearches) {
    const std::atomic<bool> never{false};
    Engine engine(kPositiveWeights, 4);
    const auto positions = sample_positions(12, 9);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Square7Fixture& f = positions[i];
        EngineLimits reduced;
        reduced.depth = 6;
        reduced.reductions = true;
        engine.search(f.game, f.pos, reduced, never);
        EngineLimits exact;
        exact.depth = 4;
        const EngineResult r = engine.search(f.game, f.pos, exact, never);
        AlphaBetaLimits ab;
        ab.depth = 4;
        const float truth = alpha_beta<Square7Game, 8>(f.game, f.pos, kPositiveWeights.data(), ab,
                                                       DrawAddress{1, 0, 0})
                                .value;
        ASSERT_EQ(float_bits(r.value), float_bits(truth)) << "position " << i;
    }
}

// The search on the clock (reductions, null move, futility pruning, the staged frontier)
// keeps the forced wins a plain alpha-beta proves: on positions where alpha_beta finds a win
// for the side to move within 3 plies, the reduced search reports a win, and the move it plays
// is a win by alpha_beta too (the child is lost for its side to move within the plies the
// reported value claims).
TEST(AtaxxEngine, ReducedSearchKeepsTheForcedWinsOfThePlainSearch) {
    const std::atomic<bool> never{false};
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        Engine engine(*w, 4);
        const auto wins = forced_win_positions(w->data(), w == &kWeights ? 21 : 22, 12, 4000);
        ASSERT_EQ(wins.size(), 12u);
        for (std::size_t i = 0; i < wins.size(); ++i) {
            const Square7Fixture& f = wins[i];
            EngineLimits limits;
            limits.depth = 7;
            limits.reductions = true;
            const EngineResult r = engine.search(f.game, f.pos, limits, never);
            ASSERT_GE(r.value, kAlphaBetaWin - 1000.0f) << "position " << i;
            const int plies = static_cast<int>(kAlphaBetaWin - r.value);
            ASSERT_LE(plies, 7) << "position " << i;
            const Position<1, 2> child = f.game.make(f.pos, r.move);
            if (f.game.is_over(child)) {
                EXPECT_EQ(f.game.seat_result(child, f.pos.side), SeatResult::Win);
                continue;
            }
            AlphaBetaLimits proof;
            proof.depth = std::max(1, plies - 1);
            const float reply =
                alpha_beta<Square7Game, 8>(f.game, child, w->data(), proof, DrawAddress{1, 0, 0})
                    .value;
            ASSERT_LE(reply, -(kAlphaBetaWin - 1000.0f)) << "position " << i;
        }
    }
}

// The same at the depth the win needs, where the pruning near the leaves (futility, reverse
// futility two plies up) acts on the plies that reach the finished game: a search of exactly
// 3 plies with reductions finds every win plain alpha-beta finds within 3 plies (a static
// value of the wrong seat in reverse futility pruning, for one, cuts the winning line off).
TEST(AtaxxEngine, ReducedSearchOfThreePliesKeepsTheWinsOfThreePlies) {
    const std::atomic<bool> never{false};
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        Engine engine(*w, 4);
        const auto wins = forced_win_positions(w->data(), w == &kWeights ? 41 : 42, 60, 20000);
        ASSERT_EQ(wins.size(), 60u);
        for (std::size_t i = 0; i < wins.size(); ++i) {
            engine.clear();
            EngineLimits limits;
            limits.depth = 3;
            limits.reductions = true;
            const EngineResult r = engine.search(wins[i].game, wins[i].pos, limits, never);
            ASSERT_GE(r.value, kAlphaBetaWin - 1000.0f) << "position " << i;
        }
    }
}

// Two plies deep the clock search differs from exact search only by reverse futility pruning
// one ply up (a reply whose static value for its side to move, less half an aspiration unit,
// is at least beta is taken to reach it; no futility, reductions or null move that shallow).
// A move's best reply almost always scores above the position before it, so the value
// found is the exact depth-2 value on nearly every position, and never above it (a pruned
// move only looks worse).
TEST(AtaxxEngine, ReducedSearchOfTwoPliesIsNearlyAlwaysExact) {
    const std::atomic<bool> never{false};
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        Engine engine(*w, 4);
        const auto positions = sample_positions(200, w == &kWeights ? 51 : 52);
        int differ = 0;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const Square7Fixture& f = positions[i];
            engine.clear();
            EngineLimits limits;
            limits.depth = 2;
            limits.reductions = true;
            const EngineResult r = engine.search(f.game, f.pos, limits, never);
            AlphaBetaLimits ab;
            ab.depth = 2;
            const float exact =
                alpha_beta<Square7Game, 8>(f.game, f.pos, w->data(), ab, DrawAddress{1, 0, 0})
                    .value;
            ASSERT_LE(r.value, exact) << "position " << i;
            if (r.value != exact) ++differ;
        }
        EXPECT_LE(differ, 10);
    }
}

// The search on the clock prunes by static values (futility pruning) and reduces, but a
// finished game it reports is a real one: on crowded boards and lone pieces, every win and
// every loss the reduced search reports at depths 3-5 is confirmed by plain alpha-beta at the
// reported plies (a static value of the wrong seat, for one, prunes the opponent's winning
// reply and reports a win that is not there).
TEST(AtaxxEngine, ReducedSearchReportsOnlyRealWinsAndLosses) {
    const std::atomic<bool> never{false};
    constexpr float kWon = kAlphaBetaWin - 1000.0f;
    for (const auto* w : {&kWeights, &kPositiveWeights}) {
        Engine engine(*w, 4);
        std::mt19937 rng(w == &kWeights ? 31 : 32);
        int wins = 0, losses = 0;
        for (int tries = 0; tries < 600; ++tries) {
            const Square7Fixture f = near_end_setup(rng, tries);
            if (f.game.is_over(f.pos)) continue;
            for (int depth = 3; depth <= 5; ++depth) {
                engine.clear();
                EngineLimits limits;
                limits.depth = depth;
                limits.reductions = true;
                const EngineResult r = engine.search(f.game, f.pos, limits, never);
                if (std::fabs(r.value) < kWon) continue;
                AlphaBetaLimits ab;
                ab.depth = static_cast<int>(kAlphaBetaWin - std::fabs(r.value));
                ASSERT_LE(ab.depth, depth) << "try " << tries;
                const float plain =
                    alpha_beta<Square7Game, 8>(f.game, f.pos, w->data(), ab, DrawAddress{1, 0, 0})
                        .value;
                if (r.value > 0) {
                    ASSERT_GE(plain, kWon) << "try " << tries << " depth " << depth;
                    ++wins;
                } else {
                    ASSERT_LE(plain, -kWon) << "try " << tries << " depth " << depth;
                    ++losses;
                }
            }
        }
        EXPECT_GE(wins, 12);
        EXPECT_GE(losses, 12);
    }
}

// Late move reductions of the clock search, by hand from 1 + ln(depth) * ln(index + 1) / 1.5:
// depth 8, the 41st move: 1 + 2.079 * 3.714 / 1.5 = 6.15, so 6 plies (4 in a full window);
// depth 6, move 21: 4.64, so 4; depth 6, move 11: 3.86, so 2; depth 20, move 101: 10.2, so 10.
// The first three moves and nodes below three plies are never reduced; every reduction is
// even (the leaves stay one seat's), at least 2, leaves the child at least a leaf, and grows
// with depth and move number.
TEST(AtaxxEngine, LateMoveReductionsGrowWithDepthAndMoveNumberByEvenPlies) {
    EXPECT_EQ(late_move_reduction(8, 40, true), 6);
    EXPECT_EQ(late_move_reduction(8, 40, false), 4);
    EXPECT_EQ(late_move_reduction(6, 20, true), 4);
    EXPECT_EQ(late_move_reduction(6, 20, false), 2);
    EXPECT_EQ(late_move_reduction(6, 10, true), 2);
    EXPECT_EQ(late_move_reduction(20, 100, true), 10);
    EXPECT_EQ(late_move_reduction(10, 60, true), 6);
    EXPECT_EQ(late_move_reduction(5, 30, true), 4);
    EXPECT_EQ(late_move_reduction(4, 50, true), 2);  // 4.6, but the child keeps a ply
    EXPECT_EQ(late_move_reduction(3, 3, true), 2);
    EXPECT_EQ(late_move_reduction(8, 2, true), 0);
    EXPECT_EQ(late_move_reduction(2, 40, true), 0);
    for (int depth = 3; depth <= kEngineMaxDepth; ++depth)
        for (int index = 3; index < kEngineMaxMoves; ++index)
            for (bool null_window : {true, false}) {
                const int r = late_move_reduction(depth, index, null_window);
                ASSERT_EQ(r % 2, 0) << depth << " " << index;
                ASSERT_GE(r, 2) << depth << " " << index;
                ASSERT_LE(r, depth - 1) << depth << " " << index;
                ASSERT_LE(late_move_reduction(depth, index - 1, null_window), r);
                ASSERT_LE(late_move_reduction(depth - 1, index, null_window), r);
                if (!null_window) {
                    ASSERT_LE(r, late_move_reduction(depth, index, true));
                }
            }
}

TEST(AtaxxEngine, NodeBudgetAndStopEndTheSearchWithALegalMove) {
    const Square7Fixture f(fen_setup("x5o/7/7/7/7/7/o5x x 0 1"));
    Engine engine(kPositiveWeights, 4);
    std::atomic<bool> stop{false};
    EngineLimits limits;
    limits.nodes = 5000;
    const EngineResult budget = engine.search(f.game, f.pos, limits, stop);
    EXPECT_TRUE(budget.stopped);
    EXPECT_GE(budget.depth, 1);
    EXPECT_LT(budget.nodes, 5000u + 1024u);

    // An external stop ends an unbounded search.
    EngineResult stopped;
    std::thread t([&] { stopped = engine.search(f.game, f.pos, EngineLimits{}, stop); });
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    stop = true;
    t.join();
    EXPECT_TRUE(stopped.stopped);
    bool legal = false;
    f.game.for_each_move(f.pos, [&](const Move& m) { legal = legal || m == stopped.move; });
    EXPECT_TRUE(legal);
}

// Training and play are one evaluator (issue 29): the player compiled into `gaeval uai` is
// data/ataxx/default-player.json as it stands, learned at the depth it records, and at that
// depth the clock engine's exact search gives the training search's value (games/core/search.hpp,
// the search `gaeval learn --depth` plays with) with the shipped weights, bit for bit.
TEST(AtaxxEngine, ShippedPlayerIsTheDataFileAndItsLearningDepthSearchesAlike) {
    std::ifstream in(std::string(GAEVAL_SOURCE_DIR) + "/" + kDefaultPlayerPath);
    ASSERT_TRUE(in) << kDefaultPlayerPath;
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json file = nlohmann::json::parse(text.str());
    ASSERT_EQ(nlohmann::json::parse(default_player_text()), file);
    const int depth = file.at("depth").get<int>();
    ASSERT_EQ(file.at("learned_by").at("depth").get<int>(), depth);
    const std::vector<float> weights = file.at("weights").get<std::vector<float>>();
    ASSERT_EQ(weights.size(), static_cast<std::size_t>(kFeatureCount));

    const std::atomic<bool> never{false};
    Engine engine(weights, 4);
    const auto positions = sample_positions(40, 3);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Square7Fixture& f = positions[i];
        EngineLimits limits;
        limits.depth = depth;
        const EngineResult r = engine.search(f.game, f.pos, limits, never);
        ASSERT_FALSE(r.stopped);
        AlphaBetaLimits ab;
        ab.depth = depth;
        const float truth =
            alpha_beta<Square7Game, 8>(f.game, f.pos, weights.data(), ab, DrawAddress{1, 0, 0})
                .value;
        ASSERT_EQ(float_bits(r.value), float_bits(truth)) << "position " << i;
    }
}

}  // namespace
}  // namespace gaeval::ataxx
