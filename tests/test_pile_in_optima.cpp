// Whole GA runs under the rules presets reach the hand-derived optima of the shared scenarios
// (../shared/data/pile_in_scenarios.md, copies in tests/data) and beat the greedy baseline
// where the data says they must; the independent validator checks every returned plan. Runs
// use one thread and small budgets (results do not depend on the thread count).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "host/pile_in/run.hpp"
#include "host/pile_in/validator.hpp"
#include "rules_util.hpp"

namespace gaeval::pile_in {
namespace {

namespace fs = std::filesystem;

struct Outcome {
    JobResult result;
    Verdict verdict;  // the validator on the returned plan, run here
    RulesProblem problem;
    std::string out;
};

Outcome run_rules(const std::string& file, const std::string& preset, uint64_t population,
                  uint32_t generations, const RuleOverrides& flags = {}, uint64_t seed = 1,
                  int threads = 1, const std::string& solver = "ga") {
    static int counter = 0;
    PileInJob job;
    job.scenario = load_scenario(testing::data_file(file));
    job.rules = preset;
    job.overrides = flags;
    job.solver = solver;
    job.ga.population = population;
    job.ga.generations = generations;
    job.ga.seed = seed;
    job.backend = resolve_backend("cpu", threads);
    job.out_dir = (fs::path(::testing::TempDir()) /
                   ("optima_" + std::to_string(getpid()) + "_" + std::to_string(counter++)))
                      .string();
    fs::remove_all(job.out_dir);  // a folder left by an earlier process with the same pid
    job.quiet = true;
    job.checkpoint_every_seconds = 1e9;
    job.checkpoint_at_end = false;
    Outcome run;
    run.result = run_job(job);
    run.problem = build_rules_problem(preset, job.scenario, flags);
    run.verdict = validate_plan(run.problem, run.result.best.genes);
    run.out = job.out_dir;
    // The run's own verdict (best.json) is the validator's too.
    EXPECT_EQ(run.result.legal, run.verdict.legal);
    EXPECT_EQ(run.result.in_range_count, run.verdict.in_range_count);
    return run;
}

const char* const kPresets[] = {"aos1", "aos2", "aos3", "aos4"};

TEST(PileInOptima, S1EverybodyReachesUnderEveryPreset) {
    for (const char* preset : kPresets) {
        Outcome r = run_rules("s1.json", preset, 300, 60);
        EXPECT_TRUE(r.verdict.legal) << preset;
        EXPECT_EQ(r.verdict.in_range_count, 5) << preset;
        EXPECT_EQ(r.result.greedy_in_range_count, 5) << preset;
    }
}

// S2a: the only in-range spots are a straight 3" ahead (gap exactly 1" = reach).
// S2b: nobody can reach; the best plan moves everyone 3" straight (gap 38.1 mm each).
TEST(PileInOptima, S2InclusiveBoundaryAndUnreachable) {
    for (const char* preset : kPresets) {
        Outcome a = run_rules("s2a.json", preset, 300, 80);
        EXPECT_TRUE(a.verdict.legal) << preset;
        EXPECT_EQ(a.verdict.in_range_count, 5) << preset;
        Outcome b = run_rules("s2b.json", preset, 300, 80);
        EXPECT_TRUE(b.verdict.legal) << preset;
        EXPECT_EQ(b.verdict.in_range_count, 0) << preset;
        for (int m = 0; m < 5; ++m) {
            EXPECT_NEAR(b.verdict.nearest_gap[m], 38.1, 0.01) << preset << " model " << m;
            const Move mv = unpack_move(b.result.best.genes[m]);
            EXPECT_NEAR(mv.dy, MoveScale, 8) << preset;  // 3" straight ahead
            EXPECT_NEAR(mv.dx, 0, 400) << preset;
        }
    }
}

// S4: greedy moves A straight in and blocks B (1); the GA side-steps A round the enemy and
// sends B straight in (2), with and without path checking (then A must move first).
TEST(PileInOptima, S4CoordinationBeatsGreedy) {
    for (const char* preset : kPresets) {
        for (bool paths : {false, true}) {
            RuleOverrides flags;
            flags.path_check = paths;
            Outcome r = run_rules("s4.json", preset, 300, 60, flags);
            EXPECT_TRUE(r.verdict.legal) << preset << " paths " << paths;
            EXPECT_EQ(r.verdict.in_range_count, 2) << preset << " paths " << paths;
            EXPECT_EQ(r.result.greedy_in_range_count, 1) << preset;
            EXPECT_TRUE(r.result.greedy_legal);
            if (paths) {
                EXPECT_EQ(r.verdict.order, (std::vector<int>{0, 1})) << preset;
            }
        }
    }
}

// S5: independent copies of S4 1000 mm apart (its own problem each, large coordinates):
// the GA totals 2k, greedy k.
TEST(PileInOptima, S5CopiesGaTwiceGreedy) {
    int ga = 0, greedy = 0;
    for (const char* file : {"s5_1.json", "s5_2.json", "s5_3.json"}) {
        Outcome r = run_rules(file, "aos4", 300, 60, testing::with_paths());
        EXPECT_TRUE(r.verdict.legal) << file;
        ga += r.verdict.in_range_count;
        greedy += r.result.greedy_in_range_count;
    }
    EXPECT_EQ(ga, 6);
    EXPECT_EQ(greedy, 3);
}

// S6: strictly closer (aos1/2) pins A, already in contact: 1. No further (aos3/4): A slides
// round the enemy, B moves in: 2 (with path checking the slide is the legal path).
TEST(PileInOptima, S6DirectionRuleDecides) {
    for (const char* preset : kPresets) {
        const int optimum = std::string(preset) <= "aos2" ? 1 : 2;
        for (bool paths : {false, true}) {
            RuleOverrides flags;
            flags.path_check = paths;
            Outcome r = run_rules("s6.json", preset, 500, 100, flags);
            EXPECT_TRUE(r.verdict.legal) << preset;
            EXPECT_EQ(r.verdict.in_range_count, optimum) << preset << " paths " << paths;
            EXPECT_EQ(r.result.greedy_in_range_count, 1) << preset;
        }
    }
}

// S8 under P4 (aos4): the two-neighbour rule caps the frontage at 8 of 10; greedy gets 5.
TEST(PileInOptima, S8TwoNeighbourRuleCapsTheFrontage) {
    for (uint64_t seed : {1, 2}) {
        Outcome r = run_rules("s8.json", "aos4", 2000, 150, {}, seed);
        EXPECT_TRUE(r.verdict.legal) << "seed " << seed;
        EXPECT_EQ(r.verdict.in_range_count, 8) << "seed " << seed;
        EXPECT_EQ(r.result.greedy_in_range_count, 5);
    }
}

TEST(PileInOptima, RepairModeReachesTheOptimaToo) {
    RuleOverrides repair;
    repair.repair = true;
    Outcome s4 = run_rules("s4.json", "aos4", 300, 60, repair);
    EXPECT_TRUE(s4.verdict.legal);
    EXPECT_EQ(s4.verdict.in_range_count, 2);
    Outcome s8 = run_rules("s8.json", "aos4", 2000, 150, repair);
    EXPECT_TRUE(s8.verdict.legal);
    EXPECT_EQ(s8.verdict.in_range_count, 8);
}

TEST(PileInOptima, GreedySolverAlone) {
    Outcome r = run_rules("s8.json", "aos4", 200, 1, {}, 1, 1, "greedy");
    EXPECT_TRUE(r.verdict.legal);
    EXPECT_EQ(r.verdict.in_range_count, 5);
    EXPECT_EQ(r.result.generations_done, 0u);
    EXPECT_TRUE(fs::exists(fs::path(r.out) / "best.json"));
    EXPECT_FALSE(fs::exists(fs::path(r.out) / "generations.csv"));
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

TEST(PileInOptima, SameSeedSameBestJsonOnAnyThreadCount) {
    RuleOverrides flags = testing::with_paths();  // order genes and OX too
    const std::string one =
        slurp(fs::path(run_rules("s8.json", "aos3", 400, 15, flags, 9, 1).out) / "best.json");
    const std::string three =
        slurp(fs::path(run_rules("s8.json", "aos3", 400, 15, flags, 9, 3).out) / "best.json");
    ASSERT_FALSE(one.empty());
    EXPECT_EQ(one, three);
}

}  // namespace
}  // namespace gaeval::pile_in
