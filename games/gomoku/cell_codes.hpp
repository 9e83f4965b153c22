// The reward-table player (players.hpp) kept incrementally, for playouts in per-thread scratch
// (games/core/scratch.hpp; game.hpp: PlayoutScratch): instead of both sides' whole-board level
// sets (threats.hpp both_levels) and 11 rank sets at every move, the scratch holds each cell's
// line patterns for each side (a CellCode: four bits a direction) and updates them only on the
// four lines through each stone placed since the policy last moved, and the policy reads a
// candidate's levels and rank from its two codes. A GPU thread then keeps the patterns in its
// slice of shared memory instead of 255 registers and a local-memory stack, and the CPU does
// less work a move (a line is a few cells; the whole board is four words a pattern).
//
// The same move as reward_table_move, draw for draw:
// - a line's patterns are line_threats over that line alone (a LineBits of its cells, Step
//   1): a window of the whole board in one direction is a window of one line, and a cell past
//   the line's end is neither a stone nor empty, as a guard cell is;
// - a pattern of a cell in direction d depends only on the cells within 5 steps of it along d
//   (threats.hpp: windows of 5 and 6 and the cells just outside them), so a stone changes the
//   patterns of the lines through it and no others;
// - the candidates are the empty cells within two king steps of a stone (kept as a set, `near`):
//   every cell of level 1 to 3 of either side is already among them, since a five, four or
//   open three of a cell needs an own stone within two cells of it along the line;
// - levels (code_level) and ranks (rank_of) are those of threat_levels and rank_cells cell by
//   cell, the rank drawn by accepted_rank and its cells counted in ascending order.
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/gomoku/board.hpp"
#include "games/gomoku/players.hpp"
#include "games/gomoku/threats.hpp"

namespace gaeval::gomoku {

// A cell's patterns for one side: bit d five-point, 4 + d four, 8 + d double four, 12 + d open
// three, for direction d in Geometry's order (row, column, diagonal, anti-diagonal).
using CellCode = uint16_t;

// The threat level (1 to 4) of a cell with code `own` (threats.hpp threat_levels), when the
// opponent has a five-point or not.
GAEVAL_HD_INLINE int code_level(CellCode own, bool opponent_five) {
    const unsigned five = own & 0xFu, four = (own >> 4) & 0xFu, two_fours = four & (four - 1),
                   double_four = (own >> 8) & 0xFu, three = own >> 12;
    if (opponent_five) return five ? 1 : 4;
    if (five | double_four | two_fours) return 1;
    // One direction at most has a four here: four-three is a three in another direction.
    if ((four && three && three != four) || (three & (three - 1))) return 2;
    return four | three ? 3 : 4;
}

// The rank index (players.hpp) of a cell of own level `own` and enemy level `enemy`, read from
// four bits an (own, enemy) pair (rank_cells).
GAEVAL_HD_INLINE constexpr int rank_of(int own, int enemy) {
    constexpr uint64_t kRanksByLevel =
        0x0000ull | 0x4321ull << 16 | 0x8751ull << 32 | static_cast<uint64_t>(0xA961ull) << 48;
    return static_cast<int>(kRanksByLevel >> (16 * (own - 1) + 4 * (enemy - 1)) & 0xFu);
}

// The cells of one line as bits (a line has at most 20 cells), with the set operations
// line_threats uses (threats.hpp; at_offset and from_start below): half the registers of a
// Bitboard<1> on a GPU.
struct LineBits {
    uint32_t w;
    GAEVAL_HD_FORCEINLINE static LineBits none() { return LineBits{0}; }
    GAEVAL_HD_FORCEINLINE LineBits shifted_up(int n) const { return LineBits{w << n}; }
    GAEVAL_HD_FORCEINLINE LineBits shifted_down(int n) const { return LineBits{w >> n}; }
    GAEVAL_HD_FORCEINLINE LineBits operator&(LineBits o) const { return LineBits{w & o.w}; }
    GAEVAL_HD_FORCEINLINE LineBits operator|(LineBits o) const { return LineBits{w | o.w}; }
    GAEVAL_HD_FORCEINLINE LineBits operator~() const { return LineBits{~w}; }
    GAEVAL_HD_FORCEINLINE LineBits& operator&=(LineBits o) { return *this = *this & o; }
    GAEVAL_HD_FORCEINLINE LineBits& operator|=(LineBits o) { return *this = *this | o; }
};
template <int Step>
GAEVAL_HD_FORCEINLINE LineBits at_offset(const LineBits& x, int k) {
    return x.shifted_down(k * Step);
}
template <int Step>
GAEVAL_HD_FORCEINLINE LineBits from_start(const LineBits& starts, int k) {
    return starts.shifted_up(k * Step);
}

// A line of the board through a cell in one direction: its first cell, the step between its
// cells, its length, and the place of the cell it was drawn through.
struct Line {
    int first, step, length, at;
};

// The line through cell c in direction d (0 row, 1 column, 2 diagonal, 3 anti-diagonal).
template <class Geo>
GAEVAL_HD_INLINE Line line_through(int c, int d) {
    const int last = Geo::kSize - 1, x = Geo::column_of(c), y = Geo::row_of(c);
    const int dx = d == 1 ? 0 : d == 3 ? -1 : 1, dy = d == 0 ? 0 : 1;
    // Steps to the line's ends: until x or y would leave the board.
    const int back_x = dx > 0 ? x : dx < 0 ? last - x : Geo::kSize, back_y = dy ? y : Geo::kSize;
    const int ahead_x = dx > 0   ? last - x
                        : dx < 0 ? x
                                 : Geo::kSize,
              ahead_y = dy ? last - y : Geo::kSize;
    const int back = back_x < back_y ? back_x : back_y,
              ahead = ahead_x < ahead_y ? ahead_x : ahead_y;
    return Line{Geo::cell(x - back * dx, y - back * dy), dx + dy * Geo::kStride, back + ahead + 1,
                back};
}

// The incremental state of the reward table in a playout's scratch.
template <int N>
struct CellCodes {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    BB seen;                            // the stones the codes account for
    BB near;                            // the cells within two king steps of a seen stone
    BB marked;                          // the cells with a pattern (a code not 0) for a seat
    BB quiet, hot;                      // the mover's candidates without and with a pattern
    CellCode code[2][Geo::kCellRange];  // by seat and cell
    int16_t five_points[2];             // cells with a five-point, by seat

