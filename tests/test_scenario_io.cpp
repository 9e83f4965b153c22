// Scenario parsing: valid files become mm scenarios; each bad input is one InputError naming
// the file, the field and the problem.
#include <gtest/gtest.h>

#include <string>

#include "cli_util.hpp"
#include "host/core/error.hpp"
#include "host/pile_in/scenario_io.hpp"

namespace gaeval::pile_in {
namespace {

using gaeval::testing::temp_file;

const char* kValid = R"({"units": "inch", "reach": 1,
  "friendly": [{"x": 0, "y": 0, "base": 1.26}, {"x": 1.26, "y": 0, "base": 1.26}],
  "enemy": [{"x": 0, "y": 4, "base": [2.36, 1.38], "angle": 90}]})";

TEST(ScenarioIo, ConvertsInchesToMillimetres) {
    ScenarioFile f = load_scenario(temp_file("valid.json", kValid));
    const Scenario& s = f.scenario;
    EXPECT_EQ(s.friendly_count, 2);
    EXPECT_EQ(s.enemy_count, 1);
    EXPECT_FLOAT_EQ(s.friendly[1].x, 1.26f * 25.4f);
    EXPECT_FLOAT_EQ(s.reach_mm, 25.4f);
    EXPECT_FLOAT_EQ(s.move_mm, 76.2f);       // default 3"
    EXPECT_FLOAT_EQ(s.coherency_mm, 12.7f);  // default 1/2"
    EXPECT_EQ(s.enemy[0].base.shape, BaseShape::Oval);
    EXPECT_NEAR(s.enemy[0].base.cos_angle, 0.0f, 1e-7);
    EXPECT_NEAR(s.enemy[0].base.sin_angle, 1.0f, 1e-7);
    EXPECT_NE(f.name.find("valid"), std::string::npos);  // the file stem when no "name"
}

struct BadCase {
    const char* text;
    const char* expected;  // substring of the message
};

// Readable, stable test names under ctest (the default prints the struct's bytes).
void PrintTo(const BadCase& c, std::ostream* os) { *os << c.expected; }

class ScenarioErrors : public ::testing::TestWithParam<BadCase> {};

TEST_P(ScenarioErrors, OneClearLine) {
    const std::string path = temp_file("bad.json", GetParam().text);
    try {
        load_scenario(path);
        FAIL() << "accepted: " << GetParam().text;
    } catch (const InputError& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(path), std::string::npos) << msg;
        EXPECT_NE(msg.find(GetParam().expected), std::string::npos) << msg;
        EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    }
}

#define F1 R"({"x": 0, "y": 0, "base": 32})"
#define E1 R"({"x": 0, "y": 100, "base": 32})"
INSTANTIATE_TEST_SUITE_P(
    BadInput, ScenarioErrors,
    ::testing::Values(
        BadCase{R"({"units": "mm", "friendly": [)", "malformed JSON"},
        BadCase{R"([1, 2])", "top level"},
        BadCase{R"({"friendly": [)" F1 R"(], "enemy": [)" E1 R"(]})", "units: missing"},
        BadCase{R"({"units": "cm", "friendly": [)" F1 R"(], "enemy": [)" E1 R"(]})", "units"},
        BadCase{R"({"units": "mm", "enemy": [)" E1 R"(]})", "friendly: missing"},
        BadCase{R"({"units": "mm", "friendly": [], "enemy": [)" E1 R"(]})",
                "friendly: the list is empty"},
        BadCase{R"({"units": "mm", "friendly": {}, "enemy": [)" E1 R"(]})",
                "friendly: must be a list"},
        BadCase{R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": -3}], "enemy": [)" E1
                R"(]})",
                "friendly[0].base: diameter must be > 0"},
        BadCase{R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": 0}], "enemy": [)" E1
                R"(]})",
                "friendly[0].base: diameter must be > 0"},
        BadCase{R"({"units": "mm", "friendly": [{"x": 0, "base": 32}], "enemy": [)" E1 R"(]})",
                "friendly[0].y: missing"},
        BadCase{R"({"units": "mm", "friendly": [{"x": "0", "y": 0, "base": 32}], "enemy": [)" E1
                R"(]})",
                "friendly[0].x: must be a number"},
        BadCase{R"({"units": "mm", "friendly": [{"x": 1e999, "y": 0, "base": 32}], "enemy": [)" E1
                R"(]})",
                "malformed JSON: number overflow"},
        BadCase{R"({"units": "mm", "friendly": [)" F1
                R"(], "enemy": [{"x": 0, "y": 99, "base": [35, 60], "angle": 0}]})",
                "enemy[0].base: oval width 60 is larger than its length 35"},
        BadCase{R"({"units": "mm", "friendly": [)" F1
                R"(], "enemy": [{"x": 0, "y": 99, "base": [60, 35]}]})",
                "enemy[0].angle: missing"},
        BadCase{R"({"units": "mm", "friendly": [)" F1
                R"(], "enemy": [{"x": 0, "y": 99, "base": [60]}]})",
                "enemy[0].base"},
        BadCase{
            R"({"units": "mm", "friendly": [{"x": 0, "y": 0, "base": 32, "colour": 1}], "enemy": [)" E1
            R"(]})",
            "friendly[0].colour: unknown field"},
        BadCase{R"({"units": "mm", "rech": 1, "friendly": [)" F1 R"(], "enemy": [)" E1 R"(]})",
                "rech: unknown field"},
        BadCase{R"({"units": "mm", "reach": -1, "friendly": [)" F1 R"(], "enemy": [)" E1 R"(]})",
                "reach: must be >= 0"},
        BadCase{R"({"units": "mm", "move": 0, "friendly": [)" F1 R"(], "enemy": [)" E1 R"(]})",
                "move: must be > 0"},
        BadCase{R"({"units": "mm", "coherency": -2, "friendly": [)" F1 R"(], "enemy": [)" E1
                R"(]})",
                "coherency: must be >= 0"},
        BadCase{R"({"units": "mm", "friendly": [)" F1 "," F1 R"(], "enemy": [)" E1 R"(]})",
                "friendly[0] and friendly[1] overlap at the start"},
        BadCase{R"({"units": "mm", "friendly": [)" F1
                R"(], "enemy": [{"x": 10, "y": 10, "base": 32}]})",
                "friendly[0] and enemy[0] overlap at the start"}));

TEST(ScenarioIo, MissingFileIsAClearError) {
    EXPECT_THROW(load_scenario("/nonexistent/scenario.json"), InputError);
}

TEST(ScenarioIo, TooManyModels) {
    std::string text =
        R"({"units": "mm", "enemy": [{"x": 0, "y": -100, "base": 10}], "friendly": [)";
    for (int i = 0; i <= MaxFriendly; ++i)
        text += (i ? "," : "") + std::string(R"({"x": )") + std::to_string(20 * i) +
                R"(, "y": 0, "base": 10})";
    text += "]}";
    try {
        load_scenario(temp_file("many.json", text));
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("at most 64"), std::string::npos) << e.what();
    }
}

TEST(ScenarioIo, ShippedScenariosAllLoad) {
    for (const char* name :
         {"demo_10v10", "skirmish_5v5", "s1_line_5v5", "line_20v20", "horde_40v40"}) {
        EXPECT_NO_THROW(
            load_scenario(std::string(GAEVAL_SOURCE_DIR) + "/scenarios/" + name + ".json"))
            << name;
    }
}

}  // namespace
}  // namespace gaeval::pile_in
