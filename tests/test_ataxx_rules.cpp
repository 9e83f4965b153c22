// Rules of both rule sets: captures, jumps, counters, passes, game over and results (the ataxx
// results are libataxx's own test positions).
#include <gtest/gtest.h>

#include <string>

#include "ataxx_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::ataxx;
using namespace gaeval::ataxx::testing;

TEST(AtaxxRules, JumpCapturesEveryNeighbourAndLeavesItsOrigin) {
    // o ring around the empty d4; x on b2, two cells away.
    Square7Fixture f(fen_setup("7/7/2ooo2/2o1o2/2ooo2/1x5/7 x 37 4"));
    const Move jump = Move::jump(9, 27);  // b2 -> d4 in the 7x7 word (rank * 8 + file)
    bool legal = false;
    f.game.for_each_move(f.pos, [&](Move m) { legal = legal || m == jump; });
    ASSERT_TRUE(legal);
    EXPECT_EQ(f.game.captured_by(f.pos, jump).count(), 8);
    const auto next = f.game.make(f.pos, jump);
    EXPECT_EQ(next.pieces[0].count(), 9);
    EXPECT_EQ(next.pieces[1].count(), 0);
    EXPECT_FALSE(next.pieces[0].test(9));
    EXPECT_EQ(next.halfmove, 38);  // a jump does not reset the clock
    EXPECT_EQ(next.side, 1);
    EXPECT_EQ(next.fullmove, 4u);  // x moved: same move number
    EXPECT_TRUE(f.game.is_over(next));
    const auto result = f.game.outcome(next);
    EXPECT_EQ(result.winner, 0);
    EXPECT_EQ(seat_result(result, 0), SeatResult::Win);
    EXPECT_EQ(seat_result(result, 1), SeatResult::Loss);
}

TEST(AtaxxRules, GrowResetsTheClockAndCapturesOnlyNeighbours) {
    Square7Fixture f(fen_setup("7/7/2ooo2/2o1o2/2ooo2/1x5/7 o 37 4"));
    // o grows to b3 (bit 17): neighbours of b3 hold x on b2 only.
    const auto next = f.game.make(f.pos, Move::grow(17));
    EXPECT_EQ(next.pieces[1].count(), 8 + 1 + 1);
    EXPECT_EQ(next.pieces[0].count(), 0);
    EXPECT_EQ(next.halfmove, 0);
    EXPECT_EQ(next.side, 0);
    EXPECT_EQ(next.fullmove, 5u);  // o moved: the next move number
}

TEST(AtaxxRules, ASideWithoutMovesPassesAndThePassCountsAsAPly) {
    Square7Fixture f(fen_setup("7/7/7/7/ooooooo/ooooooo/xxxxxxx x 12 3"));
    EXPECT_EQ(f.game.count_grows_and_jumps(f.pos), 0);
    // For the game interface the forced pass is the one legal move.
    EXPECT_EQ(f.game.count_moves(f.pos), 1);
    EXPECT_TRUE(f.game.nth_move(f.pos, 0).is_pass());
    EXPECT_FALSE(f.game.is_over(f.pos));
    EXPECT_EQ(child_count(f.game, f.pos), 1u);
    std::vector<Position<1, 2>> children;
    for_each_child(f.game, f.pos, [&](const Position<1, 2>& c) { children.push_back(c); });
    ASSERT_EQ(children.size(), 1u);
    const auto& passed = children[0];
    EXPECT_EQ(passed.side, 1);
    EXPECT_EQ(passed.halfmove, 13);
    EXPECT_EQ(passed.pieces[0], f.pos.pieces[0]);
    EXPECT_EQ(passed.pieces[1], f.pos.pieces[1]);
    EXPECT_EQ(f.game.count_moves(passed), 75);
    // The players pass too.
    gaeval::Player<Square7Game> random;
    EXPECT_TRUE(choose_move(f.game, f.pos, random, DrawAddress{1, 0, 0}).is_pass());
}

