// Features on hand-built positions, counted by hand from the definitions in
// games/ataxx/features.hpp.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "ataxx_test_support.hpp"
#include "games/core/search.hpp"
#include "host/ataxx/fen.hpp"
#include "host/games/registry.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

using Counts = std::array<int, kFeatureCount>;

template <class Fixture>
Counts features_of(const Fixture& f, int player) {
    Counts out{};
    features(f.game, f.pos, player, out.data());
    return out;
}

int at(const Counts& c, Feature f) { return c[static_cast<int>(f)]; }

TEST(AtaxxFeatures, CornerGroupNextToOneOpponent) {
    // x on a1 and b1, o on b2.
    Square7Fixture f(fen_setup("7/7/7/7/7/1o5/xx5 x 0 1"));
    // x: a1's empty neighbours are a2 (exposure 1), b1's a2, c1, c2 (3). o can reach every
    // hole: a2 touches two x pieces, c1 and c2 one each. b2 has 6 empty neighbours (no bucket).
    const Counts x = {2,
                      1,
                      /*own safe, near 1-3*/ 0,
                      1,
                      0,
                      1,
                      /*risky 1, 2, 3+*/ 2,
                      1,
                      0,
                      /*own holes*/ 3,
                      /*opponent safe, near 1-3*/ 0,
                      0,
                      0,
                      0,
                      /*holes*/ 6};
    EXPECT_EQ(features_of(f, 0), x);
    // o: every empty neighbour of b2 is within x's reach and touches b2 alone.
    const Counts o = {1, 2, 0, 0, 0, 0, 6, 0, 0, 6, 0, 1, 0, 1, 3};
    EXPECT_EQ(features_of(f, 1), o);
}

TEST(AtaxxFeatures, SafePiecesAndHolesOutOfReach) {
    // x on a1 walled in by o on a2, b1, b2.
    Square7Fixture f(fen_setup("7/7/7/7/7/oo5/xo5 x 0 1"));
    const Counts x = features_of(f, 0);
    EXPECT_EQ(at(x, Feature::OwnSafe), 1);
    EXPECT_EQ(at(x, Feature::OwnHoles), 0);
    EXPECT_EQ(
        at(x, Feature::RiskyHoles1) + at(x, Feature::RiskyHoles2) + at(x, Feature::RiskyHoles3Plus),
        0);
    // b1: c1, c2 empty; a2: a3, b3 empty; b2: c1, c2, a3, b3, c3 empty.
    EXPECT_EQ(at(x, Feature::OpponentNearSafe2), 2);
    EXPECT_EQ(at(x, Feature::OpponentSafe), 0);
    EXPECT_EQ(at(x, Feature::OpponentHoles), 5);
    // Gaps count as filled: x on a1 behind gaps is safe.
    Square7Fixture gaps(fen_setup("o6/7/7/7/7/--5/x-5 x 0 1"));
    EXPECT_EQ(at(features_of(gaps, 0), Feature::OwnSafe), 1);
    // A hole that no opponent can reach is not risky: o far away on g7.
    Square7Fixture far(fen_setup("6o/7/7/7/7/7/xx5 x 0 1"));
    const Counts lone = features_of(far, 0);
    EXPECT_EQ(at(lone, Feature::OwnHoles), 4);
    EXPECT_EQ(at(lone, Feature::RiskyHoles1) + at(lone, Feature::RiskyHoles2), 0);
}

TEST(AtaxxFeatures, ThreeRiskyAndOpponentsAsOneSide) {
    // Three players on hex:2: x holds three cells around the empty centre, o and y sit on
    // corners; the centre touches all three x pieces and o can jump there.
    const GameSetup s = fen_setup("o2/1xx1/1x3/4/2y x 0 1", "hex:2", "genetic-game", 3);
    TableFixture<1, 4> f(s);
    const Counts x = features_of(f, 0);
    EXPECT_EQ(at(x, Feature::OwnPieces), 3);
    EXPECT_EQ(at(x, Feature::OpponentPieces), 2);  // o and y together
    EXPECT_EQ(at(x, Feature::RiskyHoles3Plus), 1);
}

}  // namespace

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

