// The clocked Gomoku engine (host/gomoku/engine.hpp): tactical positions with hand-derived
// answers (a four to complete, a four and an open three to block, a VCF), agreement with the
// fixed threat search (players.hpp) where both must find the same thing (fives, forced blocks,
// a VCF that vcf_first_move proves), and the clock (a tight limit is kept).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gomoku_test_support.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"
#include "host/gomoku/default_player.hpp"
#include "host/gomoku/engine.hpp"
#include "host/gomoku/patterns.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::gomoku {
namespace {

using testing::picture;

std::vector<float> seed_table() {
    std::vector<float> w;
    for (int r = 0; r < kWeightCount; ++r) w.push_back(seed_reward(r));
    return w;
}

// The engine's cells (1 the mover's stones, 2 the opponent's) of a position.
template <int N>
std::vector<int8_t> cells_of(const Pos<N>& p) {
    std::vector<int8_t> cells(static_cast<std::size_t>(N * N), 0);
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) {
            const int c = Geometry<N>::cell(x, y);
            if (p.stones[p.side].test(c)) cells[static_cast<std::size_t>(y * N + x)] = 1;
            if (p.stones[p.side ^ 1].test(c)) cells[static_cast<std::size_t>(y * N + x)] = 2;
        }
    return cells;
}

EngineLimits fixed_depth(int depth) {
    EngineLimits l;
    l.max_depth = depth;
    return l;
}

template <int N>
EngineResult think(const Pos<N>& p, const EngineLimits& limits, RuleSet rule = RuleSet::Freestyle) {
    GomokuEngine engine(seed_table(), 1u << 16);
    return engine.think(N, rule, cells_of(p), limits);
}

TEST(GomokuEngine, CompletesItsFourAndBlocksTheOpponentsFour) {
    // X X X X . on row 3 (left end blocked): 4,3 wins; the opponent's four on row 9 waits.
    const auto win = picture<15>({"", "", "", "OXXXX", "", "", "", "", "", ".OOOO"}, 0);
    EngineResult r = think(win, fixed_depth(4));
    EXPECT_EQ(r.x, 5);
    EXPECT_EQ(r.y, 3);
    EXPECT_EQ(r.reason, "five");
    // O O O O on row 9 from x = 1 (x = 0 empty, x = 5 empty would be two points; 5 is X):
    // the only block is 0,9.
    const auto block = picture<15>({"", "", "X", "", "", "", "", "", "", ".OOOOX"}, 0);
    r = think(block, fixed_depth(4));
    EXPECT_EQ(r.x, 0);
    EXPECT_EQ(r.y, 9);
    // Standard rules: X . X X X X O on row 5: the stone at 1,5 makes six, no five, so X must
    // block O's four on row 8 (X O O O O .) at 10,8; freestyle: 1,5 wins.
    const auto overline = picture<15>({"", "", "", "", "", "X.XXXXO", "", "", "     XOOOO"}, 0);
    r = think(overline, fixed_depth(2), RuleSet::Standard);
    EXPECT_EQ(r.x, 10);
    EXPECT_EQ(r.y, 8);
    r = think(overline, fixed_depth(2), RuleSet::Freestyle);
    EXPECT_EQ(r.x, 1);
    EXPECT_EQ(r.y, 5);
    EXPECT_EQ(r.reason, "five");
}

TEST(GomokuEngine, BlocksAnOpenThreeAtOneOfItsTwoEnds) {
    // . . O O O . . on row 7, x = 3..9: only 4,7 and 8,7 stop an open four (3,7 or 9,7 leave
    // O a straight four on the other side: hand-derived in the header comment of threats.hpp).
    const auto p = picture<15>({"", "", "", "", "", "", "", ".....OOO", "", "", "X", "", "X"}, 0);
    for (int depth : {1, 2, 3}) {
        const EngineResult r = think(p, fixed_depth(depth));
        EXPECT_EQ(r.y, 7) << "depth " << depth;
        EXPECT_TRUE(r.x == 4 || r.x == 8) << "depth " << depth << ": " << r.x << "," << r.y;
    }
}

