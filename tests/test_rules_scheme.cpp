// The rules GA step (problems/pile_in/rules_scheme.hpp): order crossover and swap mutation keep
// permutations, the best plan survives unchanged, clones copy, generation 0 holds the still
// plan and built plans, and the move operators land where they say (contact, straight in,
// niches, within the move limit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "host/pile_in/validator.hpp"
#include "problems/pile_in/rules_scheme.hpp"
#include "rules_util.hpp"

namespace gaeval::pile_in {
namespace {

using testing::problem_for;

TEST(RulesScheme, OrderCrossoverByHand) {
    const uint8_t a[8] = {0, 1, 2, 3, 4, 5, 6, 7}, b[8] = {7, 6, 5, 4, 3, 2, 1, 0};
    uint8_t child[8];
    order_crossover(a, b, 8, 2, 4, child);
    // a's positions 2..4 in place; the rest from b in b's order after position 4, wrapping.
    EXPECT_EQ(std::vector<uint8_t>(child, child + 8),
              (std::vector<uint8_t>{6, 5, 2, 3, 4, 1, 0, 7}));
    order_crossover(a, b, 8, 4, 2, child);  // cut points in either order
    EXPECT_EQ(std::vector<uint8_t>(child, child + 8),
              (std::vector<uint8_t>{6, 5, 2, 3, 4, 1, 0, 7}));
}

TEST(RulesScheme, OrderCrossoverKeepsPermutationsAndTheSegment) {
    for (uint32_t trial = 0; trial < 500; ++trial) {
        const int n = 1 + static_cast<int>(trial % 64);
        uint8_t a[64], b[64], child[64];
        for (int q = 0; q < n; ++q) a[q] = b[q] = static_cast<uint8_t>(q);
        for (int q = n - 1; q > 0; --q) {
            Random4 r = philox(3, Purpose::Test, trial, static_cast<uint32_t>(q), 0, 0);
            std::swap(a[q], a[below(r.v[0], q + 1)]);
            std::swap(b[q], b[below(r.v[1], q + 1)]);
        }
        Random4 cut = philox(3, Purpose::Test, trial, 999, 0, 0);
        const uint32_t i = below(cut.v[0], n), j = below(cut.v[1], n);
        order_crossover(a, b, n, i, j, child);
        std::vector<uint8_t> sorted(child, child + n);
        std::sort(sorted.begin(), sorted.end());
        for (int q = 0; q < n; ++q) ASSERT_EQ(sorted[q], q) << "trial " << trial;
        for (uint32_t q = std::min(i, j); q <= std::max(i, j); ++q) ASSERT_EQ(child[q], a[q]);
        // The others keep b's relative order.
        std::vector<uint8_t> rest, from_b;
        for (int q = 0; q < n; ++q)
            if (q < static_cast<int>(std::min(i, j)) || q > static_cast<int>(std::max(i, j)))
                rest.push_back(child[q]);
        for (int c = 1; c <= n; ++c) {
            const uint8_t v = b[(std::max(i, j) + c) % n];
            if (std::find(rest.begin(), rest.end(), v) != rest.end()) from_b.push_back(v);
        }
        std::vector<uint8_t> rest_rotated;
        for (int c = 1; c <= n; ++c) {
            const int q = (static_cast<int>(std::max(i, j)) + c) % n;
            if (q < static_cast<int>(std::min(i, j)) || q > static_cast<int>(std::max(i, j)))
                rest_rotated.push_back(child[q]);
        }
        ASSERT_EQ(rest_rotated, from_b) << "trial " << trial;
    }
}

// A population of the S8 problem with path checking (moves and orders) for driving the step.
struct Fixture {
    RulesProblem problem = problem_for("s8.json", "aos4", testing::with_paths());
    uint64_t n = 400;
    int words = problem.layout.words;
    std::vector<uint32_t> src, dst, ranked;
    Fixture() : src(n * words), dst(n * words), ranked(n) {
        RandomizeRulesPlans init{5, problem, PlanView{src.data(), n, words}};
        for (uint64_t i = 0; i < n; ++i) init(i);
        for (uint64_t r = 0; r < n; ++r) ranked[r] = static_cast<uint32_t>((r * 7919) % n);
    }
    RulesStep step(uint64_t survivors, double mutation) {
        RulesStep s{problem, Gapi1Step{}};
        s.base.seed = 11;
        s.base.generation = 4;
        s.base.population = n;
        s.base.survivors = survivors;
        s.base.mutation_rate = mutation;
        s.base.ranked = ranked.data();
        s.base.src = PlanView{src.data(), n, words};
        s.base.dst = PlanView{dst.data(), n, words};
        return s;
    }
    std::vector<uint32_t> plan(const std::vector<uint32_t>& g, uint64_t i) const {
        std::vector<uint32_t> out(words);
        for (int w = 0; w < words; ++w) out[w] = g[w * n + i];
        return out;
    }
    std::vector<uint32_t> order(const std::vector<uint32_t>& g, uint64_t i) const {
        std::vector<uint32_t> p = plan(g, i);
        return std::vector<uint32_t>(p.begin() + problem.layout.order, p.end());
    }
};

TEST(RulesScheme, GenerationZeroHoldsTheStillPlanTheGreedyPlanAndBuiltPlans) {
    Fixture f;
    const int models = f.problem.scenario.friendly_count;
    const std::vector<uint32_t> still = f.plan(f.src, 0);
    for (int m = 0; m < models; ++m) EXPECT_EQ(still[m], 0u);
    std::vector<uint32_t> identity(models);
    std::iota(identity.begin(), identity.end(), 0u);
    EXPECT_EQ(f.order(f.src, 0), identity);
    // Individual 1: the greedy plan, move order included.
    std::vector<uint32_t> greedy(f.words);
    greedy_plan(f.problem, greedy.data());
    EXPECT_EQ(f.plan(f.src, 1), greedy);
    // Odd individuals from 3 on: rebuild, wrap, GRASP (whole), by (i / 2) mod 3.
    const struct {
        uint64_t individual;
        Builder builder;
    } built[] = {{3, Builder::Wrap}, {5, Builder::Grasp}, {7, Builder::Rebuild}};
    for (const auto& b : built) {
        std::vector<uint32_t> words(f.words, 0u);
        build_plan(f.problem, b.builder, 5, 0, static_cast<uint32_t>(b.individual), words.data());
        const std::vector<uint32_t> got = f.plan(f.src, b.individual);
        const int compared = b.builder == Builder::Grasp ? f.words : models;
        for (int w = 0; w < compared; ++w)
            EXPECT_EQ(got[w], words[w]) << "individual " << b.individual << " word " << w;
    }
    int shuffled = 0;
    for (uint64_t i = 0; i < f.n; ++i) {
        std::vector<uint32_t> o = f.order(f.src, i);
        shuffled += o != identity;
        std::sort(o.begin(), o.end());
        ASSERT_EQ(o, identity) << "individual " << i;
        for (int m = 0; m < models; ++m)
            ASSERT_TRUE(move_within_limit(unpack_move(f.src[m * f.n + i])));
    }
    EXPECT_GT(shuffled, static_cast<int>(f.n) - 10);
}

TEST(RulesScheme, ClonesCopyTheBestSurvivesUnchangedMemeticClonesNeverGetWorse) {
    Fixture f;
    RulesStep copy = f.step(100, 0.0);
    const uint64_t memetic = copy.memetic_clones();
    EXPECT_EQ(memetic, 100u / MemeticShare + (100 % MemeticShare != 0));
    for (uint64_t k = 0; k < 100; ++k) copy(k);
    for (uint64_t k = 0; k < 100; ++k) {
        const std::vector<uint32_t> child = f.plan(f.dst, k), parent = f.plan(f.src, f.ranked[k]);
        if (k == 0 || k > memetic) {
            ASSERT_EQ(child, parent) << "clone " << k;
            continue;
        }
        // Local search keeps a try only when it scores at least as well, or when both plans
        // are legal and it keeps as many models in range.
        const Breakdown before = rules_evaluate(f.problem, GenomeGenes{parent.data()});
        const Breakdown after = rules_evaluate(f.problem, GenomeGenes{child.data()});
        EXPECT_TRUE(after.fitness >= before.fitness ||
                    (after.legal && before.legal && after.in_range_count >= before.in_range_count))
            << "memetic clone " << k;
        EXPECT_EQ(f.order(f.dst, k), f.order(f.src, f.ranked[k]));
    }
    // Full mutation: every plain clone changes, except the best.
    RulesStep wild = f.step(100, 1.0);
    for (uint64_t k = 0; k < f.n; ++k) wild(k);
    EXPECT_EQ(f.plan(f.dst, 0), f.plan(f.src, f.ranked[0]));
    int changed = 0;
    for (uint64_t k = memetic + 1; k < 100; ++k)
        changed += f.plan(f.dst, k) != f.plan(f.src, f.ranked[k]);
    EXPECT_EQ(changed, static_cast<int>(99 - memetic));
    // Swap mutation: a clone's order is its parent's with at most two positions exchanged.
    for (uint64_t k = 1; k < 100; ++k) {
        const std::vector<uint32_t> a = f.order(f.dst, k), b = f.order(f.src, f.ranked[k]);
        int differ = 0;
        for (std::size_t q = 0; q < a.size(); ++q) differ += a[q] != b[q];
        EXPECT_TRUE(differ == 0 || differ == 2) << "clone " << k;
    }
}

TEST(RulesScheme, ChildrenMixTheirParentsAndSomeAreBuiltAfresh) {
    Fixture f;
    RulesStep step = f.step(50, 0.0);
    int from_parents = 0, built = 0;
    for (uint64_t k = 50; k < f.n; ++k) {
        step(k);
        uint64_t a, b;
        step.base.parents(k, a, b);
        bool mixed = true;
        for (int m = 0; m < f.problem.scenario.friendly_count; ++m) {
            const uint32_t g = f.dst[m * f.n + k];
            mixed = mixed && (g == f.src[m * f.n + a] || g == f.src[m * f.n + b]);
        }
        (mixed ? from_parents : built)++;
        std::vector<uint32_t> o = f.order(f.dst, k);
        std::sort(o.begin(), o.end());
        for (std::size_t q = 0; q < o.size(); ++q) ASSERT_EQ(o[q], q);
    }
    // One child in ImmigrantShare = 16 is built afresh.
    EXPECT_NEAR(built, (f.n - 50) / 16.0, 12.0);
    EXPECT_GT(from_parents, 300);
}

TEST(RulesScheme, MoveOperatorsLandWhereTheySay) {
    // S4: A (40 mm) 27.5 mm from a 25 mm enemy, B 72.5 mm.
    const RulesProblem p = problem_for("s4.json", "aos4");
    const Scenario& s = p.scenario;
    auto end_of = [&](int m, Move mv) {
        return shape_at(s.friendly[m].base, s.friendly[m].x + mv.dx * s.move_unit_mm,
                        s.friendly[m].y + mv.dy * s.move_unit_mm);
    };
    for (uint32_t draw : {0u, 0x40000000u, 0x80000000u, 0xc0000000u, 0xffffffffu}) {
        const Move mv = contact_move(p, 0, draw);  // A reaches contact from any side facing it
        EXPECT_NEAR(gap_between(end_of(0, mv), enemy_shape(s, 0)), 0.0f, 2e-3f) << draw;
        EXPECT_TRUE(move_within_limit(mv));
    }
    // Straight in, into contact: A 27.5 mm, B 72.5 mm (aim checks no path: that is the
    // fitness's business).
    const Move a = aim_move(p, 0), b = aim_move(p, 1);
    EXPECT_EQ(a.dx, 0);
    EXPECT_NEAR(a.dy * s.move_unit_mm, 27.5, 0.01);
    EXPECT_EQ(b.dx, 0);
    EXPECT_NEAR(b.dy * s.move_unit_mm, 72.5, 0.01);
    // S1: model 0 nestles between two touching enemies 2" away (in range, touching both), or
    // next to a friend.
    const RulesProblem line = problem_for("s1.json", "aos3");
    const Scenario& l = line.scenario;
    Table t;
    for (int m = 0; m < l.friendly_count; ++m) t.x[m] = l.friendly[m].x, t.y[m] = l.friendly[m].y;
    int between_enemies = 0;
    for (uint32_t i = 0; i < 60; ++i) {
        const Move mv = nestle_move(line, t, 0, philox(2, Purpose::Test, i, 0, 0, 0));
        const Shape at =
            shape_at(l.friendly[0].base, mv.dx * l.move_unit_mm, mv.dy * l.move_unit_mm);
        int touching = 0;
        for (int e = 0; e < l.enemy_count; ++e)
            touching += std::abs(gap_between(at, enemy_shape(l, e)) - 0.005f) < 2e-3f;
        between_enemies += touching == 2;
    }
    EXPECT_GT(between_enemies, 5);
    // Moves outside the limit are pulled onto it, keeping their direction.
    const Move far = clamp_move(Move{40000, 30000});
    EXPECT_TRUE(move_within_limit(far));
    EXPECT_NEAR(std::hypot(far.dx, far.dy), MoveScale, 2.0);
    EXPECT_NEAR(static_cast<double>(far.dy) / far.dx, 0.75, 1e-3);
}

// ---- plan builders and local-search moves (rules_search.hpp) ----

PlanEdit edit_of(const RulesProblem& p, const std::vector<std::pair<double, double>>& ends) {
    PlanEdit e{};
    const std::vector<uint32_t> words = testing::plan_to(p, ends);
    for (int w = 0; w < p.layout.words; ++w) e.words[w] = words[w];
    decode_edit(p, e);
    return e;
}

std::vector<uint32_t> words_of(const RulesProblem& p, const PlanEdit& e) {
    return std::vector<uint32_t>(e.words, e.words + p.layout.words);
}

TEST(RulesSearch, DragRepairMakesAStretchedChainFollowItsLeader) {
    // C2 under aos3: the lead model goes to the edge of A's combat range (x = 171.2); the
    // others are pulled after it to a hair within 1" of the next, the pinned last one stays.
    const RulesProblem p = testing::shipped_problem("c2_chain_stretch.json", "aos3");
    PlanEdit e = edit_of(p, {{0, 0}, {44, 0}, {88, 0}, {132, 0}});
    set_move(p, e, 3, range_edge_move(p, 3));
    EXPECT_NEAR(e.pose.x[3], 171.2, 0.01);
    EXPECT_FALSE(testing::judged(p, words_of(p, e)).legal);
    drag_repair(p, e, 3);
    const Verdict v = testing::judged(p, words_of(p, e));
    EXPECT_TRUE(v.legal);
    EXPECT_EQ(v.in_range_count, 1);
    EXPECT_EQ(e.words[0], 0u);                            // pinned: it does not move
    EXPECT_NEAR(e.pose.x[2], 171.2 - 57.395, 0.01);        // 25.395 mm gaps, straight
    EXPECT_NEAR(e.pose.x[1], 171.2 - 2 * 57.395, 0.01);
}

TEST(RulesSearch, AGroupShiftsAsOne) {
    // C1: the chain is one group; shifting it by the hand-derived vector gives the optimum.
    const RulesProblem p = testing::shipped_problem("c1_chain_shift.json", "aos4");
    PlanEdit e = edit_of(p, {{0, 0}, {44, 0}, {88, 0}, {132, 0}});
    const float unit = p.scenario.move_unit_mm;
    const Move v{static_cast<int32_t>(74.874f / unit), static_cast<int32_t>(8.347f / unit)};
    shift_group(p, e, 2, v);
    for (int m = 0; m < 4; ++m) EXPECT_EQ(e.words[m], pack_move(v)) << m;
    const Verdict verdict = testing::judged(p, words_of(p, e));
    EXPECT_TRUE(verdict.legal);
    EXPECT_EQ(verdict.in_range_count, 1);
}

TEST(RulesSearch, AWrapFromTheModelLeftOutPacksTheRing) {
    // R1: from model 0, which stays, six slots along the combat-range edge, each touching the
    // last, either way round: six in range, legal (0.72 degrees to spare).
    const RulesProblem p = testing::shipped_problem("r1_ring_concentric.json", "aos3");
    for (int lead : {0, 1}) {
        PlanEdit e = edit_of(p, testing::ring_witness(p.scenario));
        for (int m = 0; m < 7; ++m) e.words[m] = 0u;
        decode_edit(p, e);
        EXPECT_EQ(wrap_from(p, e, 0, 0, lead, false, 6, 1, Purpose::Test, 0, 0, 0), 6);
        EXPECT_EQ(e.words[0], 0u);
        const Verdict v = testing::judged(p, words_of(p, e));
        EXPECT_TRUE(v.legal) << "lead " << lead;
        EXPECT_EQ(v.in_range_count, 6) << "lead " << lead;
        for (int m = 1; m < 7; ++m)
            EXPECT_NEAR(std::hypot(e.pose.x[m], e.pose.y[m]), 50.195, 0.01) << m;  // the edge
    }
}

TEST(RulesSearch, ShortModelsInRangeRecruitSupporters) {
    // Seven 32 mm models (two ranks) under aos4 below a line of 32 mm enemies at (32j, 0):
    // five stand in a touching line at the range edge (y = -44.69); its ends, friendly[3] at
    // x = 96 and friendly[4] at x = -32, have one friend each. The two rear models left behind
    // move into the niches under the ends: (80, -72.41) and (-16, -72.41).
    ScenarioFile f;
    Scenario& s = f.scenario;
    auto add = [](Model* models, int32_t& count, float x, float y) {
        Model& m = models[count++];
        m.x = x;
        m.y = y;
        m.base.length = m.base.width = 32;
    };
    for (int i = 0; i < 4; ++i) add(s.friendly, s.friendly_count, 32.0f * i, -60.0f);
    for (int i = 0; i < 3; ++i) add(s.friendly, s.friendly_count, 16.0f + 32.0f * i, -87.713f);
    for (int j = -3; j <= 6; ++j) add(s.enemy, s.enemy_count, 32.0f * j, 0.0f);
    s.reach_mm = 12.7f;
    f.rules.reach_mm = 12.7;
    f.enemy_unit.assign(s.enemy_count, 0);
    const RulesProblem p = build_rules_problem("aos4", f, {});
    PlanEdit e = edit_of(p, {{0, -44.69},
                            {32, -44.69},
                            {64, -44.69},
                            {96, -44.69},
                            {-32, -44.69},
                            {48, -87.713},
                            {80, -87.713}});
    Verdict v = testing::judged(p, words_of(p, e));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(testing::mentions(v, "friendly[3] has 1 friend(s)"));
    EXPECT_TRUE(testing::mentions(v, "friendly[4] has 1 friend(s)"));
    recruit_supporters(p, e);
    v = testing::judged(p, words_of(p, e));
    EXPECT_TRUE(v.legal);
    EXPECT_EQ(v.in_range_count, 5);
    EXPECT_NEAR(e.pose.x[6], 80.0, 0.01);
    EXPECT_NEAR(e.pose.y[6], -44.69 - std::sqrt(32.005 * 32.005 - 16.0 * 16.0), 0.01);
    EXPECT_NEAR(e.pose.x[5], -16.0, 0.01);
    EXPECT_NEAR(e.pose.y[5], -44.69 - std::sqrt(32.005 * 32.005 - 16.0 * 16.0), 0.01);
}

TEST(RulesSearch, LocalSearchNeverLeavesAPlanWorse) {
    // From the plan in which nobody moves, on the shipped hard cases: every kept try scores
    // at least as well, or keeps a legal plan with as many in range; and it finds models in
    // range.
    for (const char* file : {"r1_ring_concentric.json", "s8_frontage.json", "demo_10v10.json"}) {
        const RulesProblem p = testing::shipped_problem(file, "aos3");
        PlanEdit e{};
        for (int q = 0; p.layout.order >= 0 && q < p.layout.models; ++q)
            e.words[p.layout.order + q] = static_cast<uint32_t>(q);
        decode_edit(p, e);
        Breakdown before = check_plan(p, e.pose, nullptr);
        int best = 0;
        for (uint32_t round = 0; round < 20; ++round) {
            local_search(p, e, 7, Purpose::Test, round, 0, 4);
            const Breakdown after = check_plan(p, e.pose, nullptr);
            EXPECT_TRUE(after.fitness >= before.fitness ||
                        (after.legal && before.legal &&
                         after.in_range_count >= before.in_range_count))
                << file << " round " << round;
            before = after;
            if (after.legal) best = std::max(best, after.in_range_count);
        }
        EXPECT_GT(best, 3) << file;
    }
}

}  // namespace
}  // namespace gaeval::pile_in
