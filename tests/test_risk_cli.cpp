// Risk from the command line: the registry lists it with its flags, play on the classic map and
// on a map file, and bad input (flag values, map files, another game's player file) refused with
// one line, exit 2 and nothing written.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "risk_test_support.hpp"

namespace {

using gaeval::testing::run_cli;
using gaeval::testing::temp_file;

TEST(RiskCli, ListedWithItsPlayersAndFlags) {
    const auto r = run_cli("games --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto games = nlohmann::json::parse(r.out)["games"];
    nlohmann::json risk;
    for (const auto& g : games)
        if (g["name"] == "risk") risk = g;
    ASSERT_FALSE(risk.is_null()) << r.out;
    EXPECT_EQ(risk["players"], nlohmann::json({"random", "passive", "aggressive", "drafter"}));
    EXPECT_EQ(risk["weights"], nlohmann::json({"territory_share", "army_share", "continent_share",
                                               "border_safety"}));
    EXPECT_EQ(risk["seats"], nlohmann::json({2, 6}));
    EXPECT_FALSE(risk["perft"].get<bool>());
    std::string flags;
    for (const auto& f : risk["flags"]) flags += f["flag"].get<std::string>() + " ";
    EXPECT_EQ(flags, "--map --players --turn-cap --threshold ");
}

TEST(RiskCli, PlayOnTheClassicMapAndOnAMapFile) {
    auto r = run_cli("play --game risk --a drafter --b random --games 20 --players 3 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto j = nlohmann::json::parse(r.out.substr(r.out.rfind('{')));
    EXPECT_EQ(j["map"], "classic");
    EXPECT_EQ(j["players"], 3);
    EXPECT_EQ(j["games"], 20);
    EXPECT_NE(r.out.find("on the classic map (42 territories), 3 players"), std::string::npos) << r.out;
    const std::string map = temp_file("small.json", gaeval::risk::testing::small_map_text());
    r = run_cli("play --game risk --map " + map + " --a aggressive --b passive --games 10 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    j = nlohmann::json::parse(r.out.substr(r.out.rfind('{')));
    EXPECT_EQ(j["wins"], 10);
    EXPECT_EQ(j["map"], map);
}

TEST(RiskCli, BadInputIsOneLineAndExitTwo) {
    const std::string asymmetric = temp_file(
        "asymmetric.json",
        R"({"format": "gaeval-risk-map", "version": 1, "name": "bad",
            "continents": [{"name": "C", "bonus": 1}],
            "territories": [{"name": "A", "continent": "C", "borders": ["B"]},
                            {"name": "B", "continent": "C", "borders": []}]})");
    const std::string negative = temp_file(
        "negative.json",
        R"({"format": "gaeval-risk-map", "version": 1, "name": "bad",
            "continents": [{"name": "C", "bonus": -2}],
            "territories": [{"name": "A", "continent": "C", "borders": ["B"]},
                            {"name": "B", "continent": "C", "borders": ["A"]}]})");
    const std::string broken = temp_file("broken.json", "{\"format\": \"gaeval-risk-map\",");
    const std::string small = temp_file("small4.json", gaeval::risk::testing::small_map_text());
    const std::string ataxx_player = temp_file(
        "ataxx_player.json",
        R"({"format": "gaeval-player", "version": 1, "game": "ataxx",
            "features": ["own_pieces"], "weights": [1]})");
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"--players 7", "--players '7': expected an integer from 2 to 6"},
        {"--players 1", "--players '1'"},
        {"--turn-cap 0", "--turn-cap '0'"},
        {"--threshold 1.5", "--threshold '1.5': expected a probability from 0 to 1"},
        {"--threshold x", "--threshold 'x'"},
        {"--map /nonexistent/risk.json", "cannot open the map file"},
        {"--map " + asymmetric, "must be symmetric"},
        {"--map " + negative, "bonus: must be an integer from 0 to 1000"},
        {"--map " + broken, "malformed JSON"},
        {"--map " + small + " --players 6 --turn-cap 5", ""},  // accepted: 8 territories
    };
    for (const auto& [flags, message] : cases) {
        const std::string out = ::testing::TempDir() + "/risk_bad_" + std::to_string(getpid());
        std::filesystem::remove_all(out);
        const auto r = run_cli("play --game risk " + flags + " --a random --b drafter --games 2 --backend cpu");
        if (message.empty()) {
            EXPECT_EQ(r.exit_code, 0) << flags << ": " << r.err;
            continue;
        }
        EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << flags << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << flags << ": " << r.err;
        // learn refuses the same flags before it writes anything.
        const auto l = run_cli("learn --game risk " + flags + " --backend cpu --quiet --out " + out);
        EXPECT_EQ(l.exit_code, 2) << flags << ": " << l.err;
        EXPECT_EQ(l.err_lines(), 1) << flags << ": " << l.err;
        EXPECT_FALSE(std::filesystem::exists(out)) << flags;
    }
    auto r = run_cli("play --game risk --a " + ataxx_player + " --b random --games 2");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("a player for ataxx, expected risk"), std::string::npos) << r.err;
    r = run_cli("play --game risk --a capture --b random --games 2");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not a risk player (random, passive, aggressive, drafter)"),
              std::string::npos)
        << r.err;
    r = run_cli("play --game risk --map " + small + " --players 9 --a random --b random");
    EXPECT_EQ(r.exit_code, 2);
    r = run_cli("learn --game risk --depth 9 --backend cpu --quiet --out /tmp/never");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--depth"), std::string::npos) << r.err;
}

}  // namespace
