// `gaeval pile-in --check PLAN` from the outside: a legal plan (hand-derived, as CSV in the
// scenario's units or JSON in inches, or a best.json as written) exits 0; an illegal one exits
// 1 and names each model, rule and amount (hand-computed); both write check.json and the
// picture. Bad plans and bad flags are one line on stderr, exit 2, nothing written.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "rules_util.hpp"

namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;
namespace fs = std::filesystem;
namespace pi = gaeval::pile_in;

std::string scenario(const std::string& name) {
    return std::string(GAEVAL_SOURCE_DIR) + "/scenarios/" + name;
}

// A fresh folder name (a leftover of an earlier process with the same pid is removed: the CLI
// refuses a folder that is not empty).
std::string out_dir(const std::string& name) {
    const fs::path dir =
        fs::path(::testing::TempDir()) / ("cli_check_" + std::to_string(getpid()) + "_" + name);
    fs::remove_all(dir);
    return dir.string();
}

// End positions as CSV lines "x,y" with a header, in the given unit (mm per unit).
std::string csv_of(const std::vector<std::pair<double, double>>& ends, double unit = 1.0) {
    std::ostringstream out;
    out << "x,y\n# measured on the table\n";
    out.precision(10);
    for (const auto& e : ends) out << e.first / unit << ", " << e.second / unit << "\n";
    return out.str();
}

// The last stdout line (--json) as JSON.
nlohmann::json last_json(std::string out) {
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return nlohmann::json::parse(out.substr(out.rfind('\n') + 1));
}

TEST(PileInCheck, TheRingWitnessIsLegalAndShownAsCsvOrJsonInInches) {
    const pi::RulesProblem p = pi::testing::shipped_problem("r2_ring_offset.json", "aos4");
    const auto ends = pi::testing::ring_witness(p.scenario);
    const std::string dir = out_dir("ring");
    auto r = run_cli("pile-in --check " + temp_file("ring.csv", csv_of(ends)) + " --scenario " +
                     scenario("r2_ring_offset.json") + " --rules aos4 --out " + dir);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("legal, 6 of 7 models in combat range"), std::string::npos) << r.out;
    const auto report = nlohmann::json::parse(read_text(dir + "/check.json"));
    EXPECT_EQ(report["legal"], true);
    EXPECT_EQ(report["in_range_count"], 6);
    EXPECT_TRUE(report["violation_details"].empty());
    const std::string svg = read_text(dir + "/check.svg");
    EXPECT_NE(svg.find("6 of 7 models in combat range, legal"), std::string::npos);
    EXPECT_NE(svg.find("To play it"), std::string::npos);
    // The same plan in best.json's shape, in inches.
    nlohmann::json plan = {{"units", "inch"}, {"models", nlohmann::json::array()}};
    for (const auto& e : ends)
        plan["models"].push_back({{"end", {{"x", e.first / 25.4}, {"y", e.second / 25.4}}}});
    r = run_cli("pile-in --check " + temp_file("ring.json", plan.dump()) + " --scenario " +
                scenario("r2_ring_offset.json") + " --rules aos4 --json --out " + out_dir("ring2"));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const auto line = last_json(r.out);
    EXPECT_EQ(line["legal"], true);
    EXPECT_EQ(line["in_range_count"], 6);
}

TEST(PileInCheck, ABestJsonChecksAsItStands) {
    const std::string run = out_dir("run");
    auto r = run_cli("pile-in --scenario " + scenario("s4_coordination.json") +
                     " --rules aos4 --path-check on --population 100 --generations 20 --threads 1 "
                     "--quiet --out " +
                     run);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("pile-in --check " + run + "/best.json --scenario " +
                scenario("s4_coordination.json") + " --rules aos4 --path-check on --out " +
                out_dir("run_check"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("legal, 2 of 2"), std::string::npos) << r.out;
    // The order matters with path checking: B first runs into A, still at its start.
    auto best = nlohmann::json::parse(read_text(run + "/best.json"));
    best["order"] = {1, 0};
    r = run_cli("pile-in --check " + temp_file("reordered.json", best.dump()) + " --scenario " +
                scenario("s4_coordination.json") + " --rules aos4 --path-check on --out " +
                out_dir("reordered"));
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("friendly[1]'s path crosses friendly[0] (at its start)"),
              std::string::npos)
        << r.out;
}

