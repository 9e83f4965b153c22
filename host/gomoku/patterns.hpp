// Incremental threat patterns for the clocked engine (host only): the same cell sets as
// threats.hpp's whole-board functions (five-points, fours, threat levels 1-3 of each side,
// as threat_levels(side_threats(...), none) computes them), kept up to date move by move.
//
// What a stone on an empty cell c makes in one direction depends only on the 10 cells at
// distances 1 to 5 on either side of c along that line (a five's window of 5 and the cells just
// outside it, an open three's window of 6). Seen from one side, each of those cells is empty,
// own, or other (an opponent stone or off the board), so the line is a base-3 number below
// 3^10 = 59049. Every (side, direction, cell) keeps that number; placing or removing a stone
// changes it by one digit in the 40 cells on its four lines, and those cells' patterns are
// looked up again in a table of 59049 entries per rule (built once from the window definitions
// of threats.hpp, written again here cell by cell): only the cells whose entry can change
// (within the rule's reach, and not behind a stone of the other side; update()).
#pragma once

#include <array>
#include <cstdint>

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

constexpr int kLineReach = 5;      // cells read on each side of the centre
constexpr int kLineCodes = 59049;  // 3^10
enum LineCell : uint8_t { kLineEmpty = 0, kLineOwn = 1, kLineOther = 2 };

// The pattern bits of an empty centre cell given its line: line[i] for i in 0..10, line[5] the
// centre (ignored, treated as empty); kLineEmpty / kLineOwn / kLineOther. `exact`: standard
// rules. The definitions of threats.hpp's line_threats, read from the centre's windows.
uint8_t line_pattern(const uint8_t* line, bool exact);

// The line code's digit weight of the cell at signed distance k (-5..5, not 0) from the centre.
constexpr int line_digit(int k) {
    int p = 1;
    for (int i = 0, at = k < 0 ? k + kLineReach : k + kLineReach - 1; i < at; ++i) p *= 3;
    return p;
}

// The pattern table of a rule: entry code -> pattern bits (built on first use, thread safe).
const std::array<uint8_t, kLineCodes>& pattern_table(bool exact);

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
// The shape table of a rule: entry code -> LineShape (built on first use, thread safe).
const std::array<uint8_t, kLineCodes>& shape_table(bool exact);

// The move value of a line shape (the engine's candidate order and pruning, not its
// evaluation): what a stone makes in one direction, summed over the four directions and both
// sides (its own shapes and those it takes from the opponent) into a cell's move score.
constexpr uint16_t kShapeMoveValue[kLineShapes] = {0, 1, 2, 6, 6, 20, 24, 100, 400};

// Each line code's pattern bits (pattern_table) in bits 0-3 and its LineShape (shape_table)
// in bits 4-7: the one table IncrementalPatterns reads (59 KB; the move value is
// kShapeMoveValue of the shape). Built on first use, thread safe.
const std::array<uint8_t, kLineCodes>& pattern_shape_table(bool exact);

// The farthest distance from an empty cell whose stone can change that cell's patterns or
// shape under a rule: 5 for standard rules (a window's neighbour cells), 4 for freestyle
// (every window of 5 or 6 holding the centre lies within 4 cells of it).
constexpr int line_reach(bool exact) { return exact ? kLineReach : kLineReach - 1; }

// The threat level (1, 2, 3 or 4 as in threats.hpp) of a cell from its four directions' pattern
// bits (direction d in bits 4d..4d+3), the opponent's five-points not counted.
int level_of_patterns(uint16_t patterns);
// The same as a table of 65536 entries (built on first use, thread safe).
const uint8_t* level_table();

// A board line as IncrementalPatterns keeps it: 2 bits a cell, kLineWordEmpty, 1 + side for a
// stone, kLineWordWall off the board.
constexpr uint64_t kLineWordEmpty = 0, kLineWordWall = 3;
constexpr int kLineHalves = 1024;  // 5 cells of a line word
// Side s's line-code digits of 5 cells of a line word (entry s * kLineHalves + the 10 bits,
// the first cell in the lowest bits with digit 1): own 1, empty 0, the other side's stone or a
// wall 2. A cell's line code is the entry of its 5 cells before it plus 243 times the entry
// of its 5 cells after it. Built on first use, thread safe.
const uint8_t* line_code_halves();

