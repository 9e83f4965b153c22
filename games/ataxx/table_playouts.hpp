// Playouts of the table-geometry boards in per-thread scratch (games/core/scratch.hpp,
// games/core/match.hpp: play_match_in_scratch): the position lives in the scratch (on the device
// the thread's slice of shared memory), moves are made in place, and the random and policy
// players generate their moves in one pass over the own pieces a word at a time, the grows and
// the empty cells kept in the scratch beside the position. A 2- or 4-word board's position with
// its move generator's masks (own, empty, the grow closure: W words each) does not fit 64
// registers; a word at a time it does (bench/results/kernel-resources.md). The same moves in the
// same order as rules.hpp's enumeration, so the same games as the copy loop
// (tests/test_ataxx_scratch.cpp). The one-ply weighted players of a weighted batch play in a
// larger WeightedScratch (Game::weighted_move: the best move so far and the child's feature words
// there too, the child scored from the position and the move a word at a time; the same games,
// tests/test_ataxx_weighted_scratch.cpp).
//
// PlayoutRules<Geometry, P> is Rules<Geometry, P> plus, for a TableGeometry, the PlayoutScratch
// and WeightedScratch hooks of the game interface (games/core/game.hpp).
#pragma once

#include <cstdint>

#include "games/ataxx/features.hpp"
#include "games/ataxx/geometry.hpp"
#include "games/ataxx/rules.hpp"
#include "games/core/bits.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"

namespace gaeval::ataxx {

template <class Geometry, int P>
struct PlayoutRules : Rules<Geometry, P> {};

template <int W, int P>
struct PlayoutRules<TableGeometry<W>, P> : Rules<TableGeometry<W>, P> {
    using Base = Rules<TableGeometry<W>, P>;
    using typename Base::Pos;

    // The position and, for the move generator, the mover's grows and the empty cells a word
    // each (filled by mover_sets before they are read).
    struct PlayoutScratch {
        Pos pos;
        uint64_t grows[W];
        uint64_t empty[W];
    };
    GAEVAL_HD_FORCEINLINE void start_match_in(PlayoutScratch& s, const Pos& start, uint64_t,
                                              uint32_t) const {
        s.pos = start;
    }
    // The one-ply weighted player's scratch (Game::weighted_move), a larger slice than the
    // playouts': besides theirs, the enumeration's masks, the draw address, the weights, the best
    // move so far (Game::scratch_best_move) and the working words of the child's features
    // (features.hpp table_features).
    struct WeightedScratch : PlayoutScratch {
        uint64_t left, pieces, seed;
        uint32_t game, ply, ties, index;
        const float* weights;
        float best_score;
        int best_points, policy, own;
        Move best;
        TableFeatureWork<W> work;
    };

    // Word k of the position after the mover's move m (a grow or a jump) in p, seen by the mover
    // (table_features' words): its pieces, the others', the empty cells (p's empty cells in
    // `parent_empty`, as mover_sets leaves them). Computed from p and m where read (p's words read
    // in place: on the device not held in registers across the features' loops); the child is
    // never written.
    struct ChildWords {
        const PlayoutRules& rules;
        const Pos& p;
        const uint64_t* parent_empty;
        Move m;
        GAEVAL_HD_FORCEINLINE static uint64_t bit(int cell, int k) {
            return (cell >> 6) == k ? uint64_t{1} << (cell & 63) : 0;
        }
        GAEVAL_HD_FORCEINLINE uint64_t left(int k) const {
            return m.is_jump() ? bit(m.from, k) : 0;
        }
        GAEVAL_HD_FORCEINLINE uint64_t parent_own(int k) const {
            return scratch_read(p.pieces[scratch_read(p.side)].w[k]);
        }
        GAEVAL_HD_FORCEINLINE uint64_t parent_opp(int k) const {
            const int side = scratch_read(p.side);
            if constexpr (P == 2) {
                return scratch_read(p.pieces[side ^ 1].w[k]);
            } else {
                uint64_t o = 0;
                for (int i = 0; i < P; ++i)
                    if (i != side) o |= scratch_read(p.pieces[i].w[k]);
                return o;
            }
        }
        GAEVAL_HD_FORCEINLINE uint64_t own(int k) const {
            const uint64_t captured = rules.geo.board->grow[m.to].w[k] & parent_opp(k);
            return (parent_own(k) | captured | bit(m.to, k)) & ~left(k);
        }
        GAEVAL_HD_FORCEINLINE uint64_t opp(int k) const {
            return parent_opp(k) & ~rules.geo.board->grow[m.to].w[k];
        }
        GAEVAL_HD_FORCEINLINE uint64_t empty(int k) const {
            return (scratch_read(parent_empty[k]) & ~bit(m.to, k)) | left(k);
        }
    };

