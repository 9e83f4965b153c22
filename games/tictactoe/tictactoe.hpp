// Tic-tac-toe: the example game of docs/adding-a-game.md, on a one-word bitboard. Cells are
// numbered row by row from the bottom left (bit 0) to the top right (bit 8); X (seat 0) moves
// first; three in a row wins; a full board without a line is a draw.
//   features (seen by one seat, in [0, 1], higher is better): own lines with 3 marks, own open
//     lines (no opposing mark) with 2 and with 1 mark, the same three for the opponent (as
//     complements), own mark on the centre, and own marks on corners.
//   policy 1 `win-block`: complete an own line if possible, else block the opponent's two in a
//     line, else take the centre, else a random corner, else random.
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"

namespace gaeval::tictactoe {

using BB = Bitboard<1>;

struct Pos {
    BB marks[2];
    uint8_t side = 0;

    // The marks of `seat` (0 or 1) as a word, chosen by comparison: indexing marks by a
    // run-time seat put the position in a GPU thread's local memory.
    GAEVAL_HD_INLINE uint64_t of(int seat) const {
        return seat == 0 ? marks[0].w[0] : marks[1].w[0];
    }
};

struct Move {
    int8_t cell = -1;
};

// The eight lines as 9-bit masks: rows, columns, diagonals.
GAEVAL_HD_INLINE uint64_t line_mask(int i) {
    switch (i) {
        case 0:
            return 0x007;
        case 1:
            return 0x038;
        case 2:
            return 0x1c0;
        case 3:
            return 0x049;
        case 4:
            return 0x092;
        case 5:
            return 0x124;
        case 6:
            return 0x111;
        default:
            return 0x054;
    }
}
constexpr int kLines = 8;
constexpr uint64_t kAllCells = 0x1ff;
constexpr uint64_t kCorners = 0x145;
constexpr uint64_t kCentre = 0x010;

// Whether `marks` holds a whole line.
GAEVAL_HD_INLINE bool has_line(uint64_t marks) {
    for (int i = 0; i < kLines; ++i)
        if ((marks & line_mask(i)) == line_mask(i)) return true;
    return false;
}

struct Game {
    using Pos = tictactoe::Pos;
    using Move = tictactoe::Move;
    static constexpr const char* kName = "tictactoe";
    static constexpr const char* kSummary = "tic-tac-toe on a 3x3 bitboard (the example game)";
    static constexpr int kMaxSeats = 2;
    static constexpr int kFeatureCount = 8;
    static constexpr int kWeightCount = 8;
    static constexpr int kPolicyCount = 1;
    static constexpr const char* kFeatureNames[kFeatureCount] = {
        "own_lines_3",     "own_open_2",      "own_open_1", "opponent_lines_3",
        "opponent_open_2", "opponent_open_1", "own_centre", "own_corners"};
    // Player files of version 1 weighted the raw counts: weight x factor is the same player on
    // the [0, 1] features (host/games/player_file.cpp).
    static constexpr float kVersion1WeightFactors[kFeatureCount] = {8, 8, 8, -8, -8, -8, 1, 4};
    static constexpr const char* kPolicyNames[kPolicyCount] = {"win-block"};

    // The empty board, X to move.
    GAEVAL_HD_INLINE Pos start() const {
        Pos p;
        p.marks[0] = p.marks[1] = BB::none();
        return p;
    }

