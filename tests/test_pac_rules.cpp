// Pac-Man rules on hand-built boards, each expectation derived by hand from the rules of
// docs/pac.md (the contest statement): collisions, kills, abilities and their timers, the two
// sub-steps of a fast pac, wrap-around, lines of sight, the end of the game, the move
// enumeration and the greedy policy.
#include <gtest/gtest.h>

#include "games/pac/game.hpp"
#include "host/pac/protocol.hpp"
#include "pac_test_support.hpp"

namespace {

using namespace gaeval;
using namespace gaeval::pac;
using namespace gaeval::pac::testing;

// A corridor of 7 floor cells: (1,1) .. (7,1).
const std::vector<std::string> kCorridor = {"#########", "#       #", "#########"};

TEST(PacRules, RockPaperScissors) {
    EXPECT_TRUE(beats(kPaper, kRock));
    EXPECT_TRUE(beats(kRock, kScissors));
    EXPECT_TRUE(beats(kScissors, kPaper));
    for (int t = 0; t < 3; ++t) {
        EXPECT_FALSE(beats(t, t));
        EXPECT_TRUE(beats(beater_of(t), t));
        EXPECT_FALSE(beats(t, beater_of(t)));
    }
}

TEST(PacRules, PacsOfOneOwnerBounceOffEachOther) {
    const Board b(kCorridor);
    Pos p = hand_position(b, {{0, 0, 1, 1, kRock}, {0, 1, 3, 1, kPaper}, {1, 0, 7, 1, kRock}});
    const Pos q = turn(b, p, commands({Command::move_to(b.at(2, 1)), Command::move_to(b.at(2, 1))}),
                       commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(1, 1));
    EXPECT_EQ(q.pac[0][1].cell, b.at(3, 1));
    EXPECT_TRUE(q.pac[0][0].blocked && q.pac[0][1].blocked);
    EXPECT_TRUE(q.pellets.test(b.at(2, 1)));  // nobody got there
    EXPECT_EQ(q.score[0], 0);
}

TEST(PacRules, PacsOfOneTypeBounceAcrossOwners) {
    const Board b(kCorridor);
    const Pos p = hand_position(b, {{0, 0, 1, 1, kScissors}, {1, 0, 3, 1, kScissors}});
    // Landing on one cell, and crossing each other: both stay.
    Pos q = turn(b, p, commands({Command::move_to(b.at(2, 1))}),
                 commands({Command::move_to(b.at(2, 1))}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(1, 1));
    EXPECT_EQ(q.pac[1][0].cell, b.at(3, 1));
    const Pos r = hand_position(b, {{0, 0, 2, 1, kScissors}, {1, 0, 3, 1, kScissors}});
    q = turn(b, r, commands({Command::move_to(b.at(3, 1))}),
             commands({Command::move_to(b.at(2, 1))}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(2, 1));
    EXPECT_EQ(q.pac[1][0].cell, b.at(3, 1));
    EXPECT_TRUE(q.pac[0][0].alive && q.pac[1][0].alive);
}

TEST(PacRules, LandingTogetherTheStrongerEatsTheWeaker) {
    const Board b(kCorridor);
    const Pos p =
        hand_position(b, {{0, 0, 1, 1, kPaper}, {1, 0, 3, 1, kRock}, {1, 1, 7, 1, kRock}});
    const Pos q = turn(b, p, commands({Command::move_to(b.at(2, 1))}),
                       commands({Command::move_to(b.at(2, 1))}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(2, 1));
    EXPECT_EQ(q.pac[1][0].cell, b.at(2, 1));
    EXPECT_TRUE(q.pac[0][0].alive);
    EXPECT_FALSE(q.pac[1][0].alive);
    EXPECT_EQ(q.score[0], 1);  // the pellet goes to the survivor only
    EXPECT_EQ(q.score[1], 0);
    EXPECT_FALSE(q.over);  // side 1 still has a pac
}

TEST(PacRules, AWeakerPacCannotCrossAStrongerOne) {
    const Board b(kCorridor);
    const Pos p = hand_position(
        b, {{0, 0, 2, 1, kRock}, {1, 0, 3, 1, kPaper}, {1, 1, 7, 1, kRock}, {0, 1, 5, 1, kPaper}});
    const Pos q = turn(b, p, commands({Command::move_to(b.at(3, 1))}),
                       commands({Command::move_to(b.at(2, 1))}));
    // The rock is blocked and stays; the paper goes on onto its cell and eats it.
    EXPECT_EQ(q.pac[0][0].cell, b.at(2, 1));
    EXPECT_TRUE(q.pac[0][0].blocked);
    EXPECT_FALSE(q.pac[0][0].alive);
    EXPECT_EQ(q.pac[1][0].cell, b.at(2, 1));
    EXPECT_TRUE(q.pac[1][0].alive);
    EXPECT_FALSE(q.pac[1][0].blocked);
}

TEST(PacRules, ACancelledMoveCancelsTheMoveBehindIt) {
    const Board b(kCorridor);
    // A -> B's cell, B -> C's cell, C waits: B bounces off C, then A off B.
    Pos p = hand_position(
        b,
        {{0, 0, 1, 1, kRock}, {0, 1, 2, 1, kPaper}, {0, 2, 3, 1, kScissors}, {1, 0, 7, 1, kRock}});
    Pos q = turn(
        b, p,
        commands({Command::move_to(b.at(2, 1)), Command::move_to(b.at(3, 1)), Command::wait()}),
        commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(1, 1));
    EXPECT_EQ(q.pac[0][1].cell, b.at(2, 1));
    EXPECT_EQ(q.pac[0][2].cell, b.at(3, 1));
    EXPECT_TRUE(q.pac[0][0].blocked && q.pac[0][1].blocked && !q.pac[0][2].blocked);
    // When C moves on too, the train moves as one.
    q = turn(b, p,
             commands({Command::move_to(b.at(2, 1)), Command::move_to(b.at(3, 1)),
                       Command::move_to(b.at(4, 1))}),
             commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(2, 1));
    EXPECT_EQ(q.pac[0][1].cell, b.at(3, 1));
    EXPECT_EQ(q.pac[0][2].cell, b.at(4, 1));
    EXPECT_EQ(q.score[0], 1);  // only (4,1) still had a pellet
}

TEST(PacRules, SpeedLastsFiveTurnsAndAbilitiesShareTenTurnsOfCooldown) {
    std::vector<std::string> rows = {std::string(35, '#'), "#" + std::string(33, ' ') + "#",
                                     std::string(35, '#')};
    const Board b(rows);
    Pos p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 33, 1, kRock}});
    const Move far = commands({Command::move_to(b.at(30, 1))});
    const Move idle = commands({});
    p = turn(b, p, commands({Command::speed()}), idle);  // turn 0: SPEED, no step
    EXPECT_EQ(p.pac[0][0].cell, b.at(1, 1));
    EXPECT_EQ(p.pac[0][0].speed_turns, kSpeedTurns);
    EXPECT_EQ(p.pac[0][0].cooldown, 9);
    for (int t = 1; t <= 5; ++t) {  // turns 1..5: two steps each, two pellets each
        p = turn(b, p, far, idle);
        EXPECT_EQ(p.pac[0][0].cell, b.at(1 + 2 * t, 1)) << "turn " << t;
        EXPECT_EQ(p.pac[0][0].speed_turns, 5 - t);
        EXPECT_EQ(p.score[0], 2 * t);
    }
    p = turn(b, p, far, idle);  // turn 6: one step
    EXPECT_EQ(p.pac[0][0].cell, b.at(12, 1));
    EXPECT_EQ(p.pac[0][0].cooldown, 3);
    p = turn(b, p, commands({Command::switch_to(kPaper)}), idle);  // turn 7: ignored (cooldown)
    p = turn(b, p, far, idle);                                     // turn 8
    p = turn(b, p, commands({Command::speed()}), idle);            // turn 9: ignored (cooldown 1)
    EXPECT_EQ(p.pac[0][0].type, kRock);
    EXPECT_EQ(p.pac[0][0].speed_turns, 0);
    EXPECT_EQ(p.pac[0][0].cooldown, 0);
    EXPECT_EQ(p.pac[0][0].cell, b.at(13, 1));
    p = turn(b, p, commands({Command::switch_to(kPaper)}), idle);  // turn 10: ten turns later
    EXPECT_EQ(p.pac[0][0].type, kPaper);
    EXPECT_EQ(p.pac[0][0].cooldown, 9);
    EXPECT_EQ(p.turn, 11);
}

TEST(PacRules, ASwitchHappensBeforeTheMoves) {
    const Board b(kCorridor);
    const Pos p =
        hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 2, 1, kRock}, {1, 1, 7, 1, kPaper}});
    // The enemy rock steps onto our pac, which has just become paper.
    const Pos q = turn(b, p, commands({Command::switch_to(kPaper)}),
                       commands({Command::move_to(b.at(1, 1))}));
    EXPECT_EQ(q.pac[0][0].type, kPaper);
    EXPECT_TRUE(q.pac[0][0].alive);
    EXPECT_FALSE(q.pac[1][0].alive);
}

