// `gaeval pile-in --rules aos1..aos4` from the outside: bad rule input is one line on stderr
// and exit 2; a run prints GA vs greedy and writes best.json with legal / violations / order;
// --solver greedy runs the baseline alone; a resumed rules run ends where an uninterrupted
// one does.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include <cmath>

#include "cli_util.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/run.hpp"
#include "host/core/error.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/validator.hpp"

namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;
namespace fs = std::filesystem;

std::string data(const std::string& name) {
    return std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/" + name;
}

std::string out_dir(const std::string& name) {
    const fs::path p =
        fs::path(::testing::TempDir()) / ("cli_rules_" + std::to_string(getpid()) + "_" + name);
    static std::set<std::string> cleaned;  // emptied the first time this process names it
    if (cleaned.insert(name).second) fs::remove_all(p);
    return p.string();
}

const std::string kS4 = data("s4.json");

// Scenario files with bad bases (written per test process).
std::string file_with(const std::string& name, const std::string& enemy) {
    return temp_file(name, R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": 32}],
        "enemy": [)" + enemy + "]}");
}

struct BadFlags {
    std::string args;
    std::string expected;
};

class RulesCliErrors : public ::testing::TestWithParam<BadFlags> {};

TEST_P(RulesCliErrors, OneLineAndExitCode2) {
    auto r = run_cli("pile-in " + GetParam().args + " --quiet --out " + out_dir("bad"));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, RulesCliErrors,
    ::testing::Values(
        BadFlags{"--scenario " + kS4 + " --rules aos5", "--rules: unknown rules 'aos5'"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --reach -1", "--reach -1: must be in [0, 1000]"},
        BadFlags{"--scenario " + kS4 + " --rules aos3 --coherency -0.5",
                 "--coherency -0.5: must be in [0, 1000]"},
        BadFlags{"--scenario " + kS4 + " --reach -2", "--reach -2: must be in [0, 1000]"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --direction sideways",
                 "--direction: unknown rule 'sideways'"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --path-check maybe",
                 "--path-check: expected on or off"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --two-neighbours-from -3",
                 "--two-neighbours-from -3: must be in"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --constraints soft",
                 "--constraints: expected penalty or repair"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --target-unit 3",
                 "--target-unit: no enemy model is in unit 3"},
        BadFlags{"--scenario " + kS4 + " --rules aos4 --solver magic",
                 "--solver: unknown solver 'magic'"},
        BadFlags{"--scenario " + kS4 + " --direction free",
                 "need --rules aos1, aos2, aos3 or aos4"},
        BadFlags{"--scenario " + kS4 + " --solver greedy", "--solver greedy: needs a rules preset"},
        // A start out of coherency under aos4 (1/2"): A and B are 5 mm apart, fine; spread
        // them with a small coherency.
        BadFlags{"--scenario " + kS4 + " --rules aos4 --coherency 0.1",
                 "the unit starts out of coherency under aos4: friendly[0] has no friend"},
        BadFlags{"--scenario " +
                     file_with("oval_overlap.json",
                               R"({"x": 0, "y": 30, "base": [60, 35], "angle": 0})") +
                     " --rules aos4",
                 "friendly[0] and enemy[0] overlap at the start"},
        BadFlags{"--scenario " + file_with("oval_turned.json",
                                           R"({"x": 0, "y": 39.4, "base": [60, 35], "angle": 90})"),
                 "friendly[0] and enemy[0] overlap at the start"},
        BadFlags{
            "--scenario " +
                file_with("oval_wide.json", R"({"x": 0, "y": 99, "base": [35, 60], "angle": 0})") +
                " --rules aos2",
            "enemy[0].base: oval width 60 is larger than its length 35"},
        BadFlags{"--scenario " +
                     file_with("oval_no_angle.json", R"({"x": 0, "y": 99, "base": [60, 35]})") +
                     " --rules aos3",
                 "enemy[0].angle: missing"},
        BadFlags{"--scenario " + temp_file("bad_direction.json",
                                           R"({"units": "mm", "direction": "sideways",
                 "friendly": [{"x": 0, "y": 0, "base": 32}], "enemy": [{"x": 0, "y": 99, "base": 32}]})"),
                 "direction: unknown rule 'sideways'"},
        BadFlags{
            "--scenario " + temp_file("bad_unit.json",
                                      R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": 32}],
                 "enemy": [{"x": 0, "y": 99, "base": 32, "unit": -1}]})"),
            "enemy[0].unit: must be a whole number >= 0"},
        BadFlags{"--scenario " +
                     temp_file("bad_coherency.json",
                               R"({"units": "inch", "coherency": -1,
                 "friendly": [{"x": 0, "y": 0, "base": 1}], "enemy": [{"x": 0, "y": 4, "base": 1}]})") +
                     " --rules aos1",
                 "coherency: must be >= 0"}));

