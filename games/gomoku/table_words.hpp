// The reward-table player (players.hpp) computed 32 cells at a time, so that a GPU thread keeps
// it in registers with no local memory: the whole-board form holds tens of bitboards at once
// (the pattern windows of four directions, both sides' threats, 11 rank sets: 255 registers and
// kilobytes of spills a thread), this form a few 32-bit halves of words. Every cell gets the
// threat levels, candidacy and rank of threats.hpp and players.hpp (the same patterns, each
// read at its offset from the cell instead of shifted as a whole board), and the move is the
// same cell drawn with the same draw words (tests/test_gomoku_words.cpp checks it against the
// whole-board form on random positions).
//
// Half h of a board is cells 32 h .. 32 h + 31, read from the 64-bit words by comparing word
// indexes (blend: no array indexed at run time), and the loops over halves and directions run
// one iteration at a time on the device (GAEVAL_NO_UNROLL: unrolled, their values all lived at
// once). Three passes over the halves: (1) whether each side has a five-point (a side's levels
// depend on whether the opponent has one anywhere); (2) the ranks present and their cell
// counts; (3) the drawn cell of the drawn rank. It costs more instructions than the whole-board
// form (each half reads its windows anew); the CPU runs the same code.
#pragma once

#include <cstdint>
#include <utility>

#include "games/core/bitboard.hpp"
#include "games/core/bits.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/gomoku/board.hpp"

