// Tic-tac-toe, the example game that plugs in by its own folder, this test and one registration
// line: perft against the known counts, the game through the registry (perft, play, learn by
// CLI), thread parity, and the GPU parity test (skipped without a GPU).
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "games/core/match.hpp"
#include "games/core/perft.hpp"
#include "games/tictactoe/tictactoe.hpp"
#include "gpu_test_support.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace {

using namespace gaeval;
using gaeval::testing::run_cli;

// Games that end at each ply, by walking the whole tree.
void count_endings(const tictactoe::Game& g, const tictactoe::Pos& p, int ply,
                   std::vector<uint64_t>& endings) {
    if (g.is_over(p)) {
        ++endings[ply];
        return;
    }
    g.for_each_move(
        p, [&](const tictactoe::Move& m) { count_endings(g, g.make(p, m), ply + 1, endings); });
}

TEST(TicTacToe, PerftAndGameLengthsMatchTheKnownCounts) {
    // 255168 games: 1440 end at ply 5, 5328 at 6, 47952 at 7, 72576 at 8, 127872 at 9.
    const tictactoe::Game g{};
    std::vector<uint64_t> endings(10, 0);
    count_endings(g, g.start(), 0, endings);
    EXPECT_EQ(endings[5], 1440u);
    EXPECT_EQ(endings[6], 5328u);
    EXPECT_EQ(endings[7], 47952u);
    EXPECT_EQ(endings[8], 72576u);
    EXPECT_EQ(endings[9], 127872u);
    const uint64_t expected[] = {1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    for (int d = 0; d <= 9; ++d) EXPECT_EQ(perft(g, g.start(), d), expected[d]) << "depth " << d;
}

TEST(TicTacToe, RulesOnHandBuiltBoards) {
    const tictactoe::Game g{};
    tictactoe::Pos p = g.start();
    for (int c : {0, 3, 1, 4}) p = g.make(p, tictactoe::Move{int8_t(c)});
    EXPECT_FALSE(g.is_over(p));
    EXPECT_EQ(g.count_moves(p), 5);
    p = g.make(p, tictactoe::Move{2});  // X completes the bottom row
    EXPECT_TRUE(g.is_over(p));
    EXPECT_EQ(g.winner(p), 0);
    EXPECT_EQ(g.seat_result(p, 1), SeatResult::Loss);
    float f[tictactoe::Game::kFeatureCount];
    g.features(p, 0, f);
    EXPECT_EQ(f[0], 1.0f / 8.0f);  // one own line of three out of 8 lines
    EXPECT_EQ(f[3], 1.0f);         // no opponent line of three: the complement is 1
    EXPECT_EQ(f[4], 7.0f / 8.0f);  // O's 3 and 4: one line (3-4-5) of two free of X
    EXPECT_EQ(f[5], 1.0f);         // every other line O touches holds an X
    EXPECT_EQ(f[7], 2.0f / 4.0f);  // X on corners 0 and 2
    // win-block takes the win, then blocks.
    tictactoe::Pos q = g.start();
    for (int c : {0, 4, 1}) q = g.make(q, tictactoe::Move{int8_t(c)});
    EXPECT_EQ(g.policy_move(q, 1, DrawAddress{1, 0, 0}).cell, 2);  // O blocks 0-1-2
}

TEST(TicTacToe, TheRegistryServesItOnEveryThreadCount) {
    const games::GameEntry& entry = games::find_game("tictactoe");
    EXPECT_TRUE(entry.info().perft);
    EXPECT_EQ(entry.info().policy_names, std::vector<std::string>{"win-block"});
    const auto session = entry.open({});
    EXPECT_EQ(session->perft(9, resolve_backend("cpu", 2)), 127872u);
    games::PlayRequest r;
    games::builtin_player("win-block", entry.info(), &r.a);
    r.games = 2000;
    r.seed = 3;
    const auto one = games::play(*session, r, resolve_backend("cpu", 1));
    const auto two = games::play(*session, r, resolve_backend("cpu", 2));
    ASSERT_EQ(one.size(), two.size());
    EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
    const games::PlaySummary s = games::summarize(one);
    EXPECT_GT(s.wins, 1700u);  // win-block rarely loses to random
    EXPECT_LT(s.losses, 40u);
}

TEST(TicTacToe, CliPlayPerftAndLearn) {
    auto r = run_cli("perft --game tictactoe --depth 9 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"nodes\":127872"), std::string::npos) << r.out;
    r = run_cli("play --game tictactoe --a win-block --b random --games 200 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("play --game tictactoe --board hex:4 --a random --b random");
    EXPECT_EQ(r.exit_code, 2);  // Ataxx's flags are not tic-tac-toe's
    r = run_cli("play --game tictactoe --a capture --b random");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not a tictactoe player (random, win-block)"), std::string::npos) << r.err;
    const std::string dir = ::testing::TempDir() + "/ttt_learn_" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    r = run_cli(
        "learn --game tictactoe --population 8 --generations 3 --verify-games 100 "
        "--backend cpu --quiet --out " +
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("vs win-block"), std::string::npos) << r.out;
    r = run_cli("play --game tictactoe --a " + dir +
                "/weights.json --b random --games 50 --backend cpu");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    // An Ataxx player file is refused for tic-tac-toe.
    r = run_cli("play --a " + dir + "/weights.json --b random --games 5 --backend cpu");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("a player for tictactoe, expected ataxx"), std::string::npos) << r.err;
}

TEST(TicTacToe, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const auto session = games::find_game("tictactoe").open({});
    EXPECT_EQ(session->perft(9, resolve_backend("cuda", 0)), 127872u);
    games::PlayRequest r;
    r.games = gaeval::testing::gpu_test_size(5000, 100);
    const auto gpu = games::play(*session, r, resolve_backend("cuda", 0));
    const auto cpu = games::play(*session, r, resolve_backend("cpu", 0));
    ASSERT_EQ(gpu.size(), cpu.size());
    EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), gpu.size() * sizeof(GameRecord)), 0);
}

}  // namespace