TEST(RulesCli, OvalsClearOfEachOtherLoadEvenWhenTheirEnclosingCirclesOverlap) {
    const std::string f =
        file_with("oval_clear.json", R"({"x": 0, "y": 39.4, "base": [60, 35], "angle": 0})");
    auto r = run_cli("pile-in --scenario " + f + " --rules aos4 --solver greedy --quiet --out " +
                     out_dir("oval_clear"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST(RulesCli, ShippedRulesScenariosLoadUnderEveryPreset) {
    for (const char* name : {"s4_coordination", "s8_frontage"}) {
        for (const char* preset : {"aos1", "aos2", "aos3", "aos4"}) {
            auto r =
                run_cli("pile-in --scenario " + std::string(GAEVAL_SOURCE_DIR) + "/scenarios/" +
                        name + ".json --rules " + preset + " --solver greedy --quiet --out " +
                        out_dir(std::string(name) + preset));
            EXPECT_EQ(r.exit_code, 0) << name << " " << preset << ": " << r.err;
            EXPECT_NE(r.out.find("legal"), std::string::npos) << r.out;
        }
    }
}

TEST(RulesCli, Aos4RunPrintsGaVersusGreedyAndWritesTheVerdict) {
    const std::string dir = out_dir("s4");
    auto r = run_cli("pile-in --scenario " + kS4 +
                     " --rules aos4 --path-check on --population 300 --generations 60 --backend "
                     "cpu --threads 1 --quiet --out " +
                     dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("aos4: GA 2 of 2 in range (legal) vs greedy 1 (legal)"), std::string::npos)
        << r.out;
    auto best = nlohmann::json::parse(read_text(dir + "/best.json"));
    EXPECT_EQ(best["legal"], true);
    EXPECT_TRUE(best["violations"].empty());
    EXPECT_EQ(best["order"], nlohmann::json({0, 1}));
    EXPECT_EQ(best["in_range_count"], 2);
    EXPECT_EQ(best["greedy"]["in_range_count"], 1);
    EXPECT_EQ(best["rules_config"]["direction"], "no-further-from-target");
    EXPECT_EQ(best["rules_config"]["path_check"], true);
    EXPECT_EQ(best["models"][0]["order"], 0);
    EXPECT_EQ(best["models"][1]["illegal"], false);
    const std::string svg = read_text(dir + "/picture.svg");
    EXPECT_NE(svg.find("in the order #1, #2"), std::string::npos);  // the move order matters
    EXPECT_NE(svg.find(">#2</text>"), std::string::npos);
    EXPECT_NE(svg.find("GA 2 vs greedy 1"), std::string::npos);
    auto run = nlohmann::json::parse(read_text(dir + "/run.json"));
    EXPECT_EQ(run["config"]["rules_config"]["preset"], "aos4");
    EXPECT_EQ(run["result"]["legal"], true);
}

TEST(RulesCli, GreedySolverAloneAndJson) {
    const std::string dir = out_dir("greedy");
    auto r = run_cli("pile-in --scenario " + data("s8.json") +
                     " --rules aos4 --solver greedy --json --quiet --out " + dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
    auto j = nlohmann::json::parse(last);
    EXPECT_EQ(j["solver"], "greedy");
    EXPECT_EQ(j["legal"], true);
    EXPECT_EQ(j["in_range_count"], 5);
    auto best = nlohmann::json::parse(read_text(dir + "/best.json"));
    EXPECT_EQ(best["solver"], "greedy");
    EXPECT_EQ(best["legal"], true);
    EXPECT_FALSE(fs::exists(fs::path(dir) / "generations.csv"));
}

// The picture numbers models from 1 at their starts and ends alike, draws each model's move
// limit round its start, and marks the models that stay.
TEST(RulesCli, PictureNumbersFromOneDrawsMoveLimitsAndMarksModelsThatStay) {
    using namespace gaeval::pile_in;
    ScenarioFile f = load_scenario(data("s4.json"));
    const RulesProblem p = build_rules_problem("aos4", f, {});
    ASSERT_EQ(p.scenario.friendly_count, 2);
    // Model 1 (friendly[0]) stays; model 2 (friendly[1]) moves 10 mm sideways.
    const std::vector<uint32_t> genes = {
        0u, pack_move(Move{static_cast<int32_t>(10 / p.scenario.move_unit_mm), 0})};
    const Verdict v = validate_plan(p, genes);
    const PlanReport plan = rules_report(p, genes, v);
    const std::string svg = plan_svg(p.scenario, plan);
    auto count = [&](const std::string& needle) {
        std::size_t n = 0;
        for (std::size_t at = svg.find(needle); at != std::string::npos;
             at = svg.find(needle, at + 1))
            ++n;
        return n;
    };
    // Labels 1 and 2 on the ends, 2 also on the moved model's start; never a 0.
    EXPECT_EQ(count("\">1</text>"), 1u);
    EXPECT_EQ(count("\">2</text>"), 2u);
    EXPECT_EQ(count("\">0</text>"), 0u);
    // One light move-limit circle per model, of radius move_mm in the picture's scale.
    EXPECT_EQ(count("fill=\"none\" stroke=\"#1f77b4\" stroke-opacity=\"0.18\""), 2u);
    // The model that stays gets the dotted ring, and the legend says what it means.
    EXPECT_EQ(count("stroke-dasharray=\"1.5 2\""), 1u);
    EXPECT_NE(svg.find("did not move"), std::string::npos);
    EXPECT_NE(svg.find("is friendly[k-1]"), std::string::npos);
}

TEST(RulesCli, PictureDrawsOvalsAtTheirAnglesAndMarksIllegalModels) {
    using namespace gaeval::pile_in;
    ScenarioFile f = load_scenario(data("s4.json"));
    Base& oval = f.scenario.enemy[0].base;  // the enemy becomes a 60 x 35 oval at 30 degrees
    oval.length = 60;
    oval.width = 35;
    oval.cos_angle = static_cast<float>(std::cos(3.14159265358979323846 / 6));
    oval.sin_angle = 0.5f;
    oval.shape = BaseShape::Oval;
    const RulesProblem p = build_rules_problem("aos4", f, {});
    // B moves 45 mm straight ahead, onto A.
    const std::vector<uint32_t> genes = {
        0u, pack_move(Move{0, static_cast<int32_t>(45 / p.scenario.move_unit_mm)})};
    const Verdict v = validate_plan(p, genes);
    ASSERT_FALSE(v.legal);
    const PlanReport plan = rules_report(p, genes, v);
    EXPECT_TRUE(plan.models[1].illegal);
    const std::string svg = plan_svg(p.scenario, plan);
    EXPECT_NE(svg.find("&#x2717;"), std::string::npos);  // the illegal mark
    EXPECT_NE(svg.find("<ellipse"), std::string::npos);
    EXPECT_NE(svg.find("rotate(-30.00 "), std::string::npos);
    const nlohmann::json best = rules_plan_json(p, plan, v);
    EXPECT_EQ(best["legal"], false);
    EXPECT_NE(best["violations"][0].get<std::string>().find("friendly[0] overlaps friendly[1]"),
              std::string::npos);
    EXPECT_EQ(best["models"][1]["illegal"], true);
}

TEST(RulesCli, ResumedRulesRunEndsWhereAnUninterruptedOneDoes) {
    using namespace gaeval::pile_in;
    auto job_for = [](const std::string& out, uint32_t generations) {
        PileInJob job;
        job.scenario = load_scenario(data("s8.json"));
        job.rules = "aos3";
        job.overrides.path_check = true;  // order genes in the checkpoint
        job.ga.population = 200;
        job.ga.generations = generations;
        job.ga.seed = 4;
        job.backend = gaeval::resolve_backend("cpu", 2);
        job.out_dir = out_dir(out);
        job.quiet = true;
        job.checkpoint_every_seconds = 1e9;
        return job;
    };
    run_job(job_for("whole", 12));
    run_job(job_for("part", 5));
    PileInJob resumed = job_from_run_folder(out_dir("part"));
    EXPECT_EQ(resumed.overrides.path_check, true);
    resumed.ga.generations = 12;
    resumed.quiet = true;
    resumed.backend = gaeval::resolve_backend("cpu", 1);
    run_job(resumed);
    EXPECT_EQ(read_text(out_dir("part") + "/best.json"),
              read_text(out_dir("whole") + "/best.json"));
    // A different flag is a different configuration: not resumed.
    PileInJob other = job_from_run_folder(out_dir("part"));
    other.overrides.path_check = false;
    other.ga.generations = 14;
    other.backend = gaeval::resolve_backend("cpu", 1);
    EXPECT_THROW(run_job(other), gaeval::InputError);
}

}  // namespace