    GAEVAL_HD_INLINE int seats(const Pos&) const { return 2; }
    GAEVAL_HD_INLINE int to_move(const Pos& p) const { return p.side; }
    GAEVAL_HD_INLINE uint64_t empty(const Pos& p) const {
        return kAllCells & ~(p.marks[0].w[0] | p.marks[1].w[0]);
    }
    GAEVAL_HD_INLINE bool is_over(const Pos& p) const {
        return has_line(p.marks[0].w[0]) || has_line(p.marks[1].w[0]) || empty(p) == 0;
    }
    // Every empty cell, by ascending index (none once the game is over).
    GAEVAL_HD_INLINE int count_moves(const Pos& p) const {
        return is_over(p) ? 0 : popcount64(empty(p));
    }
    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        if (is_over(p)) return;
        for (uint64_t e = empty(p); e; e = clear_lowest(e))
            f(Move{static_cast<int8_t>(lowest_bit(e))});
    }
    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        return Move{static_cast<int8_t>(nth_set_bit(empty(p), k))};
    }
    GAEVAL_HD_INLINE Pos make(const Pos& p, const Move& m) const {
        Pos n = p;
        const uint64_t mark = uint64_t{1} << m.cell;
        n.marks[0].w[0] = p.side == 0 ? p.marks[0].w[0] | mark : p.marks[0].w[0];
        n.marks[1].w[0] = p.side == 0 ? p.marks[1].w[0] : p.marks[1].w[0] | mark;
        n.side = static_cast<uint8_t>(p.side ^ 1);
        return n;
    }
    GAEVAL_HD_INLINE int winner(const Pos& p) const {
        if (has_line(p.marks[0].w[0])) return 0;
        if (has_line(p.marks[1].w[0])) return 1;
        return -1;
    }
    GAEVAL_HD_INLINE SeatResult seat_result(const Pos& p, int seat) const {
        const int w = winner(p);
        return w < 0 ? SeatResult::Draw : w == seat ? SeatResult::Win : SeatResult::Loss;
    }

    // The features of the top of this file in [0, 1], higher is better for `seat`: own line
    // counts over the 8 lines, the opponent's as the complement (8 - count) / 8, the centre as
    // 0 or 1, own corners over 4 (exact: every value is a multiple of 1/8 or 1/4).
    GAEVAL_HD_INLINE void features(const Pos& p, int seat, float* out) const {
        const uint64_t own = p.of(seat), opp = p.of(seat ^ 1);
        int counts[6] = {0, 0, 0, 0, 0, 0};
        for (int i = 0; i < kLines; ++i) {
            const uint64_t line = line_mask(i);
            const int mine = popcount64(own & line), theirs = popcount64(opp & line);
            if (theirs == 0 && mine == 3) ++counts[0];
            if (theirs == 0 && mine == 2) ++counts[1];
            if (theirs == 0 && mine == 1) ++counts[2];
            if (mine == 0 && theirs == 3) ++counts[3];
            if (mine == 0 && theirs == 2) ++counts[4];
            if (mine == 0 && theirs == 1) ++counts[5];
        }
        for (int i = 0; i < 6; ++i)
            out[i] = static_cast<float>(i < 3 ? counts[i] : kLines - counts[i]) /
                     static_cast<float>(kLines);
        out[6] = (own & kCentre) ? 1.0f : 0.0f;
        out[7] = static_cast<float>(popcount64(own & kCorners)) / 4.0f;
    }

    // win-block: the first cell (ascending) that completes an own line, else one that blocks the
    // opponent's, else the centre, else a random free corner, else a random move.
    GAEVAL_HD Move policy_move(const Pos& p, int, const DrawAddress& at) const {
        const uint64_t free_cells = empty(p);
        for (int who = 0; who < 2; ++who) {
            const uint64_t marks = p.of(who == 0 ? p.side : p.side ^ 1);
            for (uint64_t e = free_cells; e; e = clear_lowest(e)) {
                const int c = lowest_bit(e);
                if (has_line(marks | (uint64_t{1} << c))) return Move{static_cast<int8_t>(c)};
            }
        }
        if (free_cells & kCentre) return Move{4};
        const uint64_t corners = free_cells & kCorners;
        const uint64_t pool = corners ? corners : free_cells;
        const uint32_t r = philox(at.seed, Purpose::PlayerRandomMove, at.game, at.ply, 0, 0).v[0];
        const int k = static_cast<int>(below(r, static_cast<uint32_t>(popcount64(pool))));
        return Move{static_cast<int8_t>(nth_set_bit(pool, k))};
    }
};

static_assert(check_game<Game>());

}  // namespace gaeval::tictactoe
