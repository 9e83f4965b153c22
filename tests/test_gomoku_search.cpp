// Gomoku's weighted-search player (a weighted player of depth 2 or more: the reward table
// inside the threat search, games/gomoku/players.hpp): depth 1 stays the seed's player, the
// positional choice of a cell against a cell-by-cell implementation, the table's order of
// defences, the search's wins and blocks with any table, and thread parity of its games.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cli_util.hpp"
#include "games/core/players.hpp"
#include "games/gomoku/game.hpp"
#include "gomoku_test_support.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace gaeval::gomoku {
namespace {

using testing::Naive;
using testing::picture;
using G15 = Game<15>;
using Geo15 = Geometry<15>;
using BB15 = G15::BB;

std::vector<float> seed_weights() {
    std::vector<float> w;
    for (int r = 0; r < kWeightCount; ++r) w.push_back(seed_reward(r));
    return w;
}

// A random clustered position (stones of both sides in the central 9x9), black to move.
Pos<15> clustered(std::mt19937& rng, int stones) {
    Pos<15> q = G15{}.start();
    for (int k = 0; k < stones; ++k) {
        const int c = Geo15::cell(3 + int(rng() % 9), 3 + int(rng() % 9));
        if (q.stones[0].test(c) || q.stones[1].test(c)) continue;
        q.stones[q.count % 2].set(c);
        ++q.count;
    }
    q.side = static_cast<uint8_t>(q.count % 2);
    return q;
}

// threat_potential by the cell-by-cell levels (the opponent's five-points ignored).
int naive_potential(const Naive<15>& b, int s) {
    b.cached_five_point[0] = b.cached_five_point[1] = 0;
    int total = 0;
    for (int x = 0; x < 15; ++x)
        for (int y = 0; y < 15; ++y) {
            if (b.owner[x][y] != -1) continue;
            const int level = b.level(s, x, y);
            total += level == 1 ? 4 : level == 2 ? 2 : level == 3 ? 1 : 0;
        }
    return total;
}

TEST(GomokuSearch, DepthOneIsTheSeedsRewardTablePlayer) {
    G15 g;
    g.opening = Opening::None;
    std::mt19937 rng(3);
    std::vector<float> w = seed_weights();
    w[kAcceptance] = 0.6f;
    for (int t = 0; t < 40; ++t) {
        const Pos<15> p = clustered(rng, 6 + t % 14);
        const DrawAddress at{7, uint32_t(t), 3};
        EXPECT_EQ(g.weighted_move(p, w.data(), 1, at).cell, g.weighted_move(p, w.data(), at).cell);
        EXPECT_EQ(g.weighted_move(p, w.data(), 1, at).cell,
                  reward_table_move<Geo15>(p.stones, p.side, false, w.data(), 7, t, 3));
    }
}

TEST(GomokuSearch, PositionalCellsMatchACellByCellImplementation) {
    // The worth of every candidate (reward of its rank plus the positional term, the latter by
    // the cell-by-cell levels); the choice is among the best cells of the ranks within K |best
    // reward| of the best, each drawn for some draw word.
    std::mt19937 rng(11);
    int with_ties = 0, with_trade = 0;
    for (int t = 0; t < 8; ++t) {
        const Pos<15> p = clustered(rng, 8 + 2 * t);
        const int side = p.side;
        const BB15 empty = Geo15::board().minus(p.stones[0] | p.stones[1]);
        Levels<BB15> levels[2];
        both_levels<Geo15>(p.stones, empty, false, levels);
        BB15 ranks[kRanks];
        rank_cells(levels[side], levels[side ^ 1], candidate_cells<Geo15>(p.stones, empty, levels),
                   ranks);
        std::vector<float> w = seed_weights();
        for (float k : {0.0f, 0.9f}) {
            w[kAcceptance] = k;
            float best_reward = -1e9f;
            for (int r = 0; r < kRanks; ++r)
                if (ranks[r].any()) best_reward = std::max(best_reward, w[r]);
            float best = -1e9f;
            std::set<int> expected, seen, best_rank_cells;
            for (int r = 0; r < kRanks; ++r) {
                if (w[r] < best_reward - k * std::abs(best_reward)) continue;
                for (int c = 0; c < Geo15::kCellRange; ++c) {
                    if (!ranks[r].test(c)) continue;
                    if (w[r] == best_reward) best_rank_cells.insert(c);
                    Naive<15> b(p, false);
                    b.owner[Geo15::column_of(c)][Geo15::row_of(c)] = side;
                    const float v =
                        w[r] + float(naive_potential(b, side) - naive_potential(b, side ^ 1));
                    if (v > best) expected.clear();
                    if (v >= best) {
                        best = v;
                        expected.insert(c);
                    }
                }
            }
            // Draw word x_i = ceil(i 2^32 / n) picks the i-th best cell (below()).
            const uint64_t n = expected.size();
            for (uint64_t i = 0; i < n; ++i)
                seen.insert(positional_cell<Geo15>(p.stones, side, false, ranks, w.data(),
                                                   uint32_t(((i << 32) + n - 1) / n)));
            EXPECT_EQ(seen, expected) << "position " << t << ", K " << k;
            with_ties += n > 1;
            for (int c : expected) with_trade += best_rank_cells.count(c) == 0;
        }
    }
    EXPECT_GT(with_ties, 0);
    EXPECT_GT(with_trade, 0) << "K 0.9: a lesser rank's cell wins by its position";
}

TEST(GomokuSearch, DefencesFollowTheTablesOrder) {
    float w[kWeightCount];
    for (int r = 0; r < kWeightCount; ++r) w[r] = seed_reward(r);
    int order[kRanks];
    ranks_by_reward(w, order);
    for (int i = 0; i < kRanks; ++i) EXPECT_EQ(order[i], i) << "the seed table: rank order";
    // Rank 10 first, ranks 3 and 5 level (index order), rank 0 last.
    const float table[kWeightCount] = {-1, 5, 6, 7, 3, 7, 2, 1, 0.5f, 0.25f, 9, 0};
    ranks_by_reward(table, order);
    const int expected[kRanks] = {10, 3, 5, 2, 1, 4, 6, 7, 8, 9, 0};
    for (int i = 0; i < kRanks; ++i) EXPECT_EQ(order[i], expected[i]) << i;
}

TEST(GomokuSearch, TheSearchWinsAndBlocksWithAnyTable) {
    G15 g;
    g.opening = Opening::None;
    // A table that prefers quiet moves to everything: at depth 1 it neither wins nor blocks.
    std::vector<float> quiet(kWeightCount, 1.0f);
    quiet[10] = 100.0f;
    quiet[kAcceptance] = 0.0f;
    const auto vcf = picture<15>(
        {"", ".......O", "", "...OXXX", ".......X", ".......X", "...OXXX", ".......O"}, 0);
    Pos<15> q = vcf;
    for (int ply = 0; ply < 8 && !g.is_over(q); ++ply) {
        const DrawAddress at{1, 0, uint32_t(ply)};
        q = g.make(q, q.side == 0 ? g.weighted_move(q, quiet.data(), 2, at)
                                  : g.policy_move(q, kSeedTable, at));
    }
    EXPECT_TRUE(g.is_over(q));
    EXPECT_EQ(g.winner(q), 0) << "the VCF comes before the table";
    const auto block = picture<15>({"", "", ".XX", "", "OOO.O"}, 0);
    for (uint32_t seed = 0; seed < 10; ++seed) {
        const DrawAddress at{seed, 0, 0};
        EXPECT_EQ(g.weighted_move(block, quiet.data(), 2, at).cell, Geo15::cell(3, 4));
        EXPECT_NE(g.weighted_move(block, quiet.data(), 1, at).cell, Geo15::cell(3, 4));
    }
}

games::PlayerData builtin(const char* name) {
    games::PlayerData p;
    EXPECT_TRUE(games::builtin_player(name, games::find_game("gomoku").info(), &p)) << name;
    return p;
}

TEST(GomokuSearch, SameBitsOnOneAndTwoThreadsAndStrongerThanTheTableAlone) {
    const auto session = games::find_game("gomoku").open({});
    games::PlayRequest r;
    r.a.kind = PlayerKind::Weighted;
    r.a.weights = seed_weights();
    r.a.depth = 2;
    r.a.label = "seed table, depth 2";
    r.b = builtin("seed-table");
    r.games = 200;
    r.seed = 23;
    const auto one = games::play(*session, r, resolve_backend("cpu", 1));
    const auto two = games::play(*session, r, resolve_backend("cpu", 2));
    ASSERT_EQ(one.size(), two.size());
    EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
    const games::PlaySummary s = games::summarize(one);
    EXPECT_GT(s.wins, 2 * s.losses) << s.wins << " wins, " << s.losses << " losses";
}

TEST(GomokuSearch, PlayerFilesRecordTheDepth) {
    const std::string file = std::string(GAEVAL_SOURCE_DIR) + "/data/gomoku/seed-table-search.json";
    const games::PlayerFile read = games::read_player_file(file, games::find_game("gomoku").info());
    EXPECT_EQ(read.depth, 2);
    ASSERT_EQ(read.weights.size(), size_t(kWeightCount));
    for (int r = 0; r < kWeightCount; ++r) EXPECT_EQ(read.weights[r], seed_reward(r)) << r;
    auto run = gaeval::testing::run_cli("play --game gomoku --a " + file +
                                        " --b seed-table --games 20 --backend cpu --json");
    EXPECT_EQ(run.exit_code, 0) << run.err;
    run = gaeval::testing::run_cli(
        "play --game gomoku --a seed-table --depth-a 2 --b random "
        "--games 2 --backend cpu");
    EXPECT_EQ(run.exit_code, 2) << "a built-in policy has no depth";
}

}  // namespace
}  // namespace gaeval::gomoku