TEST(PacRules, AFastPacResolvesEachStepOnItsOwn) {
    const Board b(kCorridor);
    // Step 1 lands on a rock and eats it; step 2 goes on and eats a pellet.
    Pos p = hand_position(b, {{0, 0, 1, 1, kPaper}, {1, 0, 2, 1, kRock}, {1, 1, 7, 1, kRock}});
    p.pac[0][0].speed_turns = 2;
    p.pac[0][0].cooldown = 5;
    Pos q = turn(b, p, commands({Command::move_to(b.at(5, 1))}), commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(3, 1));
    EXPECT_FALSE(q.pac[1][0].alive);
    EXPECT_EQ(q.score[0], 1);
    EXPECT_EQ(q.pac[0][0].speed_turns, 1);
    // Step 2 lands on a paper that waits: the fast rock dies there after eating on step 1.
    p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 3, 1, kPaper}, {0, 1, 7, 1, kRock}});
    p.pac[0][0].speed_turns = 1;
    p.pac[0][0].cooldown = 5;
    q = turn(b, p, commands({Command::move_to(b.at(5, 1))}), commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(3, 1));
    EXPECT_FALSE(q.pac[0][0].alive);
    EXPECT_EQ(q.score[0], 1);
    // A fast pac bounced on step 1 tries the same step again on step 2 (the enemy rock that
    // bounced it does not move on step 2).
    p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 3, 1, kRock}});
    p.pac[0][0].speed_turns = 1;
    p.pac[0][0].cooldown = 5;
    q = turn(b, p, commands({Command::move_to(b.at(3, 1))}),
             commands({Command::move_to(b.at(2, 1))}));
    EXPECT_EQ(q.pac[1][0].cell, b.at(3, 1));
    EXPECT_EQ(q.pac[0][0].cell, b.at(2, 1));
    EXPECT_TRUE(q.pac[0][0].blocked && q.pac[1][0].blocked);
    EXPECT_EQ(q.score[0], 1);
}

