// Incremental threat patterns for the clocked engine (host only): the same cell sets as
// threats.hpp's whole-board functions (five-points, fours, threat levels 1-3 of each side,
// as threat_levels(side_threats(...), none) computes them), kept up to date move by move.
//
// What a stone on an empty cell c makes in one direction depends only on the cells at
// distances 1 to R on either side of c along that line, R the rule's reach (line_reach): 4 in
// freestyle (every window of 5 through c, and every open three's window of 6, lies within 4
// cells of it), 5 with exactly five (the cells just outside those windows count too). Seen from
// one side, each of those cells is empty, own, or other (an opponent stone or off the board),
// so the line is a base-3 number below 3^(2R) (6561 in freestyle, 59049 in standard). Every
// (side, direction, cell) keeps that number; placing or removing a stone changes it by one
// digit in the 8R cells on its four lines, and only those cells' patterns are looked up again
// in a table of 3^(2R) entries per rule (built once from the window definitions of
// threats.hpp, written again here cell by cell; the freestyle table, 13 KB of move values and
// pattern bits, stays in the first-level cache).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "games/gomoku/board.hpp"
#include "games/gomoku/threats.hpp"

namespace gaeval::gomoku {

// Pattern bits of one direction for one side at one empty cell.
enum PatternBit : uint8_t {
    kFiveBit = 1,        // completes a five
    kFourBit = 2,        // creates at least one five-point in this line
    kDoubleFourBit = 4,  // creates two or more
    kThreeBit = 8,       // makes an open three
};

constexpr int kLineReach = 5;      // the most cells read on each side of the centre
constexpr int kLineCodes = 59049;  // 3^10: line codes of the longest reach
enum LineCell : uint8_t { kLineEmpty = 0, kLineOwn = 1, kLineOther = 2 };

// The pattern bits of an empty centre cell given its line: line[i] for i in 0..10, line[5] the
// centre (ignored, treated as empty); kLineEmpty / kLineOwn / kLineOther. `exact`: standard
// rules. The definitions of threats.hpp's line_threats, read from the centre's windows.
uint8_t line_pattern(const uint8_t* line, bool exact);

// The cells on each side of the centre that a rule's patterns and shapes read (see the top).
constexpr int line_reach(bool exact) { return exact ? 5 : 4; }
// The number of line codes of a rule: 3^(2 * line_reach(exact)).
constexpr int line_codes(bool exact) { return exact ? kLineCodes : 6561; }

// The line code's digit weight of the cell at signed distance k (-reach..reach, not 0) from
// the centre; 0 past the reach.
constexpr int line_digit(int k, int reach = kLineReach) {
    if (k < -reach || k > reach) return 0;
    int p = 1;
    for (int i = 0, at = k < 0 ? k + reach : k + reach - 1; i < at; ++i) p *= 3;
    return p;
}

// The pattern table of a rule: line code (line_codes(exact) of them, digits by line_digit of
// the rule's reach) -> pattern bits (built on first use, thread safe).
const std::vector<uint8_t>& pattern_table(bool exact);

// Line shapes: what a stone of one side on an empty cell makes in one direction, the strongest
// that applies (the learned line-shape evaluation counts them over every empty cell and
// direction, for each side; engine.hpp).
enum LineShape : uint8_t {
    kShapeDead = 0,         // no window of 5 through the cell free of the other side
    kShapeOne = 1,          // a free window of 5, but no other own stone in any
    kShapeClosedTwo = 2,    // a free window of 5 with 2 own stones (the new one included)
    kShapeOpenTwo = 3,      // a window of 6 with empty ends and 2 own, 2 empty cells inside
    kShapeClosedThree = 4,  // a free window of 5 with 3 own stones, no open three
    kShapeOpenThree = 5,    // an open three (kThreeBit)
    kShapeFour = 6,         // one five-point (kFourBit without kDoubleFourBit)
    kShapeOpenFour = 7,     // two or more five-points in the line (kDoubleFourBit)
    kShapeFive = 8,         // a five (kFiveBit)
};
constexpr int kLineShapes = 9;
// The learned shape weights: kShapeOne..kShapeFive of the side to move, then the same 8 of
// the opponent (kShapeDead weighs nothing).
constexpr int kShapeWeightCount = 2 * (kLineShapes - 1);

// The shape of an empty centre cell given its line (as line_pattern; exact: windows next to
// an own stone do not count, as for fives).
uint8_t line_shape(const uint8_t* line, bool exact);
// The shape table of a rule: line code -> LineShape (as pattern_table; thread safe).
const std::vector<uint8_t>& shape_table(bool exact);

// The move value of a line shape (the engine's candidate order and pruning, not its
// evaluation): what a stone makes in one direction, summed over the four directions and both
// sides (its own shapes and those it takes from the opponent) into a cell's move score.
constexpr uint16_t kShapeMoveValue[kLineShapes] = {0, 1, 2, 6, 6, 20, 24, 100, 400};
// Each line code's pattern bits (pattern_table) in bits 0-3 and its shape's kShapeMoveValue
// above them (built on first use, thread safe).
const std::vector<uint16_t>& pattern_value_table(bool exact);

// The threat level (1, 2, 3 or 4 as in threats.hpp) of a cell from its four directions' pattern
// bits (direction d in bits 4d..4d+3), the opponent's five-points not counted.
int level_of_patterns(uint16_t patterns);
// The same as a table of 65536 entries (built on first use, thread safe).
const uint8_t* level_table();

template <int N>
class IncrementalPatterns {
  public:
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;