TEST(GomokuEngine, FindsAVcfOfTwoFours) {
    // Row 5: O X X X . at x = 4..8; column 8: X at 8,7 and 8,8. 8,5 is a four (the five-point
    // 9,5, which O must fill) and makes 8,5 8,7 8,8; then 8,6 is a straight four 8,5..8,8 with
    // 8,4 and 8,9 empty: two five-points, a win. No move wins at once (no Lv1 cell), and
    // vcf_first_move (players.hpp) finds the same first move.
    const auto p = picture<15>({"O", "", "", "", "", "....OXXX", "", "........X", "........X", "",
                                "", "", "", "", "O.....O.....O.O"},
                               0);
    using Geo = Geometry<15>;
    EXPECT_EQ(vcf_first_move<Geo>(p.stones[0], p.stones[1], false), Geo::cell(8, 5));
    const EngineResult r = think(p, fixed_depth(2));
    EXPECT_EQ(r.x, 8);
    EXPECT_EQ(r.y, 5);
    EXPECT_EQ(r.reason, "vcf");
    EXPECT_GT(r.score, kEngineWin - 1000);
    // With the threat search off, the main search finds it too (a forced win).
    EngineLimits no_threats = fixed_depth(5);
    no_threats.threat_search = false;
    const EngineResult s = think(p, no_threats);
    EXPECT_GT(s.score, kEngineWin - 1000);
    EXPECT_EQ(s.reason, "search");
}

// Random positions (12 to 30 stones on the central 11x11 square) where the mover has a VCF
// that vcf_first_move (players.hpp, a second implementation: fours by ascending cell) proves,
// neither side has a five-point or an open three (the mover could win outright or must
// answer) and the mover has no four-three or double three: the main search alone (threat search
// off), which prunes each node to its few best cells, still finds a forced win within 4 plies and a
// node budget, as the engine that searched every four and three cell did.
TEST(GomokuEngine, TheMainSearchFindsTheVcfsOfRandomPositions) {
    using Geo = Geometry<15>;
    std::mt19937 rng(29);
    GomokuEngine engine(seed_table(), 1u << 18);
    int found = 0;
    for (int trial = 0; trial < 20000 && found < 12; ++trial) {
        Pos<15> p = picture<15>({}, 0);
        const int stones = 12 + static_cast<int>(rng() % 19);
        for (int i = 0; i < stones; ++i) {
            const int c =
                Geo::cell(2 + static_cast<int>(rng() % 11), 2 + static_cast<int>(rng() % 11));
            if ((p.stones[0] | p.stones[1]).test(c)) continue;
            p.stones[i % 2].set(c);
        }
        const Geo::BB empty = Geo::board().minus(p.stones[0] | p.stones[1]);
        if (has_five<Geo>(p.stones[0], false) || has_five<Geo>(p.stones[1], false)) continue;
        Levels<Geo::BB> levels[2];
        both_levels<Geo>(p.stones, empty, false, levels);
        // No open three, four-three or double three of the mover: the VCF starts with a
        // plain four, which the pruning must keep.
        if (levels[0].level[0].any() || levels[0].level[1].any() || levels[1].level[0].any())
            continue;
        if (five_points<Geo>(p.stones[1], empty, false).any()) continue;
        if (vcf_first_move<Geo>(p.stones[0], p.stones[1], false) < 0) continue;
        ++found;
        EngineLimits limits = fixed_depth(4);
        limits.threat_search = false;
        limits.max_nodes = 400000;
        engine.clear();
        const EngineResult r = engine.think(15, RuleSet::Freestyle, cells_of(p), limits);
        EXPECT_GT(r.score, kEngineWin - 1000) << "trial " << trial << " depth " << r.depth;
    }
    EXPECT_EQ(found, 12);
}

