// Gomoku as a game of the plug-in interface (games/core/game.hpp) on an N x N board (board.hpp):
// black (seat 0) moves first, players place one stone per turn on any empty cell, and the first
// to make five in a row (rules: freestyle, five or more; standard, exactly five) wins; a full
// board without a winner is a draw (published rules: Gomoku, "Renju International Federation"
// and Gomocup rule sets "freestyle" and "exact five").
//
// Openings (start_match): with the `centre` opening set, match `index` of a batch keyed by
// `seed` starts from opening index / 2: 2 to 4 stones (uniform) placed one by one, black first
// and colours alternating, on uniformly drawn free cells of the central 7x7 square; then the
// other side moves. Matches 2k and 2k + 1 share an opening, so a batch that alternates A's seat
// with the index (gaeval play, verification) plays both colours of every opening, and so does a
// tournament that schedules the two colours of a pair as consecutive games (round-robin:2, the
// paired-blend duel). The `none` set starts every match from the empty board.
//
// The weighted player is the seed's reward table (players.hpp, 11 rewards and K) at depth 1 and
// weighted-search (the table inside a threat search) at depth 2 and more; policies:
//   1 seed-table     the reward table with the seed's initial rewards and K = 0
//   2 threat-search  fives, forced blocks, VCF search for both sides, else seed-table
#pragma once

#include <cstdint>

#include "games/core/bitboard.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/gomoku/board.hpp"
#include "games/gomoku/cell_codes.hpp"
#include "games/gomoku/players.hpp"
#include "games/gomoku/threats.hpp"

namespace gaeval::gomoku {

// Opening sets; values are part of saved setups: append, never renumber.
enum class Opening : uint8_t { None = 0, Centre = 1 };

// Built-in policies (player files and the CLI name them; values are part of saved results).
enum Policy : int { kSeedTable = 1, kThreatSearch = 2 };

struct Move {
    int16_t cell = -1;
};

template <int N>
struct Pos {
    using BB = typename Geometry<N>::BB;
    BB stones[2];        // seat 0 black, seat 1 white
    uint16_t count = 0;  // stones on the board
    uint8_t side = 0;    // seat to move
    int8_t winner = -1;  // the seat that made five, or -1
};

template <int N>
struct Game {
    using Geo = Geometry<N>;
    using BB = typename Geo::BB;
    using Pos = gomoku::Pos<N>;
    using Move = gomoku::Move;
    static constexpr int kMaxSeats = 2;
    static constexpr int kWeightCount = gomoku::kWeightCount;
    static constexpr int kPolicyCount = 2;
    static constexpr bool kHasPerft = false;  // N! / (N - d)! until the first five: no test

    RuleSet rule = RuleSet::Freestyle;
    Opening opening = Opening::Centre;

    GAEVAL_HD_INLINE bool exact() const { return rule == RuleSet::Standard; }

    // The empty board, black to move.
    GAEVAL_HD_INLINE Pos start() const {
        Pos p;
        p.stones[0] = p.stones[1] = BB::none();
        return p;
    }
    GAEVAL_HD_INLINE BB empty(const Pos& p) const {
        return Geo::board().minus(p.stones[0] | p.stones[1]);
    }

