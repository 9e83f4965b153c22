// Connect Four: 7 columns x 6 rows with gravity, the second example game of
// docs/adding-a-game.md. A stone dropped into a column lands on the lowest free cell; four of one
// colour in a row (horizontally, vertically or diagonally) wins; a full board without one is a
// draw. Seat 0 moves first.
//   board: one 64-bit word per seat, column c in bits 7c..7c+5 from the bottom up; bit 7c+6 is
//     always empty, so that shifting by 1 (vertical), 7 (horizontal), 6 and 8 (the diagonals)
//     never carries a line from one column into the next.
//   features (seen by one seat, in [0, 1], higher is better): own four in a row, own open
//     windows (four cells in a line holding no opposing stone) with 3 and with 2 stones, the
//     same two for the opponent (as complements), whether the opponent has no winning drop now,
//     and own stones in the centre column.
//   policy 1 `win-block`: drop to win if possible, else block the opponent's winning drop, else
//     a random column whose drop does not give the opponent the cell above it, else random.
#pragma once

#include <cstdint>

#include "games/core/bits.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"

namespace gaeval::connect4 {

constexpr int kColumns = 7;
constexpr int kRows = 6;
constexpr int kStride = kRows + 1;           // bits per column, the top one a guard
constexpr uint64_t kBottom = 0x40810204081;  // bit 7c of every column
constexpr uint64_t kBoard = kBottom * 0x3f;  // the 42 playable cells
constexpr int kWindows = 69;                 // lines of four cells: 24 + 21 + 12 + 12
constexpr uint64_t kCentreColumn = uint64_t{0x3f} << (3 * kStride);

struct Pos {
    uint64_t stones[2] = {0, 0};
    uint8_t side = 0;

    // The stones of `seat` (0 or 1), chosen by comparison: indexing stones by a run-time seat
    // put the position in a GPU thread's local memory (bench/results/kernel-resources.md).
    GAEVAL_HD_INLINE uint64_t of(int seat) const { return blend(seat == 0, stones[0], stones[1]); }
};

struct Move {
    int8_t column = -1;
};

// Whether `stones` holds four in a row in any of the four directions.
GAEVAL_HD_FORCEINLINE bool has_four(uint64_t stones) {
    const int shifts[4] = {1, kStride, kStride - 1, kStride + 1};
    for (int d = 0; d < 4; ++d) {
        const uint64_t pairs = stones & (stones >> shifts[d]);
        if (pairs & (pairs >> (2 * shifts[d]))) return true;
    }
    return false;
}

// The cell a stone dropped now lands on, for every column that is not full.
GAEVAL_HD_FORCEINLINE uint64_t drop_cells(uint64_t occupied) {
    return (occupied + kBottom) & kBoard;
}

// A loop the device must not unroll: one direction's values live at a time.
#if GAEVAL_DEVICE_PASS
#define GAEVAL_CONNECT4_DIRECTION_LOOP _Pragma("unroll 1")
#else
#define GAEVAL_CONNECT4_DIRECTION_LOOP
#endif

// Windows with exactly 3 and exactly 2 stones of `stones` and none of `other`, counted a
// direction at a time on every start cell at once (bit b of x >> k*step: the window's cell k).
struct OpenWindows {
    int three = 0, two = 0;
};
GAEVAL_HD_FORCEINLINE OpenWindows open_windows(uint64_t stones, uint64_t other) {
    constexpr uint64_t kLeft4 = (uint64_t{1} << (4 * kStride)) - 1;  // columns 0..3
    OpenWindows n;
    GAEVAL_CONNECT4_DIRECTION_LOOP
    for (int d = 0; d < 4; ++d) {
        // Bit steps 1 (vertical), 6 and 8 (the diagonals), 7 (horizontal), and the start cells
        // of the windows whose four cells are on the board.
        const int s = d == 0 ? 1 : kStride - 2 + d;
        const uint64_t starts = d == 0   ? kBottom * 0x07
                                : d == 1 ? kBottom * 0x38 & kLeft4
                                : d == 2 ? kBoard & kLeft4
                                         : kBottom * 0x07 & kLeft4;
        const uint64_t a = stones, b = stones >> s, c = stones >> (2 * s), e = stones >> (3 * s);
        const uint64_t open = starts & ~(other | other >> s | other >> (2 * s) | other >> (3 * s));
        const uint64_t both_ab = a & b, one_ab = a ^ b, both_ce = c & e, one_ce = c ^ e;
        n.three += popcount64(open & ((both_ab & one_ce) | (both_ce & one_ab)));
        n.two +=
            popcount64(open & ((both_ab & ~(c | e)) | (both_ce & ~(a | b)) | (one_ab & one_ce)));
    }
    return n;
}

// The drop cells on which `stones` would complete four in a row.
GAEVAL_HD_INLINE uint64_t winning_drops(uint64_t stones, uint64_t occupied) {
    uint64_t wins = 0;
    for (uint64_t e = drop_cells(occupied); e; e = clear_lowest(e)) {
        const uint64_t cell = e & (~e + 1);
        if (has_four(stones | cell)) wins |= cell;
    }
    return wins;
}

GAEVAL_HD_FORCEINLINE int8_t column_of(uint64_t cell) {
    return static_cast<int8_t>(lowest_bit(cell) / kStride);
}

struct Game {
    using Pos = connect4::Pos;
    using Move = connect4::Move;
    static constexpr const char* kName = "connect4";
    static constexpr const char* kSummary = "Connect Four, 7x6 with gravity, on a bitboard";
    static constexpr int kMaxSeats = 2;
    static constexpr int kFeatureCount = 7;
    static constexpr int kWeightCount = 7;
    static constexpr int kPolicyCount = 1;
    // The one-ply weighted kernels run under the playouts' launch bounds (kernels/batch_ops.hpp:
    // one_ply_fits_bounds_v): at most 64 registers, no stack.
    static constexpr bool kOnePlyFitsBounds = true;
    static constexpr const char* kFeatureNames[kFeatureCount] = {
        "own_four",        "own_open_3",          "own_open_2", "opponent_open_3",
        "opponent_open_2", "opponent_cannot_win", "own_centre"};
    static constexpr const char* kPolicyNames[kPolicyCount] = {"win-block"};