// The weighted player's features: each count over the playable cells, the bad ones (every count
// of the opponents' pieces and the risky holes) as complements, all in [0, 1].
TEST(AtaxxUnitFeatures, CountsOverPlayableCellsBadOnesComplemented) {
    // The hand-counted position above, and one with two gaps (47 playable cells).
    for (const char* fen : {"7/7/7/7/7/1o5/xx5 x 0 1", "7/7/2-1-2/7/7/1o5/xx5 x 0 1"}) {
        Square7Fixture f(fen_setup(fen));
        const int cells = f.game.geo.playable().count();
        EXPECT_EQ(cells, std::string(fen).find('-') == std::string::npos ? 49 : 47);
        for (int player = 0; player < 2; ++player) {
            const Counts counts = features_of(f, player);
            float unit[kFeatureCount];
            f.game.features(f.pos, player, unit);
            for (int i = 0; i < kFeatureCount; ++i) {
                const bool bad =
                    i == int(Feature::OpponentPieces) ||
                    (i >= int(Feature::RiskyHoles1) && i <= int(Feature::RiskyHoles3Plus)) ||
                    i >= int(Feature::OpponentSafe);
                EXPECT_EQ(bad_for_owner(i), bad) << "feature " << i;
                const float expected = float(bad ? cells - counts[i] : counts[i]) / float(cells);
                EXPECT_EQ(unit[i], expected) << fen << " player " << player << " feature " << i;
                EXPECT_GE(unit[i], 0.0f);
                EXPECT_LE(unit[i], 1.0f);
            }
        }
    }
    // x: 2 own pieces of 49, o's one piece complemented: 48 / 49.
    Square7Fixture f(fen_setup("7/7/7/7/7/1o5/xx5 x 0 1"));
    float unit[kFeatureCount];
    f.game.features(f.pos, 0, unit);
    EXPECT_EQ(unit[int(Feature::OwnPieces)], 2.0f / 49.0f);
    EXPECT_EQ(unit[int(Feature::OpponentPieces)], 48.0f / 49.0f);
}

// A player file of version 1 weighted the raw counts; read with GameInfo's factors it must rank
// every pair of moves with distinct raw scores as the raw-count player does (integer weights:
// raw scores differ by at least 1, unit scores by at least 1 / 49, far above float rounding),
// on random positions of both rule sets.
TEST(AtaxxUnitFeatures, Version1WeightsRankMovesAsOnRawCounts) {
    const games::GameInfo& info = games::find_game("ataxx").info();
    ASSERT_EQ(info.version1_weight_factors.size(), std::size_t(kFeatureCount));
    std::mt19937 rng(14);
    int pairs = 0;
    for (int trial = 0; trial < 150; ++trial) {
        const GameSetup s =
            random_setup(rng, Shape{}, trial % 2 ? RuleSet::Ataxx : RuleSet::GeneticGame, 2,
                         20 + trial % 50, trial % 3 == 0 ? 8 : 0);
        Square7Fixture f(s);
        if (f.game.is_over(f.pos)) continue;
        int raw_weights[kFeatureCount];
        float converted[kFeatureCount];
        for (int i = 0; i < kFeatureCount; ++i) {
            raw_weights[i] = static_cast<int>(rng() % 9) - 4;
            converted[i] = float(raw_weights[i]) * info.version1_weight_factors[i];
        }
        const int us = f.pos.side;
        std::vector<long> raw_scores;
        std::vector<float> unit_scores;
        f.game.for_each_move(f.pos, [&](Move m) {
            const auto child = f.game.make(f.pos, m);
            int counts[kFeatureCount];
            float unit[kFeatureCount];
            features(f.game, child, us, counts);
            f.game.features(child, us, unit);
            long raw = 0;
            for (int i = 0; i < kFeatureCount; ++i) raw += long(raw_weights[i]) * counts[i];
            raw_scores.push_back(raw);
            unit_scores.push_back(weighted_score<kFeatureCount>(converted, unit));
        });
        for (std::size_t a = 0; a < raw_scores.size(); ++a)
            for (std::size_t b = a + 1; b < raw_scores.size(); ++b, ++pairs) {
                const int raw_order =
                    (raw_scores[a] > raw_scores[b]) - (raw_scores[a] < raw_scores[b]);
                const int unit_order =
                    (unit_scores[a] > unit_scores[b]) - (unit_scores[a] < unit_scores[b]);
                // Raw ties may come apart by float rounding (a v1 player may then break a tie
                // differently), by far less than the 1 / N that separates distinct raw scores.
                if (raw_order == 0)
                    ASSERT_LT(std::fabs(unit_scores[a] - unit_scores[b]), 1e-4f) << write_fen(s);
                else
                    ASSERT_EQ(raw_order, unit_order) << write_fen(s) << " moves " << a << ", " << b;
            }
    }
    EXPECT_GT(pairs, 10000);
}