TEST(AtaxxRules, NoPassWhenNobodyCanMove) {
    Square7Fixture f(fen_setup("7/7/7/7/-------/-------/xxxxooo x 0 1"));
    EXPECT_TRUE(f.game.is_over(f.pos));
    EXPECT_EQ(child_count(f.game, f.pos), 0u);
}

// libataxx's result test positions: 0 = x (black) wins, 1 = o wins, -1 draw, 2 not over.
TEST(AtaxxRules, AtaxxResultsMatchLibataxx) {
    const std::pair<const char*, int> cases[] = {
        {"x5o/7/7/7/7/7/o5x x 0 1", 2},
        {"7/7/7/7/7/7/7 x 0 1", -1},
        {"7/7/7/7/7/7/7 o 0 1", -1},
        {"x6/7/7/7/7/7/7 x 0 1", 0},
        {"x6/7/7/7/7/7/7 o 0 1", 0},
        {"o6/7/7/7/7/7/7 x 0 1", 1},
        {"o6/7/7/7/7/7/7 o 0 1", 1},
        {"xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx x 0 1", 0},
        {"ooooooo/ooooooo/ooooooo/ooooooo/ooooooo/ooooooo/ooooooo o 0 1", 1},
        {"ooooooo/ooooooo/ooooooo/oooxxxx/xxxxxxx/xxxxxxx/xxxxxxx x 0 1", 0},
        {"ooooooo/ooooooo/ooooooo/ooooxxx/xxxxxxx/xxxxxxx/xxxxxxx o 0 1", 1},
        {"ooooooo/ooooooo/ooooooo/ooo-xxx/xxxxxxx/xxxxxxx/xxxxxxx x 0 1", -1},
        {"x5o/7/7/7/7/7/o5x x 99 1", 2},
        {"x5o/7/7/7/7/7/o5x x 100 1", -1},
        {"xxo4/7/7/7/7/7/7 x 100 1", -1},
        {"oox4/7/7/7/7/7/7 o 100 1", -1},
        {"7/7/7/7/-------/-------/xxxxooo x 100 1", 0},
        {"7/7/7/7/-------/-------/xxxoooo o 100 1", 1},
        {"7/7/7/7/-------/-------/xxxxooo x 0 1", 0},
        {"7/7/7/7/-------/-------/xxxoooo o 0 1", 1},
        {"7/7/7/7/-------/-------/xxx-ooo x 0 1", -1},
    };
    for (const auto& [fen, expected] : cases) {
        const GameSetup s = fen_setup(fen);
        Square7Fixture fast(s);
        TableFixture<1, 2> table(s);
        EXPECT_EQ(table.game.is_over(table.pos), expected != 2) << fen;
        EXPECT_EQ(fast.game.is_over(fast.pos), expected != 2) << fen;
        if (expected == 2) continue;
        EXPECT_EQ(fast.game.outcome(fast.pos).winner, expected) << fen;
        EXPECT_EQ(table.game.outcome(table.pos).winner, expected) << fen;
    }
    // The 50-move draw holds whatever the piece counts say.
    Square7Fixture f(fen_setup("xxo4/7/7/7/7/7/7 x 100 1"));
    const auto result = f.game.outcome(f.pos);
    EXPECT_TRUE(result.rule_draw);
    EXPECT_EQ(seat_result(result, 1), SeatResult::Draw);
}

TEST(AtaxxRules, GeneticGameHasNoFiftyMoveRule) {
    Square7Fixture ataxx(fen_setup("x5o/7/7/7/7/7/o5x x 100 1"));
    Square7Fixture genetic(fen_setup("x5o/7/7/7/7/7/o5x x 100 1", "square8:7x7", "genetic-game"));
    EXPECT_TRUE(ataxx.game.is_over(ataxx.pos));
    EXPECT_FALSE(genetic.game.is_over(genetic.pos));
    EXPECT_EQ(child_count(genetic.game, genetic.pos), 16u);
}

