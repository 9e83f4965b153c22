// Features on hand-built positions, counted by hand from the definitions in
// games/ataxx/features.hpp.
#include <gtest/gtest.h>

#include <array>

#include "ataxx_test_support.hpp"

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