TEST(PileInCheck, IllegalPlansNameTheModelTheRuleAndByHowMuch) {
    // S4 (mm): A (40 mm) at (0, -60), B (40 mm) at (0, -105), enemy (25 mm) at the origin.
    // A goes into contact at (0, -32.5); B ends 30 mm behind it at (0, -62.5): 10 mm of
    // overlap. Under aos1 (coherency 1", strictly closer) that is the only broken rule.
    const std::string dir = out_dir("overlap");
    auto r =
        run_cli("pile-in --check " + temp_file("overlap.csv", csv_of({{0, -32.5}, {0, -62.5}})) +
                " --scenario " + scenario("s4_coordination.json") + " --rules aos1 --out " + dir);
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("ILLEGAL, 1 of 2 models in combat range"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("friendly[0] overlaps friendly[1] at the end by 10.000 mm"),
              std::string::npos)
        << r.out;
    auto report = nlohmann::json::parse(read_text(dir + "/check.json"));
    ASSERT_EQ(report["violation_details"].size(), 1u);
    const auto& v = report["violation_details"][0];
    EXPECT_EQ(v["model"], 0);
    EXPECT_EQ(v["rule"], "overlap");
    EXPECT_NEAR(v["by_mm"].get<double>(), 10.0 - 0.01, 1e-6);  // beyond the 10 um tolerance
    EXPECT_TRUE(fs::exists(dir + "/check.svg"));
    // B 80 mm straight ahead (to (0, -25)): past its 3" (76.2 mm) and onto the enemy.
    // A stays: B overlaps the enemy by 12.5 + 20 - 25 = 7.5 mm.
    r = run_cli("pile-in --check " + temp_file("far.csv", csv_of({{0, -60}, {0, -25}})) +
                " --scenario " + scenario("s4_coordination.json") + " --rules aos3 --json --out " +
                out_dir("far"));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    const auto line = last_json(r.out);
    bool move = false, overlap = false;
    for (const auto& d : line["violations"]) {
        if (d["rule"] == "move") {
            move = true;
            EXPECT_EQ(d["model"], 1);
            EXPECT_NEAR(d["by_mm"].get<double>(), 80.0 - 76.2 - 0.01, 1e-4);
        }
        if (d["rule"] == "overlap" &&
            d["text"].get<std::string>().find("enemy[0]") != std::string::npos) {
            overlap = true;
            EXPECT_NEAR(d["by_mm"].get<double>(), 7.5 - 0.01, 1e-4);
        }
    }
    EXPECT_TRUE(move && overlap) << line.dump();
}