    // Word k of the occupied, empty and opponent cells of p (p in memory: read, not held).
    GAEVAL_HD_FORCEINLINE uint64_t occupied_word(const Pos& p, int k) const {
        uint64_t o = 0;
        for (int i = 0; i < P; ++i) o |= p.pieces[i].w[k];
        return o;
    }
    GAEVAL_HD_FORCEINLINE uint64_t empty_word(const Pos& p, int k) const {
        return this->geo.board->playable.w[k] & ~occupied_word(p, k);
    }
    GAEVAL_HD_FORCEINLINE uint64_t opponents_word(const Pos& p, int k) const {
        if constexpr (P == 2) {
            return p.pieces[p.side ^ 1].w[k];
        } else {
            return occupied_word(p, k) & ~p.pieces[p.side].w[k];
        }
    }

    // Calls f(c) for every piece c of the mover, ascending, until f returns false; returns
    // whether it ran to the end.
    template <class F>
    GAEVAL_HD_FORCEINLINE bool each_own_piece(const Pos& p, F&& f) const {
        GAEVAL_ATAXX_WORD_LOOP
        for (int i = 0; i < W; ++i)
            for (uint64_t x = p.pieces[p.side].w[i]; x; x = clear_lowest(x))
                if (!f(64 * i + lowest_bit(x))) return false;
        return true;
    }

    // Fills s.empty with the empty cells and s.grows with the mover's grows (empty cells next to
    // an own piece), one pass over the own pieces a word at a time; returns the mover's jumps.
    GAEVAL_HD_FORCEINLINE int mover_sets(const Pos& p, PlayoutScratch& s) const {
        const auto* board = this->geo.board;
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k) {
            s.empty[k] = empty_word(p, k);
            s.grows[k] = 0;
        }
        int jumps = 0;
        each_own_piece(p, [&](int c) {
            GAEVAL_ATAXX_WORD_LOOP
            for (int k = 0; k < W; ++k) {
                s.grows[k] |= board->grow[c].w[k];
                jumps += popcount64(board->jump[c].w[k] & s.empty[k]);
            }
            return true;
        });
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k) s.grows[k] &= s.empty[k];
        return jumps;
    }

    // count_moves of the game: grows and jumps, or the forced pass when there is none and the
    // game goes on.
    GAEVAL_HD_FORCEINLINE int count_moves_in(const Pos& p, PlayoutScratch& s) const {
        int moves = mover_sets(p, s);
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k) moves += popcount64(s.grows[k]);
        return moves > 0 ? moves : (this->is_over(p) ? 0 : 1);
    }

    // Calls f(move) for every grow and jump of the mover in the enumeration order (rules.hpp)
    // until f returns false; returns whether it ran to the end.
    template <class F>
    GAEVAL_HD_FORCEINLINE bool each_grow_and_jump(const Pos& p, PlayoutScratch& s, F&& f) const {
        mover_sets(p, s);
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k)
            for (uint64_t x = s.grows[k]; x; x = clear_lowest(x))
                if (!f(Move::grow(64 * k + lowest_bit(x)))) return false;
        const auto* board = this->geo.board;
        return each_own_piece(p, [&](int from) {
            GAEVAL_ATAXX_WORD_LOOP
            for (int k = 0; k < W; ++k)
                for (uint64_t x = board->jump[from].w[k] & s.empty[k]; x; x = clear_lowest(x))
                    if (!f(Move::jump(from, 64 * k + lowest_bit(x)))) return false;
            return true;
        });
    }

    // nth_move of the game: the k-th grow or jump; a pass when k is past the last one.
    GAEVAL_HD_FORCEINLINE Move nth_move_in(const Pos& p, int k, PlayoutScratch& s) const {
        mover_sets(p, s);
        GAEVAL_ATAXX_WORD_LOOP
        for (int word = 0; word < W; ++word) {
            const int n = popcount64(s.grows[word]);
            if (k < n) return Move::grow(64 * word + nth_set_bit(s.grows[word], k));
            k -= n;
        }
        const auto* board = this->geo.board;
        Move found = Move::pass();
        each_own_piece(p, [&](int from) {
            GAEVAL_ATAXX_WORD_LOOP
            for (int word = 0; word < W; ++word) {
                const uint64_t targets = board->jump[from].w[word] & s.empty[word];
                const int n = popcount64(targets);
                if (k < n) {
                    found = Move::jump(from, 64 * word + nth_set_bit(targets, k));
                    return false;
                }
                k -= n;
            }
            return true;
        });
        return found;
    }

    // The game's nth_move and for_each_move in scratch, for best_move (games/core/players.hpp)
    // in a position with at least two moves (so no pass).
    struct ScratchMoves {
        using Pos = typename Base::Pos;
        using Move = ataxx::Move;
        const PlayoutRules& rules;
        PlayoutScratch& scratch;
        GAEVAL_HD_FORCEINLINE Move nth_move(const Pos& p, int k) const {
            return rules.nth_move_in(p, k, scratch);
        }
        template <class F>
        GAEVAL_HD_FORCEINLINE void for_each_move(const Pos& p, F&& f) const {
            rules.each_grow_and_jump(p, scratch, [&](Move m) {
                f(m);
                return true;
            });
        }
    };

    // The opponent pieces move m (not a pass) of the mover converts.
    GAEVAL_HD_FORCEINLINE int captures_of(const Pos& p, Move m) const {
        int n = 0;
        GAEVAL_ATAXX_WORD_LOOP
        for (int k = 0; k < W; ++k)
            n += popcount64(this->geo.board->grow[m.to].w[k] & opponents_word(p, k));
        return n;
    }

    // make() of the rules, changing p itself a word at a time.
    GAEVAL_HD_FORCEINLINE void make_in_place(Pos& p, const Move& m) const {
        const int us = p.side;
        if (!m.is_pass()) {
            GAEVAL_ATAXX_WORD_LOOP
            for (int k = 0; k < W; ++k) {
                const uint64_t captured = this->geo.board->grow[m.to].w[k] & opponents_word(p, k);
                const uint64_t to = (m.to >> 6) == k ? uint64_t{1} << (m.to & 63) : 0;
                const uint64_t from =
                    m.is_jump() && (m.from >> 6) == k ? uint64_t{1} << (m.from & 63) : 0;
                for (int i = 0; i < P; ++i)
                    p.pieces[i].w[k] = i == us ? (p.pieces[i].w[k] | captured | to) & ~from
                                               : p.pieces[i].w[k] & ~captured;
            }
        }
        this->end_turn(p, us, m);
    }
};

