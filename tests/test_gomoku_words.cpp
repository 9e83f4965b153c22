// The reward-table player one board word at a time (games/gomoku/table_words.hpp) against the
// whole-board form it replaced, kept here as the reference: the same cell from the same draws on
// random positions of both board sizes and rule sets, with the seed's table and random tables.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "games/gomoku/game.hpp"

namespace gaeval::gomoku {
namespace {

// The whole-board reward-table player as it was before table_words.hpp (players.hpp's
// reward_table_move: both sides' levels as bitboards, 11 rank sets, the present ranks as an
// array).
template <class Geo, class BB>
int reference_reward_table_move(const BB* stones, int side, bool exact, const float* weights,
                                uint64_t seed, uint32_t game, uint32_t ply) {
    const BB empty = Geo::board().minus(stones[0] | stones[1]);
    Levels<BB> levels[2];
    both_levels<Geo>(stones, empty, exact, levels);
    BB ranks[kRanks];
    rank_cells(levels[side], levels[side ^ 1], candidate_cells<Geo>(stones, empty, levels), ranks);
    bool present[kRanks];
    for (int r = 0; r < kRanks; ++r) present[r] = ranks[r].any();
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    // accepted_rank as it was: the present ranks as an array
    int r = -1;
    {
        bool any = false;
        float best = 0.0f;
        for (int q = 0; q < kRanks; ++q)
            if (present[q] && (!any || best < weights[q])) {
                best = weights[q];
                any = true;
            }
        if (any) {
            const float acceptance = weights[kAcceptance] > 0.0f ? weights[kAcceptance] : 0.0f;
            const float threshold = best - acceptance * (best < 0.0f ? -best : best);
            int accepted = 0;
            for (int q = 0; q < kRanks; ++q)
                if (present[q] && !(weights[q] < threshold)) ++accepted;
            int pick = static_cast<int>(below(draw.v[0], static_cast<uint32_t>(accepted)));
            for (int q = 0; q < kRanks && r < 0; ++q) {
                if (!present[q] || weights[q] < threshold) continue;
                if (pick-- == 0) r = q;
            }
        }
    }
    if (r < 0) return empty.lowest();
    const uint32_t cells = static_cast<uint32_t>(ranks[r].count());
    return ranks[r].nth(static_cast<int>(below(draw.v[1], cells)));
}

// A random position of `stones` stones (colours alternate, black first) whose stones cluster
// around a few centres, so that lines, fours, threes and five-points are common.
template <int N>
Pos<N> random_position(std::mt19937_64& rng, int stones) {
    Game<N> g;
    Pos<N> p = g.start();
    std::uniform_int_distribution<int> coord(0, N - 1), spread(-3, 3), pick(0, 3);
    int cx[4], cy[4];
    for (int k = 0; k < 4; ++k) {
        cx[k] = coord(rng);
        cy[k] = coord(rng);
    }
    for (int placed = 0, tries = 0; placed < stones && p.count < N * N - 1; ++tries) {
        const int k = pick(rng);
        int x = cx[k] + spread(rng), y = cy[k] + spread(rng);
        if (placed % 7 == 6 || tries > 20 * stones) {  // now and then anywhere, edges included
            x = coord(rng);
            y = coord(rng);
        }
        if (x < 0 || y < 0 || x >= N || y >= N) continue;
        const int c = Geometry<N>::cell(x, y);
        if (p.stones[0].test(c) || p.stones[1].test(c)) continue;
        p.stones[p.side].set(c);
        ++p.count;
        p.side ^= 1;
        ++placed;
    }
    return p;
}

// Tables: the seed's, tables with equal rewards (ties among ranks), negative rewards, and K
// from below 0 to above 1.
std::vector<float> random_table(std::mt19937_64& rng, int kind) {
    std::vector<float> w(kWeightCount);
    std::uniform_real_distribution<float> reward(-4.0f, 64.0f), k(-0.5f, 1.5f);
    std::uniform_int_distribution<int> small(0, 3);
    for (int r = 0; r < kWeightCount; ++r) {
        switch (kind) {
            case 0:
                w[r] = seed_reward(r);
                break;
            case 1:
                w[r] = r == kAcceptance ? k(rng) : reward(rng);
                break;
            default:
                w[r] = r == kAcceptance ? k(rng) : static_cast<float>(small(rng));
                break;
        }
    }
    return w;
}

template <int N>
void compare_on_random_positions(int positions, uint64_t seed, bool check_coverage = true) {
    using Geo = Geometry<N>;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> stones(0, N * N / 2), kind(0, 2);
    int checked = 0, with_five_point = 0, off_quiet = 0;
    for (int i = 0; i < positions; ++i) {
        const Pos<N> p = random_position<N>(rng, i % 10 == 0 ? i % 3 : stones(rng));
        const std::vector<float> w = random_table(rng, kind(rng));
        for (int exact = 0; exact < 2; ++exact)
            for (int side = 0; side < 2; ++side) {
                const uint32_t game = static_cast<uint32_t>(i), ply = static_cast<uint32_t>(side);
                const int expected = reference_reward_table_move<Geo>(p.stones, side, exact != 0,
                                                                      w.data(), seed, game, ply);
                const int got = reward_table_cell<Geo>(
                    p.stones[0], p.stones[1], side, exact != 0, [&](int r) { return w[r]; }, seed,
                    game, ply);
                ASSERT_EQ(got, expected) << "N " << N << " position " << i << " side " << side
                                         << " exact " << exact << " stones " << p.count;
                // the wrapper and the game's players take the same path
                ASSERT_EQ(
                    reward_table_move<Geo>(p.stones, side, exact != 0, w.data(), seed, game, ply),
                    expected);
                ++checked;
                const typename Geo::BB empty = Geo::board().minus(p.stones[0] | p.stones[1]);
                if (five_points<Geo>(p.stones[side ^ 1], empty, exact != 0).any())
                    ++with_five_point;
                Levels<typename Geo::BB> levels[2];
                both_levels<Geo>(p.stones, empty, exact != 0, levels);
                const auto& own = levels[side];
                if ((own.level[0] | own.level[1] | own.level[2]).test(expected)) ++off_quiet;
            }
    }
    // The positions reach the cases that matter: an opponent five-point, and threat moves.
    if (!check_coverage) return;
    EXPECT_GT(with_five_point, checked / 20) << "too few positions with a five-point";
    EXPECT_GT(off_quiet, checked / 10) << "too few threat moves chosen";
}

TEST(GomokuWords, SameCellAsTheWholeBoardTable15) { compare_on_random_positions<15>(1500, 11); }

TEST(GomokuWords, SameCellAsTheWholeBoardTable20) { compare_on_random_positions<20>(600, 12); }

TEST(GomokuWords, SameCellOnSmallBoards) {
    compare_on_random_positions<5>(300, 13, false);
    compare_on_random_positions<9>(300, 14, false);
}

// The seed-table policy and the depth-1 weighted player with the seed's table choose alike,
// through the game (quiet_policy_move and policy_move agree: one code path).
TEST(GomokuWords, SeedTablePolicyIsTheReferenceTable) {
    std::mt19937_64 rng(15);
    Game15 g;
    std::vector<float> seed_table(kWeightCount);
    for (int r = 0; r < kWeightCount; ++r) seed_table[r] = seed_reward(r);
    for (int i = 0; i < 300; ++i) {
        const Pos<15> p = random_position<15>(rng, 1 + i % 60);
        const DrawAddress at{77, static_cast<uint32_t>(i), 5};
        const int expected = reference_reward_table_move<Geometry<15>>(
            p.stones, p.side, false, seed_table.data(), 77, at.game, at.ply);
        EXPECT_EQ(g.policy_move(p, kSeedTable, at).cell, expected);
        EXPECT_EQ(g.quiet_policy_move(p, kSeedTable, at).cell, expected);
        EXPECT_EQ(g.weighted_move(p, seed_table.data(), at).cell, expected);
    }
}

// Threat-search is a searching policy: a batch with it plays in the searching kernels, and
// seed-table in the playout kernels.
TEST(GomokuWords, ThreatSearchPolicyIsInTheSearchSet) {
    Player<Game15> threat, table, random;
    threat.kind = table.kind = PlayerKind::Policy;
    threat.policy = kThreatSearch;
    table.policy = kSeedTable;
    EXPECT_EQ(player_set<Game15>(threat), PlayerSet::Search);
    EXPECT_EQ(player_set<Game15>(table), PlayerSet::Playout);
    EXPECT_EQ(player_set<Game15>(random), PlayerSet::Playout);
}

// A batch of random and seed-table players plays the same games in the playout kernels (which
// compile quiet_policy_move only) as in the searching ones (policy_move): same plies, winner and
// move hash, on both rule sets.
TEST(GomokuWords, PlayoutSetPlaysTheGamesOfTheSearchSet) {
    for (int exact = 0; exact < 2; ++exact) {
        Game15 g;
        g.rule = exact ? RuleSet::Standard : RuleSet::Freestyle;
        Player<Game15> random, table;
        table.kind = PlayerKind::Policy;
        table.policy = kSeedTable;
        const Player<Game15> pairs[3][2] = {{table, table}, {random, table}, {table, random}};
        for (const auto& pair : pairs)
            for (uint32_t i = 0; i < 6; ++i) {
                const GameRecord playout = play_match<Game15, PlayerSet::Playout>(
                    g, g.start(), pair[0], pair[1], 5, i, 400);
                const GameRecord search = play_match<Game15, PlayerSet::Search>(
                    g, g.start(), pair[0], pair[1], 5, i, 400);
                EXPECT_EQ(playout.plies, search.plies);
                EXPECT_EQ(playout.winner, search.winner);
                EXPECT_EQ(playout.move_hash, search.move_hash);
                EXPECT_GT(playout.plies, 2u);
            }
    }
}

}  // namespace
}  // namespace gaeval::gomoku
