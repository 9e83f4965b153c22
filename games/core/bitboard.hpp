// Bitboard<W>: a set of board cells in W 64-bit words (cell c is bit c % 64 of word c / 64).
// W is picked at compile time by each game for the boards it plays (Ataxx: 1, 2 or 4; Gomoku
// 20x20: 7); every operation is a loop over W that the compiler unrolls. Integer operations only.
#pragma once

#include <cstdint>

#include "games/core/bits.hpp"
#include "games/core/hd.hpp"

namespace gaeval {

template <int W>
struct Bitboard {
    static_assert(W >= 1, "a bitboard has at least one word");
    static constexpr int kWords = W;
    static constexpr int kCells = 64 * W;

    uint64_t w[W];

    // The empty set.
    GAEVAL_HD_FORCEINLINE static Bitboard none() {
        Bitboard b;
        for (int i = 0; i < W; ++i) b.w[i] = 0;
        return b;
    }
    // The set {c}; c in [0, kCells).
    // In device code the word of a cell is chosen by comparing its index with each word (no
    // word indexed at run time: a GPU thread keeps the words in registers, and ptxas spills less:
    // Pac-Man's playout kernel 3408 bytes of stack this way, 3728 indexed). On the CPU one
    // indexed word is cheaper (comparing every word cost the Gomoku engine a fifth of its
    // nodes/s). Either way the same cell: results do not depend on the pass.
    static constexpr bool kPickByComparison = GAEVAL_DEVICE_PASS;
    GAEVAL_HD_FORCEINLINE static Bitboard cell(int c) {
        Bitboard b;
        const uint64_t bit = uint64_t{1} << (c & 63);
        if constexpr (kPickByComparison) {
            for (int i = 0; i < W; ++i) b.w[i] = i == (c >> 6) ? bit : 0;
        } else {
            b = none();
            b.w[c >> 6] = bit;
        }
        return b;
    }
    // Cells [0, n): the cells of a board of n cells; n in [0, kCells].
    GAEVAL_HD_FORCEINLINE static Bitboard first(int n) {
        Bitboard b;
        for (int i = 0; i < W; ++i) {
            const int bits = n - 64 * i;
            b.w[i] = bits >= 64 ? ~uint64_t{0} : bits <= 0 ? 0 : (uint64_t{1} << bits) - 1;
        }
        return b;
    }

