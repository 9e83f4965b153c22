// Line patterns and threat levels of Gomoku, for every empty cell at once: each pattern is an
// intersection of the stone and empty sets shifted along one of the four directions
// (board.hpp), so a whole board is classified in a few hundred word operations and no cell is
// scanned on its own. Patterns are read in windows: the window of length L starting at cell t
// in direction s holds t, t + s, ..., t + (L - 1) s; a window that leaves the board holds a
// guard or missing cell, which is neither a stone nor empty, so it never matches.
//
// What a stone of one side placed on an empty cell c makes, line by line (docs/gomoku.md):
//   five         c completes a five: a window of 5 with the 4 other cells own. Under the
//                standard rules the cells just before and after the window are not own (a
//                five, not an overline).
//   five-point   an empty cell that would complete a five (the same pattern seen from the hole).
//   four         c creates at least one five-point in that line: a window of 5 holding c, 3 own
//                stones and one empty cell e (then e is the five-point).
//   double four  c creates two or more five-points in that line: a straight four _XXXX_ or a
//                split double four such as X_XXX_X; one move cannot block both.
//   open three   c makes a line that one more own stone turns into a straight four: a window
//                of 6 whose end cells are empty and whose 4 middle cells are c, one empty cell
//                and 2 own stones (standard rules: the cells just outside the window are not
//                own, so both ends of the straight four make exact fives).
//
// Threat levels of a move for its side (the seed's appendix, made exact):
//   Lv1  wins now or next turn: a five, or two or more new five-points in all (an open four, a
//        double four) while the opponent has no five-point of his own.
//   Lv2  wins with high probability within a few turns: a four in one line and an open three in
//        another (four-three), or open threes in two lines (double open three).
//   Lv3  forces the opponent to defend: a four or an open three.
//   Lv4  everything else.
// When the opponent has a five-point (he wins next turn unless it is filled), only a five is
// Lv1 and every other move is Lv4: a four or a three does not stop a five.
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/hd.hpp"
#include "games/gomoku/board.hpp"

