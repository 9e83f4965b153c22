// FEN and board specs: round trips on every board kind and one clear error per kind of bad
// input (rank count and length, piece letter, side, counters, board, rules, players).
#include <gtest/gtest.h>

#include <string>

#include "ataxx_test_support.hpp"
#include "host/core/error.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

TEST(AtaxxFen, StandardFensRoundTrip) {
    const char* fens[] = {
        "x5o/7/7/7/7/7/o5x x 0 1",
        "7/7/7/7/-------/-------/x5o x 0 1",
        "x5o/7/2-1-2/3-3/2-1-2/7/o5x o 17 42",
        "xoxoxox/oxoxoxo/7/7/7/7/3x3 x 0 1",
        "7/7/7/7/7/7/7 o 0 1",
    };
    for (const char* fen : fens) EXPECT_EQ(write_fen(fen_setup(fen)), fen);
    EXPECT_EQ(write_fen(fen_setup("startpos")), "x5o/7/7/7/7/7/o5x x 0 1");
    EXPECT_EQ(write_fen(fen_setup("x5o/7/7/7/7/7/o5x o")), "x5o/7/7/7/7/7/o5x o 0 1");
    // Cells are numbered from the bottom rank: a1 is cell 0, a7 is cell 42.
    const GameSetup s = fen_setup("x6/7/7/7/7/7/1o5 x 0 1");
    EXPECT_EQ(s.cell[42], 0);
    EXPECT_EQ(s.cell[1], 1);
}

TEST(AtaxxFen, OtherBoardsRoundTrip) {
    struct Case {
        const char* board;
        const char* rules;
        int players;
        const char* start;
    };
    const Case cases[] = {
        {"hex:2", "ataxx", 2, "x1o/4/5/4/o1x x 0 1"},
        {"tri:3", "ataxx", 2, "x/3/4o x 0 1"},
        {"square4:16x16", "genetic-game", 4,
         "x14o/16/16/16/16/16/16/16/16/16/16/16/16/16/16/z14y x 0 1"},
        {"offset:5x3", "genetic-game", 3, "x3o/5/4y x 0 1"},
        {"square8:3x1", "ataxx", 2, "x1o x 0 1"},
    };
    for (const Case& c : cases) {
        const GameSetup start =
            start_setup(parse_board_spec(c.board), parse_rule_set(c.rules), c.players);
        EXPECT_EQ(write_fen(start), c.start) << c.board;
        EXPECT_EQ(write_fen(fen_setup(c.start, c.board, c.rules, c.players)), c.start);
    }
    const std::string gapped = "x-o/y3/-4/4/2z z 3 9";
    EXPECT_EQ(write_fen(fen_setup(gapped, "hex:2", "genetic-game", 4)), gapped);
}

TEST(AtaxxFen, BoardSpecs) {
    EXPECT_EQ(board_spec(parse_board_spec("square8:7x7")), "square8:7x7");
    EXPECT_EQ(board_spec(parse_board_spec("square4:8")), "square4:8x8");
    EXPECT_EQ(board_spec(parse_board_spec("offset:6x5")), "offset:6x5");
    EXPECT_EQ(shape_cells(parse_board_spec("hex:8")), 217);
    EXPECT_EQ(shape_cells(parse_board_spec("tri:16")), 256);
    EXPECT_EQ(shape_cells(parse_board_spec("square8:16x16")), 256);
}

// The InputError message of f(), or "" when it does not throw one.
template <class F>
std::string error_of(F&& f) {
    try {
        f();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

void expect_error(const std::string& message, const char* part) {
    EXPECT_NE(message.find(part), std::string::npos) << "message: '" << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << "one line: '" << message << "'";
}

TEST(AtaxxFen, BadBoardRulesAndPlayers) {
    expect_error(error_of([] { parse_board_spec("cube:3"); }), "unknown topology 'cube'");
    expect_error(error_of([] { parse_board_spec("square8"); }), "missing size");
    expect_error(error_of([] { parse_board_spec("square8:0x7"); }), "positive");
    expect_error(error_of([] { parse_board_spec("square8:7x"); }), "positive");
    expect_error(error_of([] { parse_board_spec("hex:-1"); }), "radius");
    expect_error(error_of([] { parse_board_spec("hex:9"); }), "271 cells; the largest");
    expect_error(error_of([] { parse_board_spec("square4:17x16"); }), "272 cells");
    expect_error(error_of([] { parse_board_spec("tri:99999"); }), "side");
    expect_error(error_of([] { parse_rule_set("chess"); }), "unknown rule set");
    expect_error(error_of([] { check_players(RuleSet::Ataxx, 3); }), "2 players");
    expect_error(error_of([] { check_players(RuleSet::GeneticGame, 5); }), "2 to 4");
    expect_error(
        error_of([] { start_setup(parse_board_spec("square8:1x1"), RuleSet::Ataxx, 2); }),
        "corner");
}

TEST(AtaxxFen, BadFens) {
    auto fen_error = [](const char* fen) { return error_of([&] { fen_setup(fen); }); };
    expect_error(fen_error("x5o/7/7/7/7/o5x x 0 1"), "6 ranks, board square8:7x7 has 7");
    expect_error(fen_error("x5o/7/7/7/7/7/7/o5x x 0 1"), "8 ranks");
    expect_error(fen_error("x5o/8/7/7/7/7/o5x x 0 1"), "rank 2 '8': 8 cells");
    expect_error(fen_error("x4o/7/7/7/7/7/o5x x 0 1"), "rank 1 'x4o': 6 cells");
    expect_error(fen_error("x5q/7/7/7/7/7/o5x x 0 1"), "unknown piece letter 'q'");
    expect_error(fen_error("x5y/7/7/7/7/7/o5x x 0 1"), "player 3 but the game has 2 players");
    expect_error(fen_error("x5o/7/7/7/0x6/7/o5x x 0 1"), "bad run");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x q 0 1"), "side to move 'q'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x xo 0 1"), "side to move 'xo'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x x -1 1"), "halfmove clock '-1'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x x 70000 1"), "halfmove clock '70000'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x x 0 0"), "fullmove number '0'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x x 0 z"), "fullmove number 'z'");
    expect_error(fen_error("x5o/7/7/7/7/7/o5x x 0"), "expected 4 fields");
    expect_error(fen_error(""), "got 0");
    expect_error(error_of([] { fen_setup("x1o/4/5/4/o1x x 0 1", "hex:3"); }), "board hex:3 has 7");
}

}  // namespace