    // The empty board, seat 0 to move.
    GAEVAL_HD_INLINE Pos start() const { return Pos{}; }

    GAEVAL_HD_INLINE int seats(const Pos&) const { return 2; }
    GAEVAL_HD_INLINE int to_move(const Pos& p) const { return p.side; }
    GAEVAL_HD_FORCEINLINE uint64_t occupied(const Pos& p) const {
        return p.stones[0] | p.stones[1];
    }
    GAEVAL_HD_FORCEINLINE bool is_over(const Pos& p) const {
        return has_four(p.stones[0]) || has_four(p.stones[1]) || occupied(p) == kBoard;
    }
    // One move per column that is not full, by ascending column (none once the game is over).
    GAEVAL_HD_FORCEINLINE int count_moves(const Pos& p) const {
        return is_over(p) ? 0 : popcount64(drop_cells(occupied(p)));
    }
    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        if (is_over(p)) return;
        for (uint64_t e = drop_cells(occupied(p)); e; e = clear_lowest(e)) f(Move{column_of(e)});
    }
    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        return Move{static_cast<int8_t>(nth_set_bit(drop_cells(occupied(p)), k) / kStride)};
    }
    GAEVAL_HD_FORCEINLINE Pos make(const Pos& p, const Move& m) const {
        Pos n = p;
        const uint64_t column = uint64_t{0x3f} << (m.column * kStride);
        const uint64_t stone = drop_cells(occupied(p)) & column;
        n.stones[0] = blend(p.side == 0, p.stones[0] | stone, p.stones[0]);
        n.stones[1] = blend(p.side == 0, p.stones[1], p.stones[1] | stone);
        n.side = static_cast<uint8_t>(p.side ^ 1);
        return n;
    }
    GAEVAL_HD_INLINE int winner(const Pos& p) const {
        if (has_four(p.stones[0])) return 0;
        if (has_four(p.stones[1])) return 1;
        return -1;
    }
    GAEVAL_HD_INLINE SeatResult seat_result(const Pos& p, int seat) const {
        const int w = winner(p);
        return w < 0 ? SeatResult::Draw : w == seat ? SeatResult::Win : SeatResult::Loss;
    }
    // The move as one number for the record's move hash (games/core/match.hpp).
    GAEVAL_HD_INLINE uint64_t move_code(const Move& m) const {
        return static_cast<uint64_t>(static_cast<uint8_t>(m.column));
    }

    // The features of the top of this file in [0, 1], higher is better for `seat`: window counts
    // over the 69 windows (the opponent's as (69 - count) / 69), the two yes/no features as 0 or
    // 1, centre stones over the column's 6 cells.
    GAEVAL_HD_INLINE void features(const Pos& p, int seat, float* out) const {
        const uint64_t own = p.of(seat), opp = p.of(seat ^ 1);
        const OpenWindows mine = open_windows(own, opp), theirs = open_windows(opp, own);
        const float windows = static_cast<float>(kWindows);
        out[0] = has_four(own) ? 1.0f : 0.0f;
        out[1] = static_cast<float>(mine.three) / windows;
        out[2] = static_cast<float>(mine.two) / windows;
        out[3] = static_cast<float>(kWindows - theirs.three) / windows;
        out[4] = static_cast<float>(kWindows - theirs.two) / windows;
        out[5] = (is_over(p) || winning_drops(opp, occupied(p)) == 0) ? 1.0f : 0.0f;
        out[6] = static_cast<float>(popcount64(own & kCentreColumn)) / static_cast<float>(kRows);
    }

    // win-block: the lowest column whose drop wins, else the lowest that blocks the opponent's
    // winning drop, else a random column whose drop leaves the cell above it not a winning drop
    // for the opponent, else a random column.
    GAEVAL_HD Move policy_move(const Pos& p, int, const DrawAddress& at) const {
        const uint64_t taken = occupied(p), drops = drop_cells(taken);
        const uint64_t own = p.of(p.side), opp = p.of(p.side ^ 1);
        const uint64_t wins = winning_drops(own, taken);
        if (wins) return Move{column_of(wins)};
        const uint64_t blocks = winning_drops(opp, taken);
        if (blocks) return Move{column_of(blocks)};
        uint64_t safe = 0;
        for (uint64_t e = drops; e; e = clear_lowest(e)) {
            const uint64_t cell = e & (~e + 1), above = (cell << 1) & kBoard;
            if (!above || !has_four(opp | above)) safe |= cell;
        }
        const uint64_t pool = safe ? safe : drops;
        const uint32_t r = philox(at.seed, Purpose::PlayerRandomMove, at.game, at.ply, 0, 0).v[0];
        const int k = static_cast<int>(below(r, static_cast<uint32_t>(popcount64(pool))));
        return Move{static_cast<int8_t>(nth_set_bit(pool, k) / kStride)};
    }
};

static_assert(check_game<Game>());

}  // namespace gaeval::connect4
