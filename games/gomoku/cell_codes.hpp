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
// - a line's patterns are line_threats over that line alone (a Bitboard<1> of its cells, Step
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

// A line of the board through a cell in one direction: its first cell, the step between its
// cells, and its length.
struct Line {
    int first, step, length;
};

// The line through cell c in direction d (0 row, 1 column, 2 diagonal, 3 anti-diagonal).
template <class Geo>
GAEVAL_HD_INLINE Line line_through(int c, int d) {
    const int n = Geo::kSize, x = Geo::column_of(c), y = Geo::row_of(c);
    const int dx = d == 1 ? 0 : d == 3 ? -1 : 1, dy = d == 0 ? 0 : 1;
    // Steps back to the line's first cell: until x or y leaves the board.
    int back = dy == 0   ? x
               : dx == 0 ? y
               : dx > 0  ? (x < y ? x : y)
                         : (n - 1 - x < y ? n - 1 - x : y);
    int forward = dy == 0   ? n - 1 - x
                  : dx == 0 ? n - 1 - y
                  : dx > 0  ? (n - 1 - x < n - 1 - y ? n - 1 - x : n - 1 - y)
                            : (x < n - 1 - y ? x : n - 1 - y);
    return Line{Geo::cell(x - back * dx, y - back * dy), dx + dy * Geo::kStride,
                back + forward + 1};
}

// The incremental state of the reward table in a playout's scratch.
template <int N>
struct CellCodes {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    BB seen;                            // the stones the codes account for
    BB near;                            // the cells within two king steps of a seen stone
    CellCode code[2][Geo::kCellRange];  // by seat and cell
    int16_t five_points[2];             // cells with a five-point, by seat

    GAEVAL_HD_INLINE void clear() {
        seen = near = BB::none();
        for (int s = 0; s < 2; ++s)
            for (int c = 0; c < Geo::kCellRange; ++c) code[s][c] = 0;
        five_points[0] = five_points[1] = 0;
    }

    // Direction d's bits of the cells of `line` for `seat`, from that line's patterns.
    GAEVAL_HD_INLINE void write_line(int seat, int d, const Line& line,
                                     const LineThreats<Bitboard<1>>& t) {
        for (int i = 0, c = line.first; i < line.length; ++i, c += line.step) {
            const CellCode was = code[seat][c];
            const CellCode bits = static_cast<CellCode>(
                (t.five.w[0] >> i & 1u) << d | (t.four.w[0] >> i & 1u) << (4 + d) |
                (t.double_four.w[0] >> i & 1u) << (8 + d) | (t.three.w[0] >> i & 1u) << (12 + d));
            const CellCode now = static_cast<CellCode>((was & ~(0x1111u << d)) | bits);
            code[seat][c] = now;
            five_points[seat] += static_cast<int16_t>(((now & 0xFu) != 0) - ((was & 0xFu) != 0));
        }
    }

    // Recomputes both seats' patterns on the line through c in direction d.
    GAEVAL_HD_INLINE void update_line(const BB* stones, bool exact, int c, int d) {
        const Line line = line_through<Geo>(c, d);
        Bitboard<1> own[2], empty;
        own[0] = own[1] = empty = Bitboard<1>::none();
        for (int i = 0, at = line.first; i < line.length; ++i, at += line.step) {
            const uint64_t bit = uint64_t{1} << i;
            const bool black = stones[0].test(at), white = stones[1].test(at);
            own[0].w[0] |= black ? bit : 0;
            own[1].w[0] |= white ? bit : 0;
            empty.w[0] |= black || white ? 0 : bit;
        }
        for (int seat = 0; seat < 2; ++seat)
            write_line(seat, d, line, line_threats<1, true, true>(own[seat], empty, exact));
    }

    // Brings the codes up to `stones` (a position that only added stones since the last call).
    GAEVAL_HD_INLINE void sync(const BB* stones, bool exact) {
        BB fresh = (stones[0] | stones[1]).minus(seen);
        while (fresh.any()) {
            const int c = fresh.lowest();
            fresh.reset(c);
            for (int d = 0; d < 4; ++d) update_line(stones, exact, c, d);
            const BB one = BB::cell(c);
            near |= Geo::neighbours(Geo::neighbours(one) | one);
        }
        seen = stones[0] | stones[1];
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
    GAEVAL_HD_INLINE void add(int r) {
        if (r < 7)
            low += uint64_t{1} << (9 * r);
        else
            high += uint64_t{1} << (9 * (r - 7));
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

// The k-th (from 0) cell of rank r among `candidates`, in ascending order.
template <int N>
GAEVAL_HD_INLINE int nth_of_rank(const CellCodes<N>& codes, typename Geometry<N>::BB candidates,
                                 int side, int r, uint32_t k) {
    for (;;) {
        const int c = candidates.lowest();
        candidates.reset(c);
        if (codes.rank_at(side, c) == r && k-- == 0) return c;
    }
}

// reward_table_move for the position `stones` (side to move `side`) on codes synced to it.
template <int N>
GAEVAL_HD int coded_table_move(const CellCodes<N>& codes, const typename Geometry<N>::BB* stones,
                               int side, const float* weights, uint64_t seed, uint32_t game,
                               uint32_t ply) {
    using BB = typename Geometry<N>::BB;
    const BB all = stones[0] | stones[1];
    const BB candidates = coded_candidates(codes, all);
    RankCounts counts;
    for (BB todo = candidates; todo.any();) {
        const int c = todo.lowest();
        todo.reset(c);
        counts.add(codes.rank_at(side, c));
    }
    bool present[kRanks];
    for (int r = 0; r < kRanks; ++r) present[r] = counts.of(r) != 0;
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    const int r = accepted_rank(weights, present, draw.v[0]);
    if (r < 0) return Geometry<N>::board().minus(all).lowest();  // not reached
    return nth_of_rank(codes, candidates, side, r, below(draw.v[1], counts.of(r)));
}

}  // namespace gaeval::gomoku
