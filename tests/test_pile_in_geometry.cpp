// Exact base geometry (problems/pile_in/geometry.hpp) against hand-computed gaps and against the
// validator's independent double-precision geometry (host/pile_in/reference_geometry.hpp):
// oval-circle and oval-oval gaps, overlaps, swept moves and slides round a base.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "games/core/rng.hpp"
#include "host/pile_in/reference_geometry.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/rules.hpp"

namespace gaeval::pile_in {
namespace {

using reference::Body;

const double kPi = 3.14159265358979323846;

Shape circle(float x, float y, float diameter) {
    Base b;
    b.length = b.width = diameter;
    return shape_at(b, x, y);
}

Shape oval(float x, float y, float length, float width, double degrees) {
    Base b;
    b.length = length;
    b.width = width;
    b.cos_angle = static_cast<float>(std::cos(degrees * kPi / 180));
    b.sin_angle = static_cast<float>(std::sin(degrees * kPi / 180));
    b.shape = BaseShape::Oval;
    return shape_at(b, x, y);
}

Body body(const Shape& s) {
    Body r;
    r.x = s.x;
    r.y = s.y;
    r.a = s.a;
    r.b = s.b;
    const double len = std::hypot(static_cast<double>(s.c), static_cast<double>(s.s));
    r.c = s.c / len;
    r.s = s.s / len;
    return r;
}

TEST(PileInGeometry, CirclesAreExact) {
    EXPECT_FLOAT_EQ(gap_between(circle(0, 0, 32), circle(40, 0, 32)), 8.0f);
    EXPECT_FLOAT_EQ(gap_between(circle(0, 0, 32), circle(30, 40, 40)), 14.0f);
    EXPECT_FLOAT_EQ(gap_between(circle(0, 0, 32), circle(0, 30, 32)), -2.0f);
}

TEST(PileInGeometry, OvalGapsByHand) {
    // A 60 x 35 oval along x: a circle of 32 mm above it (minor axis) and beside it (major).
    const Shape ov = oval(0, 0, 60, 35, 0);
    EXPECT_NEAR(gap_between(ov, circle(0, 70, 32)), 70 - 17.5 - 16, 1e-4);
    EXPECT_NEAR(gap_between(ov, circle(70, 0, 32)), 70 - 30 - 16, 1e-4);
    EXPECT_NEAR(gap_between(circle(0, 70, 32), ov), 70 - 17.5 - 16, 1e-4);  // symmetric
    // Turned a quarter: the axes swap.
    const Shape up = oval(0, 0, 60, 35, 90);
    EXPECT_NEAR(gap_between(up, circle(0, 70, 32)), 70 - 30 - 16, 1e-4);
    EXPECT_NEAR(gap_between(up, circle(70, 0, 32)), 70 - 17.5 - 16, 1e-4);
    // Two ovals end to end and side by side.
    EXPECT_NEAR(gap_between(ov, oval(100, 0, 60, 35, 0)), 40, 1e-4);
    EXPECT_NEAR(gap_between(ov, oval(0, 50, 60, 35, 180)), 15, 1e-4);
    // Overlap depth: a 32 mm circle 40 mm along the long axis sits 6 mm deep.
    EXPECT_NEAR(gap_between(ov, circle(40, 0, 32)), -6, 1e-4);
    // The enclosing circle would call this overlapping; the oval is 5.9 mm clear.
    const Shape beside = circle(0, 39.4f, 32);
    EXPECT_LT(enclosing_gap(ov, beside), 0);
    EXPECT_NEAR(gap_between(ov, beside), 39.4 - 17.5 - 16, 1e-4);
}

// Random pairs of bases (aspect ratios 1-3, any angle, from deep overlap to far apart): the
// gap equals the brute-force distance when apart and is negative exactly when they overlap.
TEST(PileInGeometry, OvalGapsMatchBruteForce) {
    int apart = 0, overlapping = 0;
    double worst = 0;
    for (uint32_t i = 0; i < 400; ++i) {
        Random4 r = philox(11, Purpose::Test, i, 0, 0, 0);
        Random4 q = philox(11, Purpose::Test, i, 1, 0, 0);
        auto u = [](uint32_t x) { return static_cast<double>(unit_float(x)); };
        const double la = 25 + 100 * u(r.v[0]), lb = 25 + 100 * u(r.v[1]);
        const double wa = la / (1 + 2 * u(r.v[2])), wb = lb / (1 + 2 * u(r.v[3]));
        const bool circle_a = (i % 5) == 0;
        Shape A = circle_a
                      ? circle(0, 0, static_cast<float>(la))
                      : oval(0, 0, static_cast<float>(la), static_cast<float>(wa), 360 * u(q.v[0]));
        const double dir = 2 * kPi * u(q.v[1]);
        const double dist = (0.5 * (lb + la)) * (0.2 + 1.3 * u(q.v[2]));
        Shape B =
            oval(static_cast<float>(dist * std::cos(dir)), static_cast<float>(dist * std::sin(dir)),
                 static_cast<float>(lb), static_cast<float>(wb), 360 * u(q.v[3]));
        const double ref = reference::gap(body(A), body(B));
        const float gap = gap_between(A, B);
        if (std::abs(ref) < 1e-3) continue;  // touching: the sign is not informative
        if (ref > 0 || circle_a) {           // with a circle the reference depth is exact too
            ++(ref > 0 ? apart : overlapping);
            EXPECT_NEAR(gap, ref, 2e-4) << "pair " << i;
            EXPECT_LE(gap, ref + 1e-4) << "never above the true gap, pair " << i;
            worst = std::max(worst, std::abs(gap - ref));
        } else {
            ++overlapping;
            EXPECT_LT(gap, 0.0f) << "pair " << i << " overlaps";
            EXPECT_LE(gap, ref + 1e-4) << "at least as deep as the deepest outline point";
        }
        EXPECT_NEAR(gap_between(B, A), gap, 2e-4) << "symmetric, pair " << i;
    }
    EXPECT_GT(apart, 100);
    EXPECT_GT(overlapping, 50);
    RecordProperty("worst_error_mm", std::to_string(worst));
}

TEST(PileInGeometry, GapUpToIsExactBelowItsLimit) {
    const Shape ov = oval(0, 0, 60, 35, 30);
    const Shape far = circle(200, 0, 32);
    EXPECT_GT(gap_up_to(ov, far, 12.7f), 12.7f);
    EXPECT_LE(gap_up_to(ov, far, 12.7f), gap_between(ov, far));
    const Shape near = circle(0, 40, 32);
    EXPECT_EQ(gap_up_to(ov, near, 12.7f), gap_between(ov, near));
}

// The smallest gap along a straight move equals the minimum over densely sampled positions.
TEST(PileInGeometry, SweepMatchesDenseSampling) {
    struct Case {
        Shape mover;
        float mx, my;
        Shape obstacle;
    };
    const std::vector<Case> cases = {
        {circle(0, -60, 40), 0, 76.2f, circle(0, 0, 25)},         // straight through
        {circle(-50, -30, 40), 100, 0, circle(0, 0, 25)},         // passes beside, overlap
        {circle(-50, -40, 40), 100, 0, circle(0, 0, 25)},         // passes beside, clear
        {oval(-60, -35, 60, 35, 0), 120, 0, circle(0, 0, 32)},    // oval grazes a circle
        {circle(-60, -35, 32), 120, 10, oval(0, 0, 90, 52, 20)},  // circle past an oval
        {oval(-70, 20, 75, 42, 60), 140, -30, oval(0, 0, 60, 35, 120)},
    };
    for (std::size_t c = 0; c < cases.size(); ++c) {
        const Case& k = cases[c];
        const double reference_min =
            reference::sweep_gap(body(k.mover), k.mx, k.my, body(k.obstacle));
        const float swept = sweep_gap(k.mover, k.mx, k.my, k.obstacle);
        if (k.mover.circle && k.obstacle.circle)
            EXPECT_NEAR(swept, reference_min, 2e-3) << "case " << c;
        else if (reference_min < 0)
            EXPECT_LT(swept, reference_min + 1e-3) << "case " << c;  // at least as deep
        else
            EXPECT_GE(swept, 0.0f) << "case " << c;  // clear (a lower bound when far)
    }
}

TEST(PileInGeometry, ContactDistanceTouches) {
    const Shape pivot = oval(0, 0, 90, 52, 35);
    const Shape mover = circle(0, 0, 32);
    for (int k = 0; k < 12; ++k) {
        const float ux = static_cast<float>(std::cos(k * kPi / 6)),
                    uy = static_cast<float>(std::sin(k * kPi / 6));
        const float d = contact_distance(pivot, mover, ux, uy);
        EXPECT_NEAR(gap_between(pivot, shifted(mover, d * ux, d * uy)), 0.0f, 1e-3) << k;
    }
    EXPECT_FLOAT_EQ(contact_distance(circle(0, 0, 25), mover, 0, 1), 28.5f);
}

// A 40 mm model in base contact with a 25 mm enemy slides a quarter turn round it: the arc
// keeps clear of a base that the straight chord would hit, and hits one it passes over.
TEST(PileInGeometry, SlideFollowsTheArc) {
    const Shape enemy = circle(0, 0, 25);
    const Shape from = circle(0, -32.5f, 40);
    const float to_x = 32.5f, to_y = 0;
    SlidePath path;
    make_slide(enemy, from, to_x, to_y, path);
    // The chord crosses the enemy itself; the slide is not checked against its pivot.
    EXPECT_LT(sweep_gap(from, to_x, 32.5f, enemy), -1.0f);
    for (const Shape& obstacle :
         {circle(50, -50, 25), circle(30, -30, 10), circle(-40, -40, 25), circle(45, 0, 20),
          oval(45, -45, 60, 35, 135), oval(50, -55, 60, 35, 45)}) {
        const double ref =
            reference::slide_gap(body(enemy), body(from), to_x, to_y, body(obstacle));
        const float got = slide_gap(path, obstacle);
        if (obstacle.circle)
            EXPECT_NEAR(got, ref, 1e-3) << obstacle.x << "," << obstacle.y;
        else
            EXPECT_EQ(got < 0.0f, ref < 0) << obstacle.x << "," << obstacle.y;
    }
    // An oval pivot: chords between contact points stay within 0.5% of the arc.
    const Shape big = oval(0, 0, 90, 52, 0);
    const Shape start = circle(0, -contact_distance(big, from, 0, -1), 40);
    SlidePath round;
    const float end_d = contact_distance(big, from, 1, 0);
    make_slide(big, start, end_d, 0, round);
    for (int i = 0; i <= SlideSegments; ++i)
        EXPECT_NEAR(gap_between(big, shifted(from, round.cx[i] - from.x, round.cy[i] - from.y)),
                    0.0f, 1e-3);
}

// The host's SSE lanes (gap_between_lanes, golden_max_lanes) against the scalar definition the
// device runs, bit for bit: random circles and ovals (aspect up to 3, any orientation) apart,
// touching, overlapping and concentric, and golden searches of every step count up to 25.
TEST(PileInGeometry, LanesMatchScalarBitForBit) {
#if GAEVAL_GAP_LANES
    auto unit = [](uint32_t x) { return unit_float(x); };
    int compared = 0, first_difference = -1;
    for (uint32_t i = 0; i < 20000; ++i) {
        const Random4 r = philox(11, Purpose::InitMove, 0, i, 0, 0);
        const Random4 q = philox(11, Purpose::InitMove, 0, i, 1, 0);
        auto make = [&](int k) {
            const uint32_t* v = k == 0 ? r.v : q.v;
            const float length = 20.0f + 80.0f * unit(v[0]);
            const bool round = (v[1] & 7u) == 0;
            const float width = round ? length : length * (0.34f + 0.66f * unit(v[1]));
            const double degrees = 360.0 * unit(v[2]);
            const float spread = (v[3] & 3u) == 0 ? 5.0f : 120.0f;  // some heavy overlaps
            const float x = spread * (unit(v[3]) - 0.5f), y = spread * (unit(v[0] ^ v[3]) - 0.5f);
            return round ? circle(x, y, length) : oval(x, y, length, width, degrees);
        };
        Shape a = make(0), b = make(1);
        if (i % 97 == 0) b.x = a.x, b.y = a.y;  // concentric: the fallback direction
        const float lanes = gap_between_lanes(a, b), scalar = gap_between_scalar(a, b);
        if (float_bits(lanes) != float_bits(scalar) && first_difference < 0)
            first_difference = static_cast<int>(i);
        ++compared;
        EXPECT_EQ(float_bits(gap_between(a, b)), float_bits(scalar));
        if (i % 50 == 0 && !(a.circle && b.circle)) {
            GapProbe probe{a, b, b.x - a.x, b.y - a.y, 0.6f, 0.8f};
            for (int steps = 0; steps <= 25; ++steps)
                ASSERT_EQ(float_bits(golden_max_lanes(probe, -0.75f, 0.5f, steps, -1e30f)),
                          float_bits(golden_max(probe, -0.75f, 0.5f, steps, -1e30f)))
                    << "pair " << i << ", " << steps << " steps";
        }
    }
    EXPECT_EQ(first_difference, -1) << "first differing pair of " << compared;
#else
    GTEST_SKIP() << "no SSE lanes in this build (gap_between is the scalar path)";
#endif
}

// nearest_gap_among measures the enemy with the nearest enclosing circle first and skips the
// rest by that bound: the same minimum and the same index (the lowest on a tie) as measuring
// every enemy in index order. Random tables of circles and ovals, some enemies repeated (exact
// ties), some masked out by `only`.
TEST(PileInGeometry, NearestEnemyMatchesMeasuringEveryEnemy) {
    auto unit = [](uint32_t x) { return unit_float(x); };
    int ties = 0;
    for (uint32_t t = 0; t < 400; ++t) {
        const Random4 head = philox(12, Purpose::InitMove, 0, t, 0, 0);
        Scenario s;
        s.enemy_count = 1 + static_cast<int>(head.v[0] % 24);
        uint8_t only[MaxEnemy];
        for (int e = 0; e < s.enemy_count; ++e) {
            const Random4 r = philox(12, Purpose::InitMove, 1, t, static_cast<uint32_t>(e), 0);
            if (e > 0 && (r.v[0] & 3u) == 0) {
                s.enemy[e] = s.enemy[r.v[1] % e];  // an exact copy of an earlier enemy
            } else {
                Base& b = s.enemy[e].base;
                b.length = 25.0f + 80.0f * unit(r.v[1]);
                b.width = (r.v[2] & 1u) ? b.length : b.length * (0.4f + 0.6f * unit(r.v[2]));
                if (b.width != b.length) {
                    b.shape = BaseShape::Oval;
                    const double a = 2 * kPi * unit(r.v[3]);
                    b.cos_angle = static_cast<float>(std::cos(a));
                    b.sin_angle = static_cast<float>(std::sin(a));
                }
                s.enemy[e].x = 300.0f * unit(r.v[3] ^ r.v[0]);
                s.enemy[e].y = 200.0f * unit(r.v[0]);
            }
            only[e] = (r.v[2] & 6u) != 0;
        }
        const Shape sh = (head.v[1] & 1u)
                             ? circle(150.0f * unit(head.v[2]), 100.0f * unit(head.v[3]), 32)
                             : oval(150.0f * unit(head.v[2]), 100.0f * unit(head.v[3]), 60, 35,
                                    360.0 * unit(head.v[1]));
        for (const uint8_t* mask :
             {static_cast<const uint8_t*>(nullptr), static_cast<const uint8_t*>(only)}) {
            float want = 1e30f;
            int want_e = -1, at_min = 0;
            for (int e = 0; e < s.enemy_count; ++e) {
                if (mask && !mask[e]) continue;
                const float g = gap_between(sh, enemy_shape(s, e));
                if (g < want) want = g, want_e = e, at_min = 0;
                if (g == want) ++at_min;
            }
            if (at_min > 1) ++ties;
            int got_e = -2;
            const float got = nearest_gap_among(s, sh, mask, &got_e);
            ASSERT_EQ(float_bits(got), float_bits(want)) << "table " << t;
            ASSERT_EQ(got_e, want_e) << "table " << t;
        }
    }
    EXPECT_GT(ties, 20) << "the tables should hold exact ties";
}

}  // namespace
}  // namespace gaeval::pile_in
