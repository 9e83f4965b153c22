// GAPI1 fitness terms on hand-computed placements (shared data S1, S2a, S2b and small cases).
#include <gtest/gtest.h>

#include <vector>

#include "games/core/rng.hpp"
#include "pile_in_util.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"

namespace gaeval::pile_in {
namespace {

using testing::line_scenario;
using testing::make_scenario;
using testing::move_gene;

Breakdown score(const Scenario& s, const std::vector<uint32_t>& genes) {
    return gapi1_evaluate(s, GenomeGenes{genes.data()});
}

TEST(PileInGeometry, CircleGapIsEdgeToEdge) {
    EXPECT_FLOAT_EQ(circle_gap(0, 0, 16, 40, 0, 16), 8.0f);
    EXPECT_FLOAT_EQ(circle_gap(0, 0, 16, 0, 30, 16), -2.0f);   // overlapping
    EXPECT_FLOAT_EQ(circle_gap(0, 0, 16, 30, 40, 20), 14.0f);  // 3-4-5 triangle
}

TEST(PileInGeometry, PackedMovesRoundTrip) {
    for (Move m : {Move{0, 0}, Move{-32000, 0}, Move{12345, -23456}, Move{-1, 1}}) {
        Move back = unpack_move(pack_move(m));
        EXPECT_EQ(back.dx, m.dx);
        EXPECT_EQ(back.dy, m.dy);
    }
    EXPECT_TRUE(move_within_limit(Move{32000, 0}));
    EXPECT_FALSE(move_within_limit(Move{22628, 22628}));  // 32001.5 units long
}

// S2a: a straight 3" move leaves a gap of exactly 1" = reach: in range (inclusive boundary),
// although 76.2 and 25.4 are not binary fractions.
TEST(PileInFitness, S2aInclusiveBoundaryGapEqualToReachIsInRange) {
    Scenario s = line_scenario(133.6f, 25.4f);
    std::vector<uint32_t> straight(5, pack_move(Move{0, MoveScale}));
    Breakdown b = score(s, straight);
    EXPECT_EQ(b.in_range_count, 5);
    EXPECT_EQ(b.overlap_count, 0);
    EXPECT_EQ(b.isolated_count, 0);  // side by side, touching: gap 0 <= 1/2"
    EXPECT_NEAR(b.distance_mm, 5 * 25.4, 1e-3);
    EXPECT_NEAR(b.fitness, 1000 - 5 * 25.4, 1e-3);
}

// S2b: 4.5" away, reach 1": nobody can reach; the best plan moves everyone 3" straight.
TEST(PileInFitness, S2bUnreachableEvenWithFullMoves) {
    Scenario s = line_scenario(146.3f, 25.4f);
    std::vector<uint32_t> straight(5, pack_move(Move{0, MoveScale}));
    Breakdown b = score(s, straight);
    EXPECT_EQ(b.in_range_count, 0);
    EXPECT_NEAR(b.fitness, -5 * 38.1, 1e-3);  // gap 146.3 - 76.2 - 32 = 38.1 each
    std::vector<uint32_t> still(5, pack_move(Move{0, 0}));
    EXPECT_LT(score(s, still).fitness, b.fitness);
}

// S1: every model straight into base contact is the optimum, 1000 up to gene rounding.
TEST(PileInFitness, S1AllInBaseContactScoresTheMaximum) {
    Scenario s = line_scenario(82.8f, 12.7f);
    std::vector<uint32_t> contact(5, move_gene(s, 0, 50.8));
    Breakdown b = score(s, contact);
    EXPECT_EQ(b.in_range_count, 5);
    EXPECT_EQ(b.overlap_count, 0);
    EXPECT_GT(b.fitness, 999.99f);
    EXPECT_LE(b.fitness, 1000.0f);
}

TEST(PileInFitness, OverlapCostsBothModels) {
    // Two 32 mm friends 40 mm apart, an enemy far away; move model 1 onto model 0.
    Scenario s = make_scenario({{0, 0, 32}, {40, 0, 32}}, {{0, 500, 32}}, 12.7f);
    std::vector<uint32_t> genes = {pack_move(Move{0, 0}), move_gene(s, -20, 0)};
    Breakdown b = score(s, genes);
    EXPECT_EQ(b.overlap_count, 2);
    EXPECT_EQ(b.isolated_count, 0);
    // Distances: model 0: 500 - 32 = 468; model 1 at (20, 0): sqrt(20^2 + 500^2) - 32.
    const double d1 = std::sqrt(20.0 * 20.0 + 500.0 * 500.0) - 32.0;
    EXPECT_NEAR(b.distance_mm, 468.0 + d1, 1e-2);
    EXPECT_NEAR(b.fitness, -800 - 468.0 - d1, 1e-2);
}

TEST(PileInFitness, OverlappingAnEnemyCounts) {
    Scenario s = make_scenario({{0, 0, 32}, {32, 0, 32}}, {{0, 60, 32}}, 12.7f);
    // Model 0 moves 40 mm up: centre distance 20 < 32: overlaps the enemy (and is in range).
    std::vector<uint32_t> genes = {move_gene(s, 0, 40), pack_move(Move{0, 0})};
    ModelOutcome o = gapi1_model(s, GenomeGenes{genes.data()}, 0);
    EXPECT_TRUE(o.overlaps);
    EXPECT_TRUE(o.in_range);
    EXPECT_NEAR(o.nearest_enemy_gap, -12.0f, 1e-3);
    // Overlapping gives no distance bonus: the distance term is clamped at 0.
    Breakdown b = score(s, genes);
    EXPECT_GE(b.distance_mm, 0.0f);
}

TEST(PileInFitness, ModelWithoutFriendWithinCoherency) {
    // Friends 32 mm bases, centres 45 mm apart: gap 13 > 12.7 (1/2"): both isolated.
    Scenario s = make_scenario({{0, 0, 32}, {45, 0, 32}}, {{0, 300, 32}}, 12.7f);
    std::vector<uint32_t> still(2, pack_move(Move{0, 0}));
    EXPECT_EQ(score(s, still).isolated_count, 2);
    // 44.7 mm apart: gap 12.7 = coherency: inclusive, both have a friend.
    Scenario t = make_scenario({{0, 0, 32}, {44.7f, 0, 32}}, {{0, 300, 32}}, 12.7f);
    EXPECT_EQ(score(t, still).isolated_count, 0);
}

TEST(PileInFitness, SingleModelUnitIsCoherent) {
    Scenario s = make_scenario({{0, 0, 32}}, {{0, 100, 32}}, 12.7f);
    std::vector<uint32_t> still(1, pack_move(Move{0, 0}));
    EXPECT_EQ(score(s, still).isolated_count, 0);
}

TEST(PileInFitness, JustOutsideReachIsOutOfRange) {
    // Gap 12.8 mm with reach 12.7 mm: out of range (0.1 mm is far above the 1 um tolerance).
    Scenario s = make_scenario({{0, 0, 32}, {32, 0, 32}}, {{0, 44.8f, 32}}, 12.7f);
    std::vector<uint32_t> still(2, pack_move(Move{0, 0}));
    ModelOutcome o = gapi1_model(s, GenomeGenes{still.data()}, 0);
    EXPECT_FALSE(o.in_range);
    EXPECT_NEAR(o.nearest_enemy_gap, 12.8f, 1e-4);
}

TEST(PileInFitness, HandComputedBreakdown) {
    // Model 0 ends in range of the enemy (gap 5), model 1 stays 2" behind (gap 55.8 to the
    // enemy, touching model 0's start? no: model 0 moved away, so 1 is isolated).
    Scenario s = make_scenario({{0, 0, 32}, {32, 0, 32}}, {{0, 100, 32}}, 12.7f);
    std::vector<uint32_t> genes = {move_gene(s, 0, 63), pack_move(Move{0, 0})};
    Breakdown b = score(s, genes);
    // Model 0 at (0, 63): gap to enemy 100 - 63 - 32 = 5 -> in range; nearest friend: model 1
    // at (32, 0): centre distance sqrt(32^2 + 63^2) = 70.66, gap 38.66 > 12.7 -> isolated.
    // Model 1: gap to enemy sqrt(32^2 + 100^2) - 32 = 72.995; isolated too.
    EXPECT_EQ(b.in_range_count, 1);
    EXPECT_EQ(b.isolated_count, 2);
    EXPECT_EQ(b.overlap_count, 0);
    const double d0 = 5.0, d1 = std::sqrt(32.0 * 32 + 100.0 * 100) - 32.0;
    EXPECT_NEAR(b.distance_mm, d0 + d1, 2e-3);
    EXPECT_NEAR(b.fitness, 200 - 800 - d0 - d1, 2e-3);
    EXPECT_EQ(b.integer_points(), 200 - 800);
}

TEST(PileInFitness, OvalsAreScoredAsTheirEnclosingCircle) {
    Scenario s = make_scenario({{0, 0, 32}, {32, 0, 32}}, {{0, 70, 32}}, 12.7f);
    s.enemy[0].base.length = 60;  // 60 x 35 oval lying along x
    s.enemy[0].base.width = 35;
    s.enemy[0].base.shape = BaseShape::Oval;
    std::vector<uint32_t> still(2, pack_move(Move{0, 0}));
    ModelOutcome o = gapi1_model(s, GenomeGenes{still.data()}, 0);
    EXPECT_NEAR(o.nearest_enemy_gap, 70 - 16 - 30, 1e-4);
}

// The fused pair-wise fitness and the per-model report (best.json) agree exactly, on random
// plans of random scenarios with mixed base sizes.
TEST(PileInFitness, PairwiseFitnessAgreesWithPerModelReport) {
    for (uint32_t trial = 0; trial < 200; ++trial) {
        Scenario s = make_scenario({}, {}, 12.7f);
        Random4 r = philox(trial, Purpose::Test, 0, 0, 0, 0);
        s.friendly_count = 1 + static_cast<int>(below(r.v[0], 24));
        s.enemy_count = 1 + static_cast<int>(below(r.v[1], 24));
        for (int i = 0; i < s.friendly_count + s.enemy_count; ++i) {
            Random4 q = philox(trial, Purpose::Test, 1, static_cast<uint32_t>(i), 0, 0);
            Model& m = i < s.friendly_count ? s.friendly[i] : s.enemy[i - s.friendly_count];
            m.x = 400.0f * unit_float(q.v[0]);
            m.y = 300.0f * unit_float(q.v[1]) + (i < s.friendly_count ? 0.0f : 150.0f);
            m.base.length = m.base.width = 20.0f + 30.0f * unit_float(q.v[2]);
        }
        std::vector<uint32_t> genes(s.friendly_count);
        for (int m = 0; m < s.friendly_count; ++m)
            genes[m] = pack_move(random_move(trial, Purpose::InitMove, 0, 0, m));
        Breakdown b = score(s, genes);
        int in_range = 0, overlapping = 0, isolated = 0;
        float distance = 0;
        for (int m = 0; m < s.friendly_count; ++m) {
            ModelOutcome o = gapi1_model(s, GenomeGenes{genes.data()}, m);
            in_range += o.in_range;
            overlapping += o.overlaps;
            isolated += !o.has_friend;
            distance += max(o.nearest_enemy_gap, 0.0f);
        }
        ASSERT_EQ(b.in_range_count, in_range) << "trial " << trial;
        ASSERT_EQ(b.overlap_count, overlapping) << "trial " << trial;
        ASSERT_EQ(b.isolated_count, isolated) << "trial " << trial;
        ASSERT_EQ(b.distance_mm, distance) << "trial " << trial;
    }
}

// The SIMD-lane evaluator (the CPU backend's) against one plan at a time, bit for bit, on
// random crowded scenarios of 1 to 64 models: every term (in range, overlaps with friends and
// enemies, isolated models, distances, bases too small to overlap) occurs among the plans.
TEST(PileInFitness, LanesGiveTheBitsOfOnePlanAtATime) {
    constexpr int kLanes = 16;
    constexpr uint64_t kBlocks = 3;
    constexpr uint64_t kPlans = kBlocks * kLanes + 5;  // a partial block stays unscored
    int with_overlap = 0, with_range = 0, with_isolated = 0, plans_seen = 0;
    const int friendly_counts[] = {1, 2, 7, 20, 64};
    for (uint32_t trial = 0; trial < 40; ++trial) {
        Scenario s;
        Random4 r = philox(99, Purpose::Test, trial, 0, 0, 0);
        s.friendly_count = friendly_counts[trial % 5];
        s.enemy_count = 1 + static_cast<int>(below(r.v[1], MaxEnemy));
        s.reach_mm = 12.7f + 10.0f * unit_float(r.v[2]);
        s.coherency_mm = 25.4f * unit_float(r.v[3]);
        for (int i = 0; i < s.friendly_count + s.enemy_count; ++i) {
            Random4 q = philox(99, Purpose::Test, trial, 1, static_cast<uint32_t>(i), 0);
            Model& m = i < s.friendly_count ? s.friendly[i] : s.enemy[i - s.friendly_count];
            m.x = 300.0f * unit_float(q.v[0]);
            m.y = 200.0f * unit_float(q.v[1]) + (i < s.friendly_count ? 0.0f : 80.0f);
            const bool tiny = (q.v[3] & 15) == 0;  // radii sum below the tolerance: no overlap
            m.base.length = m.base.width = tiny ? 0.0004f : 20.0f + 30.0f * unit_float(q.v[2]);
        }
        std::vector<uint32_t> genes(kPlans * s.friendly_count);
        for (uint64_t i = 0; i < kPlans; ++i)
            for (int m = 0; m < s.friendly_count; ++m)
                genes[m * kPlans + i] = pack_move(random_move(
                    trial, Purpose::InitMove, 0, static_cast<uint32_t>(i), static_cast<uint32_t>(m)));
        const PlanView plans{genes.data(), kPlans, s.friendly_count};
        std::vector<float> lanes(kPlans, -12345.0f);
        const EvaluateGapi1Lanes<kLanes> op{s, plans, lanes.data()};
        for (uint64_t b = 0; b < kBlocks; ++b) op(b);
        for (uint64_t i = 0; i < kPlans; ++i) {
            const Breakdown one = gapi1_evaluate(s, PopulationGenes{plans, i});
            if (i >= kBlocks * kLanes) {
                ASSERT_EQ(lanes[i], -12345.0f) << "plan " << i << " is past the last block";
                continue;
            }
            ASSERT_EQ(float_bits(lanes[i]), float_bits(one.fitness))
                << "trial " << trial << " plan " << i << ": " << lanes[i] << " vs " << one.fitness;
            with_overlap += one.overlap_count > 0;
            with_range += one.in_range_count > 0;
            with_isolated += one.isolated_count > 0;
            ++plans_seen;
        }
    }
    // The comparison covered every term (else it could not have caught a wrong one).
    EXPECT_GT(with_overlap, plans_seen / 10);
    EXPECT_GT(with_range, plans_seen / 10);
    EXPECT_GT(with_isolated, plans_seen / 10);
    EXPECT_LT(with_overlap, plans_seen);
}

}  // namespace
}  // namespace gaeval::pile_in
