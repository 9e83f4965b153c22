// `gaeval uai` (host/ataxx/uai.hpp): scripted sessions as a tournament manager drives an engine,
// the answers checked against the rules (legal moves found independently here), plain minimax
// (the best move's value) and the protocol (order of the handshake, one bestmove per go, errors
// that do not end the session).
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "ataxx_test_support.hpp"
#include "cli_util.hpp"
#include "host/ataxx/uai.hpp"
#include "search_test_support.hpp"

namespace gaeval::ataxx {
namespace {

using testing::fen_setup;
using testing::Square7Fixture;

const std::vector<float> kWeights = {1.0f,  -1.0f, 0.5f,  0.25f,  0.125f,  0.0f, -0.5f, -1.0f,
                                     -1.5f, 0.1f,  -0.5f, -0.25f, -0.125f, 0.0f, -0.1f};

UaiConfig weighted_config(int depth) {
    UaiConfig c;
    c.player.kind = PlayerKind::Weighted;
    c.player.weights = kWeights;
    c.player.depth = 1;
    c.depth = depth;
    c.seed = 3;
    return c;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::vector<std::string> session(const UaiConfig& config, const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    run_uai(in, out, config);
    return lines_of(out.str());
}

std::vector<std::string> starting_with(const std::vector<std::string>& lines,
                                       const std::string& prefix) {
    std::vector<std::string> found;
    for (const std::string& l : lines)
        if (l.compare(0, prefix.size(), prefix) == 0) found.push_back(l);
    return found;
}

// The move named by UAI text in a 7x7 position, decoded here from the notation (file a-g, rank
// 1-7, bit rank * 8 + file; two squares a jump, or a grow when they touch; 0000 a pass), or a
// move with to == -2 when the text is not a legal move.
Move decode(const Square7Fixture& f, const std::string& text) {
    Move bad{-2, -2};
    Move wanted;
    auto square = [](const std::string& s) { return (s[1] - '1') * 8 + (s[0] - 'a'); };
    if (text == "0000") {
        wanted = Move::pass();
    } else if (std::regex_match(text, std::regex("[a-g][1-7]"))) {
        wanted = Move::grow(square(text));
    } else if (std::regex_match(text, std::regex("[a-g][1-7][a-g][1-7]"))) {
        const int from = square(text.substr(0, 2)), to = square(text.substr(2));
        const bool touch = std::abs(from % 8 - to % 8) <= 1 && std::abs(from / 8 - to / 8) <= 1;
        wanted = touch ? Move::grow(to) : Move::jump(from, to);
    } else {
        return bad;
    }
    bool legal = false;
    f.game.for_each_move(f.pos, [&](const Move& m) { legal = legal || m == wanted; });
    return legal ? wanted : bad;
}

TEST(Uai, HandshakeAndSearchAnswers) {
    const auto out = session(weighted_config(2),
                             "uai\nisready\nuainewgame\nposition startpos\ngo depth 3\nquit\n");
    ASSERT_GE(out.size(), 6u);
    EXPECT_EQ(out[0], "id name gaeval");
    EXPECT_EQ(out[1], "id author gaeval");
    EXPECT_EQ(out[2], "option name depth type spin default 2 min 1 max 64");
    EXPECT_EQ(out[3], "uaiok");
    EXPECT_EQ(out[4], "readyok");
    const auto infos = starting_with(out, "info depth");
    ASSERT_EQ(infos.size(), 3u);  // one per completed depth
    for (int d = 0; d < 3; ++d) {
        EXPECT_EQ(infos[d].rfind("info depth " + std::to_string(d + 1) + " score cp ", 0), 0u)
            << infos[d];
        EXPECT_NE(infos[d].find(" nodes "), std::string::npos);
        EXPECT_NE(infos[d].find(" pv "), std::string::npos);
    }
    const auto best = starting_with(out, "bestmove ");
    ASSERT_EQ(best.size(), 1u);
    EXPECT_EQ(out.back(), best[0]);
    // The move is legal and has the depth-3 minimax value of the start position.
    const Square7Fixture f(fen_setup("startpos"));
    const Move m = decode(f, best[0].substr(9));
    ASSERT_NE(m.to, -2) << best[0];
    const float truth = gaeval::testing::minimax(f.game, f.pos, kWeights.data(), 0, 3, 0);
    EXPECT_EQ(gaeval::testing::minimax(f.game, f.game.make(f.pos, m), kWeights.data(), 0, 2, 1),
              truth);
}

TEST(Uai, PositionsMovesAndFensAsManagersSendThem) {
    const std::string script =
        "uainewgame\n"
        "position startpos moves g2 a1a3\n"  // a grow of x, a jump of o
        "go depth 2\n"
        "position fen x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1\n"  // a full FEN, o to move, gaps
        "go nodes 300\n"
        "position fen xoo4/ooo4/ooo4/7/7/7/7 x 0 1\n"  // x has no move: a pass
        "go depth 3\n"
        "position fen xoo4/ooo4/ooo4/7/7/7/7 x 0 1 moves 0000 d4\n"
        "go movetime 30\n"
        "quit\n";
    const auto out = session(weighted_config(1), script);
    const auto best = starting_with(out, "bestmove ");
    ASSERT_EQ(best.size(), 4u);
    EXPECT_TRUE(starting_with(out, "info string").empty()) << starting_with(out, "info string")[0];
    Square7Fixture a(fen_setup("startpos"));
    a.pos = a.game.make(a.pos, Move::grow(1 * 8 + 6));     // g2
    a.pos = a.game.make(a.pos, Move::jump(0, 2 * 8 + 0));  // a1a3
    EXPECT_NE(decode(a, best[0].substr(9)).to, -2) << best[0];
    const Square7Fixture b(fen_setup("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1"));
    EXPECT_NE(decode(b, best[1].substr(9)).to, -2) << best[1];
    EXPECT_EQ(best[2], "bestmove 0000");
    Square7Fixture d(fen_setup("xoo4/ooo4/ooo4/7/7/7/7 x 0 1"));
    d.pos = d.game.make(d.pos, Move::pass());
    d.pos = d.game.make(d.pos, Move::grow(3 * 8 + 3));  // d4 (o)
    const Move m = decode(d, best[3].substr(9));
    EXPECT_NE(m.to, -2) << best[3];
    EXPECT_TRUE(m.is_pass()) << "x still cannot move: " << best[3];
}

TEST(Uai, MalformedInputIsAnsweredAndTheSessionGoesOn) {
    const std::string script =
        "position fen x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1\n"
        "position fen x5o/8/7/7/7/7/o5x x 0 1\n"  // a rank of 8 cells
        "position startpos moves g2 z9\n"         // not a square
        "position startpos moves a1a3\n"          // o's piece, x to move
        "position sideways\n"
        "frobnicate\n"
        "go wtime abc\n"
        "go depth\n"
        "setoption name hash value 64\n"
        "setoption name depth value 99\n"
        "\n"
        "go depth 1\n"
        "quit\n";
    const auto out = session(weighted_config(2), script);
    EXPECT_EQ(starting_with(out, "info string error: ").size(), 9u);
    const auto best = starting_with(out, "bestmove ");
    ASSERT_EQ(best.size(), 1u);
    // Every bad position left the first one in place: o to move on the board with gaps.
    const Square7Fixture b(fen_setup("x5o/7/2-1-2/7/2-1-2/7/o5x o 0 1"));
    // (o's moves, near a1 and g7, are none of x's in the start position.)
    EXPECT_NE(decode(b, best[0].substr(9)).to, -2) << best[0];
}

TEST(Uai, InfiniteSearchAnswersOnlyAfterStop) {
    std::ostringstream out;
    UaiEngine engine(weighted_config(1), out);
    engine.handle("position startpos");
    engine.handle("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    engine.handle("isready");
    // The manager's isready is answered during the search; no bestmove yet.
    {
        const auto now = lines_of(out.str());
        EXPECT_FALSE(starting_with(now, "readyok").empty());
    }
    engine.handle("stop");
    const auto lines = lines_of(out.str());
    const auto best = starting_with(lines, "bestmove ");
    ASSERT_EQ(best.size(), 1u);
    EXPECT_EQ(lines.back(), best[0]);
    const Square7Fixture f(fen_setup("startpos"));
    EXPECT_NE(decode(f, best[0].substr(9)).to, -2);
    EXPECT_FALSE(engine.handle("quit"));
}

TEST(Uai, ClockedSearchStopsInTime) {
    std::ostringstream out;
    UaiEngine engine(weighted_config(1), out);
    engine.handle("position startpos");
    const auto t0 = std::chrono::steady_clock::now();
    engine.handle("go btime 2000 wtime 2000 binc 0 winc 0");  // x to move: about 2000 / 30 ms
    engine.wait();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(starting_with(lines_of(out.str()), "bestmove ").size(), 1u);
    EXPECT_LT(seconds, 1.5);  // a generous bound: the budget is about 67 ms
}

TEST(Uai, BuiltInPlayersAnswerTooAndTheGameOverIsSaid) {
    UaiConfig c;
    c.player.kind = PlayerKind::Policy;
    c.player.policy = kCapture;
    const auto out = session(c,
                             "position startpos\ngo wtime 100 btime 100\n"
                             "position fen 7/7/7/7/7/7/x6 o 0 1\ngo depth 2\nquit\n");
    const auto best = starting_with(out, "bestmove ");
    ASSERT_EQ(best.size(), 2u);
    const Square7Fixture f(fen_setup("startpos"));
    EXPECT_NE(decode(f, best[0].substr(9)).to, -2);
    EXPECT_EQ(best[1], "bestmove 0000");
    EXPECT_EQ(starting_with(out, "info string error: go: the game is over").size(), 1u);
}

TEST(Uai, TheCommandLineRunsAPlayerFileAndRefusesBadFlags) {
    using gaeval::testing::run_cli;
    using gaeval::testing::temp_file;
    std::string names = "[", values = "[";
    for (int i = 0; i < kFeatureCount; ++i) {
        names += std::string(i ? "," : "") + "\"" + feature_name(i) + "\"";
        values += std::string(i ? "," : "") + std::to_string(kWeights[i]);
    }
    const std::string player =
        temp_file("uai_player.json",
                  "{\"format\": \"gaeval-player\", \"version\": 1, \"game\": \"ataxx\", "
                  "\"depth\": 2, \"features\": " +
                      names + "], \"weights\": " + values + "]}");
    const std::string script = temp_file(
        "uai_script.txt", "uai\r\nisready\r\nposition startpos moves f2\r\ngo depth 2\r\n");
    auto r = run_cli("uai --player " + player + " < " + script);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto out = lines_of(r.out);
    ASSERT_GE(out.size(), 4u);
    EXPECT_EQ(out[2], "option name depth type spin default 2 min 1 max 64");  // the file's depth
    const auto best = starting_with(out, "bestmove ");
    ASSERT_EQ(best.size(), 1u);  // end of input waits for the search
    Square7Fixture f(fen_setup("startpos"));
    f.pos = f.game.make(f.pos, Move::grow(1 * 8 + 5));
    EXPECT_NE(decode(f, best[0].substr(9)).to, -2) << best[0];

    for (const std::string& bad :
         {std::string("uai --player nobody"), std::string("uai --player capture --depth 3"),
          "uai --player " + player + " --depth 0", "uai --player " + player + " --depth 65",
          std::string("uai --clock sundial")}) {
        r = run_cli(bad + " < " + script);
        EXPECT_EQ(r.exit_code, 2) << bad;
        EXPECT_EQ(r.err_lines(), 1) << bad << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << bad;
    }
}

}  // namespace
}  // namespace gaeval::ataxx
