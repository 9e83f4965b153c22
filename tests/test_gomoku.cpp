// Gomoku (games/gomoku/): the rules (fives in every direction, overlines per rule set, no wrap
// across the board's edge, a full board is a draw), each threat level on hand-built boards and
// against a cell-by-cell second implementation on random positions, the players (the reward
// table's ranks and K, threat-search's VCF against a brute-force search), the opening set, the
// registry and CLI, thread parity and the GPU parity test (skipped without a GPU; it also plays
// weighted-search, the depth-2 weighted player).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "games/core/match.hpp"
#include "games/gomoku/game.hpp"
#include "gomoku_test_support.hpp"
#include "gpu_test_support.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace gaeval::gomoku {
namespace {

using testing::Naive;
using testing::picture;
using G15 = Game<15>;
using G20 = Game<20>;
using Geo15 = Geometry<15>;
using BB15 = G15::BB;

G15 game15(RuleSet rule) {
    G15 g;
    g.rule = rule;
    g.opening = Opening::None;
    return g;
}

// Plays cell (x, y) for the side to move.
template <int N>
Pos<N> play_at(const Game<N>& g, const Pos<N>& p, int x, int y) {
    return g.make(p, Move{static_cast<int16_t>(Geometry<N>::cell(x, y))});
}

// The level (1..4) of a cell for `side` in p, from the game's whole-board maps.
template <int N>
int level_of(const Pos<N>& p, int side, bool exact, int x, int y) {
    using Geo = Geometry<N>;
    const auto empty = Geo::board().minus(p.stones[0] | p.stones[1]);
    Levels<typename Geo::BB> levels[2];
    both_levels<Geo>(p.stones, empty, exact, levels);
    const int c = Geo::cell(x, y);
    for (int l = 0; l < 3; ++l)
        if (levels[side].level[l].test(c)) return l + 1;
    return 4;
}

// ---- rules ------------------------------------------------------------------------------------

TEST(GomokuRules, FiveInEachDirectionWins) {
    const int dx[4] = {1, 0, 1, -1}, dy[4] = {0, 1, 1, 1};
    for (RuleSet rule : {RuleSet::Freestyle, RuleSet::Standard}) {
        for (int d = 0; d < 4; ++d) {
            const G15 g = game15(rule);
            Pos<15> p = g.start();
            // Black builds the line from (5, 3); white plays far away on row 13.
            for (int k = 0; k < 5; ++k) {
                ASSERT_FALSE(g.is_over(p));
                p = play_at(g, p, 5 + k * dx[d], 3 + k * dy[d]);
                if (k < 4) p = play_at(g, p, 2 * k, 13);
            }
            EXPECT_TRUE(g.is_over(p)) << "direction " << d;
            EXPECT_EQ(g.winner(p), 0);
            EXPECT_EQ(g.seat_result(p, 0), SeatResult::Win);
            EXPECT_EQ(g.seat_result(p, 1), SeatResult::Loss);
            EXPECT_EQ(g.count_moves(p), 0);
        }
    }
}

TEST(GomokuRules, OverlinesWinOnlyInFreestyle) {
    // Black X X X . X X on row 7 (and elsewhere nothing): the gap makes six.
    const auto p = picture<15>({"", "", "", "", "", "", "", "..XXX.XX", "", "", "O.O.O.O.O"}, 0);
    EXPECT_TRUE(game15(RuleSet::Freestyle).is_over(play_at(game15(RuleSet::Freestyle), p, 5, 7)));
    const Pos<15> six = play_at(game15(RuleSet::Standard), p, 5, 7);
    EXPECT_FALSE(game15(RuleSet::Standard).is_over(six)) << "a six is no five under standard";
    EXPECT_EQ(game15(RuleSet::Standard).winner(six), -1);
    // Exactly five next to an own stone two cells away still wins.
    const auto q = picture<15>({"", "", "XXXX..X", "", "", "", "O.O.O.O.O"}, 0);
    EXPECT_TRUE(game15(RuleSet::Standard).is_over(play_at(game15(RuleSet::Standard), q, 4, 2)));
    // Under standard rules a five-point that would make six is no five-point.
    const BB15 empty = Geo15::board().minus(p.stones[0] | p.stones[1]);
    EXPECT_TRUE(five_points<Geo15>(p.stones[0], empty, false).test(Geo15::cell(5, 7)));
    EXPECT_FALSE(five_points<Geo15>(p.stones[0], empty, true).test(Geo15::cell(5, 7)));
}

TEST(GomokuRules, LinesDoNotWrapAroundTheEdge) {
    // Three stones end row 4 and two start row 5: five in a row if lines wrapped.
    const auto p = picture<15>({"", "", "", "", "............XXX", "XX", "", "", "", "", "O"}, 0);
    const BB15 empty = Geo15::board().minus(p.stones[0] | p.stones[1]);
    EXPECT_FALSE(has_five<Geo15>(p.stones[0], false));
    EXPECT_TRUE(five_points<Geo15>(p.stones[0], empty, false).empty());
    EXPECT_FALSE(game15(RuleSet::Freestyle).is_over(play_at(game15(RuleSet::Freestyle), p, 2, 5)))
        << "X X X at the start of row 5 and X X X at the end of row 4";
    // (11, 4) makes a four closed by the edge: one five-point, level 3.
    EXPECT_EQ(level_of(p, 0, false, 11, 4), 3);
    // Anti-diagonal: (1, 3) (0, 4) end a line at the left edge, (14, 4) (13, 5) (12, 6) would
    // continue it if it wrapped.
    const auto d = picture<15>(
        {"", "", "", ".X", "X.............X", ".............X", "............X", "", "", "", "O"},
        0);
    EXPECT_FALSE(has_five<Geo15>(d.stones[0], false));
    const BB15 e = Geo15::board().minus(d.stones[0] | d.stones[1]);
    EXPECT_TRUE(five_points<Geo15>(d.stones[0], e, false).empty());
    // 20x20: the last four columns of row 2 and the first cell of row 3.
    const auto q = picture<20>({"", "", "................XXXX", "X"}, 0);
    const auto e20 = Geometry<20>::board().minus(q.stones[0] | q.stones[1]);
    const auto fives20 = five_points<Geometry<20>>(q.stones[0], e20, false);
    EXPECT_EQ(fives20.count(), 1);
    EXPECT_TRUE(fives20.test(Geometry<20>::cell(15, 2)));
}

// Fills the board with black on (x + 2y) mod 4 < 2 and white elsewhere, alternating moves:
// that colouring has no five in any direction, so the game ends full and drawn.
template <int N>
void expect_full_board_draw(RuleSet rule) {
    Game<N> g;
    g.rule = rule;
    g.opening = Opening::None;
    std::vector<int> black, white;
    for (int y = 0; y < N; ++y)
        for (int x = 0; x < N; ++x) ((x + 2 * y) % 4 < 2 ? black : white).push_back(x + N * y);
    ASSERT_GE(black.size(), white.size());
    ASSERT_LE(black.size(), white.size() + 1);
    Pos<N> p = g.start();
    for (std::size_t i = 0; i < black.size() + white.size(); ++i) {
        ASSERT_FALSE(g.is_over(p)) << "move " << i;
        const int k = (i % 2 == 0 ? black : white)[i / 2];
        p = play_at(g, p, k % N, k / N);
    }
    EXPECT_TRUE(g.is_over(p));
    EXPECT_EQ(g.winner(p), -1);
    EXPECT_EQ(g.seat_result(p, 0), SeatResult::Draw);
    EXPECT_EQ(g.count_moves(p), 0);
    EXPECT_EQ(p.count, N * N);
}

TEST(GomokuRules, AFullBoardWithoutFiveIsADraw) {
    expect_full_board_draw<15>(RuleSet::Freestyle);
    expect_full_board_draw<15>(RuleSet::Standard);
    expect_full_board_draw<20>(RuleSet::Freestyle);
}

TEST(GomokuRules, MovesAreTheEmptyCellsInAscendingOrder) {
    const G15 g = game15(RuleSet::Freestyle);
    const auto p = picture<15>({"X.O", "", "....X"}, 1);
    EXPECT_EQ(g.count_moves(p), 225 - 3);
    std::vector<int> cells;
    g.for_each_move(p, [&](const Move& m) { cells.push_back(m.cell); });
    ASSERT_EQ(cells.size(), 222u);
    for (std::size_t k = 0; k < cells.size(); ++k) {
        EXPECT_EQ(g.nth_move(p, int(k)).cell, cells[k]);
        if (k) {
            EXPECT_LT(cells[k - 1], cells[k]);
        }
        EXPECT_LT(Geo15::column_of(cells[k]), 15) << "no guard cell";
    }
    EXPECT_EQ(cells[0], Geo15::cell(1, 0));
}

// Random games on both boards and rule sets: the game's end and winner equal the cell-by-cell
// implementation's after every move.
template <int N>
void expect_rules_match_naive(RuleSet rule, int games) {
    Game<N> g;
    g.rule = rule;
    g.opening = Opening::None;
    std::mt19937 rng(N * 7 + int(rule));
    for (int game = 0; game < games; ++game) {
        Pos<N> p = g.start();
        while (!g.is_over(p)) {
            const int moves = g.count_moves(p);
            // Half the moves next to the last stones, so that lines form often.
            p = g.make(p, g.nth_move(p, int(rng() % moves)));
            const Naive<N> naive(p, rule == RuleSet::Standard);
            const int mover = p.side ^ 1;
            ASSERT_EQ(g.winner(p) == mover, naive.has_five(mover)) << "game " << game;
            ASSERT_FALSE(naive.has_five(p.side));
        }
    }
}

TEST(GomokuRules, WinsMatchACellByCellImplementation) {
    expect_rules_match_naive<15>(RuleSet::Freestyle, 60);
    expect_rules_match_naive<15>(RuleSet::Standard, 60);
    expect_rules_match_naive<20>(RuleSet::Standard, 20);
}

// ---- threat levels ----------------------------------------------------------------------------

TEST(GomokuLevels, Level1FiveOpenFourDoubleFour) {
    const auto p = picture<15>({"", "", "", "", "",
                                ".XXXX",  // y=5: five-points at both ends
                                "", "",
                                "..XXX",  // y=8: an open three
                                "", "", "", "", "", "O"},
                               0);
    EXPECT_EQ(level_of(p, 0, false, 0, 5), 1) << "five";
    EXPECT_EQ(level_of(p, 0, false, 5, 5), 1) << "five";
    EXPECT_EQ(level_of(p, 0, false, 1, 8), 1) << "open four . X X X X .";
    EXPECT_EQ(level_of(p, 0, false, 5, 8), 1) << "open four";
    // Column 4 (4..6) closed by O at (4, 3) and row 7 (1..3) closed by O at (0, 7) meet at
    // (4, 7): two closed fours at once, a double four.
    const auto df = picture<15>({"", "", "", "....O", "....X", "....X", "....X", "OXXX"}, 0);
    EXPECT_EQ(level_of(df, 0, false, 4, 7), 1) << "double four";
    // The column alone: one closed four, level 3.
    const auto single = picture<15>({"", "", "", "....O", "....X", "....X", "....X"}, 0);
    EXPECT_EQ(level_of(single, 0, false, 4, 7), 3) << "a closed four";
    // A split double four in one line: X . X X . . X -> (4, 0) makes X . X X X . X, five-points
    // (1, 0) and (5, 0).
    const auto line = picture<15>({"X.XX..X"}, 0);
    EXPECT_EQ(level_of(line, 0, false, 4, 0), 1) << "two five-points in one line";
}

TEST(GomokuLevels, OpponentFivePointLeavesOnlyFives) {
    // White threatens five at (5, 2); black's open four at (4, 8) no longer counts.
    const auto p = picture<15>({"", "", ".OOOO", "", "", "", "", "", ".XXX."}, 0);
    EXPECT_EQ(level_of(p, 0, false, 4, 8), 4);
    EXPECT_EQ(level_of(p, 0, false, 0, 8), 4);
    EXPECT_EQ(level_of(p, 0, false, 5, 2), 4) << "blocking is no own threat";
    // The block is white's level 1 (its five), which the reward table ranks as rank 2 for black.
    EXPECT_EQ(level_of(p, 1, false, 5, 2), 1);
    EXPECT_EQ(level_of(p, 1, false, 0, 2), 1);
    // Without white's four, the same black move is an open four.
    const auto q = picture<15>({"", "", ".OOO", "", "", "", "", "", ".XXX."}, 0);
    EXPECT_EQ(level_of(q, 0, false, 4, 8), 1);
}

TEST(GomokuLevels, Level2FourThreeAndDoubleThree) {
    // Four-three: row 3 O X X X . (a closed three: (4, 3) makes a four) and column 4 with
    // (4, 4), (4, 5) and (4, 6) empty, (4, 2) empty: (4, 3) also makes . X X X . in the column?
    const auto ft = picture<15>({"", "", "", "OXXX", "....X", "....X", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(ft, 0, false, 4, 3), 2) << "four in the row, open three in the column";
    // Double open three: row 7 . . X X . . and column 7 . . X X . . meet at (7, 7)? Row 7 has
    // (5, 7), (6, 7); column 7 has (7, 5), (7, 6): (7, 7) makes . X X X . in both.
    const auto dt = picture<15>(
        {"", "", "", "", "", ".......X", ".......X", ".....XX", "", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(dt, 0, false, 7, 7), 2) << "double open three";
    // One open three alone is level 3; a three closed by the edge is no open three.
    const auto one = picture<15>({"", "", "", "", "", "", "", ".....XX", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(one, 0, false, 7, 7), 3);
    EXPECT_EQ(level_of(one, 0, false, 4, 7), 3);
    const auto edge = picture<15>({"XX"}, 0);
    EXPECT_EQ(level_of(edge, 0, false, 2, 0), 4) << "X X X . . at the edge is no open three";
    EXPECT_EQ(level_of(edge, 0, false, 3, 0), 4);
}

TEST(GomokuLevels, Level3FourOrOpenThreeAndLevel4TheRest) {
    // A split three . X . X X . : filling the gap makes an open four; (1, 6) makes X X . X X,
    // a four with one five-point.
    const auto split = picture<15>({"", "", "", "", "", "", "..X.XX....", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(split, 0, false, 3, 6), 1) << "fills the split: open four";
    EXPECT_EQ(level_of(split, 0, false, 1, 6), 3) << "X X . X X: a four";
    // Open two: . . X X . . -> (4, 4) makes an open three (level 3); a far cell is level 4.
    const auto two = picture<15>({"", "", "", "", "..XX....", "", "", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(two, 0, false, 4, 4), 3);
    EXPECT_EQ(level_of(two, 0, false, 1, 4), 3) << ". X X X . . from the other side";
    EXPECT_EQ(level_of(two, 0, false, 10, 10), 4);
    EXPECT_EQ(level_of(two, 0, false, 3, 5), 4) << "a diagonal two is no three";
    // A three blocked on both sides: O . X X . O: a stone inside makes no open three (no
    // straight four fits) but a four? O . X X X O has no five-window: level 4.
    const auto boxed = picture<15>({"", "", "O.XX.O", "", "", "", "", "", "", "", "", "O"}, 0);
    EXPECT_EQ(level_of(boxed, 0, false, 4, 2), 4);
    EXPECT_EQ(level_of(boxed, 0, false, 1, 2), 4);
}

// Random positions: the whole-board level maps equal the cell-by-cell definition for every
// empty cell and both sides.
template <int N>
void expect_levels_match_naive(RuleSet rule, int positions, unsigned seed) {
    using Geo = Geometry<N>;
    std::mt19937 rng(seed);
    Game<N> g;
    g.rule = rule;
    int checked_levels[5] = {0, 0, 0, 0, 0};
    for (int t = 0; t < positions; ++t) {
        Pos<N> p = g.start();
        // Stones clustered around a random centre, so that patterns are frequent.
        const int cx = 2 + int(rng() % (N - 4)), cy = 2 + int(rng() % (N - 4));
        const int stones = 6 + int(rng() % 40);
        for (int k = 0; k < stones; ++k) {
            const int x = cx + int(rng() % 9) - 4, y = cy + int(rng() % 9) - 4;
            if (x < 0 || y < 0 || x >= N || y >= N) continue;
            const int c = Geo::cell(x, y);
            if (p.stones[0].test(c) || p.stones[1].test(c)) continue;
            p.stones[rng() % 2].set(c);
        }
        const Naive<N> naive(p, rule == RuleSet::Standard);
        const auto empty = Geo::board().minus(p.stones[0] | p.stones[1]);
        Levels<typename Geo::BB> levels[2];
        both_levels<Geo>(p.stones, empty, rule == RuleSet::Standard, levels);
        for (int x = 0; x < N; ++x)
            for (int y = 0; y < N; ++y) {
                if (naive.owner[x][y] != -1) continue;
                for (int s = 0; s < 2; ++s) {
                    int fast = 4;
                    for (int l = 2; l >= 0; --l)
                        if (levels[s].level[l].test(Geo::cell(x, y))) fast = l + 1;
                    const int slow = naive.level(s, x, y);
                    ASSERT_EQ(fast, slow)
                        << "position " << t << " cell " << x << "," << y << " side " << s;
                    ++checked_levels[slow];
                }
            }
    }
    for (int l = 1; l <= 4; ++l) EXPECT_GT(checked_levels[l], 0) << "no cell of level " << l;
}

TEST(GomokuLevels, MatchTheCellByCellDefinitionOnRandomPositions) {
    expect_levels_match_naive<15>(RuleSet::Freestyle, 120, 1);
    expect_levels_match_naive<15>(RuleSet::Standard, 120, 2);
    expect_levels_match_naive<20>(RuleSet::Standard, 40, 3);
}

// ---- players ----------------------------------------------------------------------------------

std::vector<float> seed_table() {
    std::vector<float> w(kWeightCount);
    for (int r = 0; r < kWeightCount; ++r) w[r] = seed_reward(r);
    return w;
}

TEST(GomokuPlayers, TheSeedTableHasTheSeedsRewards) {
    const float expected[kRanks] = {1 << 20, 1 << 16, 1 << 13, 1 << 12, 1 << 11, 1 << 9,
                                    1 << 8,  1 << 6,  1 << 4,  1 << 2,  1};
    for (int r = 0; r < kRanks; ++r) EXPECT_EQ(seed_reward(r), expected[r]) << r;
    EXPECT_EQ(seed_reward(kAcceptance), 0.0f);
}

TEST(GomokuPlayers, RanksPairOwnAndEnemyLevels) {
    // Own levels o and enemy levels e of a cell give its rank index; build every pair on
    // synthetic level maps of four cells each.
    Levels<BB15> own, enemy;
    for (int l = 0; l < 3; ++l) own.level[l] = enemy.level[l] = BB15::none();
    BB15 candidates = BB15::none();
    // Cell 16 * o + e for o, e in 1..4 (all on the board: x = e, y = o).
    for (int o = 1; o <= 4; ++o)
        for (int e = 1; e <= 4; ++e) {
            const int c = Geo15::cell(e, o);
            candidates.set(c);
            if (o < 4) own.level[o - 1].set(c);
            if (e < 4) enemy.level[e - 1].set(c);
        }
    BB15 ranks[kRanks];
    rank_cells(own, enemy, candidates, ranks);
    auto rank_of = [&](int o, int e) {
        for (int r = 0; r < kRanks; ++r)
            if (ranks[r].test(Geo15::cell(e, o))) return r;
        return -1;
    };
    const int expected[5][5] = {
        {}, {0, 0, 0, 0, 0}, {0, 1, 2, 3, 4}, {0, 1, 5, 7, 8}, {0, 1, 6, 9, 10}};
    for (int o = 1; o <= 4; ++o)
        for (int e = 1; e <= 4; ++e)
            EXPECT_EQ(rank_of(o, e), expected[o][e]) << "own " << o << " enemy " << e;
}

TEST(GomokuPlayers, TheSeedTableWinsAndBlocks) {
    const G15 g = game15(RuleSet::Freestyle);
    // Black to move with a four: it completes it, whatever else is on the board.
    const auto win = picture<15>({"", "", ".XXXX", "", "OOO.O", "", "", "", "", "", "", "O"}, 0);
    for (uint32_t seed = 0; seed < 20; ++seed) {
        const Move m = g.policy_move(win, kSeedTable, DrawAddress{seed, 0, 0});
        EXPECT_TRUE(m.cell == Geo15::cell(0, 2) || m.cell == Geo15::cell(5, 2)) << seed;
    }
    // White's four O O O . O: black (no threat of its own) fills (3, 4).
    const auto block = picture<15>({"", "", ".XX", "", "OOO.O"}, 0);
    for (uint32_t seed = 0; seed < 20; ++seed)
        EXPECT_EQ(g.policy_move(block, kSeedTable, DrawAddress{seed, 0, 0}).cell,
                  Geo15::cell(3, 4));
}

TEST(GomokuPlayers, AcceptanceKPicksAmongRanksWithinKOfTheBest) {
    // Black has an open-three point (own level 3, enemy 4: rank 5.2) and quiet cells (6.2).
    const auto p = picture<15>({"", "", "", "", "", "", "", ".....XX", "", "", "", "", "", "O"}, 0);
    std::vector<float> w = seed_table();
    const BB15 empty = Geo15::board().minus(p.stones[0] | p.stones[1]);
    Levels<BB15> levels[2];
    both_levels<Geo15>(p.stones, empty, false, levels);
    const BB15 threes = levels[0].level[2];
    auto share_of_threes = [&](float r52, float r62, float k) {
        w[8] = r52;
        w[10] = r62;
        w[kAcceptance] = k;
        int hits = 0;
        for (uint32_t i = 0; i < 400; ++i)
            hits += threes.test(reward_table_move<Geo15>(p.stones, 0, false, w.data(), 9, i, 0));
        return hits;
    };
    EXPECT_EQ(share_of_threes(16, 1, 0), 400) << "K = 0: always the best rank";
    EXPECT_EQ(share_of_threes(16, 1, 0.9f), 400) << "1 < 16 - 0.9 * 16";
    const int mixed = share_of_threes(16, 1, 0.95f);  // 1 >= 16 - 0.95 * 16 = 0.8
    EXPECT_GT(mixed, 150) << "two accepted ranks, one drawn uniformly";
    EXPECT_LT(mixed, 250);
    EXPECT_EQ(share_of_threes(1, 16, 0), 0) << "a table that prefers quiet moves";
    EXPECT_EQ(share_of_threes(16, 1, -3), 400) << "K < 0 counts as 0";
}

// Brute-force VCF (cell by cell): whether `s` to move wins by a sequence of fours answered by
// forced blocks, in at most `depth` own fours (as vcf_first_move defines it).
bool naive_vcf(Naive<15>& b, int s, int depth) {
    if (depth == 0) return false;
    for (int x = 0; x < 15; ++x)
        for (int y = 0; y < 15; ++y) {
            if (b.owner[x][y] != -1) continue;
            int created = 0;
            for (int d = 0; d < 4; ++d) created += b.created_five_points(s, x, y, d);
            if (created == 0) continue;
            b.owner[x][y] = s;
            std::vector<std::pair<int, int>> threats;
            for (int u = 0; u < 15; ++u)
                for (int v = 0; v < 15; ++v)
                    if (b.owner[u][v] == -1)
                        for (int d = 0; d < 4; ++d)
                            if (b.makes_five(s, u, v, d)) {
                                threats.push_back({u, v});
                                break;
                            }
            bool win = threats.size() >= 2;
            if (threats.size() == 1) {
                b.owner[threats[0].first][threats[0].second] = 1 - s;
                if (!b.has_five_point(1 - s)) win = naive_vcf(b, s, depth - 1);
                b.owner[threats[0].first][threats[0].second] = -1;
            }
            b.owner[x][y] = -1;
            if (win) return true;
        }
    return false;
}

TEST(GomokuPlayers, VcfSearchAgreesWithABruteForceSearch) {
    // A hand-built VCF: (7, 6) makes a four on row 6 (white must fill (8, 6)); then (7, 3) makes
    // two fours (row 3 and column 7): black wins in two fours (or the same two in the other
    // order) and has no move of level 1 now (white's stones close the column's threes).
    const auto p = picture<15>(
        {"", ".......O", "", "...OXXX", ".......X", ".......X", "...OXXX", ".......O"}, 0);
    const int first = vcf_first_move<Geo15>(p.stones[0], p.stones[1], false);
    EXPECT_TRUE(first == Geo15::cell(7, 3) || first == Geo15::cell(7, 6)) << first;
    for (int x = 0; x < 15; ++x)
        for (int y = 0; y < 15; ++y)
            if (!p.stones[0].test(Geo15::cell(x, y)) && !p.stones[1].test(Geo15::cell(x, y))) {
                EXPECT_GE(level_of(p, 0, false, x, y), 2) << x << "," << y;
            }
    Naive<15> b(p, false);
    EXPECT_TRUE(naive_vcf(b, 0, kVcfDepth));
    // Random clustered positions: found iff the brute force finds one, and the move found
    // starts a winning sequence.
    std::mt19937 rng(5);
    int with = 0, without = 0;
    for (int t = 0; t < 60; ++t) {
        Pos<15> q = game15(RuleSet::Freestyle).start();
        for (int k = 0; k < 18; ++k) {
            const int c = Geo15::cell(4 + int(rng() % 7), 4 + int(rng() % 7));
            if (!q.stones[0].test(c) && !q.stones[1].test(c)) q.stones[k % 2].set(c);
        }
        Naive<15> nb(q, false);
        if (nb.has_five(0) || nb.has_five(1) || nb.has_five_point(0) || nb.has_five_point(1))
            continue;
        const int move = vcf_first_move<Geo15>(q.stones[0], q.stones[1], false);
        const bool exists = naive_vcf(nb, 0, 3);
        if (exists) {
            EXPECT_GE(move, 0) << "position " << t;
            ++with;
        }
        if (move >= 0) {
            // The move is a four after which black still wins (depth 3 covers these positions).
            const int x = Geo15::column_of(move), y = Geo15::row_of(move);
            nb.owner[x][y] = 0;
            std::vector<std::pair<int, int>> threats;
            for (int u = 0; u < 15; ++u)
                for (int v = 0; v < 15; ++v)
                    if (nb.owner[u][v] == -1)
                        for (int d = 0; d < 4; ++d)
                            if (nb.makes_five(0, u, v, d)) {
                                threats.push_back({u, v});
                                break;
                            }
            ASSERT_FALSE(threats.empty()) << "the first move is a four";
            if (threats.size() == 1) {
                nb.owner[threats[0].first][threats[0].second] = 1;
                EXPECT_TRUE(naive_vcf(nb, 0, kVcfDepth - 1)) << "position " << t;
            }
        } else {
            ++without;
        }
    }
    EXPECT_GT(with, 3);
    EXPECT_GT(without, 3);
}

TEST(GomokuPlayers, ThreatSearchWinsAHandBuiltVcf) {
    const G15 g = game15(RuleSet::Freestyle);
    const auto p = picture<15>(
        {"", ".......O", "", "...OXXX", ".......X", ".......X", "...OXXX", ".......O"}, 0);
    // threat-search wins: play its moves with white filling each five-point.
    Pos<15> q = p;
    for (int ply = 0; ply < 8 && !g.is_over(q); ++ply) {
        const Move m = g.policy_move(q, q.side == 0 ? kThreatSearch : kSeedTable,
                                     DrawAddress{1, 0, uint32_t(ply)});
        q = g.make(q, m);
    }
    EXPECT_TRUE(g.is_over(q));
    EXPECT_EQ(g.winner(q), 0);
}

// ---- openings and batches ---------------------------------------------------------------------

TEST(GomokuOpenings, TwoToFourStonesInTheCentreBothColoursPerOpening) {
    G15 g;
    g.opening = Opening::Centre;
    const BB15 centre = G15::centre_square();
    EXPECT_EQ(centre.count(), 49);
    std::set<int> counts;
    for (uint32_t i = 0; i < 200; ++i) {
        const Pos<15> p = g.start_match(g.start(), 42, i);
        counts.insert(p.count);
        EXPECT_GE(p.count, 2);
        EXPECT_LE(p.count, 4);
        EXPECT_EQ(p.stones[0].count(), (p.count + 1) / 2) << "black first, colours alternate";
        EXPECT_EQ(p.side, p.count % 2);
        EXPECT_TRUE((p.stones[0] | p.stones[1]).minus(centre).empty());
        const Pos<15> twin = g.start_match(g.start(), 42, i ^ 1);
        EXPECT_EQ(twin.stones[0], p.stones[0]) << "games 2k and 2k+1 share the opening";
        EXPECT_EQ(twin.stones[1], p.stones[1]);
    }
    EXPECT_EQ(counts, (std::set<int>{2, 3, 4}));
    EXPECT_NE(g.start_match(g.start(), 42, 0).stones[0], g.start_match(g.start(), 43, 0).stones[0]);
    g.opening = Opening::None;
    EXPECT_EQ(g.start_match(g.start(), 42, 7).count, 0);
}

games::PlayerData builtin(const char* name) {
    games::PlayerData p;
    EXPECT_TRUE(games::builtin_player(name, games::find_game("gomoku").info(), &p)) << name;
    return p;
}

// The batch on one and on two threads, which must give the same bits.
std::vector<GameRecord> play_on_one_and_two_threads(const games::GameSession& session,
                                                    const games::PlayRequest& r) {
    const auto one = games::play(session, r, resolve_backend("cpu", 1));
    const auto two = games::play(session, r, resolve_backend("cpu", 2));
    EXPECT_EQ(one.size(), two.size());
    if (one.size() == two.size()) {
        EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
    }
    return one;
}

TEST(GomokuBatches, SameBitsOnOneAndTwoThreadsAndTheExpectedStrengths) {
    const games::GameEntry& entry = games::find_game("gomoku");
    for (const char* board : {"15", "20"}) {
        const auto session = entry.open({{"board", board}, {"rules", "standard"}});
        games::PlayRequest r;
        r.a = builtin("seed-table");
        r.b = builtin("random");
        r.games = 200;
        r.seed = 11;
        const auto one = play_on_one_and_two_threads(*session, r);
        EXPECT_GE(games::summarize(one).wins, 198u) << "seed-table against random, " << board;
    }
    // threat-search beats seed-table clearly (a fixed seed; 300 games, both colours).
    const auto session = entry.open({});
    games::PlayRequest r;
    r.a = builtin("threat-search");
    r.b = builtin("seed-table");
    r.games = 300;
    r.seed = 5;
    const games::PlaySummary s = games::summarize(play_on_one_and_two_threads(*session, r));
    EXPECT_GT(s.wins, 3 * s.losses / 2) << s.wins << " wins, " << s.losses << " losses";
}

TEST(GomokuBatches, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    for (const char* board : {"15", "20"}) {
        const auto session = games::find_game("gomoku").open({{"board", board}});
        games::PlayRequest r;
        r.a = builtin("threat-search");
        r.b = builtin("seed-table");
        r.games = gaeval::testing::gpu_test_size(2000, 2);  // reduced: each player on each side
        const auto gpu = games::play(*session, r, resolve_backend("cuda", 0));
        const auto cpu = games::play(*session, r, resolve_backend("cpu", 0));
        ASSERT_EQ(gpu.size(), cpu.size());
        EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), gpu.size() * sizeof(GameRecord)), 0) << board;
        r.a = games::PlayerData{};
        r.a.kind = PlayerKind::Weighted;
        r.a.weights = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0.5f, 0.25f, 0.3f};
        r.b = builtin("random");
        const auto gpu_w = games::play(*session, r, resolve_backend("cuda", 0));
        const auto cpu_w = games::play(*session, r, resolve_backend("cpu", 0));
        EXPECT_EQ(std::memcmp(gpu_w.data(), cpu_w.data(), gpu_w.size() * sizeof(GameRecord)), 0)
            << board;
        // weighted-search (depth 2) against threat-search.
        r.a.depth = 2;
        r.b = builtin("threat-search");
        r.games = gaeval::testing::gpu_test_size(500, 2);
        const auto gpu_s = games::play(*session, r, resolve_backend("cuda", 0));
        const auto cpu_s = games::play(*session, r, resolve_backend("cpu", 0));
        EXPECT_EQ(std::memcmp(gpu_s.data(), cpu_s.data(), gpu_s.size() * sizeof(GameRecord)), 0)
            << board << ", weighted-search";
    }
}

// ---- registry and CLI -------------------------------------------------------------------------

using gaeval::testing::run_cli;

TEST(GomokuCli, PlayAndBadFlags) {
    auto r =
        run_cli("play --game gomoku --a seed-table --b random --games 40 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"wins\":40"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"board\":\"15\""), std::string::npos) << r.out;
    r = run_cli(
        "play --game gomoku --board 20 --rules standard --opening none --a threat-search "
        "--b seed-table --games 4 --backend cpu");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const char* bad : {"--board 19", "--rules renju", "--opening corner", "--fen startpos"}) {
        r = run_cli(std::string("play --game gomoku --a random --b random ") + bad);
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_EQ(r.err_lines(), 1) << bad << ": " << r.err;
    }
    r = run_cli("perft --game gomoku --depth 2");
    EXPECT_EQ(r.exit_code, 2) << "gomoku has no perft";
    r = run_cli("play --game gomoku --a capture --b random");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("random, seed-table, threat-search"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gaeval::gomoku
