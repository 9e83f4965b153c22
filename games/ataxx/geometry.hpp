// Geometries: how the rules ask a board for grow and jump ranges. Two implement one interface,
// so every rule, player and perft in games/ataxx is written once:
//   TableGeometry<W>  any shape, per-cell masks read from a Board<W> (host or device memory);
//   Square7Geometry   standard 7x7 Ataxx in one word, libataxx layout (bit = rank * 8 + file,
//                     stride 8: the unused eighth file stops one-cell shifts from wrapping),
//                     ranges computed by shifts: no table, no memory traffic.
// Interface (BB = the bitboard type, c a cell index of that geometry's layout):
//   playable()            cells that can hold a piece
//   grow_of(c), jump_of(c) grow and jump range of one cell
//   grow_closure(s)       s plus every neighbour of s
//   reach_closure(s)      s plus every cell a grow or jump from s can reach
//   reaches(s, t)         whether some cell of t is in the grow or jump range of a cell of s
//                         (t disjoint from s)
//   jump_count(s, empty)  sum over cells c of s of |jump_of(c) & empty|
//   table_bytes(), tables(), with_tables(p)   the lookup tables the geometry reads (none for the
//                         7x7 fast path), for the game interface's device binding
#pragma once

#include <cstddef>
#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/bits.hpp"
#include "games/core/hd.hpp"
#include "games/core/topology.hpp"

// A loop over a board's words that the device must not unroll: one word's values live at a
// time, and the words are read from memory (the scratch, the board's tables) by a run-time index.
#if GAEVAL_DEVICE_PASS
#define GAEVAL_ATAXX_WORD_LOOP _Pragma("unroll 1")
#else
#define GAEVAL_ATAXX_WORD_LOOP
#endif

namespace gaeval::ataxx {

template <int W>
struct TableGeometry {
    using BB = Bitboard<W>;
    const Board<W>* board = nullptr;  // host or device memory, as the caller runs

    // The board's masks: what the CUDA backend copies to the device.
    std::size_t table_bytes() const { return sizeof(Board<W>); }
    const void* tables() const { return board; }
    TableGeometry with_tables(const void* p) const {
        return TableGeometry{static_cast<const Board<W>*>(p)};
    }

    // The interface above, read from the board's per-cell masks.
    GAEVAL_HD_FORCEINLINE BB playable() const { return board->playable; }
    GAEVAL_HD_FORCEINLINE BB grow_of(int c) const { return board->grow[c]; }
    GAEVAL_HD_FORCEINLINE BB jump_of(int c) const { return board->jump[c]; }

    // s plus the union of the grow ranges of its cells.
    GAEVAL_HD_FORCEINLINE BB grow_closure(const BB& s) const {
        BB r = s;
        for_each_cell(s, [&](int c) { r |= board->grow[c]; });
        return r;
    }
    // s plus the union of the grow and jump ranges of its cells.
    GAEVAL_HD_FORCEINLINE BB reach_closure(const BB& s) const {
        BB r = s;
        for_each_cell(s, [&](int c) { r |= board->grow[c] | board->jump[c]; });
        return r;
    }
    // Whether a cell of `targets` is within grow or jump range of a cell of `from` (stops early).
    GAEVAL_HD_FORCEINLINE bool reaches(const BB& from, const BB& targets) const {
        for (int i = 0; i < W; ++i) {
            for (uint64_t x = from.w[i]; x; x = clear_lowest(x)) {
                const int c = 64 * i + lowest_bit(x);
                if ((board->grow[c] | board->jump[c]).intersects(targets)) return true;
            }
        }
        return false;
    }
    // Number of (from, to) jumps from the cells of `from` to cells of `empty`.
    GAEVAL_HD_FORCEINLINE int jump_count(const BB& from, const BB& empty) const {
        int n = 0;
        for_each_cell(from, [&](int c) { n += (board->jump[c] & empty).count(); });
        return n;
    }
};

// Standard 7x7 Ataxx board (square8:7x7) in one 64-bit word, libataxx's layout.
struct Square7Geometry {
    using BB = Bitboard<1>;
    static constexpr uint64_t kAll = 0x007f7f7f7f7f7f7full;  // a1..g7, eighth file unused
    static constexpr uint64_t kFileA = 0x0001010101010101ull;
    uint64_t playable_mask = kAll;  // kAll minus gaps

    // Bit of the compact cell index c (row * 7 + col, as TableGeometry numbers square8:7x7).
    GAEVAL_HD_FORCEINLINE static int from_compact(int c) { return (c / 7) * 8 + c % 7; }
    // Compact cell index of bit b.
    GAEVAL_HD_FORCEINLINE static int to_compact(int b) { return (b >> 3) * 7 + (b & 7); }