    GAEVAL_HD_INLINE void clear() {
        seen = near = marked = quiet = hot = BB::none();
        for (int s = 0; s < 2; ++s)
            for (int c = 0; c < Geo::kCellRange; ++c) code[s][c] = 0;
        five_points[0] = five_points[1] = 0;
    }

    // Direction d's bits of cell c for `seat` from its line's patterns `t` (c is bit i there).
    GAEVAL_HD_INLINE void write_code(int seat, int c, int d, const LineThreats<LineBits>& t,
                                     int i) {
        const CellCode was = code[seat][c];
        const CellCode bits = static_cast<CellCode>(
            (t.five.w >> i & 1u) << d | (t.four.w >> i & 1u) << (4 + d) |
            (t.double_four.w >> i & 1u) << (8 + d) | (t.three.w >> i & 1u) << (12 + d));
        const CellCode now = static_cast<CellCode>((was & ~(0x1111u << d)) | bits);
        code[seat][c] = now;
        five_points[seat] += static_cast<int16_t>(((now & 0xFu) != 0) - ((was & 0xFu) != 0));
    }

    // Recomputes both seats' patterns in direction d of the cells within 5 steps of the stone
    // on cell c (the others' do not change), from the whole line through c.
    GAEVAL_HD_INLINE void update_line(const BB* stones, bool exact, int c, int d) {
        const Line line = line_through<Geo>(c, d);
        LineBits own[2], empty;
        own[0] = own[1] = empty = LineBits::none();
        for (int i = 0, at = line.first; i < line.length; ++i, at += line.step) {
            const uint32_t bit = uint32_t{1} << i;
            const bool black = stones[0].test(at), white = stones[1].test(at);
            own[0].w |= black ? bit : 0;
            own[1].w |= white ? bit : 0;
            empty.w |= black || white ? 0 : bit;
        }
        const int from = line.at > 5 ? line.at - 5 : 0,
                  to = line.at + 6 < line.length ? line.at + 6 : line.length;
        for (int seat = 0; seat < 2; ++seat) {
            const LineThreats<LineBits> t = line_threats<1, true, true>(own[seat], empty, exact);
            for (int i = from, at = line.first + from * line.step; i < to; ++i, at += line.step)
                write_code(seat, at, d, t, i);
        }
        for (int i = from, at = line.first + from * line.step; i < to; ++i, at += line.step) {
            if (code[0][at] | code[1][at])
                marked.set(at);
            else
                marked.reset(at);
        }
    }

    // Adds the cells within two king steps of cell c to `near`.
    GAEVAL_HD_INLINE void mark_near(int c) {
        const int x = Geo::column_of(c), y = Geo::row_of(c);
        for (int v = y - 2; v <= y + 2; ++v)
            for (int u = x - 2; u <= x + 2; ++u)
                if (u >= 0 && v >= 0 && u < N && v < N) near.set(Geo::cell(u, v));
    }

    // Brings the codes up to `stones` (a position that only added stones since the last call).
    GAEVAL_HD_INLINE void sync(const BB* stones, bool exact) {
        // Word by word, a stone at a time, the new stones read again from the scratch after
        // each: on a GPU the sets stay there and no register holds them across update_line.
        for (int i = 0; i < Geo::kWords; ++i) {
            for (;;) {
                const uint64_t fresh = (stones[0].w[i] | stones[1].w[i]) & ~seen.w[i];
                if (!fresh) break;
                const int c = 64 * i + lowest_bit(fresh);
                for (int d = 0; d < 4; ++d) update_line(stones, exact, c, d);
                mark_near(c);
                seen.w[i] |= uint64_t{1} << (c & 63);
            }
        }
    }