TEST(GomokuEngine, StopsTheOpponentsFourThree) {
    // O on row 7 at x = 5..7 behind X at 4,7, and on column 8 at y = 5, 6: O at 8,7 would make
    // a four (five-point 9,7) and an open three (8,5..8,7, ends 8,4 and 8,8 empty) at once: a
    // VCF (after the block, the three becomes a straight four). X has no threat of its own
    // (scattered stones), so whatever it plays must leave O without a VCF, which
    // vcf_first_move (players.hpp, a second implementation) checks, at depths 1 to 4 and on
    // the clock.
    const auto p = picture<15>({"", ".X", "", "", "", "........O", "........O", "....XOOO", "", "",
                                "", "", "", ".X...........X"},
                               0);
    using Geo = Geometry<15>;
    ASSERT_GE(vcf_first_move<Geo>(p.stones[1], p.stones[0], false), 0);
    std::vector<EngineLimits> limits = {fixed_depth(1), fixed_depth(2), fixed_depth(4)};
    EngineLimits clock;
    clock.time_ms = 100;
    limits.push_back(clock);
    for (const EngineLimits& l : limits) {
        const EngineResult r = think(p, l);
        auto mine = p.stones[0];
        mine.set(Geo::cell(r.x, r.y));
        EXPECT_LT(vcf_first_move<Geo>(p.stones[1], mine, false), 0)
            << "depth " << l.max_depth << " time " << l.time_ms << ": " << r.x << "," << r.y;
    }
}

// O at 6,7 7,7 (row 7) and 8,5 8,6 (column 8), X's stones far away and harmless: O at 8,7
// would make two open threes (6,7..8,7 with 4,7 5,7 9,7 10,7 empty; 8,5..8,7 with 8,3 8,4 8,8
// 8,9 empty), a double three: one is blocked, the other becomes an open four. So O has a VCT
// of three moves, and no VCF (no four anywhere).
Pos<15> double_three_for_o() {
    return picture<15>({"", ".X...........X", "", "", "", "........O", "........O", "......OO", "",
                        "", "", "", "", ".X...........X"},
                       0);
}

TEST(GomokuEngine, FindsAVctOfADoubleThree) {
    // The same position with the colours swapped and X to move: 8,7 is X's only cell that
    // makes two open threes (whole-board levels: the only Lv2 cell, and X has no four), and
    // the engine's threat search plays it as a VCT before any main search.
    Pos<15> p = double_three_for_o();
    std::swap(p.stones[0], p.stones[1]);
    using Geo = Geometry<15>;
    Levels<Geo::BB> levels[2];
    both_levels<Geo>(p.stones, Geo::board().minus(p.stones[0] | p.stones[1]), false, levels);
    ASSERT_EQ(levels[0].level[1].count(), 1);
    ASSERT_TRUE(levels[0].level[1].test(Geo::cell(8, 7)));
    ASSERT_TRUE(levels[0].level[0].empty());
    const EngineResult r = think(p, fixed_depth(2));
    EXPECT_EQ(r.x, 8);
    EXPECT_EQ(r.y, 7);
    EXPECT_EQ(r.reason, "vct");
    EXPECT_GT(r.score, kEngineWin - 1000);
}

