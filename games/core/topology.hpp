// Board topologies: the cells of a shape, their neighbours (grow range) and the cells two grow
// steps away (jump range), precomputed per cell as bitmasks in a trivially copyable Board<W>.
//
// Cells are laid out by rows, row 0 at the bottom (the last rank of a FEN string), each row left
// to right; cell indexes are consecutive over the cells that exist (no holes), so a hexagon of
// radius 8 (217 cells) fits 4 words. On square boards the index order equals libataxx's square
// order (a1, b1, ..., g7), which the 7x7 fast path relies on.
//
//   square8:WxH  W columns, H rows, 8 neighbours (standard Ataxx)
//   square4:WxH  W columns, H rows, 4 edge neighbours
//   offset:WxH   W columns, H rows of squares, odd rows shifted half a cell right: 6 neighbours
//   hex:R        hexagon of radius R (rows of R+1 ... 2R+1 ... R+1 cells), 6 neighbours
//   tri:N        triangle of side N made of N*N triangular cells (top row 1 cell, bottom row
//                2N-1), 3 edge neighbours
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/core/hd.hpp"
#include "games/core/bitboard.hpp"

namespace gaeval {

enum class Topology : uint8_t { Square8 = 0, Square4 = 1, Hex = 2, Tri = 3, Offset = 4 };

// A board shape. Rectangular topologies use width x height; hex stores its radius and tri its
// side in both fields.
struct Shape {
    Topology topology = Topology::Square8;
    int width = 7;
    int height = 7;
};

// Number of rows of the shape.
GAEVAL_HD_INLINE int shape_rows(const Shape& s) {
    switch (s.topology) {
        case Topology::Hex:
            return 2 * s.width + 1;
        case Topology::Tri:
            return s.width;
        default:
            return s.height;
    }
}

// Cells in row r (0 = bottom); r in [0, shape_rows).
GAEVAL_HD_INLINE int shape_row_length(const Shape& s, int r) {
    switch (s.topology) {
        case Topology::Hex:
            return 2 * s.width + 1 - gaeval::abs(r - s.width);
        case Topology::Tri:
            return 2 * (s.width - 1 - r) + 1;
        default:
            return s.width;
    }
}

// Index of the first cell of row r; r in [0, shape_rows] (r = rows gives the cell count).
GAEVAL_HD_INLINE int shape_row_start(const Shape& s, int r) {
    int start = 0;
    for (int i = 0; i < r; ++i) start += shape_row_length(s, i);
    return start;
}

// Number of cells of the shape (may exceed what a game's bitboard holds: the caller checks).
GAEVAL_HD_INLINE int shape_cells(const Shape& s) { return shape_row_start(s, shape_rows(s)); }

// Cell index of (row, col), or -1 when the shape has no such cell.
GAEVAL_HD_INLINE int shape_cell(const Shape& s, int row, int col) {
    if (row < 0 || row >= shape_rows(s) || col < 0 || col >= shape_row_length(s, row)) return -1;
    return shape_row_start(s, row) + col;
}

// Writes the cells adjacent to (row, col) into out (at most 8) and returns how many.
// Assumes (row, col) is a cell of the shape; neighbours outside the shape are skipped.
GAEVAL_HD_INLINE int shape_neighbours(const Shape& s, int row, int col, int* out) {
    int dr[8], dc[8], n = 0;
    auto add = [&](int r, int c) {
        dr[n] = r;
        dc[n] = c;
        ++n;
    };
    switch (s.topology) {
        case Topology::Square8:
            for (int r = -1; r <= 1; ++r)
                for (int c = -1; c <= 1; ++c)
                    if (r || c) add(r, c);
            break;
        case Topology::Square4:
            add(-1, 0), add(0, -1), add(0, 1), add(1, 0);
            break;
        case Topology::Offset: {
            // Odd rows sit half a cell to the right of even rows.
            const int shift = (row & 1) ? 0 : -1;
            add(-1, shift), add(-1, shift + 1), add(0, -1), add(0, 1), add(1, shift),
                add(1, shift + 1);
            break;
        }
        case Topology::Hex: {
            // Axial coordinates: q = col + first q of the row, r' = row - R; the six axial
            // neighbours (+-1, 0), (0, +-1), (+1, -1), (-1, +1) mapped back to (row, col).
            const int radius = s.width;
            auto q_first = [&](int r) { return gaeval::max(-radius, -radius - (r - radius)); };
            const int q = col + q_first(row);
            const int dq[6] = {-1, 1, 0, 1, -1, 0};
            const int drow[6] = {0, 0, -1, -1, 1, 1};
            for (int i = 0; i < 6; ++i) {
                const int r2 = row + drow[i];
                if (r2 < 0 || r2 > 2 * radius) continue;
                add(drow[i], q + dq[i] - q_first(r2) - col);
            }
            break;
        }
        case Topology::Tri: {
            // Row t from the top has 2t+1 triangles; even columns point up (their base edge is
            // shared with the row below at col + 1), odd columns point down (their top edge is
            // shared with the row above at col - 1). Rows are stored bottom-up.
            add(0, -1), add(0, 1);
            if (col % 2 == 0)
                add(-1, 1);  // the row below (top-down t + 1) is row - 1 here
            else
                add(1, -1);
            break;
        }
    }
    int count = 0;
    for (int i = 0; i < n; ++i) {
        const int cell = shape_cell(s, row + dr[i], col + dc[i]);
        if (cell >= 0) out[count++] = cell;
    }
    return count;
}

// A board: topology + blocked cells, with each cell's grow range (neighbours) and jump range
// (cells two grow steps away that are neither the cell nor its neighbours). Trivially copyable:
// it goes to the device by value or in a device array. Blocked cells stay in the masks (a jump
// crosses anything); they are never empty, so no move lands on them.
template <int W>
struct Board {
    using BB = Bitboard<W>;
    Shape shape;
    int cells = 0;
    BB all;       // every cell of the shape
    BB blocked;   // gaps: never hold a piece
    BB playable;  // all minus blocked
    BB grow[BB::kCells];
    BB jump[BB::kCells];
};

static_assert(std::is_trivially_copyable_v<Board<4>>, "boards are copied to the device as bytes");

// Fills *board for `shape` with no blocked cell; false (board untouched) when the shape is empty
// or has more cells than Bitboard<W> holds.
template <int W>
GAEVAL_HD bool build_board(const Shape& shape, Board<W>* board) {
    using BB = Bitboard<W>;
    const int cells = shape_cells(shape);
    if (cells <= 0 || cells > BB::kCells) return false;
    board->shape = shape;
    board->cells = cells;
    board->all = BB::first(cells);
    board->blocked = BB::none();
    board->playable = board->all;
    const int rows = shape_rows(shape);
    int cell = 0;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < shape_row_length(shape, r); ++c, ++cell) {
            int neighbours[8];
            const int n = shape_neighbours(shape, r, c, neighbours);
            BB grow = BB::none();
            for (int i = 0; i < n; ++i) grow.set(neighbours[i]);
            board->grow[cell] = grow;
        }
    }
    for (int i = cells; i < BB::kCells; ++i) board->grow[i] = board->jump[i] = BB::none();
    for (int c = 0; c < cells; ++c) {
        BB two_steps = BB::none();
        for_each_cell(board->grow[c], [&](int n) { two_steps |= board->grow[n]; });
        board->jump[c] = two_steps.minus(board->grow[c] | BB::cell(c));
    }
    return true;
}

// Marks the cells of `blocked` (a subset of board->all) as gaps.
template <int W>
GAEVAL_HD_INLINE void set_blocked(Board<W>* board, const Bitboard<W>& blocked) {
    board->blocked = blocked & board->all;
    board->playable = board->all.minus(board->blocked);
}

}  // namespace gaeval
