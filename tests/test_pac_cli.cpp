// Pac-Man through the command line: play (per-thread players through the batch layer, the same
// matches on the host loop, the bots), --record (JSON and the replay page), pac-bot against the
// in-engine bot on the same observations, the batch bench rows, and bad input (one line on
// stderr, exit 2, nothing written).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "games/core/players.hpp"
#include "host/pac/bot.hpp"
#include "host/pac/map_io.hpp"
#include "host/pac/protocol.hpp"

namespace {

using namespace gaeval;
using gaeval::testing::read_text;
using gaeval::testing::run_cli;
using gaeval::testing::temp_file;
namespace fs = std::filesystem;

std::string fresh_dir(const std::string& name) {
    const std::string dir = ::testing::TempDir() + "/pac_" + name + "_" + std::to_string(getpid());
    fs::remove_all(dir);
    return dir;
}

nlohmann::json last_json(const std::string& out) {
    const auto start = out.rfind("\n{");
    return nlohmann::json::parse(start == std::string::npos ? out : out.substr(start + 1));
}

TEST(PacCli, PlayRecordsMatchesThatEqualTheBatchOnes) {
    const std::string flags =
        "play --game pac --map-seed 4 --pacs 3 --a greedy --b random --games 6 --backend cpu "
        "--json";
    auto batch = run_cli(flags);
    ASSERT_EQ(batch.exit_code, 0) << batch.err;
    const std::string dir = fresh_dir("record");
    auto recorded = run_cli(flags + " --record " + dir);
    ASSERT_EQ(recorded.exit_code, 0) << recorded.err;
    const auto a = last_json(batch.out), b = last_json(recorded.out);
    EXPECT_EQ(a["wins"], b["wins"]);
    EXPECT_EQ(a["losses"], b["losses"]);
    EXPECT_EQ(a["mean_plies"], b["mean_plies"]);
    EXPECT_GE(a["wins"].get<int>(), 5);  // greedy beats random
    double plies = 0;
    for (int i = 0; i < 6; ++i) {
        const std::string path = dir + "/match-000" + std::to_string(i) + ".json";
        ASSERT_TRUE(fs::exists(path)) << path;
        const auto m = nlohmann::json::parse(read_text(path));
        EXPECT_EQ(m["format"], "gaeval-pac-match");
        EXPECT_EQ(m["pacs"], 3);
        const auto& turns = m["turns"];
        plies += 2.0 * (turns.size() - 1);
        EXPECT_EQ(turns[0]["turn"], 0);
        EXPECT_EQ(turns.back()["score"], m["result"]["score"]);
        // The pellets eaten, turn by turn, plus those left add up to the start's.
        std::size_t eaten = 0;
        for (const auto& t : turns) eaten += t["eaten"].size();
        EXPECT_LE(eaten, m["pellets"].size() + m["super_pellets"].size());
        EXPECT_EQ(m["players"][i % 2], "greedy (A)");
    }
    EXPECT_DOUBLE_EQ(plies / 6, b["mean_plies"].get<double>());
    const std::string html = read_text(dir + "/replay.html");
    EXPECT_NE(html.find("<canvas"), std::string::npos);
    EXPECT_NE(html.find("gaeval-pac-match"), std::string::npos);
    EXPECT_EQ(html.find("http"), std::string::npos);  // self-contained
    // A record folder is never overwritten.
    auto again = run_cli(flags + " --record " + dir);
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_EQ(again.err_lines(), 1) << again.err;
    EXPECT_NE(again.err.find("--record"), std::string::npos);
}

TEST(PacCli, TheBotsPlayThroughPlay) {
    auto r = run_cli(
        "play --game pac --map-per-game --a coevo --b single --games 2 "
        "--bot-population 6 --bot-generations 2 --backend cpu --threads 1 --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(last_json(r.out)["games"], 2);
    r = run_cli(
        "play --game pac --a coevo --b greedy --games 2 --ms 2 --bot-population 6 --backend cpu "
        "--threads 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
}

TEST(PacCli, BadInputIsOneLineAndExitTwo) {
    const std::string map = temp_file("map.txt", "#########\n#  x    #\n#########\n");
    const std::string dir = fresh_dir("never");
    for (const std::string& args : std::vector<std::string>{
             "--pacs 7", "--pacs 1", "--width 30", "--height 20", "--map /nonexistent/map.txt",
             "--map " + map, "--bot-population 1", "--ms -5", "--map-seed x",
             "--map " + map + " --map-per-game", "--a coevo --b nobody"}) {
        const std::string cmd = "play --game pac --a greedy --b random --games 2 --backend cpu " +
                                args + " --record " + dir;
        const auto r = run_cli(cmd);
        EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.err;
        EXPECT_EQ(r.err_lines(), 1) << cmd << "\n" << r.err;
        EXPECT_FALSE(fs::exists(dir)) << cmd;
    }
    const auto r = run_cli("perft --game pac --depth 2 --backend cpu");
    EXPECT_EQ(r.exit_code, 2);
}

TEST(PacCli, PacBotAnswersAsTheEngineBotDoes) {
    // The observations of seat 0 in a greedy game, as the contest's referee would send them.
    const pac::Setup setup = pac::generate_setup(3, 0, 0, 3);
    const auto map = pac::build_map(setup.rows);
    const pac::Game game{map.get()};
    pac::Pos p = pac::start_position(*map, setup);
    std::string input = pac::initial_text(setup.rows);
    std::vector<pac::Observation> turns;
    Player<pac::Game> greedy;
    greedy.kind = PlayerKind::Policy;
    greedy.policy = 1;
    for (uint32_t ply = 0; ply < 40 && !p.over; ++ply) {
        if (p.side == 0) {
            turns.push_back(pac::observe(*map, p, 0));
            input += pac::turn_text(*map, turns.back());
        }
        p = game.make(p, choose_move(game, p, greedy, DrawAddress{1, 0, ply}));
    }
    const std::string in = temp_file("pac_input.txt", input);
    const auto r =
        run_cli("pac-bot --bot-population 8 --bot-generations 3 --seed 5 --backend cpu <" + in);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    pac::BotSettings settings;
    settings.population = 8;
    settings.generations = 3;
    pac::Bot bot(*map, settings, 5, 0, 0, resolve_backend("cpu", 1));
    std::istringstream lines(r.out);
    std::string line;
    std::size_t n = 0;
    for (; std::getline(lines, line); ++n) {
        ASSERT_LT(n, turns.size());
        EXPECT_EQ(line, pac::command_text(*map, bot.choose(turns[n]), turns[n].pacs))
            << "turn " << n;
        EXPECT_TRUE(line.rfind("MOVE ", 0) == 0 || line.rfind("SPEED ", 0) == 0 ||
                    line.rfind("SWITCH ", 0) == 0)
            << line;
    }
    EXPECT_EQ(n, turns.size());
    // Malformed input: one line, exit 2.
    const std::string bad = temp_file("pac_bad.txt", "31 12\n####\n");
    const auto e = run_cli("pac-bot --backend cpu <" + bad);
    EXPECT_EQ(e.exit_code, 2);
    EXPECT_EQ(e.err_lines(), 1) << e.err;
    EXPECT_NE(e.err.find("line 2"), std::string::npos) << e.err;
}

TEST(PacCli, TheBatchBenchTimesRolloutsAndGenerations) {
    const auto r = run_cli(
        "bench --what batch --games pac --backend cpu1,cpu --max-seconds 0.01 "
        "--min-samples 1");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("pac rollouts"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("generations/s"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("DIFFER"), std::string::npos) << r.out;
}

}  // namespace
