// The rules fitness (problems/pile_in/rules_fitness.hpp) and the legality validator
// (host/pile_in/validator) on hand-built plans from the shared scenarios: direction rules per
// edition, the base-contact slide, move order with path checking, coherency (neighbours, one group,
// two neighbours from 7 models), overlaps, exact ovals, the target unit; the score's order
// (legal first, then models in range, then distance); repair; and agreement of the two judges
// on random plans.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "games/core/rng.hpp"
#include "host/core/error.hpp"
#include "problems/pile_in/greedy.hpp"
#include "problems/pile_in/rules_scheme.hpp"
#include "rules_util.hpp"

namespace gaeval::pile_in {
namespace {

using testing::fitness_of;
using testing::judged;
using testing::mentions;
using testing::plan_to;
using testing::problem_for;
using testing::with_paths;

// S6: A (40 mm) in base contact with a 25 mm enemy at (0, -32.5), B behind at (0, -85).
// A slides a quarter turn to (32.5, 0); B moves into contact at (0, -32.5).
const std::vector<std::pair<double, double>> kS6Slide = {{32.5, 0}, {0, -32.5}};

TEST(PileInRules, S6StrictlyCloserForbidsTheSlideNoFurtherAllowsIt) {
    for (const char* preset : {"aos1", "aos2"}) {
        const RulesProblem p = problem_for("s6.json", preset);
        const Verdict v = judged(p, plan_to(p, kS6Slide));
        EXPECT_FALSE(v.legal) << preset;
        EXPECT_TRUE(mentions(v, "friendly[0] ends")) << preset;
        EXPECT_TRUE(mentions(v, "strictly closer required")) << preset;
        EXPECT_FALSE(v.illegal[1]) << preset;  // B itself moved closer
    }
    for (const char* preset : {"aos3", "aos4"}) {
        const RulesProblem p = problem_for("s6.json", preset);
        const Verdict v = judged(p, plan_to(p, kS6Slide));
        EXPECT_TRUE(v.legal) << preset;
        EXPECT_EQ(v.in_range_count, 2) << preset;
    }
}

TEST(PileInRules, S6SlideRoundTheEnemyIsALegalPathItsChordIsNot) {
    const RulesProblem p = problem_for("s6.json", "aos3", with_paths());
    // A first (slides round the enemy), then B into the spot A left.
    Verdict v = judged(p, plan_to(p, kS6Slide, {0, 1}));
    EXPECT_TRUE(v.legal);
    EXPECT_EQ(v.in_range_count, 2);
    EXPECT_EQ(v.order, (std::vector<int>{0, 1}));
    // B first: its path runs into A, still standing at its start.
    v = judged(p, plan_to(p, kS6Slide, {1, 0}));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(mentions(v, "friendly[1]'s path crosses friendly[0] (at its start)"));
    // Without the slide rule A's straight chord cuts through the enemy base.
    RuleOverrides no_slide = with_paths();
    no_slide.slide = false;
    const RulesProblem q = problem_for("s6.json", "aos3", no_slide);
    v = judged(q, plan_to(q, kS6Slide, {0, 1}));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(mentions(v, "friendly[0]'s path crosses enemy[0]"));
}

// S4: A side-steps to 40 mm from the enemy centre at 70 degrees, B goes straight in to
// (0, -40): both 7.5 mm from the enemy base, 45.9 mm apart (gap 5.9 mm).
TEST(PileInRules, S4CoordinatedPlanNeedsAToMoveFirst) {
    const double a = 70 * 3.14159265358979323846 / 180;
    const std::vector<std::pair<double, double>> ends = {{40 * std::sin(a), -40 * std::cos(a)},
                                                         {0, -40}};
    for (const char* preset : {"aos1", "aos2", "aos3", "aos4"}) {
        const RulesProblem flat = problem_for("s4.json", preset);
        Verdict v = judged(flat, plan_to(flat, ends));
        EXPECT_TRUE(v.legal) << preset;
        EXPECT_EQ(v.in_range_count, 2) << preset;
        const RulesProblem p = problem_for("s4.json", preset, with_paths());
        EXPECT_TRUE(judged(p, plan_to(p, ends, {0, 1})).legal) << preset;
        v = judged(p, plan_to(p, ends, {1, 0}));
        EXPECT_FALSE(v.legal) << preset;
        EXPECT_TRUE(mentions(v, "friendly[1]'s path crosses friendly[0]")) << preset;
    }
}

TEST(PileInRules, GreedyPlansAreLegalAndMatchTheSharedData) {
    struct Case {
        const char* file;
        const char* preset;
        int greedy;  // in range, from the shared data
    };
    for (const Case& c :
         {Case{"s1.json", "aos1", 5}, Case{"s2a.json", "aos3", 5}, Case{"s2b.json", "aos3", 0},
          Case{"s4.json", "aos1", 1}, Case{"s4.json", "aos4", 1}, Case{"s5_3.json", "aos4", 1},
          Case{"s6.json", "aos3", 1}}) {
        for (const RuleOverrides& flags : {RuleOverrides{}, with_paths()}) {
            const RulesProblem p = problem_for(c.file, c.preset, flags);
            std::vector<uint32_t> genes(p.layout.words);
            greedy_plan(p, genes.data());
            const Verdict v = judged(p, genes);
            EXPECT_TRUE(v.legal) << c.file << " " << c.preset;
            EXPECT_EQ(v.in_range_count, c.greedy) << c.file << " " << c.preset;
        }
    }
}

// A scenario built in code: friendly circles (x, y, diameter), enemies likewise.
ScenarioFile file_of(std::initializer_list<std::array<float, 3>> friendly,
                     std::initializer_list<std::array<float, 3>> enemy, float reach = 12.7f) {
    ScenarioFile f;
    Scenario& s = f.scenario;
    for (const auto& m : friendly) {
        Model& model = s.friendly[s.friendly_count++];
        model.x = m[0];
        model.y = m[1];
        model.base.length = model.base.width = m[2];
    }
    for (const auto& m : enemy) {
        Model& model = s.enemy[s.enemy_count++];
        model.x = m[0];
        model.y = m[1];
        model.base.length = model.base.width = m[2];
    }
    s.reach_mm = reach;
    f.rules.reach_mm = reach;
    f.enemy_unit.assign(s.enemy_count, 0);
    return f;
}

TEST(PileInRules, ASplitUnitIsIllegalEvenWhenEveryModelHasANeighbour) {
    // Four in a touching line; the right pair walks off 60 mm: two pairs, each coherent.
    ScenarioFile f = file_of({{0, 0, 32}, {32, 0, 32}, {64, 0, 32}, {96, 0, 32}}, {{48, 300, 32}});
    RuleOverrides free_direction;
    free_direction.direction = Direction::Free;
    const RulesProblem p = build_rules_problem("aos1", f, free_direction);
    std::vector<uint8_t> flags;
    const std::vector<uint32_t> genes = plan_to(p, {{0, 0}, {32, 0}, {124, 0}, {156, 0}});
    const Breakdown b = fitness_of(p, genes, &flags);
    EXPECT_FALSE(b.legal);
    EXPECT_EQ(b.isolated_count, 0);  // every model has a friend within 1"
    EXPECT_TRUE(flags[2] & BrokeSplit);
    const Verdict v = judged(p, genes);
    EXPECT_TRUE(mentions(v, "split into 2 groups"));
    // Closing the gap to exactly 1" (gap 25.4 mm) joins them again: inclusive.
    EXPECT_TRUE(judged(p, plan_to(p, {{0, 0}, {32, 0}, {89.4, 0}, {121.4, 0}})).legal);
}

TEST(PileInRules, UnitsOfSevenNeedTwoNeighbours) {
    // Seven in a touching line: both ends have one neighbour.
    ScenarioFile line7 = file_of({{0, 0, 32},
                                  {32, 0, 32},
                                  {64, 0, 32},
                                  {96, 0, 32},
                                  {128, 0, 32},
                                  {160, 0, 32},
                                  {192, 0, 32}},
                                 {{96, 300, 32}});
    EXPECT_NO_THROW(build_rules_problem("aos1", line7, {}));  // one neighbour suffices
    try {
        build_rules_problem("aos4", line7, {});
        FAIL() << "a start out of coherency must be refused";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("friendly[0] has fewer than 2 friends"),
                  std::string::npos)
            << e.what();
    }
    // The same line as an end state: illegal from 7 models, legal for 6.
    RuleOverrides relaxed;
    relaxed.two_neighbours_from = 0;
    RulesProblem p = build_rules_problem("aos4", line7, relaxed);
    const std::vector<uint32_t> still(p.layout.words, 0u);
    EXPECT_TRUE(judged(p, still).legal);
    p.rules.two_neighbours_from = 7;
    std::vector<uint8_t> flags;
    EXPECT_FALSE(fitness_of(p, still, &flags).legal);
    EXPECT_EQ(flags, (std::vector<uint8_t>{BrokeCoherency, 0, 0, 0, 0, 0, BrokeCoherency}));
    EXPECT_TRUE(mentions(judged(p, still), "friendly[6] has 1 friend(s)"));
    p.rules.two_neighbours_from = 8;
    EXPECT_TRUE(judged(p, still).legal);
}

TEST(PileInRules, OverlapsAreIllegalAndNamed) {
    const RulesProblem p = problem_for("s1.json", "aos3");
    // Model 1 ends 20.4 mm from model 2, which stays: 11.6 mm of overlap.
    std::vector<std::pair<double, double>> ends = {{0, 0}, {60, 20}, {64, 0}, {96, 0}, {128, 0}};
    const Verdict v = judged(p, plan_to(p, ends));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(mentions(v, "friendly[1] overlaps friendly[2]"));
    EXPECT_TRUE(v.illegal[1] && v.illegal[2]);
}

TEST(PileInRules, OvalsAreExactNotTheirEnclosingCircle) {
    // A 60 x 35 mm oval enemy along x; a 32 mm model below it.
    ScenarioFile f = file_of({{0, -60, 32}}, {{0, 0, 60}});
    Base& ov = f.scenario.enemy[0].base;
    ov.width = 35;
    ov.shape = BaseShape::Oval;
    const RulesProblem p = build_rules_problem("aos3", f, {});
    // 0.5 mm clear of the oval (inside its enclosing circle): legal and in range.
    Verdict v = judged(p, plan_to(p, {{0, -34}}));
    EXPECT_TRUE(v.legal);
    EXPECT_EQ(v.in_range_count, 1);
    EXPECT_NEAR(v.nearest_gap[0], 0.5, 1e-3);
    // 0.5 mm into it: overlap.
    v = judged(p, plan_to(p, {{0, -33}}));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(mentions(v, "friendly[0] overlaps enemy[0]"));
}

TEST(PileInRules, NoFurtherFromTheTargetUnit) {
    // One model; enemy unit 0 straight ahead, unit 1 to the right, both 68 mm away.
    ScenarioFile f = file_of({{0, 0, 32}}, {{0, 100, 32}, {100, 0, 32}});
    f.enemy_unit = {0, 1};
    const std::vector<std::pair<double, double>> right = {{60, 0}};  // toward unit 1
    RuleOverrides target;
    target.target_unit = 0;
    RulesProblem p = build_rules_problem("aos4", f, target);
    Verdict v = judged(p, plan_to(p, right));
    EXPECT_FALSE(v.legal);
    EXPECT_TRUE(mentions(v, "further from the target unit"));
    target.target_unit = 1;
    p = build_rules_problem("aos4", f, target);
    EXPECT_TRUE(judged(p, plan_to(p, right)).legal);
    // AoS3 refers to the nearest enemy: both are equally near, either will do.
    p = build_rules_problem("aos3", f, {});
    EXPECT_TRUE(judged(p, plan_to(p, right)).legal);
    target.target_unit = 2;
    EXPECT_THROW(build_rules_problem("aos4", f, target), InputError);
}

// Random plans (full moves, small moves, random orders) on several scenarios and profiles:
// the fitness and the validator agree on legality and on the count in range; the ranking
// puts every legal plan above every illegal one and orders legal plans by count first.
TEST(PileInRules, FitnessAndValidatorAgreeOnRandomPlans) {
    struct Case {
        const char* file;
        const char* preset;
        bool paths;
    };
    int legal = 0, illegal = 0;
    uint32_t stream = 0;
    // S4 with A a 60 x 35 oval that may turn (path checking sweeps it turned), beside the
    // shared scenarios.
    ScenarioFile oval_a = load_scenario(testing::data_file("s4.json"));
    oval_a.scenario.friendly[0].base.length = 60;
    oval_a.scenario.friendly[0].base.width = 35;
    oval_a.scenario.friendly[0].base.shape = BaseShape::Oval;
    RuleOverrides turning = with_paths();
    turning.turn_ovals = true;
    const RulesProblem turned = build_rules_problem("aos3", oval_a, turning);
    ASSERT_GE(turned.layout.turn, 0);
    for (const Case& c :
         {Case{"s1.json", "aos1", false}, Case{"s1.json", "aos3", true},
          Case{"s4.json", "aos4", true}, Case{"s6.json", "aos3", true},
          Case{"s8.json", "aos4", false}, Case{"s8.json", "aos3", true}, Case{"", "aos3", true}}) {
        const RulesProblem p =
            c.file[0] ? problem_for(c.file, c.preset, c.paths ? with_paths() : RuleOverrides{})
                      : turned;
        const int n = p.scenario.friendly_count;
        float best_illegal = -1e30f, worst_legal = 1e30f;
        std::vector<std::pair<int, float>> legal_scores;
        for (uint32_t i = 0; i < 300; ++i, ++stream) {
            // Sources: random moves (full, quarter), nobody moves, built plans, greedy with
            // one model nudged.
            std::vector<uint32_t> genes(p.layout.words, 0u);
            const uint32_t source = i % 5;
            if (source == 3 || source == 4) {
                Move built[MaxFriendly];
                if (source == 3) {
                    rebuild_plan(p, 21, Purpose::Test, stream, 7, built);
                    for (int m = 0; m < n; ++m) genes[m] = pack_move(built[m]);
                } else {
                    greedy_plan(p, genes.data());
                    const int m = static_cast<int>(stream % n);
                    Move nudge = random_move(21, Purpose::Test, stream, 5, 0);
                    Move now = unpack_move(genes[m]);
                    genes[m] =
                        pack_move(clamp_move(Move{now.dx + nudge.dx / 16, now.dy + nudge.dy / 16}));
                }
            } else if (source != 2) {
                const int32_t shrink = source == 0 ? 1 : 4;
                for (int m = 0; m < n; ++m) {
                    Move mv = random_move(21, Purpose::Test, stream, static_cast<uint32_t>(m), 0);
                    genes[m] = pack_move(Move{mv.dx / shrink, mv.dy / shrink});
                }
            }
            if (p.layout.turn >= 0)
                for (int m = 0; m < n; ++m)
                    genes[p.layout.turn + m] = random_turn(21, Purpose::Test, stream, 77, m);
            if (p.layout.order >= 0) {
                std::vector<uint32_t> order(n);
                for (int k = 0; k < n; ++k) order[k] = static_cast<uint32_t>(k);
                for (int k = n - 1; k > 0; --k)
                    std::swap(order[k],
                              order[below(philox(21, Purpose::Test, stream, 99, k, 0).v[0],
                                          static_cast<uint32_t>(k + 1))]);
                for (int k = 0; k < n; ++k) genes[p.layout.order + k] = order[k];
            }
            const Verdict v = judged(p, genes);
            const Breakdown b = fitness_of(p, genes);

            if (source != 2) (v.legal ? legal : illegal)++;  // plans that move
            if (b.legal) {
                worst_legal = std::min(worst_legal, b.fitness);
                legal_scores.push_back({b.in_range_count, b.fitness});
            } else {
                best_illegal = std::max(best_illegal, b.fitness);
            }
        }
        EXPECT_LT(best_illegal, worst_legal) << c.file << " " << c.preset;
        for (const auto& x : legal_scores)
            for (const auto& y : legal_scores)
                if (x.first > y.first) {
                    EXPECT_GT(x.second, y.second) << c.file;
                }
    }
    RecordProperty("legal_moving_plans", legal);
    EXPECT_GT(legal, 100);
    EXPECT_GT(illegal, 100);
}

TEST(PileInRules, RepairSendsOffendersBackUntilLegal) {
    // S1 under aos3 with coherency 3": four models straight into contact, the fifth 10 mm
    // backwards (further from its enemy): repair sends the fifth back, four stay in range.
    RuleOverrides wide;
    wide.coherency_mm = 76.2;
    const RulesProblem p = problem_for("s1.json", "aos3", wide);
    const std::vector<uint32_t> genes =
        plan_to(p, {{0, 50.8}, {32, 50.8}, {64, 50.8}, {96, 50.8}, {128, -10}});
    EXPECT_TRUE(mentions(judged(p, genes), "friendly[4] ends"));
    PlanPose pose;
    decode_plan(p, GenomeGenes{genes.data()}, pose);
    Breakdown b;
    uint8_t flags[MaxFriendly];
    EXPECT_EQ(repair_plan(p, pose, &b, flags), uint64_t{0b10000});
    EXPECT_TRUE(b.legal);
    EXPECT_EQ(b.in_range_count, 4);
    std::vector<uint32_t> repaired = genes;
    repaired[4] = 0u;
    EXPECT_TRUE(judged(p, repaired).legal);
    EXPECT_EQ(rules_evaluate(p, GenomeGenes{repaired.data()}).fitness, b.fitness);
    // A legal plan is left alone.
    decode_plan(p, GenomeGenes{repaired.data()}, pose);
    EXPECT_EQ(repair_plan(p, pose, &b, flags), uint64_t{0});
    // With coherency 1" the fifth, sent back, is left 28 mm behind the fourth: the movers that
    // stood next to it go back too, and so on; whatever it takes, the result is legal.
    const RulesProblem q = problem_for("s1.json", "aos3");
    decode_plan(q, GenomeGenes{genes.data()}, pose);
    const uint64_t back = repair_plan(q, pose, &b, flags);
    EXPECT_TRUE(b.legal);
    std::vector<uint32_t> after = genes;
    for (int m = 0; m < 5; ++m)
        if ((back >> m) & 1u) after[m] = 0u;
    EXPECT_TRUE(judged(q, after).legal);
    EXPECT_NE(back & 0b10000, 0u);
}

TEST(PileInRules, ResolutionOrderPresetFileFlag) {
    ScenarioFile f = load_scenario(testing::data_file("s1.json"));  // sets reach 12.7 mm only
    RulesProblem p = build_rules_problem("aos4", f, {});
    EXPECT_FLOAT_EQ(p.scenario.reach_mm, 12.7f);      // the file's
    EXPECT_FLOAT_EQ(p.scenario.coherency_mm, 12.7f);  // aos4: 1/2"
    EXPECT_EQ(p.rules.direction, Direction::NoFurtherFromTarget);
    EXPECT_EQ(p.rules.two_neighbours_from, 7);
    p = build_rules_problem("aos1", f, {});
    EXPECT_FLOAT_EQ(p.scenario.coherency_mm, 25.4f);
    EXPECT_EQ(p.rules.direction, Direction::StrictlyCloser);
    EXPECT_EQ(p.rules.two_neighbours_from, 0);
    f.rules.two_neighbours_from = 9;  // as a file field
    RuleOverrides flags;
    flags.reach_mm = 50.8;
    flags.coherency_mm = 0;
    p = build_rules_problem("aos1", f, flags);
    EXPECT_FLOAT_EQ(p.scenario.reach_mm, 50.8f);
    EXPECT_FLOAT_EQ(p.scenario.coherency_mm, 0.0f);  // touching still counts
    EXPECT_EQ(p.rules.two_neighbours_from, 9);
    flags.reach_mm = -25.4;
    EXPECT_THROW(build_rules_problem("aos1", f, flags), InputError);
    flags.reach_mm.reset();
    flags.coherency_mm = -1;
    EXPECT_THROW(build_rules_problem("aos1", f, flags), InputError);
    EXPECT_THROW(build_rules_problem("aos9", f, {}), InputError);
}

}  // namespace
}  // namespace gaeval::pile_in