// The 7x7 fast path: its random and policy playouts keep the position in registers (they fit
// the bounds there: kPlayoutsInScratch in game.hpp), while its one-ply weighted player plays
// in the scratch (Game::weighted_move), where the position and the move enumeration live.
template <int P>
struct PlayoutRules<Square7Geometry, P> : Rules<Square7Geometry, P> {
    using Base = Rules<Square7Geometry, P>;
    using typename Base::Pos;

    // The position and, for the weighted player and the policies (Game::scratch_best_move),
    // the enumeration's masks, the draw address, the player and the best move so far.
    struct PlayoutScratch {
        Pos pos;
        uint64_t left, pieces, seed;
        uint32_t game, ply, ties, index;
        const float* weights;
        float best_score;
        int best_points, policy;
        Move best;
    };
    GAEVAL_HD_FORCEINLINE void start_match_in(PlayoutScratch& s, const Pos& start, uint64_t,
                                              uint32_t) const {
        s.pos = start;
    }
    GAEVAL_HD_FORCEINLINE void make_in_place(Pos& p, const Move& m) const { p = this->make(p, m); }

    // A position held in the scratch, read field by field (on the device each read is a load
    // from the thread's slice of shared memory where it is used, not a register held across the
    // weighted player's loop).
    GAEVAL_HD_FORCEINLINE static Pos read_pos(const Pos& p) {
        Pos r;
        for (int i = 0; i < P; ++i) r.pieces[i].w[0] = scratch_read(p.pieces[i].w[0]);
        r.side = scratch_read(p.side);
        r.players = scratch_read(p.players);
        r.halfmove = scratch_read(p.halfmove);
        r.fullmove = scratch_read(p.fullmove);
        return r;
    }
};

}  // namespace gaeval::ataxx
