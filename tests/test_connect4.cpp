// Connect Four, the second example game of docs/adding-a-game.md: perft against the published
// counts, wins in all four directions and a draw on hand-played games, the features' range, the
// game through the registry (perft, play, learn by CLI), thread parity, and the GPU parity test
// (skipped without a GPU).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "games/connect4/connect4.hpp"
#include "games/core/perft.hpp"
#include "games/core/rng.hpp"
#include "gpu_test_support.hpp"
#include "host/games/play.hpp"
#include "host/games/player_file.hpp"
#include "host/games/registry.hpp"

namespace {

using namespace gaeval;
using connect4::Game;
using connect4::Move;
using connect4::Pos;
using gaeval::testing::run_cli;

// Plays `columns` (one digit a move) from the start; every position before the last must be
// unfinished.
Pos play_columns(const std::string& columns) {
    const Game g{};
    Pos p = g.start();
    for (std::size_t i = 0; i < columns.size(); ++i) {
        EXPECT_FALSE(g.is_over(p)) << "over before move " << i << " of " << columns;
        p = g.make(p, Move{static_cast<int8_t>(columns[i] - '0')});
    }
    return p;
}

// The bit of column c, row r (row 0 at the bottom).
uint64_t cell(int c, int r) { return uint64_t{1} << (c * connect4::kStride + r); }

TEST(Connect4, PerftMatchesThePublishedCounts) {
    const Game g{};
    const uint64_t expected[] = {1, 7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
    for (int d = 0; d <= 8; ++d) EXPECT_EQ(perft(g, g.start(), d), expected[d]) << "depth " << d;
}

TEST(Connect4, StonesFallToTheLowestFreeCell) {
    const Game g{};
    const Pos p = play_columns("3323");
    EXPECT_EQ(p.stones[0], cell(3, 0) | cell(2, 0));
    EXPECT_EQ(p.stones[1], cell(3, 1) | cell(3, 2));
    EXPECT_EQ(g.to_move(p), 0);
    // A full column is no longer a move: the others stay in ascending order.
    const Pos full = play_columns("333333");
    EXPECT_EQ(g.count_moves(full), 6);
    std::vector<int> columns;
    g.for_each_move(full, [&](const Move& m) { columns.push_back(m.column); });
    EXPECT_EQ(columns, (std::vector<int>{0, 1, 2, 4, 5, 6}));
    for (int k = 0; k < 6; ++k) EXPECT_EQ(g.nth_move(full, k).column, columns[k]);
}

TEST(Connect4, FourInARowWinsInEveryDirection) {
    const Game g{};
    struct Case {
        const char* what;
        const char* columns;
        int winner;
        uint64_t line;
    };
    const Case cases[] = {
        {"vertical", "0101010", 0, cell(0, 0) | cell(0, 1) | cell(0, 2) | cell(0, 3)},
        {"horizontal", "0011223", 0, cell(0, 0) | cell(1, 0) | cell(2, 0) | cell(3, 0)},
        {"rising diagonal", "0112622353633", 0, cell(0, 0) | cell(1, 1) | cell(2, 2) | cell(3, 3)},
        {"falling diagonal", "6554044313033", 0, cell(6, 0) | cell(5, 1) | cell(4, 2) | cell(3, 3)},
        {"second seat, horizontal", "01026364", 1,
         cell(1, 0) | cell(2, 0) | cell(3, 0) | cell(4, 0)},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const Pos p = play_columns(c.columns);
        EXPECT_TRUE(g.is_over(p));
        EXPECT_EQ(g.winner(p), c.winner);
        EXPECT_EQ(g.seat_result(p, c.winner), SeatResult::Win);
        EXPECT_EQ(g.seat_result(p, c.winner ^ 1), SeatResult::Loss);
        EXPECT_EQ(g.count_moves(p), 0);
        EXPECT_EQ(p.stones[c.winner] & c.line, c.line);
        EXPECT_TRUE(connect4::has_four(c.line));
        // Three of the four are not a win.
        EXPECT_FALSE(connect4::has_four(c.line & (c.line - 1)));
    }
    // A line that would run over a column's top into the next column is not a line.
    EXPECT_FALSE(connect4::has_four(cell(0, 3) | cell(0, 4) | cell(0, 5) | cell(1, 0)));
}

TEST(Connect4, AFullBoardWithoutFourIsADraw) {
    // 42 moves found by a separate search (a plain 7x6 array in Python) that fills the board
    // without four in a row.
    const Game g{};
    const Pos p = play_columns("635225526362463055346625243000030411114141");
    EXPECT_EQ(g.occupied(p), connect4::kBoard);
    EXPECT_TRUE(g.is_over(p));
    EXPECT_EQ(g.winner(p), -1);
    EXPECT_EQ(g.seat_result(p, 0), SeatResult::Draw);
    EXPECT_EQ(g.seat_result(p, 1), SeatResult::Draw);
    EXPECT_EQ(g.count_moves(p), 0);
}

TEST(Connect4, FeaturesAreInRangeAndCountWindows) {
    const Game g{};
    float f[Game::kFeatureCount];
    // The empty board: no windows of anyone's, the opponent cannot win.
    g.features(g.start(), 0, f);
    const float expected_start[] = {0, 0, 0, 1, 1, 1, 0};
    for (int i = 0; i < Game::kFeatureCount; ++i) EXPECT_EQ(f[i], expected_start[i]) << i;
    // Seat 0 on 2 and 3 of the bottom row, seat 1 on 2 and 3 of the row above: seat 0's open
    // windows of two: the bottom row's 0-3, 1-4, 2-5 and nothing else; seat 1's: row 1's three
    // and none vertical (seat 0 below) nor diagonal (each diagonal through row 1 holds at most
    // one of its stones).
    const Pos p = play_columns("2233");
    g.features(p, 0, f);
    EXPECT_EQ(f[2], 3.0f / 69.0f);
    EXPECT_EQ(f[4], 66.0f / 69.0f);
    EXPECT_EQ(f[5], 1.0f);
    EXPECT_EQ(f[6], 1.0f / 6.0f);
    // Three in the bottom row, open on both sides: the opponent (seat 1) faces two winning
    // drops, which win-block can block only one of.
    const Pos threat = play_columns("26364");
    g.features(threat, 1, f);
    EXPECT_EQ(f[5], 0.0f);
    EXPECT_EQ(f[3], 67.0f / 69.0f);  // windows 1-4 and 2-5 hold three of seat 0's
    EXPECT_EQ(g.policy_move(threat, 1, DrawAddress{1, 0, 0}).column, 1);  // the lower block
    // win-block wins when it can, before blocking, and blocks otherwise.
    EXPECT_EQ(g.policy_move(play_columns("262626"), 1, DrawAddress{1, 0, 0}).column, 2);
    EXPECT_EQ(g.policy_move(play_columns("262636"), 1, DrawAddress{1, 0, 0}).column, 6);
    // Every feature of every position of random games is in [0, 1].
    for (uint32_t game = 0; game < 200; ++game) {
        Pos q = g.start();
        for (uint32_t ply = 0; !g.is_over(q); ++ply) {
            for (int seat = 0; seat < 2; ++seat) {
                g.features(q, seat, f);
                for (int i = 0; i < Game::kFeatureCount; ++i) {
                    ASSERT_GE(f[i], 0.0f) << i;
                    ASSERT_LE(f[i], 1.0f) << i;
                }
            }
            const uint32_t r = philox(7, Purpose::PlayerRandomMove, game, ply, 0, 0).v[0];
            q = g.make(q, g.nth_move(q, int(below(r, uint32_t(g.count_moves(q))))));
        }
    }
}

// Open windows (exactly n stones of `stones`, none of `other`) of the 69 lines of four, each
// walked cell by cell from its start (column, row) and direction.
int open_windows_cell_by_cell(uint64_t stones, uint64_t other, int n) {
    const int directions[4][2] = {{0, 1}, {1, 0}, {1, 1}, {1, -1}};
    int count = 0, windows = 0;
    for (const auto& d : directions)
        for (int c = 0; c < connect4::kColumns; ++c)
            for (int r = 0; r < connect4::kRows; ++r) {
                const int c3 = c + 3 * d[0], r3 = r + 3 * d[1];
                if (c3 >= connect4::kColumns || r3 < 0 || r3 >= connect4::kRows) continue;
                int mine = 0, theirs = 0;
                for (int k = 0; k < 4; ++k) {
                    mine += (stones & cell(c + k * d[0], r + k * d[1])) != 0;
                    theirs += (other & cell(c + k * d[0], r + k * d[1])) != 0;
                }
                ++windows;
                count += theirs == 0 && mine == n;
            }
    EXPECT_EQ(windows, connect4::kWindows);
    return count;
}

// The open-window features (counted bit-parallel, a direction at a time) against the windows
// walked cell by cell, in every position of random games and on random boards that no game
// reaches (stones anywhere, floating ones included), for both seats.
TEST(Connect4, OpenWindowsCountedCellByCell) {
    const Game g{};
    float f[Game::kFeatureCount];
    const auto expect_windows = [&](const Pos& p) {
        for (int seat = 0; seat < 2; ++seat) {
            const uint64_t own = p.of(seat), opp = p.of(seat ^ 1);
            g.features(p, seat, f);
            const float windows = static_cast<float>(connect4::kWindows);
            ASSERT_EQ(f[1], float(open_windows_cell_by_cell(own, opp, 3)) / windows);
            ASSERT_EQ(f[2], float(open_windows_cell_by_cell(own, opp, 2)) / windows);
            ASSERT_EQ(f[3], float(69 - open_windows_cell_by_cell(opp, own, 3)) / windows);
            ASSERT_EQ(f[4], float(69 - open_windows_cell_by_cell(opp, own, 2)) / windows);
        }
    };
    int positions = 0;
    for (uint32_t game = 0; game < 300; ++game) {
        Pos q = g.start();
        for (uint32_t ply = 0; !g.is_over(q); ++ply, ++positions) {
            expect_windows(q);
            const uint32_t r = philox(11, Purpose::PlayerRandomMove, game, ply, 0, 0).v[0];
            q = g.make(q, g.nth_move(q, int(below(r, uint32_t(g.count_moves(q))))));
        }
        expect_windows(q);
    }
    for (uint32_t board = 0; board < 3000; ++board, ++positions) {
        Pos q;
        for (int c = 0; c < connect4::kColumns; ++c)
            for (int r = 0; r < connect4::kRows; ++r) {
                const uint32_t x = philox(12, Purpose::PlayerRandomMove, board, c, r, 0).v[0] % 3;
                if (x < 2) q.stones[x] |= cell(c, r);
            }
        expect_windows(q);
    }
    EXPECT_GT(positions, 9000);
}

TEST(Connect4, TheRegistryServesItOnEveryThreadCount) {
    const games::GameEntry& entry = games::find_game("connect4");
    EXPECT_TRUE(entry.info().perft);
    EXPECT_EQ(entry.info().policy_names, std::vector<std::string>{"win-block"});
    EXPECT_EQ(entry.info().weight_names.size(), 7u);
    const auto session = entry.open({});
    EXPECT_EQ(session->perft(6, resolve_backend("cpu", 2)), 117649u);
    games::PlayRequest r;
    games::builtin_player("win-block", entry.info(), &r.a);
    r.games = 1000;
    r.seed = 3;
    const auto one = games::play(*session, r, resolve_backend("cpu", 1));
    const auto two = games::play(*session, r, resolve_backend("cpu", 2));
    ASSERT_EQ(one.size(), two.size());
    EXPECT_EQ(std::memcmp(one.data(), two.data(), one.size() * sizeof(GameRecord)), 0);
    const games::PlaySummary s = games::summarize(one);
    EXPECT_GT(s.wins, 900u);  // win-block rarely loses to random
}

TEST(Connect4, CliPerftPlayAndLearnBeatsRandom) {
    auto r = run_cli("perft --game connect4 --depth 6 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\"nodes\":117649"), std::string::npos) << r.out;
    r = run_cli("play --game connect4 --a win-block --b random --games 200 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = run_cli("play --game connect4 --a capture --b random");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("not a connect4 player (random, win-block)"), std::string::npos) << r.err;
    const std::string dir = ::testing::TempDir() + "/c4_learn_" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    r = run_cli(
        "learn --game connect4 --population 8 --generations 3 --verify-games 100 "
        "--backend cpu --quiet --out " +
        dir);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("vs win-block"), std::string::npos) << r.out;
    // The learned player beats random (a one-ply player over these features should, by far).
    r = run_cli("play --game connect4 --a " + dir +
                "/weights.json --b random --games 400 --seed 5 --backend cpu --json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto played = nlohmann::json::parse(r.out.substr(r.out.find('{')));
    EXPECT_GT(played.at("score").get<double>(), 0.8) << r.out;
    // A Connect Four player file is refused for tic-tac-toe.
    r = run_cli("play --game tictactoe --a " + dir + "/weights.json --b random --games 5");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("a player for connect4, expected tictactoe"), std::string::npos) << r.err;
    std::filesystem::remove_all(dir);
}

TEST(Connect4, CudaMatchesCpu) {
    GAEVAL_REQUIRE_DEVICE_OR_SKIP();
    const auto session = games::find_game("connect4").open({});
    EXPECT_EQ(session->perft(8, resolve_backend("cuda", 0)), 5673234u);
    games::PlayRequest r;
    r.games = gaeval::testing::gpu_test_size(5000, 100);
    const auto gpu = games::play(*session, r, resolve_backend("cuda", 0));
    const auto cpu = games::play(*session, r, resolve_backend("cpu", 0));
    ASSERT_EQ(gpu.size(), cpu.size());
    EXPECT_EQ(std::memcmp(gpu.data(), cpu.data(), gpu.size() * sizeof(GameRecord)), 0);
}

}  // namespace