    GAEVAL_HD_INLINE int seats(const Pos&) const { return 2; }
    GAEVAL_HD_INLINE int to_move(const Pos& p) const { return p.side; }
    GAEVAL_HD_INLINE bool is_over(const Pos& p) const { return p.winner >= 0 || p.count == N * N; }
    // Every empty cell, by ascending index (none once the game is over).
    GAEVAL_HD_INLINE int count_moves(const Pos& p) const {
        return is_over(p) ? 0 : N * N - p.count;
    }
    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        if (is_over(p)) return;
        for_each_cell(empty(p), [&](int c) { f(Move{static_cast<int16_t>(c)}); });
    }
    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        return Move{static_cast<int16_t>(nth_free(p, Geo::board(), k))};
    }
    // The empty cells of p in `area`: their count and the k-th (from 0) by ascending index,
    // word by word (a playout's position stays in its scratch).
    GAEVAL_HD_INLINE static int count_free(const Pos& p, const BB& area) {
        int n = 0;
        for (int i = 0; i < Geo::kWords; ++i)
            n += popcount64(area.w[i] & ~(p.stones[0].w[i] | p.stones[1].w[i]));
        return n;
    }
    GAEVAL_HD_INLINE static int nth_free(const Pos& p, const BB& area, int k) {
        int i = 0;
        uint64_t cells = 0;
        for (; i < Geo::kWords; ++i) {
            cells = area.w[i] & ~(p.stones[0].w[i] | p.stones[1].w[i]);
            const int n = popcount64(cells);
            if (k < n) break;
            k -= n;
        }
        return 64 * i + nth_set_bit(cells, k);
    }
    // The five is looked for on the whole board, so any position may be given.
    GAEVAL_HD_INLINE Pos make(const Pos& p, const Move& m) const {
        Pos n = p;
        const int side = n.side;
        n.stones[side].set(m.cell);
        end_turn(n, has_five<Geo>(n.stones[side], exact()));
        return n;
    }
    // The same on p itself, the five looked for on the four lines through the new stone only
    // (five_through): the same result whenever p has no five (a game's first five ends it), which
    // every position reached from start() by moves and openings satisfies (the sessions' starts
    // are start() and its children). For playouts in scratch: p is read word by word.
    GAEVAL_HD_INLINE void make_in_place(Pos& p, const Move& m) const {
        const int side = p.side;
        p.stones[side].w[m.cell >> 6] |= uint64_t{1} << (m.cell & 63);
        end_turn(p, five_through<Geo>(p.stones[side], m.cell, exact()));
    }
    GAEVAL_HD_INLINE static void end_turn(Pos& p, bool five) {
        ++p.count;
        if (five) p.winner = static_cast<int8_t>(p.side);
        p.side = static_cast<uint8_t>(p.side ^ 1);
    }
    GAEVAL_HD_INLINE int winner(const Pos& p) const { return p.winner; }
    GAEVAL_HD_INLINE SeatResult seat_result(const Pos& p, int seat) const {
        return p.winner < 0       ? SeatResult::Draw
               : p.winner == seat ? SeatResult::Win
                                  : SeatResult::Loss;
    }

    // The cells of the central 7x7 square (on boards under 7x7, its cells on the board).
    GAEVAL_HD_INLINE static BB centre_square() {
        constexpr int kFrom = N / 2 - 3 > 0 ? N / 2 - 3 : 0,
                      kTo = N / 2 + 3 < N ? N / 2 + 3 : N - 1;
        BB b = BB::none();
        for (int y = kFrom; y <= kTo; ++y)
            for (int x = kFrom; x <= kTo; ++x) b.set(Geo::cell(x, y));
        return b;
    }

    // The opening of match `index` (header comment): draws of Purpose::GomokuOpening with
    // counter (index / 2, 0, 0, 0) for the stone count and (index / 2, 1 + i, 0, 0) for stone i.
    GAEVAL_HD Pos start_match(const Pos& start, uint64_t seed, uint32_t index) const {
        Pos p = start;
        open_in_place<false>(p, seed, index);
        return p;
    }
    // The opening's stones placed on p itself, by make_in_place (kInScratch: p is a playout's
    // scratch) or by make.
    template <bool kInScratch>
    GAEVAL_HD_INLINE void open_in_place(Pos& p, uint64_t seed, uint32_t index) const {
        if (opening == Opening::None) return;
        const uint32_t id = index / 2;
        const uint32_t stones =
            2 + below(philox(seed, Purpose::GomokuOpening, id, 0, 0, 0).v[0], 3);
        for (uint32_t i = 0; i < stones; ++i) {
            // draw_cell on the free cells of the square, word by word.
            const int free_cells = count_free(p, centre_square());
            if (free_cells == 0 || is_over(p)) break;
            const uint32_t x = philox(seed, Purpose::GomokuOpening, id, 1 + i, 0, 0).v[0];
            const int k = static_cast<int>(below(x, static_cast<uint32_t>(free_cells)));
            const Move m{static_cast<int16_t>(nth_free(p, centre_square(), k))};
            if constexpr (kInScratch)
                make_in_place(p, m);
            else
                p = make(p, m);
        }
    }

    // The reward-table player (players.hpp) with 11 rewards and K.
    GAEVAL_HD Move weighted_move(const Pos& p, const float* weights, const DrawAddress& at) const {
        return Move{static_cast<int16_t>(
            reward_table_move<Geo>(p.stones, p.side, exact(), weights, at.seed, at.game, at.ply))};
    }

    // The weighted player of a player spec: depth 1, the reward table (the seed's player);
    // depth 2 or more, weighted-search: the same table inside the threat search with the
    // positional choice of a rank's cell (table_search_move; every depth above 1 is the same
    // player).
    GAEVAL_HD Move weighted_move(const Pos& p, const float* weights, int depth,
                                 const DrawAddress& at) const {
        if (depth <= 1) return weighted_move(p, weights, at);
        return Move{static_cast<int16_t>(table_search_move<Geo>(p.stones, p.side, exact(), weights,
                                                                true, at.seed, at.game, at.ply))};
    }

    // Threat-search searches (games/core/players.hpp player_searches): a batch with it runs the
    // searching kernels, so random and seed-table playouts do not carry its search.
    GAEVAL_HD_INLINE static constexpr bool policy_searches(int policy) {
        return policy == kThreatSearch;
    }

    // Playouts in per-thread scratch (games/core/scratch.hpp, games/core/match.hpp:
    // play_match_in_scratch): the position, the seed table's cell codes (cell_codes.hpp),
    // brought up to the position's stones when the policy or a one-ply weighted player moves,
    // and the seed's rewards and the rank flags (arrays a GPU thread would otherwise keep in
    // local memory).
    struct PlayoutScratch {
        Pos pos;
        CellCodes<N> codes;
        float rewards[kWeightCount];
        bool present[kRanks];
    };
    GAEVAL_HD_INLINE void start_match_in(PlayoutScratch& s, const Pos& start, uint64_t seed,
                                         uint32_t index) const {
        s.pos = start;
        open_in_place<true>(s.pos, seed, index);
        s.codes.clear();
        for (int r = 0; r < kWeightCount; ++r) s.rewards[r] = seed_reward(r);
    }
    // The seed-table policy in a playout's scratch: the move policy_move makes. Only the
    // policies that do not search come here (policy_searches; the searching kernels play
    // threat-search with policy_move).
    GAEVAL_HD Move policy_move(const Pos& p, int, const DrawAddress& at, PlayoutScratch& s) const {
        s.codes.sync(p.stones, exact());
        return Move{static_cast<int16_t>(coded_table_move(s.codes, p.stones, p.side, s.rewards,
                                                          s.present, at.seed, at.game, at.ply))};
    }

    // The one-ply weighted player (the reward table with the player's weights) in a playout's
    // scratch: the move weighted_move(p, weights, at) makes, from the same codes as the
    // seed-table policy's (the rewards are the player's, read where they are).
    GAEVAL_HD Move weighted_move(const Pos& p, const float* weights, const DrawAddress& at,
                                 PlayoutScratch& s) const {
        s.codes.sync(p.stones, exact());
        return Move{static_cast<int16_t>(coded_table_move(s.codes, p.stones, p.side, weights,
                                                          s.present, at.seed, at.game, at.ply))};
    }

    // Policy 1 (seed-table) or 2 (threat-search).
    GAEVAL_HD Move policy_move(const Pos& p, int policy, const DrawAddress& at) const {
        if (policy == kThreatSearch)
            return Move{static_cast<int16_t>(
                threat_search_move<Geo>(p.stones, p.side, exact(), at.seed, at.game, at.ply))};
        float table[kWeightCount];
        for (int r = 0; r < kWeightCount; ++r) table[r] = seed_reward(r);
        return weighted_move(p, table, at);
    }
};

using Game15 = Game<15>;
using Game20 = Game<20>;

static_assert(check_game<Game15>() && check_game<Game20>());

}  // namespace gaeval::gomoku