TEST(GomokuEngine, DefendsAgainstTheOpponentsVct) {
    // X to move, O threatens the double three at 8,7 (above). Whatever X plays, O must be left
    // without a cell that wins outright or makes a four-three or double three (whole-board
    // levels of threats.hpp after X's move: O's Lv1 and Lv2 cells empty) and without a VCF
    // (vcf_first_move); 8,7 itself, or a cell that spoils one of the two threes, does it. At
    // depths 1 to 4 and on the clock. (The depth-1 main search alone already blocks 8,7 here:
    // the table's rank of a cell counts the opponent's level there.)
    const Pos<15> p = double_three_for_o();
    using Geo = Geometry<15>;
    std::vector<EngineLimits> limits = {fixed_depth(1), fixed_depth(2), fixed_depth(4)};
    EngineLimits clock;
    clock.time_ms = 100;
    limits.push_back(clock);
    for (const EngineLimits& l : limits) {
        const EngineResult r = think(p, l);
        Geo::BB stones[2] = {p.stones[0], p.stones[1]};
        ASSERT_FALSE((stones[0] | stones[1]).test(Geo::cell(r.x, r.y)));
        stones[0].set(Geo::cell(r.x, r.y));
        Levels<Geo::BB> levels[2];
        both_levels<Geo>(stones, Geo::board().minus(stones[0] | stones[1]), false, levels);
        EXPECT_TRUE(levels[1].level[0].empty() && levels[1].level[1].empty())
            << "depth " << l.max_depth << " time " << l.time_ms << ": " << r.x << "," << r.y;
        EXPECT_LT(vcf_first_move<Geo>(stones[1], stones[0], false), 0);
    }
    // The check can fail: a move away from both lines (14,10) leaves O the double three.
    Geo::BB stones[2] = {p.stones[0], p.stones[1]};
    stones[0].set(Geo::cell(14, 10));
    Levels<Geo::BB> levels[2];
    both_levels<Geo>(stones, Geo::board().minus(stones[0] | stones[1]), false, levels);
    EXPECT_TRUE(levels[1].level[1].test(Geo::cell(8, 7)));
}

TEST(GomokuEngine, TableSizeFollowsTheMemoryGiven) {
    GomokuEngine engine(seed_table(), 1u << 10);
    engine.resize_table(std::size_t{32} << 20);  // 32 MiB: 2^21 entries of 16 bytes
    EXPECT_LE(engine.table_bytes(), std::size_t{32} << 20);
    EXPECT_GT(engine.table_bytes(), std::size_t{16} << 20);
    engine.resize_table(1000);  // the floor: 4096 entries
    EXPECT_LT(engine.table_bytes(), std::size_t{1} << 20);
    EXPECT_GT(engine.table_bytes(), 0u);
}

// Positions of games between the fixed players (threat-search against seed-table), mover's
// view: wherever the fixed threat search decides by a five, a forced block or a VCF that
// vcf_first_move proves, the engine at fixed depth must decide the same way.
TEST(GomokuEngine, AgreesWithTheFixedThreatSearchWhereBothMust) {
    using G = Game<15>;
    using Geo = G::Geo;
    G game;
    int fives = 0, blocks = 0, vcfs = 0;
    for (uint32_t match = 0; match < 6; ++match) {
        Pos<15> p = game.start_match(game.start(), 77, match);
        for (int ply = 0; ply < 120 && !game.is_over(p); ++ply) {
            const auto& me = p.stones[p.side];
            const auto& opp = p.stones[p.side ^ 1];
            const auto empty = game.empty(p);
            const auto wins = five_points<Geo>(me, empty, false);
            const auto losses = five_points<Geo>(opp, empty, false);
            const bool has_vcf =
                wins.empty() && losses.empty() && vcf_first_move<Geo>(me, opp, false) >= 0;
            if (wins.any() || losses.count() == 1 || has_vcf) {
                const EngineResult r = think(p, fixed_depth(2));
                const int cell = Geo::cell(r.x, r.y);
                if (wins.any()) {
                    ++fives;
                    EXPECT_TRUE(wins.test(cell)) << "match " << match << " ply " << ply;
                } else if (losses.count() == 1) {
                    ++blocks;
                    EXPECT_TRUE(losses.test(cell)) << "match " << match << " ply " << ply;
                } else {
                    ++vcfs;
                    EXPECT_GT(r.score, kEngineWin - 1000) << "match " << match << " ply " << ply;
                    EXPECT_TRUE(four_moves<Geo>(me, empty, false).test(cell))
                        << "a VCF starts with a four: match " << match << " ply " << ply;
                }
            }
            const int policy =
                (ply + static_cast<int>(match)) % 2 == 0 ? kThreatSearch : kSeedTable;
            p = game.make(p, game.policy_move(p, policy, DrawAddress{5, match, p.count}));
        }
    }
    EXPECT_GT(fives, 5);
    EXPECT_GT(blocks, 5);
    EXPECT_GT(vcfs, 2);
}