TEST(PileInCheck, CoherencyAndDirectionAmountsByHand) {
    // C2 under aos3 (coherency 1" = 25.4 mm): the chain stretched 1 mm too far between
    // friendly[0] and friendly[1] (centres 58.4 mm apart: gap 26.4 mm, 0.99 mm beyond 25.41).
    const std::string stretched = csv_of({{0, 0}, {58.4, 0}, {115.8, 0}, {173.2, 0}});
    auto r = run_cli("pile-in --check " + temp_file("stretch.csv", stretched) + " --scenario " +
                     scenario("c2_chain_stretch.json") + " --rules aos3 --json --out " +
                     out_dir("stretch"));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    auto line = last_json(r.out);
    bool coherency = false;
    for (const auto& d : line["violations"])
        if (d["rule"] == "coherency" && d["model"] == 0) {
            coherency = true;
            EXPECT_NEAR(d["by_mm"].get<double>(), 26.4 - 25.41, 1e-4);
        }
    EXPECT_TRUE(coherency) << line.dump();
    // friendly[0] steps 2 mm toward A: 2 mm further from C, its nearest enemy at the start
    // (start gap 108 mm), 1.99 mm beyond "no further" with its tolerance.
    r = run_cli("pile-in --check " +
                temp_file("step.csv", csv_of({{2, 0}, {57.4, 0}, {114.8, 0}, {172.2, 0}})) +
                " --scenario " + scenario("c2_chain_stretch.json") + " --rules aos3 --json --out " +
                out_dir("step"));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    line = last_json(r.out);
    ASSERT_EQ(line["violations"].size(), 1u) << line.dump();
    EXPECT_EQ(line["violations"][0]["rule"], "direction");
    EXPECT_EQ(line["violations"][0]["model"], 0);
    EXPECT_NEAR(line["violations"][0]["by_mm"].get<double>(), 2.0 - 0.01, 1e-4);
}

struct BadCheck {
    std::string args;
    std::string expected;
};

class PileInCheckErrors : public ::testing::TestWithParam<BadCheck> {};

TEST_P(PileInCheckErrors, OneLineExit2NothingWritten) {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : name)
        if (c == '/') c = '_';
    const std::string dir = out_dir("bad_" + name);
    fs::remove_all(dir);
    auto r = run_cli("pile-in " + GetParam().args + " --out " + dir);
    EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
    EXPECT_EQ(r.err_lines(), 1) << r.err;
    EXPECT_NE(r.err.find(GetParam().expected), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_FALSE(fs::exists(dir));
}

const std::string kS4 = " --scenario " + scenario("s4_coordination.json") + " --rules aos4";

INSTANTIATE_TEST_SUITE_P(
    BadInput, PileInCheckErrors,
    ::testing::Values(
        BadCheck{"--check " + temp_file("text.csv", "0,-60\nzero,-105\n") + kS4,
                 "line 2: expected x,y"},
        BadCheck{"--check " + temp_file("three.csv", "0,-60\n0,-105\n1,1\n") + kS4,
                 "more than 2 models"},
        BadCheck{"--check " + temp_file("one.csv", "0,-60\n") + kS4, "1 model, the scenario has 2"},
        BadCheck{"--check " + temp_file("nomodels.json", "{\"units\": \"mm\"}") + kS4,
                 "models: required"},
        BadCheck{
            "--check " + temp_file("noend.json", "{\"models\": [{\"x\": 0, \"y\": 1}, {}]}") + kS4,
            "models[0]: needs \"end\""},
        BadCheck{"--check " +
                     temp_file("order.json",
                               "{\"models\": [{\"end\": {\"x\": 0, \"y\": -60}}, {\"end\": "
                               "{\"x\": 0, \"y\": -105}}], \"order\": [1, 1]}") +
                     kS4,
                 "order[1]: the order must list each model index"},
        BadCheck{"--check " +
                     temp_file("feet.json",
                               "{\"units\": \"feet\", \"models\": [{\"end\": {\"x\": 0, \"y\": "
                               "-60}}, {\"end\": {\"x\": 0, \"y\": -105}}]}") +
                     kS4,
                 "units: must be \"mm\" or \"inch\""},
        BadCheck{"--check " + temp_file("bad.json", "{\"models\": [") + kS4, "malformed JSON"},
        BadCheck{"--check /nonexistent/plan.csv" + kS4, "no such file"},
        BadCheck{"--check " + temp_file("ok.csv", "0,-60\n0,-105\n") + " --scenario " +
                     scenario("s4_coordination.json"),
                 "--check: needs a rules preset"},
        BadCheck{"--check " + temp_file("ok2.csv", "0,-60\n0,-105\n") + kS4 + " --population 50",
                 "--check: --population is a solver flag"}));

}  // namespace
