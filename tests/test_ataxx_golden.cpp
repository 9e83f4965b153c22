// Ataxx through the game interface prints what it printed before the plug-in redesign: every
// command below was run on the binary of commit 20b270f (before the redesign) and its output,
// with the timing fields removed, recorded in tests/data/ataxx_golden.json. A change that alters
// one of them on purpose says so and re-records (GAEVAL_RECORD_GOLDEN=1 rewrites the file).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"

namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;

const std::string kGolden = std::string(GAEVAL_TEST_DATA_DIR) + "/ataxx_golden.json";

// The commands: perft and play on every topology, size class and rule set, and learn with
// each scheme (generations.csv without its timing columns, verification.csv, weights.json).
std::vector<std::string> perft_play_commands() {
    return {
        "perft --depth 6",
        "perft --depth 5 --generic",
        "perft --depth 5 --fen 'x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1'",
        "perft --depth 6 --fen '7/7/7/7/-------/-------/x5o x 0 1'",
        "perft --depth 4 --board hex:4",
        "perft --depth 4 --board square4:6x6",
        "perft --depth 4 --board offset:6x5",
        "perft --depth 4 --board tri:6",
        "perft --depth 3 --board square8:10x10",
        "perft --depth 3 --board hex:8",
        "perft --depth 4 --board square8:8x8 --rules genetic-game --players 3",
        "perft --depth 4 --board hex:5 --rules genetic-game --players 4",
        "play --a random --b random --games 300",
        "play --a capture --b most-pieces --games 300 --seed 7",
        "play --a most-pieces --b random --games 300 --generic",
        "play --a capture --b random --games 300 --board hex:4",
        "play --a random --b capture --games 200 --board square4:6x6 --seed 3",
        "play --a most-pieces --b capture --games 200 --board offset:6x5",
        "play --a random --b most-pieces --games 200 --board tri:6",
        "play --a capture --b random --games 100 --board square8:10x10",
        "play --a random --b random --games 100 --board hex:8 --max-plies 300",
        "play --a capture --b random --games 200 --board square8:8x8 --rules genetic-game "
        "--players 3",
        "play --a random --b most-pieces --games 200 --board hex:5 --rules genetic-game "
        "--players 4 --max-plies 500",
        "play --a random --b random --games 100 --rules genetic-game --max-plies 50",
    };
}

std::vector<std::string> learn_commands() {
    const std::string tiny = " --population 8 --generations 3 --verify-every 2 --verify-games 40";
    return {
        "learn" + tiny,
        "learn --scheme genetic-game --tournament round-robin" + tiny,
        "learn --scheme genetic-game --value-update winrate:2 --tournament random:3" + tiny,
        "learn --scheme paired-blend --rounds 3" + tiny,
        "learn --scheme ten-tournaments --population 12 --generations 2 --verify-games 40",
        "learn --scheme modern --crossover sbx --features own_pieces,opponent_pieces,own_safe "
        "--board hex:4 --seed 5" +
            tiny,
    };
}

// The last stdout line as JSON, without the fields that measure time or name the machine.
nlohmann::json stable_json(const std::string& out) {
    std::string text = out;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    nlohmann::json j = nlohmann::json::parse(text.substr(text.rfind('\n') + 1));
    for (const char* key :
         {"seconds", "nps", "games_per_s", "plies_per_s", "device", "threads", "backend"})
        j.erase(key);
    return j;
}

// generations.csv without the seconds and games_per_s columns, and without the panel_score
// column that came later (games of their own: the learning itself is unchanged).
std::string csv_without_timing(const std::string& csv) {
    std::istringstream in(csv);
    std::string line, out;
    std::vector<int> drop;
    bool header = true;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream s(line);
        std::string cell;
        while (std::getline(s, cell, ',')) cells.push_back(cell);
        if (header) {
            for (std::size_t i = 0; i < cells.size(); ++i)
                if (cells[i] == "seconds" || cells[i] == "games_per_s" || cells[i] == "panel_score")
                    drop.push_back(int(i));
            header = false;
        }
        std::string kept;
        for (std::size_t i = 0; i < cells.size(); ++i) {
            bool skip = false;
            for (int d : drop) skip = skip || d == int(i);
            if (skip) continue;
            if (!kept.empty()) kept += ',';
            kept += cells[i];
        }
        out += kept + '\n';
    }
    return out;
}

nlohmann::json run_all() {
    nlohmann::json all = nlohmann::json::object();
    for (const std::string& c : perft_play_commands()) {
        const auto r = run_cli(c + " --backend cpu --json");
        EXPECT_EQ(r.exit_code, 0) << c << "\n" << r.err;
        if (r.exit_code == 0) all[c] = stable_json(r.out);
    }
    int k = 0;
    for (const std::string& c : learn_commands()) {
        const std::string dir = ::testing::TempDir() + "/golden_learn_" + std::to_string(getpid()) +
                                "_" + std::to_string(k++);
        std::filesystem::remove_all(dir);
        const auto r = run_cli(c + " --backend cpu --quiet --out " + dir);
        EXPECT_EQ(r.exit_code, 0) << c << "\n" << r.err;
        if (r.exit_code != 0) continue;
        all[c] = {{"generations.csv", csv_without_timing(read_text(dir + "/generations.csv"))},
                  {"verification.csv", read_text(dir + "/verification.csv")},
                  {"weights.json", nlohmann::json::parse(read_text(dir + "/weights.json"))}};
    }
    return all;
}

TEST(AtaxxGolden, CommandsPrintWhatTheyPrintedBeforeTheRedesign) {
    const nlohmann::json now = run_all();
    if (std::getenv("GAEVAL_RECORD_GOLDEN")) {
        std::ofstream(kGolden) << now.dump(1) << '\n';
        GTEST_SKIP() << "recorded " << kGolden;
    }
    const nlohmann::json before = nlohmann::json::parse(read_text(kGolden));
    ASSERT_EQ(before.size(), now.size());
    for (const auto& [command, expected] : before.items()) {
        ASSERT_TRUE(now.contains(command)) << command;
        if (expected.contains("weights.json")) {
            // The weights file now also names the game's feature set; the rest is unchanged.
            EXPECT_EQ(now[command]["generations.csv"], expected["generations.csv"]) << command;
            EXPECT_EQ(now[command]["verification.csv"], expected["verification.csv"]) << command;
            EXPECT_EQ(now[command]["weights.json"]["weights"], expected["weights.json"]["weights"])
                << command;
            EXPECT_EQ(now[command]["weights.json"]["features"],
                      expected["weights.json"]["features"])
                << command;
        } else {
            EXPECT_EQ(now[command], expected) << command;
        }
    }
}

}  // namespace
