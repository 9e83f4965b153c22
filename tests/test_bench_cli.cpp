// gaeval bench from the outside: a small table with every column, the signature equal for
// every backend list, files for scripts, and bad axes refused.
#include <gtest/gtest.h>

#include <cstdio>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"

namespace {

using gaeval::testing::read_text;
using gaeval::testing::run_cli;

std::string signature_of(const std::string& out) {
    const auto at = out.rfind("signature: ");
    return at == std::string::npos ? "" : out.substr(at + 11, 16);
}

TEST(BenchCli, SmallTableAndFilesWithTheSameSignatureOnEveryBackendList) {
    const std::string json =
        ::testing::TempDir() + "/bench_cli_" + std::to_string(getpid()) + ".json";
    std::remove(json.c_str());  // a leftover of an earlier process with this pid
    const std::string axes =
        "--what pile-in,perft --population 1000 --models 5 --positions 'startpos d=6' "
        "--max-seconds 0.05 --min-samples 2";
    auto both = run_cli("bench " + axes + " --backend cpu1,cpu --json " + json);
    ASSERT_EQ(both.exit_code, 0) << both.err;
    EXPECT_NE(both.out.find("| workload | size | backend | samples | median |"), std::string::npos);
    EXPECT_NE(both.out.find("| pile-in gapi1 generation | pop=1e3 models=5v5 | cpu1 |"),
              std::string::npos)
        << both.out;
    EXPECT_NE(both.out.find("| perft | startpos d=6 | cpu |"), std::string::npos) << both.out;
    auto j = nlohmann::json::parse(read_text(json));
    EXPECT_EQ(j["rows"].size(), 4u);
    EXPECT_EQ(j["signature"], signature_of(both.out));

    auto one = run_cli("bench " + axes + " --backend cpu1");
    ASSERT_EQ(one.exit_code, 0) << one.err;
    EXPECT_EQ(signature_of(one.out), signature_of(both.out));
    auto quick = run_cli("bench " + axes + " --signature");
    ASSERT_EQ(quick.exit_code, 0) << quick.err;
    EXPECT_EQ(signature_of(quick.out), signature_of(both.out));
    EXPECT_EQ(signature_of(both.out).size(), 16u);
}

// A game with no host code of its own (Connect Four: a header and one line of games/games.cmake)
// gets bench cases from the generic entry: perft at the first depth reaching 10^6 nodes (depth 8,
// whose published count is 5673234) and a playout row per player pair; none of them joins the
// default workload, so the recorded signature does not move.
TEST(BenchCli, AGameWithoutHostCodeGetsPerftAndPlayoutRows) {
    const std::string json =
        ::testing::TempDir() + "/bench_cli_c4_" + std::to_string(getpid()) + ".json";
    std::remove(json.c_str());
    auto r = run_cli(
        "bench --game connect4 --what perft,playout --backend cpu --max-seconds 0.05 "
        "--min-samples 1 --population 200 --json " +
        json);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("| perft | start d=8 | cpu |"), std::string::npos) << r.out;
    const auto j = nlohmann::json::parse(read_text(json));
    bool perft = false, random = false, policy = false;
    for (const auto& row : j["rows"]) {
        const std::string workload = row["workload"];
        if (workload == "perft") {
            perft = true;
            EXPECT_EQ(row["items"].get<double>(), 5673234.0) << row.dump();
        }
        random = random || workload.find("playout random") == 0;
        policy = policy || workload.find("playout win-block-vs-random") == 0;
    }
    EXPECT_TRUE(perft && random && policy) << r.out;
}

// The Stockfish `bench` idea: the default workload's results, folded into one number, are
// recorded in tests/data/bench_signature.txt. A change in any fitness bit, node count, game or
// learned weight of the default workload changes it: when that is intended, record the new
// value in the same commit and say why; otherwise it is a regression. The GPU run
// (scripts/gpu-check.sh) must print the same value.
TEST(BenchCli, DefaultSignatureIsTheRecordedOne) {
    std::string recorded = read_text(std::string(GAEVAL_TEST_DATA_DIR) + "/bench_signature.txt");
    while (!recorded.empty() && (recorded.back() == '\n' || recorded.back() == '\r'))
        recorded.pop_back();
    ASSERT_EQ(recorded.size(), 16u);
    auto quick = run_cli("bench --signature");
    ASSERT_EQ(quick.exit_code, 0) << quick.err;
    EXPECT_EQ(signature_of(quick.out), recorded) << quick.out;
}

TEST(BenchCli, BadAxes) {
    for (const char* args :
         {"--what chess", "--backend gpu", "--population 0", "--population 1.5", "--models x",
          "--min-samples 0", "--max-seconds -1", "--what tournament --population 5000"}) {
        auto r = run_cli(std::string("bench ") + args);
        EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
        EXPECT_EQ(r.err_lines(), 1) << args << ": " << r.err;
    }
}

}  // namespace