    // The empty board of a rule (call place() for each stone). shapes: keep the line-shape
    // counts too (shape_count).
    void reset(bool exact, bool shapes = false) {
        reach_ = line_reach(exact);
        for (int k = -kLineReach; k <= kLineReach; ++k)
            digits_[kLineReach + k] = k == 0 ? 0 : line_digit(k, reach_);
        table_ = pattern_table(exact).data();
        shapes_ = shapes ? shape_table(exact).data() : nullptr;
        for (auto& side : shape_count_)
            for (auto& n : side) n = 0;
        levels_ = level_table();
        values_ = pattern_value_table(exact).data();
        for (int s = 0; s < 2; ++s) {
            five[s] = four[s] = BB::none();
            for (auto& l : level[s]) l = BB::none();
            for (auto& d : codes_[s])
                for (auto& c : d) c = 0;
            for (auto& p : patterns_[s]) p = 0;
            for (auto& l : level_at_[s]) l = 4;
        }
        for (auto& o : owner_) o = 0;
        // Off-board cells are "other" for both sides.
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                const int c = Geo::cell(x, y);
                for (int d = 0; d < 4; ++d)
                    for (int k = -reach_; k <= reach_; ++k) {
                        if (k == 0) continue;
                        const int nx = x + k * kDx[d], ny = y + k * kDy[d];
                        if (nx >= 0 && nx < N && ny >= 0 && ny < N) continue;
                        const int add = kLineOther * digits_[kLineReach + k];
                        codes_[0][d][c] = static_cast<uint16_t>(codes_[0][d][c] + add);
                        codes_[1][d][c] = static_cast<uint16_t>(codes_[1][d][c] + add);
                    }
            }
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) refresh_all(Geo::cell(x, y));
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) refresh_value(Geo::cell(x, y));
        for (int s = 0; s < 2; ++s) {
            value_total_[s] = 0;
            for (int y = 0; y < N; ++y)
                for (int x = 0; x < N; ++x) value_total_[s] += value_[s][Geo::cell(x, y)];
        }
        if (shapes_)
            for (int s = 0; s < 2; ++s)
                for (int d = 0; d < 4; ++d)
                    for (int y = 0; y < N; ++y)
                        for (int x = 0; x < N; ++x)
                            ++shape_count_[s][shapes_[codes_[s][d][Geo::cell(x, y)]]];
    }

    // A stone of `side` (0 or 1) on empty cell c / removed from c.
    void place(int side, int c) { update(side, c, +1); }
    void remove(int side, int c) { update(side, c, -1); }

    // Cell sets of each side, empty cells only (as threats.hpp computes them on the board).
    BB five[2];      // five-points
    BB four[2];      // cells that make a four in some direction (four_moves)
    BB level[2][3];  // levels 1, 2, 3 (threat_levels with no opponent five-point)

    int count_level(int side, int l) const { return level[side][l].count(); }
    // With shapes (reset): how many (empty cell, direction) pairs give `side` the LineShape
    // `shape` (every direction of every empty cell counts once).
    int shape_count(int side, int shape) const { return shape_count_[side][shape]; }
    // With shapes: the LineShape of `side` at empty cell c in direction d (0..3).
    int shape_at(int side, int d, int c) const { return shapes_[codes_[side][d][c]]; }
    // The level (1..4) of an empty cell for `side`; 4 on occupied cells.
    int level_at(int side, int c) const { return level_at_[side][c]; }
    // The move value of empty cell c for `side`: kShapeMoveValue of its four directions'
    // shapes (its value on occupied cells is not kept).
    int move_value(int side, int c) const { return value_[side][c]; }
    // The sum of move_value(side, c) over every empty cell (kept move by move).
    int value_total(int side) const { return value_total_[side]; }

    // Whether `side` would have a cell of level 1 (level[side][0]) after a stone of the other
    // side on empty cell c, read from the kept codes without placing it: a level-1 cell off
    // c's lines (or past the reach) keeps its patterns; one on them is looked up again with
    // c's digit added, as update() would.
    bool keeps_level1_after(int side, int c) const {
        BB todo = level[side][0];
        todo.reset(c);
        const int cx = Geo::column_of(c), cy = Geo::row_of(c);
        while (todo.any()) {
            const int e = todo.lowest();
            todo.reset(e);
            const int dx = Geo::column_of(e) - cx, dy = Geo::row_of(e) - cy;
            // e = c + k * kStep[d], or on no line through c.
            const int d = dy == 0 ? 0 : dx == 0 ? 1 : dx == dy ? 2 : dx == -dy ? 3 : -1;
            const int k = d == 0 ? dx : dy;
            if (d < 0 || k > reach_ || k < -reach_) return true;
            // c is at distance -k from e.
            const int code = codes_[side][d][e] + kLineOther * digits_[kLineReach - k];
            const int shift = 4 * d;
            const int p = (patterns_[side][e] & ~(15 << shift)) | (table_[code] << shift);
            if (levels_[p] == 1) return true;
        }
        return false;
    }

    // The five-points `side` would have after its stone on empty cell c, when it has none
    // before (five[side] empty), read from the kept codes without placing it (they lie on c's
    // lines within the reach): returns how many, 2 for two or more; *point receives one.
    int fives_after(int side, int c, int* point) const {
        const int cx = Geo::column_of(c), cy = Geo::row_of(c);
        int count = 0;
        for (int d = 0; d < 4; ++d) {
            int k_min, k_max;
            line_range(d, cx, cy, &k_min, &k_max);
            for (int k = k_min; k <= k_max; ++k) {
                const int e = c + k * kStep[d];
                if (k == 0 || owner_[e]) continue;
                // c is at distance -k from e.
                const int code = codes_[side][d][e] + kLineOwn * digits_[kLineReach - k];
                if (table_[code] & kFiveBit) {
                    *point = e;
                    if (++count == 2) return 2;
                }
            }
        }
        return count;
    }

    // Whether `side` would have a four (four[side]) on empty cell e after a stone of the other
    // side on empty cell c != e, read from the kept codes without placing it: e's direction
    // through c is looked up again with c's digit added, as update() would.
    bool four_after_other(int side, int c, int e) const {
        const int dx = Geo::column_of(e) - Geo::column_of(c), dy = Geo::row_of(e) - Geo::row_of(c);
        // e = c + k * kStep[d], or on no line through c.
        const int d = dy == 0 ? 0 : dx == 0 ? 1 : dx == dy ? 2 : dx == -dy ? 3 : -1;
        const int k = d == 0 ? dx : dy;
        if (d < 0 || k > reach_ || k < -reach_) return four[side].test(e);
        const int code = codes_[side][d][e] + kLineOther * digits_[kLineReach - k];
        const int shift = 4 * d;
        const int p = (patterns_[side][e] & ~(15 << shift)) | (table_[code] << shift);
        return ((p | p >> 4 | p >> 8 | p >> 12) & kFourBit) != 0;
    }

  private:
    static constexpr int kDx[4] = {1, 0, 1, -1};  // row, column, diagonal, anti-diagonal
    static constexpr int kDy[4] = {0, 1, 1, 1};

    static constexpr int kStep[4] = {Geo::kRow, Geo::kColumn, Geo::kDiagonal, Geo::kAntiDiagonal};
    const uint8_t* table_ = nullptr;
    const uint8_t* levels_ = nullptr;
    const uint8_t* shapes_ = nullptr;   // null: no shape counts
    const uint16_t* values_ = nullptr;  // pattern_value_table
    uint16_t value_[2][Geo::kCellRange] = {};
    int value_total_[2] = {};
    int shape_count_[2][kLineShapes] = {};
    uint16_t codes_[2][4][Geo::kCellRange] = {};
    uint16_t patterns_[2][Geo::kCellRange] = {};
    uint8_t level_at_[2][Geo::kCellRange] = {};
    uint8_t owner_[Geo::kCellRange] = {};  // 0 empty, 1 + side
    int reach_ = kLineReach;               // line_reach of the rule
    int digits_[2 * kLineReach + 1] = {};  // digits_[5 + k]: line_digit(k, reach_), 0 at k = 0

    // The distances k (-reach_..reach_) whose cell from (x, y) k steps along direction d is on
    // the board.
    void line_range(int d, int x, int y, int* k_min_out, int* k_max_out) const {
        int k_min = -reach_, k_max = reach_;
        if (kDx[d] == 1) {
            k_min = k_min > -x ? k_min : -x;
            k_max = k_max < N - 1 - x ? k_max : N - 1 - x;
        } else if (kDx[d] == -1) {
            k_min = k_min > x - (N - 1) ? k_min : x - (N - 1);
            k_max = k_max < x ? k_max : x;
        }
        if (kDy[d] == 1) {
            k_min = k_min > -y ? k_min : -y;
            k_max = k_max < N - 1 - y ? k_max : N - 1 - y;
        }
        *k_min_out = k_min;
        *k_max_out = k_max;
    }

    void set_cell(int s, int c, uint16_t patterns) {
        if (patterns == patterns_[s][c] && owner_[c] == 0) return;
        patterns_[s][c] = patterns;
        const uint16_t any = patterns | patterns >> 4 | patterns >> 8 | patterns >> 12;
        const int l = owner_[c] ? 4 : levels_[patterns];
        const bool is_five = owner_[c] == 0 && (any & kFiveBit);
        const bool is_four = owner_[c] == 0 && (any & kFourBit);
        if (is_five)
            five[s].set(c);
        else
            five[s].reset(c);
        if (is_four)
            four[s].set(c);
        else
            four[s].reset(c);
        const int old = level_at_[s][c];
        if (old != l) {
            if (old < 4) level[s][old - 1].reset(c);
            if (l < 4) level[s][l - 1].set(c);
            level_at_[s][c] = static_cast<uint8_t>(l);
        }
    }

    void refresh_all(int c) {
        for (int s = 0; s < 2; ++s) {
            uint16_t p = 0;
            if (owner_[c] == 0)
                for (int d = 0; d < 4; ++d)
                    p |= static_cast<uint16_t>(table_[codes_[s][d][c]] << (4 * d));
            set_cell(s, c, p);
        }
    }

    void refresh_value(int c) {
        for (int s = 0; s < 2; ++s) {
            int v = 0;
            for (int d = 0; d < 4; ++d) v += values_[codes_[s][d][c]] >> 4;
            value_[s][c] = static_cast<uint16_t>(v);
        }
    }

    void update(int side, int c, int sign) {
        owner_[c] = sign > 0 ? static_cast<uint8_t>(1 + side) : 0;
        if (shapes_)
            for (int s = 0; s < 2; ++s)
                for (int d = 0; d < 4; ++d) shape_count_[s][shapes_[codes_[s][d][c]]] -= sign;
        if (sign > 0) {
            for (int s = 0; s < 2; ++s) {
                value_total_[s] -= value_[s][c];
                patterns_[s][c] = 0;
                five[s].reset(c);
                four[s].reset(c);
                if (level_at_[s][c] < 4) level[s][level_at_[s][c] - 1].reset(c);
                level_at_[s][c] = 4;
            }
        } else {
            refresh_all(c);
            refresh_value(c);
            value_total_[0] += value_[0][c];
            value_total_[1] += value_[1][c];
        }
        const int x = Geo::column_of(c), y = Geo::row_of(c);
        for (int d = 0; d < 4; ++d) {
            int k_min, k_max;
            line_range(d, x, y, &k_min, &k_max);
            const int shift = 4 * d;
            const uint16_t mask = static_cast<uint16_t>(~(15u << shift));
            uint16_t* own_codes = codes_[side][d];
            uint16_t* other_codes = codes_[side ^ 1][d];
            for (int k = k_min; k <= k_max; ++k) {
                if (k == 0) continue;
                const int e = c + k * kStep[d];
                // c is at distance -k from e.
                const int digit = digits_[kLineReach - k];
                const uint16_t own_old = own_codes[e], other_old = other_codes[e];
                own_codes[e] = static_cast<uint16_t>(own_codes[e] + sign * kLineOwn * digit);
                other_codes[e] = static_cast<uint16_t>(other_codes[e] + sign * kLineOther * digit);
                if (owner_[e]) continue;
                const uint16_t own_now = values_[own_codes[e]];
                const uint16_t other_now = values_[other_codes[e]];
                const int own_delta = (own_now >> 4) - (values_[own_old] >> 4);
                const int other_delta = (other_now >> 4) - (values_[other_old] >> 4);
                value_[side][e] = static_cast<uint16_t>(value_[side][e] + own_delta);
                value_[side ^ 1][e] = static_cast<uint16_t>(value_[side ^ 1][e] + other_delta);
                value_total_[side] += own_delta;
                value_total_[side ^ 1] += other_delta;
                if (shapes_) {
                    --shape_count_[side][shapes_[own_old]];
                    ++shape_count_[side][shapes_[own_codes[e]]];
                    --shape_count_[side ^ 1][shapes_[other_old]];
                    ++shape_count_[side ^ 1][shapes_[other_codes[e]]];
                }
                const uint16_t own_bits = own_now & 15, other_bits = other_now & 15;
                if (own_bits != ((patterns_[side][e] >> shift) & 15))
                    set_cell(
                        side, e,
                        static_cast<uint16_t>((patterns_[side][e] & mask) | (own_bits << shift)));
                if (other_bits != ((patterns_[side ^ 1][e] >> shift) & 15))
                    set_cell(side ^ 1, e,
                             static_cast<uint16_t>((patterns_[side ^ 1][e] & mask) |
                                                   (other_bits << shift)));
            }
        }
    }
};

}  // namespace gaeval::gomoku