TEST(GomokuEngine, KeepsATightClockAndAnswersOnAnEmptyCell) {
    // A quiet middle game: the search would go on for seconds without the clock.
    const auto p = picture<15>({"", "", "", "", "", "      O", "     XOX", "    XOXO", "     OX",
                                "      X", "", "", "", "", ""},
                               0);
    // The engine is built before the clock starts (as a brain builds it at START): its tables,
    // built once a process, are not the move's time.
    GomokuEngine engine(seed_table(), 1u << 16);
    for (int64_t ms : {30, 100}) {
        EngineLimits limits;
        limits.time_ms = ms;
        const auto start = std::chrono::steady_clock::now();
        const EngineResult r = engine.think(15, RuleSet::Freestyle, cells_of(p), limits);
        const double wall =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        // The engine's own deadline; the check runs every few hundred nodes (well under a
        // millisecond each on an idle core), so 60 ms more covers a loaded machine.
        EXPECT_LE(wall, static_cast<double>(ms) + 60.0) << ms << " ms";
        EXPECT_FALSE(p.stones[0].test(Geometry<15>::cell(r.x, r.y)) ||
                     p.stones[1].test(Geometry<15>::cell(r.x, r.y)));
    }
    // 20x20 too, and a node limit alone.
    const auto q = picture<20>(
        {"", "", "", "", "", "", "", "", "", "         XO", "          X", "          O"}, 0);
    EngineLimits nodes;
    nodes.max_nodes = 2000;
    const EngineResult r = think(q, nodes);
    EXPECT_GE(r.depth, 1);
    const EngineResult again = think(q, nodes);  // a node limit is deterministic
    EXPECT_EQ(again.x, r.x);
    EXPECT_EQ(again.y, r.y);
    EXPECT_EQ(again.nodes, r.nodes);
    EXPECT_FALSE(q.stones[0].test(Geometry<20>::cell(r.x, r.y)) ||
                 q.stones[1].test(Geometry<20>::cell(r.x, r.y)));
}

