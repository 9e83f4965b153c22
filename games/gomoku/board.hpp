// The Gomoku board as bitboards: an N x N grid stored row by row with a row stride of N + 1, so
// every row ends in an empty guard cell that is never a board cell. Cell (x, y) is bit
// y * (N + 1) + x. The four line directions are then plain shifts by 1 (row), N + 1 (column),
// N + 2 (diagonal) and N (anti-diagonal): a line that leaves the board on one side lands on a
// guard cell or past the last row, never on the other side, so no wrap masks are needed.
// 15x15 fits 240 bits (4 words), 20x20 420 bits (7 words).
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/hd.hpp"

namespace gaeval::gomoku {

// Rule sets; values are part of saved setups: append, never renumber.
//   freestyle  five or more in a row wins
//   standard   exactly five wins; an overline (six or more) does not
enum class RuleSet : uint8_t { Freestyle = 0, Standard = 1 };

// Word i of the mask of the board cells of an N x N board (stride N + 1).
GAEVAL_HD_INLINE constexpr uint64_t board_word(int n, int word) {
    uint64_t bits = 0;
    for (int b = 0; b < 64; ++b) {
        const int cell = 64 * word + b;
        if (cell < n * (n + 1) && cell % (n + 1) != n) bits |= uint64_t{1} << b;
    }
    return bits;
}

template <int N>
struct Geometry {
    static_assert(N >= 5 && N <= 20, "boards from 5x5 to 20x20");
    static constexpr int kSize = N;
    static constexpr int kStride = N + 1;
    static constexpr int kCellRange = N * kStride;  // cell indexes are below this
    static constexpr int kWords = (kCellRange + 63) / 64;
    using BB = Bitboard<kWords>;

    // The shift of each line direction: row, column, diagonal, anti-diagonal.
    static constexpr int kRow = 1, kColumn = kStride, kDiagonal = kStride + 1,
                         kAntiDiagonal = kStride - 1;

    GAEVAL_HD_INLINE static constexpr int cell(int x, int y) { return y * kStride + x; }
    GAEVAL_HD_INLINE static constexpr int column_of(int c) { return c % kStride; }
    GAEVAL_HD_INLINE static constexpr int row_of(int c) { return c / kStride; }

    // The N * N board cells.
    GAEVAL_HD_INLINE static BB board() {
        BB b;
        for (int i = 0; i < kWords; ++i) b.w[i] = board_word(N, i);
        return b;
    }

    // The cells one king step from a cell of `from` (the eight neighbours), on the board.
    GAEVAL_HD_INLINE static BB neighbours(const BB& from) {
        const BB spread = from.shifted_up(kRow) | from.shifted_down(kRow) |
                          from.shifted_up(kColumn) | from.shifted_down(kColumn) |
                          from.shifted_up(kDiagonal) | from.shifted_down(kDiagonal) |
                          from.shifted_up(kAntiDiagonal) | from.shifted_down(kAntiDiagonal);
        return spread & board();
    }
};

// X shifted so that bit t is set when cell t + k * Step is in X (k >= 0): "the window starting
// at t has X at position k".
template <int Step, int W>
GAEVAL_HD_INLINE Bitboard<W> at_offset(const Bitboard<W>& x, int k) {
    return x.shifted_down(k * Step);
}

// The inverse: the cells at position k of the windows whose starts are in T.
template <int Step, int W>
GAEVAL_HD_INLINE Bitboard<W> from_start(const Bitboard<W>& starts, int k) {
    return starts.shifted_up(k * Step);
}

}  // namespace gaeval::gomoku