template <int N>
class IncrementalPatterns {
  public:
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;

    // The empty board of a rule (call place() for each stone). shapes: keep the line-shape
    // counts too (shape_count).
    void reset(bool exact, bool shapes = false) {
        entries_ = pattern_shape_table(exact).data();
        digits_ = line_code_halves();
        shapes_ = shapes;
        reach_ = line_reach(exact);
        for (auto& side : shape_count_)
            for (auto& n : side) n = 0;
        levels_ = level_table();
        for (int s = 0; s < 2; ++s) {
            five[s] = four[s] = BB::none();
            for (auto& l : level[s]) l = BB::none();
            for (auto& p : patterns_[s]) p = 0;
            for (auto& l : level_at_[s]) l = 4;
        }
        for (auto& o : owner_) o = 0;
        // Every line all walls, then its cells on the board empty.
        for (auto& d : words_)
            for (auto& w : d) w = ~uint64_t{0};
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x)
                for (int d = 0; d < 4; ++d)
                    words_[d][line_of(d, x, y)] &=
                        ~(uint64_t{kLineWordWall} << (2 * (position(d, x, y) + kLineReach)));
        for (int y = 0; y < N; ++y)
            for (int x = 0; x < N; ++x) {
                const int c = Geo::cell(x, y);
                read_entries(c);
                refresh_all(c);
                refresh_value(c);
                if (shapes_)
                    for (int s = 0; s < 2; ++s)
                        for (int d = 0; d < 4; ++d) ++shape_count_[s][entry_[s][d][c] >> 4];
            }
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
    int shape_at(int side, int d, int c) const { return entry_[side][d][c] >> 4; }
    // The level (1..4) of an empty cell for `side`; 4 on occupied cells.
    int level_at(int side, int c) const { return level_at_[side][c]; }
    // The move value of empty cell c for `side`: kShapeMoveValue of its four directions'
    // shapes (its value on occupied cells is not kept).
    int move_value(int side, int c) const { return value_[side][c]; }

  private:
    // Row, column, diagonal (x + 1, y + 1), anti-diagonal (x - 1, y + 1).
    static constexpr int kStep[4] = {Geo::kRow, Geo::kColumn, Geo::kDiagonal, Geo::kAntiDiagonal};
    static constexpr int kLines = 2 * N - 1;  // lines per direction (diagonals: 2N - 1)
    const uint8_t* entries_ = nullptr;        // pattern_shape_table
    const uint8_t* levels_ = nullptr;
    const uint8_t* digits_ = nullptr;  // line_code_halves
    bool shapes_ = false;              // keep shape_count_
    int reach_ = kLineReach;           // line_reach of the rule
    uint16_t value_[2][Geo::kCellRange] = {};
    int shape_count_[2][kLineShapes] = {};
    // The board's lines, 2 bits a cell (kLineWord*), 5 walls before a line's first cell: the
    // cell (x, y) of direction d's line line_of(d, x, y) at bits 2 * (position(d, x, y) + 5).
    uint64_t words_[4][kLines] = {};
    // Each empty cell's pattern_shape_table entry of each side and direction (stale on
    // occupied cells: read again when the stone is removed).
    uint8_t entry_[2][4][Geo::kCellRange] = {};
    uint16_t patterns_[2][Geo::kCellRange] = {};
    uint8_t level_at_[2][Geo::kCellRange] = {};
    uint8_t owner_[Geo::kCellRange] = {};  // 0 empty, 1 + side

    static int line_of(int d, int x, int y) {
        return d == 0 ? y : d == 1 ? x : d == 2 ? x - y + N - 1 : x + y;
    }
    // The cell's position along its line (x along rows, y along the other directions).
    static int position(int d, int x, int y) { return d == 0 ? x : y; }

    // Side s's entry of the empty cell whose line word is w and whose 5 cells before it start
    // at bit `shift`: the line code of its 10 neighbours (patterns.hpp) looked up.
    uint8_t entry_at(int s, uint64_t w, int shift) const {
        const uint8_t* half = digits_ + s * kLineHalves;
        const int code = half[(w >> shift) & (kLineHalves - 1)] +
                         243 * half[(w >> (shift + 12)) & (kLineHalves - 1)];
        return entries_[code];
    }