TEST(PacRules, TheMapWrapsAroundHorizontally) {
    const Board b({"#####", "     ", "#####"});
    EXPECT_EQ(b.map->dist[b.at(0, 1)][b.at(4, 1)], 1);
    EXPECT_EQ(b.map->neighbour[b.at(0, 1)][kLeft], b.at(4, 1));
    EXPECT_EQ(b.map->neighbour[b.at(4, 1)][kRight], b.at(0, 1));
    EXPECT_EQ(step_left(*b.map, BB::cell(b.at(0, 1))), BB::cell(b.at(4, 1)));
    EXPECT_EQ(step_right(*b.map, BB::cell(b.at(4, 1))), BB::cell(b.at(0, 1)));
    EXPECT_TRUE(step_up(*b.map, BB::cell(b.at(0, 1))).empty());  // no vertical wrap
    // The line of sight goes round the row.
    EXPECT_EQ(b.map->sight[b.at(1, 1)].count(), 5);
    const Pos p = hand_position(b, {{0, 0, 0, 1, kRock}, {1, 0, 2, 1, kRock}});
    const Pos q = turn(b, p, commands({Command::move_to(b.at(4, 1))}), commands({}));
    EXPECT_EQ(q.pac[0][0].cell, b.at(4, 1));
    EXPECT_EQ(q.score[0], 1);
}

