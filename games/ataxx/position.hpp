// Positions and moves of the Ataxx family: pieces of up to P players on a W-word board, the side
// to move and the two FEN counters. Trivially copyable (copied to the device by value).
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/hd.hpp"

namespace gaeval::ataxx {

// A value in a playout's scratch, read and written in place: on the device a volatile access
// (the compiler keeps no copy in a register across a loop), on the cpu a plain one.
template <class T>
GAEVAL_HD_FORCEINLINE T scratch_read(const T& x) {
#if GAEVAL_DEVICE_PASS
    return *static_cast<const volatile T*>(&x);
#else
    return x;
#endif
}
template <class T>
GAEVAL_HD_FORCEINLINE void scratch_write(T& x, T value) {
#if GAEVAL_DEVICE_PASS
    *static_cast<volatile T*>(&x) = value;
#else
    x = value;
#endif
}

// `ataxx`: libataxx-compatible (2 players, 50-move rule, game over when a side has no pieces or
// no empty cell is in reach of any piece). `genetic-game`: the seed's rules (2 to 4 players,
// over when at most one player has pieces or no empty cell is in reach; a sole survivor owns
// the empty cells). Values are part of saved results: append, never renumber.
enum class RuleSet : uint8_t { Ataxx = 0, GeneticGame = 1 };

// The size classes: boards of up to 64, 128 or 256 cells in 1, 2 or 4 words; larger boards are
// rejected at the edge (host/ataxx).
constexpr int kMaxWords = 4;
constexpr int kMaxCells = 64 * kMaxWords;

// Words needed for `cells` cells: 1, 2 or 4; 0 when cells > kMaxCells (too large).
GAEVAL_HD_FORCEINLINE constexpr int words_for_cells(int cells) {
    return cells <= 64 ? 1 : cells <= 128 ? 2 : cells <= 256 ? 4 : 0;
}

// The 50-move rule of `ataxx`: over when the halfmove clock reaches this.
constexpr int kAtaxxHalfmoveLimit = 100;
// Most players a genetic-game position may have.
constexpr int kMaxPlayers = 4;

// A grow has from == to, a jump from != to, a pass from == to == -1.
struct Move {
    int16_t from = -1;
    int16_t to = -1;

    // The three kinds of move and tests for them (cells are the geometry's indexes).
    GAEVAL_HD_FORCEINLINE static Move grow(int to) {
        return Move{static_cast<int16_t>(to), static_cast<int16_t>(to)};
    }
    GAEVAL_HD_FORCEINLINE static Move jump(int from, int to) {
        return Move{static_cast<int16_t>(from), static_cast<int16_t>(to)};
    }
    GAEVAL_HD_FORCEINLINE static Move pass() { return Move{-1, -1}; }
    GAEVAL_HD_FORCEINLINE bool is_pass() const { return to < 0; }
    GAEVAL_HD_FORCEINLINE bool is_grow() const { return to >= 0 && from == to; }
    GAEVAL_HD_FORCEINLINE bool is_jump() const { return from != to; }
    GAEVAL_HD_FORCEINLINE bool operator==(const Move& o) const {
        return from == o.from && to == o.to;
    }
};

// pieces[p] for p < players (the rest stay empty); side in [0, players).
template <int W, int P>
struct Position {
    static_assert(P >= 2 && P <= kMaxPlayers, "2 to 4 player slots");
    using BB = Bitboard<W>;
    static constexpr int kPlayerSlots = P;

    BB pieces[P];
    uint8_t side = 0;
    uint8_t players = 2;
    uint16_t halfmove = 0;  // plies since the last grow (saturates at 65535)
    uint32_t fullmove = 1;  // starts at 1, +1 each time the turn wraps to player 0

    // The pieces of `player`, chosen by comparing the player with each slot: indexing pieces by
    // a run-time player put the position in a GPU thread's local memory.
    GAEVAL_HD_FORCEINLINE BB of(int player) const {
        BB r = pieces[0];
        for (int i = 1; i < P; ++i)
            for (int k = 0; k < BB::kWords; ++k)
                r.w[k] = blend(player == i, pieces[i].w[k], r.w[k]);
        return r;
    }
};

}  // namespace gaeval::ataxx