TEST(AtaxxRules, GeneticGameEndsOnAFullBoardOrASoleSurvivorWhoOwnsTheRest) {
    Square7Fixture full(fen_setup("ooooooo/ooooooo/ooooooo/oooxxxx/xxxxxxx/xxxxxxx/xxxxxxx o 0 1",
                                  "square8:7x7", "genetic-game"));
    EXPECT_TRUE(full.game.is_over(full.pos));
    EXPECT_EQ(full.game.outcome(full.pos).winner, 0);
    Square7Fixture survivor(fen_setup("x6/7/7/7/7/7/7 o 0 1", "square8:7x7", "genetic-game"));
    EXPECT_TRUE(survivor.game.is_over(survivor.pos));
    const auto result = survivor.game.outcome(survivor.pos);
    EXPECT_EQ(result.winner, 0);
    EXPECT_EQ(result.score[0], 49);
    EXPECT_EQ(result.score[1], 0);
    // Empty cells out of everyone's reach end the game too (else it would pass forever).
    Square7Fixture stuck(
        fen_setup("7/7/7/7/-------/-------/xxx1ooo x 0 1", "square8:7x7", "genetic-game"));
    EXPECT_FALSE(stuck.game.is_over(stuck.pos));
    // x grows to d1: over. x jumps b1-d1: o cannot reach b1 and passes, then x has two ways
    // (grow, jump d1-b1) to fill it.
    EXPECT_EQ(perft(stuck.game, stuck.pos, 3), 2u);
}

TEST(AtaxxRules, GeneticGameTurnsSkipEliminatedPlayers) {
    // Three players on 7x7: x, o, y in turn order; y moving wraps to the next move number.
    TableFixture<1, 4> three(fen_setup("x5o/7/7/7/7/7/y6 x 0 1", "square8:7x7", "genetic-game", 3));
    EXPECT_EQ(three.game.next_player(three.pos, 0), 1);
    EXPECT_EQ(three.game.next_player(three.pos, 1), 2);
    EXPECT_EQ(three.game.next_player(three.pos, 2), 0);
    Position<1, 4> p = three.pos;
    for (int ply = 0; ply < 3; ++ply) p = three.game.make(p, three.game.nth_move(p, 0));
    EXPECT_EQ(p.side, 0);
    EXPECT_EQ(p.fullmove, 2u);
    // o eliminated: after x comes y.
    TableFixture<1, 4> two_left(
        fen_setup("x6/7/7/7/7/7/y6 x 0 1", "square8:7x7", "genetic-game", 3));
    EXPECT_FALSE(two_left.game.is_over(two_left.pos));
    EXPECT_EQ(two_left.game.make(two_left.pos, Move::grow(43)).side, 2);  // x: a7 -> b7
    // A move captures the pieces of every opponent around its destination.
    TableFixture<1, 4> crowd(
        fen_setup("7/7/7/2o1y2/2x4/7/7 x 0 1", "square8:7x7", "genetic-game", 3));
    const Move grow_d4 = Move::grow(3 * 7 + 3);  // table layout: row * 7 + col
    EXPECT_EQ(crowd.game.captured_by(crowd.pos, grow_d4).count(), 2);
    const auto after = crowd.game.make(crowd.pos, grow_d4);
    EXPECT_EQ(after.pieces[0].count(), 4);
    EXPECT_EQ(crowd.game.live_players(after), 1);
    EXPECT_TRUE(crowd.game.is_over(after));
    EXPECT_EQ(crowd.game.outcome(after).score[0], 49);
}

TEST(AtaxxRules, ThreePlayerResultsPerSeat) {
    TableFixture<1, 4> f(
        fen_setup("xxx4/ooo4/yy5/7/7/-------/------- x 0 1", "square8:7x7", "genetic-game", 3));
    auto result = f.game.outcome(f.pos);
    EXPECT_EQ(result.winner, -1);  // x and o share the top score
    EXPECT_EQ(seat_result(result, 0), SeatResult::Draw);
    EXPECT_EQ(seat_result(result, 1), SeatResult::Draw);
    EXPECT_EQ(seat_result(result, 2), SeatResult::Loss);
}

}  // namespace