// Pac at (1,1) in a ring around a block of walls.
const std::vector<std::string> kRing = {"#######", "#     #", "# ### #", "#     #", "#######"};

TEST(PacRules, PacsSeeAlongStraightLinesUpToAWall) {
    const Board b(kRing);
    BB expected = BB::none();
    for (int x = 1; x <= 5; ++x) expected.set(b.at(x, 1));
    for (int y = 1; y <= 3; ++y) expected.set(b.at(1, y));
    EXPECT_EQ(b.map->sight[b.at(1, 1)], expected);
    Pos p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 3, 3, kPaper}, {1, 1, 5, 1, kScissors}});
    p.supers.set(b.at(5, 3));
    p.pellets.reset(b.at(5, 3));
    const Observation obs = observe(*b.map, p, 0);
    int enemies = 0;
    for (const PacView& v : obs.pacs) {
        if (v.mine) continue;
        ++enemies;  // the scissors at (5,1), not the paper
        EXPECT_EQ(v.cell, b.at(5, 1));
    }
    EXPECT_EQ(enemies, 1);
    int supers = 0, pellets = 0;
    for (const auto& [c, value] : obs.pellets) {
        if (value == kSuperValue) {
            ++supers;
            EXPECT_EQ(c, b.at(5, 3));
        } else {
            ++pellets;
            EXPECT_TRUE(expected.test(c));
        }
    }
    EXPECT_EQ(supers, 1);   // seen from anywhere
    EXPECT_EQ(pellets, 5);  // (2..4,1) and (1,2), (1,3)
    // A side forgets the pellets it sees eaten, and only those: side 1 does not see (1,2).
    const Pos q = turn(b, p, commands({Command::move_to(b.at(1, 2))}),
                       commands({{}, Command::move_to(b.at(4, 1))}));
    EXPECT_FALSE(q.pellets.test(b.at(1, 2)));
    EXPECT_FALSE(q.maybe[0].test(b.at(1, 2)));
    EXPECT_TRUE(q.maybe[0].test(b.at(4, 1)));  // eaten after side 0 looked away
    EXPECT_FALSE(q.maybe[1].test(b.at(4, 1)));
    EXPECT_TRUE(q.maybe[1].test(b.at(1, 2)));
}

TEST(PacRules, TheGameEnds) {
    const Board b(kCorridor);
    // A side without pacs: the other takes every pellet left.
    Pos p = hand_position(b, {{0, 0, 1, 1, kPaper}, {1, 0, 2, 1, kRock}});
    Pos q = turn(b, p, commands({Command::move_to(b.at(2, 1))}), commands({}));
    EXPECT_TRUE(q.over);
    EXPECT_EQ(q.score[0], 5);  // (3..7,1)
    EXPECT_TRUE(q.pellets.empty());
    EXPECT_EQ(b.game.winner(q), 0);
    // Too few pellets left to change the ranking.
    p = hand_position(b, {{0, 0, 1, 1, kPaper}, {1, 0, 7, 1, kRock}});
    p.score[0] = 5;
    q = turn(b, p, commands({}), commands({}));
    EXPECT_FALSE(q.over);  // 5 left, a lead of 5: side 1 can still draw
    p.score[0] = 6;
    q = turn(b, p, commands({}), commands({}));
    EXPECT_TRUE(q.over);
    p.pellets = BB::cell(b.at(4, 1));
    p.score[0] = 1;
    q = turn(b, p, commands({}), commands({}));
    EXPECT_FALSE(q.over);  // one pellet left, a lead of 1: side 1 can still draw
    p.score[0] = 2;
    q = turn(b, p, commands({}), commands({}));
    EXPECT_TRUE(q.over);
    EXPECT_EQ(b.game.seat_result(q, 1), SeatResult::Loss);
    // The turn limit.
    p = hand_position(b, {{0, 0, 1, 1, kPaper}, {1, 0, 7, 1, kRock}});
    p.turn = kTurnLimit - 1;
    q = turn(b, p, commands({}), commands({}));
    EXPECT_TRUE(q.over);
    EXPECT_EQ(b.game.winner(q), -1);
}