    // The rank of empty cell c for the mover `side`.
    GAEVAL_HD_INLINE int rank_at(int side, int c) const {
        const bool own_five = five_points[side] > 0, enemy_five = five_points[side ^ 1] > 0;
        return rank_of(code_level(code[side][c], enemy_five),
                       code_level(code[side ^ 1][c], own_five));
    }
};

// The number of candidates of each rank, nine bits a rank (a board has at most 400 cells):
// ranks 0 to 6 in `low`, 7 to 10 in `high`, so that a count is a shift, not an index.
struct RankCounts {
    uint64_t low = 0, high = 0;
    GAEVAL_HD_INLINE void add(int r, uint32_t count) {
        if (r < 7)
            low += uint64_t{count} << (9 * r);
        else
            high += uint64_t{count} << (9 * (r - 7));
    }
    GAEVAL_HD_INLINE uint32_t of(int r) const {
        return static_cast<uint32_t>((r < 7 ? low >> (9 * r) : high >> (9 * (r - 7))) & 0x1FFu);
    }
};

// The candidates of the reward-table player (candidate_cells) on codes synced to `all`.
template <int N>
GAEVAL_HD_INLINE typename Geometry<N>::BB coded_candidates(const CellCodes<N>& codes,
                                                           const typename Geometry<N>::BB& all) {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    const BB empty = Geo::board().minus(all);
    if (all.any()) return codes.near & empty;
    const BB centre = BB::cell(Geo::cell(Geo::kSize / 2, Geo::kSize / 2));
    return (centre & empty).any() ? centre : empty;
}

// The candidates (coded_candidates) of the position `stones` split into codes.quiet and
// codes.hot, word by word when a stone is on the board: on a GPU the sets stay in the scratch.
template <int N>
GAEVAL_HD_INLINE void split_candidates(CellCodes<N>& codes,
                                       const typename Geometry<N>::BB* stones) {
    using Geo = Geometry<N>;
    bool any = false;
    for (int i = 0; i < Geo::kWords; ++i) any |= (stones[0].w[i] | stones[1].w[i]) != 0;
    if (!any) {
        const typename Geo::BB candidates = coded_candidates(codes, stones[0] | stones[1]);
        codes.quiet = candidates.minus(codes.marked);
        codes.hot = candidates & codes.marked;
        return;
    }
    for (int i = 0; i < Geo::kWords; ++i) {
        const uint64_t candidates = codes.near.w[i] & ~(stones[0].w[i] | stones[1].w[i]);
        codes.quiet.w[i] = candidates & ~codes.marked.w[i];
        codes.hot.w[i] = candidates & codes.marked.w[i];
    }
}

// The k-th (from 0) cell of rank r among the candidates split into `quiet` and `hot`, in
// ascending order: a quiet cell (no pattern for either seat) is of the last rank (level 4 for
// both), a hot one's rank is read from its codes. Word by word: on a GPU the sets stay in the
// scratch.
template <int N>
GAEVAL_HD_INLINE int nth_of_rank(const CellCodes<N>& codes, int side, int r, uint32_t k) {
    for (int i = 0;; ++i) {
        const uint64_t hot = codes.hot.w[i];
        for (uint64_t x = codes.quiet.w[i] | hot; x; x = clear_lowest(x)) {
            const int c = 64 * i + lowest_bit(x);
            const bool of_rank =
                (hot >> (c & 63) & 1u) ? codes.rank_at(side, c) == r : r == kRanks - 1;
            if (of_rank && k-- == 0) return c;
        }
    }
}

// reward_table_move for the position `stones` (side to move `side`) on codes synced to it.
// `present` is working memory for kRanks flags.
template <int N>
GAEVAL_HD int coded_table_move(CellCodes<N>& codes, const typename Geometry<N>::BB* stones,
                               int side, const float* weights, bool* present, uint64_t seed,
                               uint32_t game, uint32_t ply) {
    const typename Geometry<N>::BB candidates = coded_candidates(codes, stones[0] | stones[1]);
    codes.quiet = candidates.minus(codes.marked);
    codes.hot = candidates & codes.marked;
    RankCounts counts;
    counts.add(kRanks - 1, static_cast<uint32_t>(codes.quiet.count()));
    for_each_cell(codes.hot, [&](int c) { counts.add(codes.rank_at(side, c), 1); });
    for (int r = 0; r < kRanks; ++r) present[r] = counts.of(r) != 0;
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    const int r = accepted_rank(weights, present, draw.v[0]);
    // Not reached (the best rank is always accepted): the lowest candidate.
    if (r < 0) return (codes.quiet | codes.hot).lowest();
    return nth_of_rank(codes, side, r, below(draw.v[1], counts.of(r)));
}

}  // namespace gaeval::gomoku