// The features of features.hpp counted cell by cell from their definitions, the other way round:
// an empty cell is an own hole when an own piece is in its grow range, and an opponent can move
// into it when an opponent piece is in its grow or jump range (the ranges are symmetric).
template <class G>
Counts features_cell_by_cell(const G& game, const typename G::Pos& p, int player) {
    const auto own = p.of(player);
    const auto opp = game.opponents(p, player);
    const auto empty = game.geo.playable().minus(own | opp);
    Counts out{};
    for (int c = 0; c < 64 * G::BB::kWords; ++c) {
        if (!game.geo.playable().test(c)) continue;
        const int exposure = (game.geo.grow_of(c) & empty).count();
        if (own.test(c)) ++out[int(Feature::OwnPieces)];
        if (opp.test(c)) ++out[int(Feature::OpponentPieces)];
        if (own.test(c) && exposure <= 3) ++out[int(Feature::OwnSafe) + exposure];
        if (opp.test(c) && exposure <= 3) ++out[int(Feature::OpponentSafe) + exposure];
        if (!empty.test(c)) continue;
        const int own_near = (game.geo.grow_of(c) & own).count();
        const bool reached = ((game.geo.grow_of(c) | game.geo.jump_of(c)) & opp).any();
        if (own_near > 0) ++out[int(Feature::OwnHoles)];
        if ((game.geo.grow_of(c) & opp).any()) ++out[int(Feature::OpponentHoles)];
        if (reached && own_near == 1) ++out[int(Feature::RiskyHoles1)];
        if (reached && own_near == 2) ++out[int(Feature::RiskyHoles2)];
        if (reached && own_near >= 3) ++out[int(Feature::RiskyHoles3Plus)];
    }
    return out;
}

// Each playable cell of the fixture's board empty or a piece of one of `players`, at random.
template <class Fixture>
void scatter_pieces(Fixture& f, int players, std::mt19937_64& rng) {
    for (auto& pieces : f.pos.pieces) pieces = {};
    const auto playable = f.game.geo.playable();
    const int empty_share = static_cast<int>(rng() % 4);  // 0: full boards
    for (int c = 0; c < 64 * decltype(playable)::kWords; ++c) {
        if (!playable.test(c) || static_cast<int>(rng() % 4) < empty_share) continue;
        f.pos.pieces[rng() % static_cast<uint64_t>(players)].set(c);
    }
}

// features() (whose classes of exposure and risk are counted in registers) against the cell by
// cell count, on random positions of every board kind, every player's view.
template <class Fixture>
int expect_features_cell_by_cell(const GameSetup& setup, int positions, uint64_t seed) {
    Fixture f(setup);
    std::mt19937_64 rng(seed);
    int compared = 0;
    for (int n = 0; n < positions; ++n) {
        scatter_pieces(f, setup.players, rng);
        for (int player = 0; player < setup.players; ++player, ++compared) {
            const Counts expected = features_cell_by_cell(f.game, f.pos, player);
            Counts got{};
            features(f.game, f.pos, player, got.data());
            EXPECT_EQ(got, expected)
                << write_fen(setup) << " position " << n << " player " << player;
            if (got != expected) return compared;
        }
    }
    return compared;
}

TEST(AtaxxFeatures, RandomPositionsCountedCellByCell) {
    const auto setup = [](const std::string& board, int players) {
        return start_setup(parse_board_spec(board), parse_rule_set("genetic-game"), players);
    };
    EXPECT_EQ(expect_features_cell_by_cell<Square7Fixture>(setup("square8:7x7", 2), 3000, 1), 6000);
    EXPECT_EQ((expect_features_cell_by_cell<TableFixture<1, 2>>(setup("hex:3", 2), 2000, 2)), 4000);
    EXPECT_EQ((expect_features_cell_by_cell<TableFixture<1, 4>>(setup("square8:7x7", 4), 1000, 3)),
              4000);
    EXPECT_EQ((expect_features_cell_by_cell<TableFixture<2, 4>>(setup("hex:5", 3), 1000, 4)), 3000);
    EXPECT_EQ((expect_features_cell_by_cell<TableFixture<4, 2>>(setup("square8:15x15", 2), 500, 5)),
              1000);
    EXPECT_EQ((expect_features_cell_by_cell<TableFixture<4, 4>>(setup("offset:16x15", 4), 300, 6)),
              1200);
}

}  // namespace