    // Reads the four entries of empty cell c of both sides from the lines.
    void read_entries(int c) {
        const int x = Geo::column_of(c), y = Geo::row_of(c);
        for (int d = 0; d < 4; ++d) {
            const uint64_t w = words_[d][line_of(d, x, y)];
            for (int s = 0; s < 2; ++s) entry_[s][d][c] = entry_at(s, w, 2 * position(d, x, y));
        }
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
                    p |= static_cast<uint16_t>((entry_[s][d][c] & 15) << (4 * d));
            set_cell(s, c, p);
        }
    }

    void refresh_value(int c) {
        for (int s = 0; s < 2; ++s) {
            int v = 0;
            for (int d = 0; d < 4; ++d) v += kShapeMoveValue[entry_[s][d][c] >> 4];
            value_[s][c] = static_cast<uint16_t>(v);
        }
    }

    // Side s's entry at empty cell e in direction d is now `now`: its move value, shape counts
    // and pattern bits follow.
    void change_entry(int s, int d, int e, uint8_t now) {
        const uint8_t was = entry_[s][d][e];
        entry_[s][d][e] = now;
        const int shape_was = was >> 4, shape_now = now >> 4;
        value_[s][e] = static_cast<uint16_t>(value_[s][e] + kShapeMoveValue[shape_now] -
                                             kShapeMoveValue[shape_was]);
        if (shapes_) {
            --shape_count_[s][shape_was];
            ++shape_count_[s][shape_now];
        }
        if (((was ^ now) & 15) == 0) return;
        const int shift = 4 * d;
        set_cell(s, e,
                 static_cast<uint16_t>((patterns_[s][e] & ~(15u << shift)) | (now & 15) << shift));
    }

    // A stone on c changes the line code of the cells within kLineReach on its four lines. A
    // cell's entry is read again only where it can change: within the rule's reach
    // (line_reach) and, for each side, before the first stone of the other side on the way out
    // from c (every window of a cell's patterns and shape that reaches c holds the cells
    // between them, and a window with a stone of the other side counts for nothing).
    void update(int side, int c, int sign) {
        owner_[c] = sign > 0 ? static_cast<uint8_t>(1 + side) : 0;
        const int x = Geo::column_of(c), y = Geo::row_of(c);
        for (int d = 0; d < 4; ++d)
            words_[d][line_of(d, x, y)] ^= uint64_t(1 + side)
                                           << (2 * (position(d, x, y) + kLineReach));
        if (sign > 0) {
            if (shapes_)
                for (int s = 0; s < 2; ++s)
                    for (int d = 0; d < 4; ++d) --shape_count_[s][entry_[s][d][c] >> 4];
            for (int s = 0; s < 2; ++s) {
                patterns_[s][c] = 0;
                five[s].reset(c);
                four[s].reset(c);
                if (level_at_[s][c] < 4) level[s][level_at_[s][c] - 1].reset(c);
                level_at_[s][c] = 4;
            }
        } else {
            read_entries(c);
            if (shapes_)
                for (int s = 0; s < 2; ++s)
                    for (int d = 0; d < 4; ++d) ++shape_count_[s][entry_[s][d][c] >> 4];
            refresh_all(c);
            refresh_value(c);
        }
        const uint64_t blocks_side = uint64_t(2 - side);  // a stone of side ^ 1
        for (int d = 0; d < 4; ++d) {
            const uint64_t w = words_[d][line_of(d, x, y)];
            const int shift_c = 2 * position(d, x, y);  // c's 5 cells before it start here
            for (int way = 1; way >= -1; way -= 2) {
                bool own_open = true, other_open = true;
                for (int m = 1; m <= reach_; ++m) {
                    const int k = way * m;
                    const int shift = shift_c + 2 * k;
                    const uint64_t here = (w >> (shift + 2 * kLineReach)) & kLineWordWall;
                    if (here == kLineWordWall) break;
                    if (here != kLineWordEmpty) {
                        if (here == blocks_side)
                            own_open = false;
                        else
                            other_open = false;
                        if (!own_open && !other_open) break;
                        continue;
                    }
                    const int e = c + k * kStep[d];
                    if (own_open) change_entry(side, d, e, entry_at(side, w, shift));
                    if (other_open) change_entry(side ^ 1, d, e, entry_at(side ^ 1, w, shift));
                }
            }
        }
    }
};

}  // namespace gaeval::gomoku
