// The game interface's checks (games/core/game.hpp): one detector per required piece, so that a
// game missing one gets a compile error naming it. Here the detectors themselves: a complete toy
// game has every piece, and the same game without one piece lacks exactly that one.
#include <gtest/gtest.h>

#include "games/core/game.hpp"
#include "games/tictactoe/tictactoe.hpp"

namespace {

using namespace gaeval;

// A toy game: one pile of stones, take one or two, whoever takes the last wins.
struct PileBase {
    struct Pos {
        int stones = 5, mover = 0;
    };
    struct Move {
        int take = 1;
    };
    static constexpr int kMaxSeats = 2;
    static constexpr int kWeightCount = 0;
    static constexpr int kPolicyCount = 0;
    int seats(const Pos&) const { return 2; }
    int to_move(const Pos& p) const { return p.mover; }
    bool is_over(const Pos& p) const { return p.stones == 0; }
    int count_moves(const Pos& p) const { return p.stones >= 2 ? 2 : 1; }
    template <class F>
    void for_each_move(const Pos& p, F&& f) const {
        for (int k = 0; k < count_moves(p); ++k) f(Move{k + 1});
    }
    Move nth_move(const Pos&, int k) const { return Move{k + 1}; }
    Pos make(const Pos& p, const Move& m) const { return Pos{p.stones - m.take, 1 - p.mover}; }
    int winner(const Pos& p) const { return p.stones == 0 ? 1 - p.mover : -1; }
    SeatResult seat_result(const Pos& p, int seat) const {
        return winner(p) == seat ? SeatResult::Win : SeatResult::Loss;
    }
};
struct Pile : PileBase {
    Move policy_move(const Pos& p, int, const DrawAddress&) const { return nth_move(p, 0); }
};
struct PileWithoutPolicy : PileBase {};
struct PileWithoutMake : Pile {
    void make() const {}  // hides PileBase::make: the wrong signature
};

TEST(GameInterface, EveryRequiredPieceIsDetectedOnItsOwn) {
    EXPECT_TRUE(detail::has_required_v<Pile>);
    EXPECT_TRUE(check_game<Pile>());
    EXPECT_TRUE(detail::has_required_v<tictactoe::Game>);

    EXPECT_FALSE(detail::has_required_v<PileWithoutPolicy>);
    EXPECT_FALSE(detail::has_policy_move<PileWithoutPolicy>::value);
    EXPECT_TRUE(detail::has_make<PileWithoutPolicy>::value);
    EXPECT_TRUE(detail::has_seat_result<PileWithoutPolicy>::value);

    EXPECT_FALSE(detail::has_required_v<PileWithoutMake>);
    EXPECT_FALSE(detail::has_make<PileWithoutMake>::value);
    EXPECT_TRUE(detail::has_policy_move<PileWithoutMake>::value);
    EXPECT_TRUE(detail::has_for_each_move<PileWithoutMake>::value);
}

}  // namespace