    // b plus its 8 neighbours, clipped to the board. One-cell shifts never wrap: a shift by 1
    // lands on the unused eighth file, a shift by 8 past rank 7 leaves the word or lands on the
    // unused eighth rank; kAll removes both.
    GAEVAL_HD_FORCEINLINE static uint64_t dilate(uint64_t b) {
        const uint64_t row = (b | (b << 1) | (b >> 1)) & kAll;
        return (row | (row << 8) | (row >> 8)) & kAll;
    }
    // The 16-cell jump ring (5x5 box minus 3x3 box) around bit c (any of the word's 64 bits),
    // clipped to the board: the ring drawn around c3 (bit 18) shifted into place, with files
    // beyond c's +-2 removed. The one source of truth for jump ranges: the host's table
    // (kSquare7JumpRings below) is filled from it at compile time, the device computes it.
    GAEVAL_HD_FORCEINLINE static constexpr uint64_t jump_ring_computed(int c) {
        constexpr uint64_t kRingAtC3 = 0x1f1111111full;  // files a-e, ranks 1-5: around c3
        const uint64_t ring = c >= 18 ? kRingAtC3 << (c - 18) : kRingAtC3 >> (18 - c);
        const uint64_t files = ((uint64_t{0x1f} << (c & 7)) >> 2) & 0x7f;
        return ring & (files * kFileA) & kAll;
    }
    // The jump ring of bit c: one load from a 64-entry table on the host (about 14 operations
    // and a branch fewer per piece), computed on the device (no table to bind; registers are
    // cheaper than a constant-memory load whose index differs across a warp).
    GAEVAL_HD_FORCEINLINE static uint64_t jump_ring(int c);

    // No tables: ranges are computed.
    std::size_t table_bytes() const { return 0; }
    const void* tables() const { return nullptr; }
    Square7Geometry with_tables(const void*) const { return *this; }

    // The interface above, computed by shifts (gaps only in playable_mask).
    GAEVAL_HD_FORCEINLINE BB playable() const { return BB{{playable_mask}}; }
    GAEVAL_HD_FORCEINLINE BB grow_of(int c) const {
        const uint64_t bit = uint64_t{1} << c;
        return BB{{dilate(bit) & ~bit}};
    }
    GAEVAL_HD_FORCEINLINE BB jump_of(int c) const { return BB{{jump_ring(c)}}; }
    GAEVAL_HD_FORCEINLINE BB grow_closure(const BB& s) const { return BB{{dilate(s.w[0])}}; }
    GAEVAL_HD_FORCEINLINE BB reach_closure(const BB& s) const {
        return BB{{dilate(dilate(s.w[0]))}};
    }
    GAEVAL_HD_FORCEINLINE bool reaches(const BB& from, const BB& targets) const {
        return (dilate(dilate(from.w[0])) & targets.w[0]) != 0;
    }
    // Per piece for a few pieces (one ring load each), else per ring offset (16 shifts of all
    // pieces at once): the same count either way, the cheaper for the position.
    GAEVAL_HD_FORCEINLINE int jump_count(const BB& from, const BB& empty) const {
        if (popcount64(from.w[0]) > kFewPieces) return jump_count_by_offsets(from.w[0], empty.w[0]);
        int n = 0;
        for (uint64_t x = from.w[0]; x; x = clear_lowest(x))
            n += popcount64(jump_ring(lowest_bit(x)) & empty.w[0]);
        return n;
    }
    // Above this many pieces jump_count shifts by ring offsets instead of walking pieces.
    static constexpr int kFewPieces = 8;
    // Number of (from, to) pairs with from in `own`, to in `free` (a subset of kAll) and to in
    // from's jump ring: for each of the 16 ring offsets (rank step dr, file step df, with
    // max(|dr|, |df|) = 2) all pieces move at once. A one-file step off file g or a lands on
    // the unused eighth file, never free; two-file steps could wrap to a neighbouring rank, so
    // their sources are masked first; steps off the board leave the word or land on rank 8.
    GAEVAL_HD_FORCEINLINE static int jump_count_by_offsets(uint64_t own, uint64_t free) {
        const uint64_t east2 = own & (uint64_t{0x1f} * kFileA);  // files a-e: two files east
        const uint64_t west2 = own & (uint64_t{0x7c} * kFileA);  // files c-g: two files west
        int n = popcount64((east2 << 18) & free) + popcount64((east2 << 10) & free) +
                popcount64((east2 << 2) & free) + popcount64((east2 >> 6) & free) +
                popcount64((east2 >> 14) & free);
        n += popcount64((west2 << 14) & free) + popcount64((west2 << 6) & free) +
             popcount64((west2 >> 2) & free) + popcount64((west2 >> 10) & free) +
             popcount64((west2 >> 18) & free);
        n += popcount64((own << 15) & free) + popcount64((own << 16) & free) +
             popcount64((own << 17) & free) + popcount64((own >> 15) & free) +
             popcount64((own >> 16) & free) + popcount64((own >> 17) & free);
        return n;
    }
};

// Jump rings of the 64 bits of the 7x7 layout, filled at compile time from
// Square7Geometry::jump_ring_computed (host only: device code computes the ring).
struct Square7JumpRings {
    uint64_t ring[64];
};
constexpr Square7JumpRings make_square7_jump_rings() {
    Square7JumpRings t{};
    for (int c = 0; c < 64; ++c) t.ring[c] = Square7Geometry::jump_ring_computed(c);
    return t;
}
#if !GAEVAL_DEVICE_PASS
inline constexpr Square7JumpRings kSquare7JumpRings = make_square7_jump_rings();
#endif

GAEVAL_HD_FORCEINLINE uint64_t Square7Geometry::jump_ring(int c) {
#if GAEVAL_DEVICE_PASS
    return jump_ring_computed(c);
#else
    return kSquare7JumpRings.ring[c];
#endif
}

}  // namespace gaeval::ataxx