namespace gaeval::gomoku {

// Counts up to two: after count_two(ones, twos, x) for every set x, ones holds the cells in at
// least one set and twos the cells in at least two.
template <class BB>
GAEVAL_HD_INLINE void count_two(BB& ones, BB& twos, const BB& x) {
    twos |= ones & x;
    ones |= x;
}

// What own stones placed on empty cells make in the lines of one direction.
template <class BB>
struct LineThreats {
    BB five;         // cells that complete a five (the five-points)
    BB four;         // cells that create at least one five-point in this line
    BB double_four;  // cells that create two or more five-points in this line
    BB three;        // cells that make an open three in this line (only when asked for)
};

// The patterns of the header comment in direction Step. `exact`: standard rules (a five must
// not be part of a longer line). Fours and threes only when kFours / kThrees.
template <int Step, bool kFours, bool kThrees, class BB>
GAEVAL_HD_INLINE LineThreats<BB> line_threats(const BB& own, const BB& empty, bool exact) {
    LineThreats<BB> out;
    out.five = out.four = out.double_four = out.three = BB::none();
    // own[k] / open[k]: the window starting at t has an own stone / an empty cell at position k.
    BB mine[7], open[6];
    for (int k = 0; k < 7; ++k) mine[k] = at_offset<Step>(own, k);
    for (int k = 0; k < 6; ++k) open[k] = at_offset<Step>(empty, k);
    // Starts whose windows may form an exact five (standard) or any five (freestyle).
    const BB before = own.shifted_up(Step);  // own stone just before the window
    const BB exact5 = exact ? ~(before | mine[5]) : ~BB::none();

    // Fives: 4 own stones and the hole at j.
    for (int j = 0; j < 5; ++j) {
        BB starts = open[j] & exact5;
        for (int i = 0; i < 5; ++i)
            if (i != j) starts &= mine[i];
        out.five |= from_start<Step>(starts, j);
    }
    if (kFours) {
        // Fours: 3 own stones and holes at j < k. Placing at j makes k a five-point at offset
        // k - j, and placing at k makes j one at offset j - k; per cell, the distinct offsets
        // count the distinct five-points it creates.
        BB by_offset[9];
        for (int o = 0; o < 9; ++o) by_offset[o] = BB::none();
        for (int j = 0; j < 5; ++j)
            for (int k = j + 1; k < 5; ++k) {
                BB starts = open[j] & open[k] & exact5;
                for (int i = 0; i < 5; ++i)
                    if (i != j && i != k) starts &= mine[i];
                by_offset[4 + k - j] |= from_start<Step>(starts, j);
                by_offset[4 + j - k] |= from_start<Step>(starts, k);
            }
        BB ones = BB::none(), twos = BB::none();
        for (int o = 0; o < 9; ++o)
            if (o != 4) count_two(ones, twos, by_offset[o]);
        out.four = ones;
        out.double_four = twos;
    }
    if (kThrees) {
        // Open threes: a window of 6 with empty ends, c and e empty among the middle four and
        // own stones on the other two middle cells.
        const BB exact6 = exact ? ~(before | mine[6]) : ~BB::none();
        const BB ends = open[0] & open[5] & exact6;
        for (int j = 1; j < 5; ++j)
            for (int k = j + 1; k < 5; ++k) {
                BB starts = ends & open[j] & open[k];
                for (int i = 1; i < 5; ++i)
                    if (i != j && i != k) starts &= mine[i];
                out.three |= from_start<Step>(starts, j) | from_start<Step>(starts, k);
            }
    }
    return out;
}

// The four directions' patterns of `own` united (fours only when kFours; no threes).
template <class Geo, bool kFours, class BB>
GAEVAL_HD_INLINE LineThreats<BB> all_lines(const BB& own, const BB& empty, bool exact) {
    const LineThreats<BB> lines[4] = {
        line_threats<Geo::kRow, kFours, false>(own, empty, exact),
        line_threats<Geo::kColumn, kFours, false>(own, empty, exact),
        line_threats<Geo::kDiagonal, kFours, false>(own, empty, exact),
        line_threats<Geo::kAntiDiagonal, kFours, false>(own, empty, exact)};
    LineThreats<BB> all = lines[0];
    for (int d = 1; d < 4; ++d) {
        all.five |= lines[d].five;
        all.four |= lines[d].four;
    }
    return all;
}

// The five-points of `own` (empty cells where an own stone completes a five).
template <class Geo, class BB>
GAEVAL_HD_INLINE BB five_points(const BB& own, const BB& empty, bool exact) {
    return all_lines<Geo, false>(own, empty, exact).five;
}

// The empty cells where an own stone makes a four or better (at least one new five-point).
template <class Geo, class BB>
GAEVAL_HD_INLINE BB four_moves(const BB& own, const BB& empty, bool exact) {
    return all_lines<Geo, true>(own, empty, exact).four;
}

// Whether `own` holds a winning line: five in a row (freestyle: or more; standard: exactly
// five, with no own stone just before or after it).
template <int Step, class BB>
GAEVAL_HD_INLINE bool line_has_five(const BB& own, bool exact) {
    BB starts = own;
    for (int k = 1; k < 5; ++k) starts &= at_offset<Step>(own, k);
    if (exact) starts = starts.minus(own.shifted_up(Step) | at_offset<Step>(own, 5));
    return starts.any();
}
// Whether cell c is in `own`, read from its word (on a GPU, from the scratch).
template <class BB>
GAEVAL_HD_FORCEINLINE bool own_at(const BB& own, int c) {
    return (own.w[c >> 6] >> (c & 63)) & 1u;
}
template <class Geo, class BB>
GAEVAL_HD_INLINE bool has_five(const BB& own, bool exact) {
    return line_has_five<Geo::kRow>(own, exact) || line_has_five<Geo::kColumn>(own, exact) ||
           line_has_five<Geo::kDiagonal>(own, exact) ||
           line_has_five<Geo::kAntiDiagonal>(own, exact);
}

// Whether the stone of `own` on cell c stands in a five along one of the four lines through
// c (exact: a run of exactly five; else five or more): has_five(own) whenever own without c has
// no five, since a run that does not hold c is unchanged. Each line is walked from c until a
// cell that is not own (a guard cell ends a row) or 5 steps, so a run capped at 11 tells
// five from six.
template <class Geo, class BB>
GAEVAL_HD_INLINE bool five_through(const BB& own, int c, bool exact) {
    for (int d = 0; d < 4; ++d) {
        const int step = d == 0   ? Geo::kRow
                         : d == 1 ? Geo::kColumn
                         : d == 2 ? Geo::kDiagonal
                                  : Geo::kAntiDiagonal;
        int run = 1;
        for (int k = 1, at = c + step; k <= 5 && at < Geo::kCellRange && own_at(own, at);
             ++k, at += step)
            ++run;
        for (int k = 1, at = c - step; k <= 5 && at >= 0 && own_at(own, at); ++k, at -= step) ++run;
        if (exact ? run == 5 : run >= 5) return true;
    }
    return false;
}

// One side's threat patterns over the four directions.
template <class BB>
struct SideThreats {
    BB five;         // five-points
    BB four[4];      // per direction
    BB double_four;  // two or more five-points in one line
    BB three[4];     // per direction
};

template <class Geo, class BB>
GAEVAL_HD_INLINE SideThreats<BB> side_threats(const BB& own, const BB& empty, bool exact) {
    SideThreats<BB> s;
    const LineThreats<BB> lines[4] = {
        line_threats<Geo::kRow, true, true>(own, empty, exact),
        line_threats<Geo::kColumn, true, true>(own, empty, exact),
        line_threats<Geo::kDiagonal, true, true>(own, empty, exact),
        line_threats<Geo::kAntiDiagonal, true, true>(own, empty, exact)};
    s.five = s.double_four = BB::none();
    for (int d = 0; d < 4; ++d) {
        s.five |= lines[d].five;
        s.double_four |= lines[d].double_four;
        s.four[d] = lines[d].four;
        s.three[d] = lines[d].three;
    }
    return s;
}

// The cells of threat levels 1 to 3 (disjoint; every other empty cell is level 4).
template <class BB>
struct Levels {
    BB level[3];
};

// The levels of the moves of the side with threats `own`, given the opponent's five-points.
template <class BB>
GAEVAL_HD_INLINE Levels<BB> threat_levels(const SideThreats<BB>& own,
                                          const BB& opponent_five_points) {
    Levels<BB> out;
    if (opponent_five_points.any()) {
        out.level[0] = own.five;
        out.level[1] = out.level[2] = BB::none();
        return out;
    }
    BB fours = BB::none(), two_fours = BB::none(), threes = BB::none(), two_threes = BB::none();
    for (int d = 0; d < 4; ++d) {
        count_two(fours, two_fours, own.four[d]);
        count_two(threes, two_threes, own.three[d]);
    }
    BB four_three = BB::none();
    for (int d = 0; d < 4; ++d)
        for (int e = 0; e < 4; ++e)
            if (d != e) four_three |= own.four[d] & own.three[e];
    out.level[0] = own.five | own.double_four | two_fours;
    out.level[1] = (four_three | two_threes).minus(out.level[0]);
    out.level[2] = (fours | threes).minus(out.level[0] | out.level[1]);
    return out;
}

// Both sides' levels in a position with stones `stones` (seat 0 and 1) and empty cells `empty`.
template <class Geo, class BB>
GAEVAL_HD_INLINE void both_levels(const BB* stones, const BB& empty, bool exact,
                                  Levels<BB>* levels) {
    const SideThreats<BB> zero = side_threats<Geo>(stones[0], empty, exact);
    const SideThreats<BB> one = side_threats<Geo>(stones[1], empty, exact);
    levels[0] = threat_levels(zero, one.five);
    levels[1] = threat_levels(one, zero.five);
}

}  // namespace gaeval::gomoku
