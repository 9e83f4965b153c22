// The perft and play subcommands run as the user runs them: JSON on the last stdout line, and
// bad input answered by exit code 2 with one line on stderr.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <sys/wait.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct CliRun {
    int code = -1;
    std::string out, err;
};

std::string slurp(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Runs the gaeval binary with `args` (shell words) and captures stdout and stderr.
CliRun run_gaeval(const std::string& args) {
    // Unique per process and call: ctest runs the tests of this file in parallel processes.
    static int calls = 0;
    const std::string base = ::testing::TempDir() + "gaeval_ataxx_cli_" +
                             std::to_string(getpid()) + "_" + std::to_string(++calls);
    const std::string command =
        std::string(GAEVAL_BINARY) + " " + args + " >" + base + ".out 2>" + base + ".err";
    CliRun r;
    const int status = std::system(command.c_str());
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(base + ".out");
    r.err = slurp(base + ".err");
    std::remove((base + ".out").c_str());
    std::remove((base + ".err").c_str());
    return r;
}

nlohmann::json last_json_line(const std::string& out) {
    std::string text = out;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    return nlohmann::json::parse(text.substr(text.rfind('\n') + 1));
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

TEST(AtaxxCli, PerftPrintsJsonLast) {
    const CliRun r = run_gaeval("perft --depth 4 --backend cpu --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = last_json_line(r.out);
    EXPECT_EQ(j["depth"], 4);
    EXPECT_EQ(j["nodes"], 155888);
    EXPECT_TRUE(j["seconds"].is_number());
    EXPECT_TRUE(j["nps"].is_number());
    const CliRun gapped = run_gaeval(
        "perft --fen '7/7/7/7/-------/-------/x5o x 0 1' --depth 6 --backend cpu --json --generic");
    ASSERT_EQ(gapped.code, 0) << gapped.err;
    EXPECT_EQ(last_json_line(gapped.out)["nodes"], 174);
    const CliRun hex = run_gaeval(
        "perft --board hex:2 --rules genetic-game --players 3 --depth 2 "
        "--backend cpu --json");
    ASSERT_EQ(hex.code, 0) << hex.err;
    EXPECT_GT(last_json_line(hex.out)["nodes"].get<uint64_t>(), 0u);
}

TEST(AtaxxCli, PlayPrintsJsonLast) {
    const CliRun r =
        run_gaeval("play --a capture --b random --games 20 --seed 3 --backend cpu --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = last_json_line(r.out);
    EXPECT_EQ(j["games"], 20);
    EXPECT_EQ(j["wins"].get<int>() + j["draws"].get<int>() + j["losses"].get<int>(), 20);
    EXPECT_GT(j["mean_plies"].get<double>(), 0);
    EXPECT_GT(j["games_per_s"].get<double>(), 0);
    // Same seed, same results.
    const CliRun again = run_gaeval(
        "play --a capture --b random --games 20 --seed 3 --backend cpu --threads 1 --json");
    ASSERT_EQ(again.code, 0);
    EXPECT_EQ(last_json_line(again.out)["wins"], j["wins"]);
    EXPECT_EQ(last_json_line(again.out)["mean_plies"], j["mean_plies"]);
}

TEST(AtaxxCli, BadInputExitsTwoWithOneLine) {
    const char* cases[][2] = {
        {"perft --depth 3 --fen 'x5o/7/7/7/7/o5x x 0 1'", "ranks"},
        {"perft --depth 3 --fen 'x5o/7/7/7/7/7/o5q x 0 1'", "piece letter"},
        {"perft --depth 3 --fen 'x5o/7/7/7/7/7/o5x w 0 1'", "side to move"},
        {"perft --depth 3 --fen 'x5o/7/7/7/7/7/o5x x -4 1'", "halfmove"},
        {"perft --depth -1", "--depth -1"},
        {"perft --depth 21", "--depth 21"},
        {"perft", "--depth: required"},
        {"perft --depth 3x", "--depth '3x'"},
        {"perft --depth 2 --board moon:3", "unknown topology"},
        {"perft --depth 2 --board square8:20x20", "400 cells"},
        {"perft --depth 2 --rules chess", "unknown rule set"},
        {"perft --depth 2 --game go", "unknown game"},
        {"perft --depth 2 --players 3", "2 players"},
        {"perft --depth x", "depth"},
        {"play --a capture", "--b: required"},
        {"play --a capture --b nobody", "--b 'nobody'"},
        {"play --a capture --b random --games 0", "--games 0"},
        {"play --a capture --b random --max-plies 0", "--max-plies 0"},
        {"play --a random --b random --backend tpu", "unknown backend"},
    };
    for (const auto& c : cases) {
        const CliRun r = run_gaeval(c[0]);
        EXPECT_EQ(r.code, 2) << c[0];
        EXPECT_EQ(lines(r.err), 1) << c[0] << ": " << r.err;
        EXPECT_NE(r.err.find(c[1]), std::string::npos) << c[0] << ": " << r.err;
    }
}

}  // namespace