    // Intersection, union and symmetric difference, word by word.
    GAEVAL_HD_FORCEINLINE Bitboard operator&(const Bitboard& o) const {
        Bitboard r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] & o.w[i];
        return r;
    }
    GAEVAL_HD_FORCEINLINE Bitboard operator|(const Bitboard& o) const {
        Bitboard r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] | o.w[i];
        return r;
    }
    GAEVAL_HD_FORCEINLINE Bitboard operator^(const Bitboard& o) const {
        Bitboard r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] ^ o.w[i];
        return r;
    }
    // Complement over all kCells bits: callers mask it with the board's cells.
    GAEVAL_HD_FORCEINLINE Bitboard operator~() const {
        Bitboard r;
        for (int i = 0; i < W; ++i) r.w[i] = ~w[i];
        return r;
    }
    // This set without the cells of o.
    GAEVAL_HD_FORCEINLINE Bitboard minus(const Bitboard& o) const {
        Bitboard r;
        for (int i = 0; i < W; ++i) r.w[i] = w[i] & ~o.w[i];
        return r;
    }
    // In-place forms of &, | and ^.
    GAEVAL_HD_FORCEINLINE Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
    GAEVAL_HD_FORCEINLINE Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
    GAEVAL_HD_FORCEINLINE Bitboard& operator^=(const Bitboard& o) { return *this = *this ^ o; }

    // Whether the two sets hold the same cells (all kCells bits compared).
    GAEVAL_HD_FORCEINLINE bool operator==(const Bitboard& o) const {
        uint64_t diff = 0;
        for (int i = 0; i < W; ++i) diff |= w[i] ^ o.w[i];
        return diff == 0;
    }
    GAEVAL_HD_FORCEINLINE bool operator!=(const Bitboard& o) const { return !(*this == o); }

    // True when the set has at least one cell.
    GAEVAL_HD_FORCEINLINE bool any() const {
        uint64_t all = 0;
        for (int i = 0; i < W; ++i) all |= w[i];
        return all != 0;
    }
    // True when the set has no cell.
    GAEVAL_HD_FORCEINLINE bool empty() const { return !any(); }
    // True when the two sets share a cell.
    GAEVAL_HD_FORCEINLINE bool intersects(const Bitboard& o) const { return (*this & o).any(); }

    // Number of cells in the set.
    GAEVAL_HD_FORCEINLINE int count() const {
        int n = 0;
        for (int i = 0; i < W; ++i) n += popcount64(w[i]);
        return n;
    }
    // Whether cell c is in the set.
    GAEVAL_HD_FORCEINLINE bool test(int c) const {
        uint64_t word = 0;
        if constexpr (kPickByComparison) {
            for (int i = 0; i < W; ++i) word |= i == (c >> 6) ? w[i] : 0;
        } else {
            word = w[c >> 6];
        }
        return (word >> (c & 63)) & 1;
    }
    // Adds / removes cell c (c in [0, kCells)).
    GAEVAL_HD_FORCEINLINE void set(int c) {
        if constexpr (kPickByComparison)
            *this |= cell(c);
        else
            w[c >> 6] |= uint64_t{1} << (c & 63);
    }
    GAEVAL_HD_FORCEINLINE void reset(int c) {
        if constexpr (kPickByComparison)
            *this = minus(cell(c));
        else
            w[c >> 6] &= ~(uint64_t{1} << (c & 63));
    }

    // Index of the lowest cell; the set must not be empty.
    GAEVAL_HD_FORCEINLINE int lowest() const {
        for (int i = 0; i + 1 < W; ++i)
            if (w[i]) return 64 * i + lowest_bit(w[i]);
        return 64 * (W - 1) + lowest_bit(w[W - 1]);
    }
    // The set with every cell index raised by n (cells pushed past kCells are lost); n >= 0.
    GAEVAL_HD_FORCEINLINE Bitboard shifted_up(int n) const {
        Bitboard r = none();
        const int words = n >> 6, bits = n & 63;
        for (int i = W - 1; i >= words; --i) {
            uint64_t v = w[i - words] << bits;
            if (bits && i - words - 1 >= 0) v |= w[i - words - 1] >> (64 - bits);
            r.w[i] = v;
        }
        return r;
    }
    // The set with every cell index lowered by n (cells pushed below 0 are lost); n >= 0.
    GAEVAL_HD_FORCEINLINE Bitboard shifted_down(int n) const {
        Bitboard r = none();
        const int words = n >> 6, bits = n & 63;
        for (int i = 0; i + words < W; ++i) {
            uint64_t v = w[i + words] >> bits;
            if (bits && i + words + 1 < W) v |= w[i + words + 1] << (64 - bits);
            r.w[i] = v;
        }
        return r;
    }

    // Index of the k-th lowest cell (k from 0); requires k < count().
    GAEVAL_HD_FORCEINLINE int nth(int k) const {
        for (int i = 0; i + 1 < W; ++i) {
            const int n = popcount64(w[i]);
            if (k < n) return 64 * i + nth_set_bit(w[i], k);
            k -= n;
        }
        return 64 * (W - 1) + nth_set_bit(w[W - 1], k);
    }
};

// Calls f(cell) for every cell of b in ascending order (the order every enumeration relies on).
template <int W, class F>
GAEVAL_HD_FORCEINLINE void for_each_cell(const Bitboard<W>& b, F&& f) {
    for (int i = 0; i < W; ++i) {
        for (uint64_t x = b.w[i]; x; x = clear_lowest(x)) f(64 * i + lowest_bit(x));
    }
}

}  // namespace gaeval