TEST(PacRules, MovesEnumerateEveryPacsOptions) {
    const Board b(kCorridor);
    Pos p = hand_position(b, {{0, 0, 2, 1, kRock}, {0, 1, 5, 1, kPaper}, {1, 0, 7, 1, kRock}});
    // Each: wait, two steps, SPEED, two SWITCHes.
    EXPECT_EQ(b.game.count_moves(p), 36);
    p.pac[0][1].speed_turns = 3;  // fast: wait, (4,1), (6,1), (3,1), (7,1); no abilities
    p.pac[0][1].cooldown = 7;
    EXPECT_EQ(b.game.count_moves(p), 30);
    Command options[kMaxPacOptions];
    ASSERT_EQ(b.game.pac_options(p, 0, 1, options), 5);
    EXPECT_EQ(options[1].target, b.at(4, 1));
    EXPECT_EQ(options[2].target, b.at(6, 1));
    EXPECT_EQ(options[3].target, b.at(3, 1));
    EXPECT_EQ(options[4].target, b.at(7, 1));
    // nth_move: pac 0 is the lowest digit.
    const Move m = b.game.nth_move(p, 6 + 2);
    EXPECT_EQ(m.pac[0].kind, kMoveTo);
    EXPECT_EQ(m.pac[0].target, b.at(3, 1));
    EXPECT_EQ(m.pac[1].target, b.at(4, 1));
    // Seat 0's ply only stores its commands.
    const Pos half = b.game.make(p, m);
    EXPECT_EQ(half.side, 1);
    EXPECT_EQ(half.pac[0][0].cell, p.pac[0][0].cell);
    EXPECT_EQ(half.turn, 0);
}

TEST(PacRules, GreedyEatsTheNearestPelletAndFleesWhatEatsIt) {
    const Board b(kRing);
    Pos p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 5, 3, kRock}});
    p.pac[0][0].cooldown = 4;
    p.pellets = BB::cell(b.at(4, 1)) | BB::cell(b.at(1, 3));  // (1,3) is nearer
    p.maybe[0] = p.pellets;
    Move m = b.game.policy_move(p, 1, DrawAddress{1, 0, 0});
    EXPECT_EQ(m.pac[0].kind, kMoveTo);
    EXPECT_EQ(m.pac[0].target, b.at(1, 3));
    // A paper in sight two steps away: flee (cooldown) or switch to scissors (no cooldown).
    p = hand_position(b, {{0, 0, 1, 1, kRock}, {1, 0, 3, 1, kPaper}});
    p.pac[0][0].cooldown = 4;
    m = b.game.policy_move(p, 1, DrawAddress{1, 0, 0});
    EXPECT_EQ(m.pac[0].kind, kMoveTo);
    EXPECT_EQ(m.pac[0].target, b.at(1, 2));
    p.pac[0][0].cooldown = 0;
    m = b.game.policy_move(p, 1, DrawAddress{1, 0, 0});
    EXPECT_EQ(m.pac[0].kind, kSwitch);
    EXPECT_EQ(m.pac[0].type, kScissors);
    // A paper two steps away round a corner is not seen: SPEED (cooldown 0) instead.
    const Board open({"#####", "#   #", "#   #", "#####"});
    p = hand_position(open, {{0, 0, 1, 1, kRock}, {1, 0, 2, 2, kPaper}});
    ASSERT_EQ(open.map->dist[open.at(1, 1)][open.at(2, 2)], 2);
    m = open.game.policy_move(p, 1, DrawAddress{1, 0, 0});
    EXPECT_EQ(m.pac[0].kind, kSpeed);
}

}  // namespace