// Late move pruning (EngineLimits::prune_late_moves) cuts nodes 1 to 3 plies above the
// horizon and never the root's. In sparse positions (no two stones of a side within 4 cells
// on a line: no move makes a three, so no horizon node is extended) a depth-1 search is the
// root and its leaves, the same tree with and without it; in quiet middle games a depth-3
// search visits fewer nodes with it. (The forced wins and defences above are found with it.)
TEST(GomokuEngine, LateMovePruningCutsBelowTheRootOnly) {
    using Geo = Geometry<15>;
    std::mt19937 rng(2912);
    GomokuEngine engine(seed_table(), 1u << 18);
    auto search = [&](const Pos<15>& p, int depth, bool prune) {
        EngineLimits limits = fixed_depth(depth);
        limits.threat_search = false;
        limits.prune_late_moves = prune;
        engine.clear();
        return engine.think(15, RuleSet::Freestyle, cells_of(p), limits);
    };
    int sparse = 0;
    for (int trial = 0; trial < 5000 && sparse < 12; ++trial) {
        Pos<15> p = picture<15>({}, 0);
        int xs[6], ys[6];
        bool apart = true;
        for (int i = 0; i < 6 && apart; ++i) {
            xs[i] = 2 + static_cast<int>(rng() % 11);
            ys[i] = 2 + static_cast<int>(rng() % 11);
            for (int j = 0; j < i; ++j) {
                const int dx = std::abs(xs[i] - xs[j]), dy = std::abs(ys[i] - ys[j]);
                const bool line = dx == 0 || dy == 0 || dx == dy;
                if (dx + dy == 0 || (j % 2 == i % 2 && line && std::max(dx, dy) <= 4))
                    apart = false;
            }
            p.stones[i % 2].set(Geo::cell(xs[i], ys[i]));
        }
        if (!apart) continue;
        ++sparse;
        const EngineResult pruned = search(p, 1, true), full = search(p, 1, false);
        EXPECT_GT(full.nodes, 11u) << "trial " << trial;
        EXPECT_EQ(pruned.nodes, full.nodes) << "trial " << trial;
        EXPECT_EQ(pruned.x * 15 + pruned.y, full.x * 15 + full.y) << "trial " << trial;
        EXPECT_EQ(pruned.score, full.score) << "trial " << trial;
    }
    EXPECT_EQ(sparse, 12);
    int quiet = 0, fewer = 0;
    for (int trial = 0; trial < 2000 && quiet < 12; ++trial) {
        Pos<15> p = picture<15>({}, 0);
        const int stones = 10 + static_cast<int>(rng() % 15);
        for (int i = 0; i < stones; ++i) {
            const int c =
                Geo::cell(3 + static_cast<int>(rng() % 9), 3 + static_cast<int>(rng() % 9));
            if ((p.stones[0] | p.stones[1]).test(c)) continue;
            p.stones[i % 2].set(c);
        }
        const Geo::BB empty = Geo::board().minus(p.stones[0] | p.stones[1]);
        Levels<Geo::BB> levels[2];
        both_levels<Geo>(p.stones, empty, false, levels);
        // No four, open three or better of either side.
        if (five_points<Geo>(p.stones[0], empty, false).any() ||
            five_points<Geo>(p.stones[1], empty, false).any() || levels[0].level[0].any() ||
            levels[0].level[1].any() || levels[1].level[0].any() || levels[1].level[1].any())
            continue;
        ++quiet;
        if (search(p, 3, true).nodes < search(p, 3, false).nodes) ++fewer;
    }
    EXPECT_EQ(quiet, 12);
    EXPECT_GE(fewer, 10);
}

// What `gaeval gomocup` plays with no arguments is the shipped file, weight for weight.
TEST(GomokuEngine, TheDefaultPlayerIsTheShippedFile) {
    const games::PlayerFile file =
        games::read_player_file(std::string(GAEVAL_SOURCE_DIR) + "/data/gomoku/default-player.json",
                                games::find_game("gomoku").info());
    const games::PlayerData p = default_player();
    EXPECT_EQ(p.kind, PlayerKind::Weighted);
    EXPECT_EQ(p.depth, file.depth);
    ASSERT_EQ(p.weights.size(), file.weights.size());
    for (std::size_t i = 0; i < p.weights.size(); ++i)
        EXPECT_EQ(p.weights[i], file.weights[i]) << i;
    // It has no line-shape weights (an old file: no shape term), and neither has the brain.
    const std::string dir = std::string(GAEVAL_SOURCE_DIR) + "/data/gomoku/";
    EXPECT_TRUE(
        read_shape_weights(json_fields::read_file(dir + "default-player.json"), "d").empty());
    EXPECT_TRUE(default_shape_weights().empty());
    // The learned shape file: the same table and 16 shape weights.
    const games::PlayerFile shaped =
        games::read_player_file(dir + "shape-player.json", games::find_game("gomoku").info());
    EXPECT_EQ(shaped.weights, file.weights);
    EXPECT_EQ(read_shape_weights(json_fields::read_file(dir + "shape-player.json"), "s").size(),
              static_cast<std::size_t>(kShapeWeightCount));
}

}  // namespace
}  // namespace gaeval::gomoku