namespace gaeval::gomoku {

constexpr int kRanks = 11;
constexpr int kWeightCount = kRanks + 1;  // the rewards and K
constexpr int kAcceptance = kRanks;       // index of K

// The rank the reward-table player picks among the ranks whose bits are set in `present` (bit r:
// rank index r has a cell), with weight(r) the reward of rank r and weight(kAcceptance) K (see
// players.hpp), drawn with word `x`; -1 when no rank is present.
template <class Weight>
GAEVAL_HD_INLINE int accepted_rank_of(uint32_t present, const Weight& weight, uint32_t x) {
    bool any = false;
    float best = 0.0f;
    for (int r = 0; r < kRanks; ++r) {
        const float w = weight(r);
        if (((present >> r) & 1u) && (!any || best < w)) {
            best = w;
            any = true;
        }
    }
    if (!any) return -1;
    const float k = weight(kAcceptance);
    const float acceptance = k > 0.0f ? k : 0.0f;
    const float threshold = best - acceptance * (best < 0.0f ? -best : best);
    int accepted = 0;
    for (int r = 0; r < kRanks; ++r)
        if (((present >> r) & 1u) && !(weight(r) < threshold)) ++accepted;
    int pick = static_cast<int>(below(x, static_cast<uint32_t>(accepted)));
    for (int r = 0; r < kRanks; ++r) {
        if (!((present >> r) & 1u) || weight(r) < threshold) continue;
        if (pick-- == 0) return r;
    }
    return -1;  // not reached: the best rank is always accepted
}

namespace words {

// Calls f(std::integral_constant<int, I>{}) for I = 0 .. W - 1, in order.
template <class F, int... I>
GAEVAL_HD_FORCEINLINE void for_each_word_impl(F& f, std::integer_sequence<int, I...>) {
    (f(std::integral_constant<int, I>{}), ...);
}
template <int W, class F>
GAEVAL_HD_FORCEINLINE void for_each_word(F&& f) {
    for_each_word_impl(f, std::make_integer_sequence<int, W>{});
}

// Word j of b (0 outside the words), chosen by comparing j with each word index.
template <int W>
GAEVAL_HD_FORCEINLINE uint64_t word_of(const Bitboard<W>& b, int j) {
    uint64_t x = 0;
    for (int k = 0; k < W; ++k) x = blend(j == k, b.w[k], x);
    return x;
}

// Half-word h of b (cells 32 h .. 32 h + 31).
template <int W>
GAEVAL_HD_FORCEINLINE uint32_t half_of(const Bitboard<W>& b, int h) {
    return static_cast<uint32_t>(word_of(b, h >> 1) >> (32 * (h & 1)));
}

// Half-word h (cells 32 h .. 32 h + 31) of the set whose cell c is cell c + d of the set with
// 64-bit words word(j) (0 outside the words; cells off the words are in no set): half h of
// shifted_down(d) for d >= 0, of shifted_up(-d) below. |d| < 192.
template <class Word>
GAEVAL_HD_FORCEINLINE uint32_t at(const Word& word, int h, int d) {
    const int from = 32 * h + d + 192;  // the first cell, 3 words up (non-negative)
    const int q = (from >> 6) - 3, r = from & 63;
    // (x << 1) << (63 - r) is x << (64 - r), and 0 for r == 0
    return static_cast<uint32_t>((word(q) >> r) | ((word(q + 1) << 1) << (63 - r)));
}

// The board of a move: the stones of both seats, read half a word at a time. The empty cells are
// the board's cells (constants) without either seat's stones, read at the same offset: no word
// of them is kept (a register each on the device).
template <class Geo>
struct Board {
    using BB = typename Geo::BB;
    static constexpr int W = Geo::kWords;
    const BB& black;
    const BB& white;
    // Half h of the cells of b / of the board at offset d (at).
    GAEVAL_HD_FORCEINLINE uint32_t stones_at(const BB& b, int h, int d) const {
        return at([&](int j) { return word_of(b, j); }, h, d);
    }
    GAEVAL_HD_FORCEINLINE uint32_t cells_at(int h, int d) const {
        return at(
            [&](int j) {
                uint64_t x = 0;
                for_each_word<W>([&](auto word) {
                    constexpr int K = decltype(word)::value;
                    constexpr uint64_t kBoard = board_word(Geo::kSize, K);
                    x = blend(j == K, kBoard, x);
                });
                return x;
            },
            h, d);
    }
    // Half h of the empty cells.
    GAEVAL_HD_FORCEINLINE uint32_t empty_half(int h) const {
        return cells_at(h, 0) & ~(stones_at(black, h, 0) | stones_at(white, h, 0));
    }
    // Half h of the empty cells within two king steps of a stone: players.hpp's
    // neighbours(neighbours(all) | all) & empty, read cell by offset (a cell at most two columns
    // and two rows from a stone; two columns across an edge would wrap into the next row, so
    // those offsets keep only the cells whose column stays on the board).
    GAEVAL_HD_INLINE uint32_t near_half(int h) const {
        uint32_t around = 0;
        GAEVAL_NO_UNROLL
        for (int dy = -2; dy <= 2; ++dy) {
            for (int dx = -2; dx <= 2; ++dx) {
                const int d = dx + dy * Geo::kStride;
                const uint32_t stones = stones_at(black, h, d) | stones_at(white, h, d);
                uint32_t columns = ~uint32_t{0};
                if (dx == 2 || dx == -2) {
                    uint64_t x = 0;
                    for_each_word<W>([&](auto word) {
                        constexpr int K = decltype(word)::value;
                        constexpr uint64_t kLeft = columns_word(K, 0, Geo::kSize - 3);
                        constexpr uint64_t kRight = columns_word(K, 2, Geo::kSize - 1);
                        x = blend(h >> 1 == K, dx == 2 ? kLeft : kRight, x);
                    });
                    columns = static_cast<uint32_t>(x >> (32 * (h & 1)));
                }
                around |= stones & columns;
            }
        }
        return around & empty_half(h);
    }
    // Word k of the board cells in columns from .. to.
    GAEVAL_HD_INLINE static constexpr uint64_t columns_word(int k, int from, int to) {
        uint64_t bits = 0;
        for (int b = 0; b < 64; ++b) {
            const int cell = 64 * k + b;
            const int column = cell % Geo::kStride;
            if (cell < Geo::kCellRange && column >= from && column <= to) bits |= uint64_t{1} << b;
        }
        return bits;
    }
};

// The patterns of threats.hpp's line_threats in direction `step` for the cells of half-word `h`,
// for `side`: a window with the cell at position P starts P steps before the cell, so window
// position k is read at offset (k - P) steps from the cell. The halves at offsets -6 .. 6 steps
// (own stones) and -5 .. 5 (empty cells) are read once, into own_at and empty_at.
template <class Geo>
struct Line {
    uint32_t own_at[13], empty_at[11];
    bool exact;
    GAEVAL_HD_FORCEINLINE Line(const Board<Geo>& board, int side, int h, int step, bool exact_five)
        : exact(exact_five) {
        for_each_word<13>([&](auto m) {
            constexpr int M = decltype(m)::value - 6;
            const uint32_t black = board.stones_at(board.black, h, M * step);
            const uint32_t white = board.stones_at(board.white, h, M * step);
            own_at[M + 6] = side == 0 ? black : white;
            if constexpr (M >= -5 && M <= 5)
                empty_at[M + 5] = board.cells_at(h, M * step) & ~(black | white);
        });
    }
    template <int M>
    GAEVAL_HD_FORCEINLINE uint32_t o() const {
        return own_at[M + 6];
    }
    template <int M>
    GAEVAL_HD_FORCEINLINE uint32_t e() const {
        return empty_at[M + 5];
    }
    // No own stone just before or after the window of length L (standard rules), the cell at P.
    template <int P, int L>
    GAEVAL_HD_FORCEINLINE uint32_t exact_ends() const {
        return exact ? ~(o<-P - 1>() | o<L - P>()) : ~uint32_t{0};
    }
    // Own stones at window positions From .. To - 1 other than X and Y, the cell at P.
    template <int P, int From, int To, int X, int Y>
    GAEVAL_HD_FORCEINLINE uint32_t own_except() const {
        if constexpr (From >= To)
            return ~uint32_t{0};
        else if constexpr (From == X || From == Y)
            return own_except<P, From + 1, To, X, Y>();
        else
            return o<From - P>() & own_except<P, From + 1, To, X, Y>();
    }
    // Cells that complete a five (empty or not): the cell at hole P of a window of 4 own stones.
    template <int P = 0>
    GAEVAL_HD_FORCEINLINE uint32_t five() const {
        if constexpr (P == 5)
            return 0;
        else
            return (exact_ends<P, 5>() & own_except<P, 0, 5, P, P>()) | five<P + 1>();
    }
    // Cells whose stone makes a five-point D steps ahead (the cell at P, the hole at P + D) or
    // D steps behind (the cell at P + D, the hole at P), for D in 1 .. 4: line_threats'
    // by_offset[4 + D] and by_offset[4 - D], without the cell's own emptiness.
    template <int D, int P = 0>
    GAEVAL_HD_FORCEINLINE uint32_t four_ahead() const {
        if constexpr (P + D > 4)
            return 0;
        else
            return (e<D>() & exact_ends<P, 5>() & own_except<P, 0, 5, P, P + D>()) |
                   four_ahead<D, P + 1>();
    }
    template <int D, int P = 0>
    GAEVAL_HD_FORCEINLINE uint32_t four_behind() const {
        if constexpr (P + D > 4)
            return 0;
        else
            return (e<-D>() & exact_ends<P + D, 5>() & own_except<P + D, 0, 5, P, P + D>()) |
                   four_behind<D, P + 1>();
    }
    // Cells that make an open three: a window of 6 with empty ends, the cell at P and the other
    // hole at Q among the middle positions 1 .. 4, own stones on the other two.
    template <int P, int Q>
    GAEVAL_HD_FORCEINLINE uint32_t three_at() const {
        if constexpr (P == Q)
            return 0;
        else
            return e<-P>() & e<5 - P>() & e<Q - P>() & exact_ends<P, 6>() &
                   own_except<P, 1, 5, P, Q>();
    }
    template <int P>
    GAEVAL_HD_FORCEINLINE uint32_t three_with() const {
        return three_at<P, 1>() | three_at<P, 2>() | three_at<P, 3>() | three_at<P, 4>();
    }
    GAEVAL_HD_FORCEINLINE uint32_t three() const {
        return three_with<1>() | three_with<2>() | three_with<3>() | three_with<4>();
    }
};

// The shift of line direction d (0 row, 1 column, 2 diagonal, 3 anti-diagonal).
template <class Geo>
GAEVAL_HD_FORCEINLINE int direction_step(int d) {
    return d == 0   ? Geo::kRow
           : d == 1 ? Geo::kColumn
           : d == 2 ? Geo::kDiagonal
                    : Geo::kAntiDiagonal;
}

// counts up to two (threats.hpp's count_two, one word)
GAEVAL_HD_FORCEINLINE void count_two(uint32_t& ones, uint32_t& twos, uint32_t x) {
    twos |= ones & x;
    ones |= x;
}

// Half h of the five-points of `side` (threats.hpp's five_points).
template <class Geo>
GAEVAL_HD_INLINE uint32_t five_points(const Board<Geo>& board, int side, int h, bool exact) {
    uint32_t fives = 0;
    GAEVAL_NO_UNROLL
    for (int d = 0; d < 4; ++d)
        fives |= Line<Geo>(board, side, h, direction_step<Geo>(d), exact).five();
    return board.empty_half(h) & fives;
}

// Half h of threats.hpp's threat levels 1 to 3 of a side.
struct LevelWords {
    uint32_t l1 = 0, l2 = 0, l3 = 0;
};

// Half h of the levels of `side`, whose opponent has a five-point somewhere (opponent_five) or
// not (threats.hpp's side_threats and threat_levels, one direction at a time).
template <class Geo>
GAEVAL_HD_INLINE LevelWords side_levels(const Board<Geo>& board, int side, int h, bool exact,
                                        bool opponent_five) {
    LevelWords out;
    if (opponent_five) {
        out.l1 = five_points(board, side, h, exact);
        return out;
    }
    const uint32_t empty = board.empty_half(h);
    uint32_t five = 0, double_four = 0, fours = 0, two_fours = 0, threes = 0, two_threes = 0,
             four_three = 0;
    GAEVAL_NO_UNROLL
    for (int d = 0; d < 4; ++d) {
        const Line<Geo> line(board, side, h, direction_step<Geo>(d), exact);
        uint32_t ones = 0, twos = 0;
        count_two(ones, twos, line.template four_behind<4>());
        count_two(ones, twos, line.template four_behind<3>());
        count_two(ones, twos, line.template four_behind<2>());
        count_two(ones, twos, line.template four_behind<1>());
        count_two(ones, twos, line.template four_ahead<1>());
        count_two(ones, twos, line.template four_ahead<2>());
        count_two(ones, twos, line.template four_ahead<3>());
        count_two(ones, twos, line.template four_ahead<4>());
        const uint32_t four = empty & ones;
        const uint32_t three = empty & line.three();
        five |= empty & line.five();
        double_four |= empty & twos;
        four_three |= (four & threes) | (three & fours);
        count_two(fours, two_fours, four);
        count_two(threes, two_threes, three);
    }
    out.l1 = five | double_four | two_fours;
    out.l2 = (four_three | two_threes) & ~out.l1;
    out.l3 = (fours | threes) & ~(out.l1 | out.l2);
    return out;
}

// Half h of each rank's cells (players.hpp's rank_cells over candidate_cells) for the mover
// `side`, as f(r, cells) for r = 0 .. kRanks - 1.
template <class Geo, class F>
GAEVAL_HD_INLINE void rank_words(const Board<Geo>& board, int side, int h, bool exact, bool five0,
                                 bool five1, uint32_t first_cells, bool first_stone, F&& f) {
    // the candidates near the stones; on an empty board the first stone's (first_cells)
    const uint32_t near_word = first_stone ? first_cells : board.near_half(h);
    const LevelWords own = side_levels(board, side, h, exact, side == 0 ? five1 : five0);
    const LevelWords enemy = side_levels(board, side ^ 1, h, exact, side == 0 ? five0 : five1);
    const uint32_t candidates =
        first_stone ? near_word
                    : near_word | own.l1 | own.l2 | own.l3 | enemy.l1 | enemy.l2 | enemy.l3;
    const uint32_t o1 = own.l1 & candidates, o2 = own.l2 & candidates, o3 = own.l3 & candidates;
    const uint32_t o4 = candidates & ~(o1 | o2 | o3);
    const uint32_t e1 = enemy.l1 & candidates, e2 = enemy.l2 & candidates,
                   e3 = enemy.l3 & candidates;
    const uint32_t e4 = candidates & ~(e1 | e2 | e3);
    f(0, o1);
    f(1, e1 & ~o1);
    f(2, o2 & e2);
    f(3, o2 & e3);
    f(4, o2 & e4);
    f(5, o3 & e2);
    f(6, o4 & e2);
    f(7, o3 & e3);
    f(8, o3 & e4);
    f(9, o4 & e3);
    f(10, o4 & e4);
}

}  // namespace words

// The reward-table player's cell (players.hpp's reward_table_move) for the mover `side` with
// stones black and white (seats 0 and 1), weight(r) the reward of rank r and weight(kAcceptance)
// K. Draws: key `seed`, counter (game, ply, 0, 0) of Purpose::GomokuMove: word 0 picks the rank,
// word 1 the cell. Requires an empty cell. Bit for bit on both backends (integers, and the
// float comparisons of accepted_rank_of).
// (The stones and the weights come by value: where the device calls this function instead of
// inlining it, arguments passed by reference went to local memory to have an address.)
template <class Geo, class Weight>
GAEVAL_HD int reward_table_cell(const typename Geo::BB black, const typename Geo::BB white,
                                int side, bool exact, Weight weight, uint64_t seed, uint32_t game,
                                uint32_t ply) {
    using BB = typename Geo::BB;
    constexpr int W = Geo::kWords;
    const words::Board<Geo> board{black, white};
    const BB all = black | white;
    const BB empty = Geo::board().minus(all);
    // The first stone's candidate (players.hpp's candidate_cells): the centre, which is empty
    // when no stone is on the board; later candidates are read half by half (rank_words).
    const bool first_stone = all.empty();
    const BB centre = BB::cell(Geo::cell(Geo::kSize / 2, Geo::kSize / 2));
    // (1) five-points anywhere
    uint64_t fives0 = 0, fives1 = 0;
    GAEVAL_NO_UNROLL
    for (int h = 0; h < 2 * W; ++h) {
        fives0 |= words::five_points(board, 0, h, exact);
        fives1 |= words::five_points(board, 1, h, exact);
    }
    const bool five0 = fives0 != 0, five1 = fives1 != 0;
    // (2) the ranks present, and their cell counts in 16-bit fields (4 ranks a word)
    uint32_t present = 0;
    uint64_t counts0 = 0, counts1 = 0, counts2 = 0;
    GAEVAL_NO_UNROLL
    for (int h = 0; h < 2 * W; ++h) {
        words::rank_words(board, side, h, exact, five0, five1, words::half_of(centre, h),
                          first_stone, [&](int r, uint32_t cells) {
                              const uint64_t n = static_cast<uint64_t>(popcount64(cells));
                              present |= (cells != 0 ? 1u : 0u) << r;
                              const int shift = 16 * (r & 3);
                              if (r < 4)
                                  counts0 += n << shift;
                              else if (r < 8)
                                  counts1 += n << shift;
                              else
                                  counts2 += n << shift;
                          });
    }
    const Random4 draw = philox(seed, Purpose::GomokuMove, game, ply, 0, 0);
    const int rank = accepted_rank_of(present, weight, draw.v[0]);
    if (rank < 0) return empty.lowest();  // not reached: the candidates are never empty
    const uint64_t counts = rank < 4 ? counts0 : rank < 8 ? counts1 : counts2;
    const uint32_t cells = static_cast<uint32_t>((counts >> (16 * (rank & 3))) & 0xffffu);
    // (3) the k-th cell of the drawn rank
    int k = static_cast<int>(below(draw.v[1], cells));
    GAEVAL_NO_UNROLL
    for (int h = 0; h < 2 * W; ++h) {
        uint32_t mine = 0;
        words::rank_words(board, side, h, exact, five0, five1, words::half_of(centre, h),
                          first_stone, [&](int r, uint32_t cells_of_r) {
                              if (r == rank) mine = cells_of_r;
                          });
        const int n = popcount64(mine);
        if (k < n) return 32 * h + nth_set_bit(mine, k);
        k -= n;
    }
    return empty.lowest();  // not reached: the rank has `cells` cells
}

}  // namespace gaeval::gomoku
