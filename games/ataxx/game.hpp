// The Ataxx family as a game of the plug-in interface (games/core/game.hpp): the rules of
// rules.hpp over a geometry, a forced pass as the one legal move, the 15 features for the
// weighted player, and the built-in policies
//   1 capture      most captures; ties to the most own pieces after the move, then random
//   2 most-pieces  most own pieces after the move; ties random
// and perft's child count (a pass is one child; a finished game has none).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "games/ataxx/features.hpp"
#include "games/ataxx/rules.hpp"
#include "games/ataxx/table_playouts.hpp"
#include "games/core/game.hpp"
#include "games/core/players.hpp"

namespace gaeval::ataxx {

// Built-in policies (player files and the CLI name them; values are part of saved results).
enum Policy : int { kCapture = 1, kMostPieces = 2 };

template <class Geometry, int P>
struct Game : PlayoutRules<Geometry, P> {
    using Base = PlayoutRules<Geometry, P>;
    using typename Base::BB;
    using typename Base::Pos;
    using Move = ataxx::Move;
    static constexpr int kMaxSeats = P;
    static constexpr int kFeatureCount = ataxx::kFeatureCount;
    static constexpr int kWeightCount = ataxx::kFeatureCount;
    static constexpr int kPolicyCount = 2;

    GAEVAL_HD_FORCEINLINE int seats(const Pos& p) const { return p.players; }
    GAEVAL_HD_FORCEINLINE int to_move(const Pos& p) const { return p.side; }

    // Grows and jumps, or the forced pass when there is none and the game goes on.
    GAEVAL_HD_FORCEINLINE int count_moves(const Pos& p) const {
        const int moves = this->count_grows_and_jumps(p);
        return moves > 0 ? moves : (this->is_over(p) ? 0 : 1);
    }
    template <class F>
    GAEVAL_HD_FORCEINLINE void for_each_move(const Pos& p, F&& f) const {
        bool any = false;
        this->for_each_grow_and_jump(p, [&](Move m) {
            any = true;
            f(m);
        });
        if (!any && !this->is_over(p)) f(Move::pass());
    }
    GAEVAL_HD_FORCEINLINE Move nth_move(const Pos& p, int k) const {
        return this->nth_grow_or_jump(p, k);
    }

    GAEVAL_HD_FORCEINLINE int winner(const Pos& p) const { return this->outcome(p).winner; }
    GAEVAL_HD_FORCEINLINE SeatResult seat_result(const Pos& p, int seat) const {
        return ataxx::seat_result(this->outcome(p), seat);
    }

    // The 15 features of features.hpp in [0, 1], higher is better for `seat` (unit_features).
    GAEVAL_HD_FORCEINLINE void features(const Pos& p, int seat, float* out) const {
        ataxx::unit_features(*this, p, seat, out);
    }

    // Policy 1 (capture) or 2 (most-pieces) in p, which has at least two moves, so never a
    // pass (the pass tests below only tell the compiler so: captured_by reads grow[m.to]).
    GAEVAL_HD Move policy_move(const Pos& p, int policy, const DrawAddress& at) const {
        const int own = p.of(p.side).count();
        if (policy == kCapture)
            return best_move(*this, p, at, [&](Move m) {
                if (m.is_pass()) return 0;
                return policy_score(kCapture, own, this->captured_by(p, m).count(), m.is_grow());
            });
        return best_move(*this, p, at, [&](Move m) {
            if (m.is_pass()) return 0;
            return policy_score(kMostPieces, own, this->captured_by(p, m).count(), m.is_grow());
        });
    }
    // The same in a playout's scratch (table boards: table_playouts.hpp), the moves and their
    // captures read a word at a time.
    template <class Scratch>
    GAEVAL_HD_INLINE Move policy_move(const Pos& p, int policy, const DrawAddress& at,
                                      Scratch& scratch) const {
        if constexpr (kSquare7) {
            return square7_policy_move(p, policy, at, scratch);
        } else if constexpr (std::is_same_v<Scratch, typename Base::WeightedScratch>) {
            return table_scratch_policy_move(p, policy, at, scratch);
        } else {
            return table_policy_move(p, policy, at, scratch);
        }
    }
    template <class Scratch>
    GAEVAL_HD_INLINE Move table_policy_move(const Pos& p, int policy, const DrawAddress& at,
                                            Scratch& scratch) const {
        int own = 0;
        for (int k = 0; k < BB::kWords; ++k) own += popcount64(p.pieces[p.side].w[k]);
        const typename Base::ScratchMoves moves{*this, scratch};
        return best_move(moves, p, at, [&](Move m) {
            return policy_score(policy, own, this->captures_of(p, m), m.is_grow());
        });
    }
    // The same in a weighted batch's scratch: the choice by scratch_best_move (beside the
    // weighted player's, a best_move in registers would put its kernel over the bounds).
    template <class Scratch>
    GAEVAL_HD_INLINE Move table_scratch_policy_move(const Pos& p, int policy, const DrawAddress& at,
                                                    Scratch& s) const {
        int own = 0;
        for (int k = 0; k < BB::kWords; ++k) own += popcount64(p.pieces[p.side].w[k]);
        scratch_write(s.policy, policy);
        scratch_write(s.own, own);
        return scratch_best_move(p, at, s, [&](Move m) {
            return policy_score(scratch_read(s.policy), scratch_read(s.own),
                                this->captures_of(p, m), m.is_grow());
        });
    }
    // A policy's score of a grow or jump converting `captures` pieces of a mover with `own`:
    // capture: most captures, then most own pieces after the move; most-pieces: the latter.
    GAEVAL_HD_FORCEINLINE static int policy_score(int policy, int own, int captures, bool grow) {
        const int pieces_after = own + captures + (grow ? 1 : 0);
        return policy == kCapture ? captures * (4 * kMaxCells) + pieces_after : pieces_after;
    }

    // The one-ply weighted player in its scratch (table_playouts.hpp: the 7x7 fast path's
    // PlayoutScratch, the table boards' WeightedScratch): the move one_ply_weighted_move makes,
    // the same scores in the same order. A table board's child is scored from the scratch's
    // position and the move a word at a time (ChildWords, table_features), never made.
    static constexpr bool kSquare7 = std::is_same_v<Geometry, Square7Geometry>;
    static constexpr bool kPlayoutsInScratch = !kSquare7;
    template <class Scratch>
    GAEVAL_HD Move weighted_move(const Pos& p, const float* weights, const DrawAddress& at,
                                 Scratch& s) const {
        scratch_write(s.weights, weights);
        if constexpr (kSquare7) {
            const int us = p.side;
            return scratch_best_move(p, at, s, [&](Move m) {
                return this->child_score(Base::read_pos(s.pos), m, us, scratch_read(s.weights));
            });
        } else {
            return scratch_best_move(p, at, s, [&](Move m) {
                return child_score_in(s.pos, m, scratch_read(s.weights), s);
            });
        }
    }
    // A table board's one-ply weighted score of the mover's move m (a grow or a jump) in p, which
    // is s.pos with s.empty as mover_sets leaves it: the float of weighted_score over features()
    // of the child for the mover, each term added in index order (UnitScore), the child read a
    // word at a time from p and m (ChildWords) and never made, the features' words in s.work on
    // the device; on the cpu in a local (table_features<false>, the same counts), which a cpu
    // thread keeps in registers: in the scratch the cpu ran more instructions than the copy loop
    // (bench/results/kernel-resources.md).
    template <class Scratch, bool kOn = !kSquare7, std::enable_if_t<kOn, int> = 0>
    GAEVAL_HD_FORCEINLINE float child_score_in(const Pos& p, Move m, const float* weights,
                                               Scratch& s) const {
        const typename Base::ChildWords child{*this, p, s.empty, m};
        UnitScore score(weights, this->geo.playable().count());
#if GAEVAL_DEVICE_PASS
        table_features<true>(this->geo, child, s.work, [&](Feature f, int n) { score.add(f, n); });
#else
        BoardWords<BB::kWords> words;
        for (int k = 0; k < BB::kWords; ++k) {
            words.own_cells.w[k] = child.own(k);
            words.opp_cells.w[k] = child.opp(k);
            words.empty_cells.w[k] = child.empty(k);
        }
        TableFeatureWork<BB::kWords> work;
        table_features<false>(this->geo, words, work, [&](Feature f, int n) { score.add(f, n); });
#endif
        return score.total();
    }
    // The one-ply weighted player's score of move m in p for `seat` on the 7x7 fast path:
    // unit_score of the position after m, the float of weighted_score over features() (the lane
    // groups' score, games/core/lane_one_ply.hpp: child_score).
    template <bool kOn = kSquare7, std::enable_if_t<kOn, int> = 0>
    GAEVAL_HD_FORCEINLINE float child_score(const Pos& p, Move m, int seat,
                                            const float* weights) const {
        const Pos child = this->make(p, m);
        return ataxx::unit_score(this->geo, child.of(seat), this->opponents(child, seat), weights);
    }
    // The 7x7 policies in the scratch: policy_move's choice by scratch_best_move.
    template <class Scratch>
    GAEVAL_HD Move square7_policy_move(const Pos& p, int policy, const DrawAddress& at,
                                       Scratch& s) const {
        scratch_write(s.policy, policy);
        return scratch_best_move(p, at, s, [&](Move m) {
            const Pos q = Base::read_pos(s.pos);
            const int own = q.of(q.side).count();
            return policy_score(scratch_read(s.policy), own, this->captured_by(q, m).count(),
                                m.is_grow());
        });
    }
    // best_move (players.hpp) in the scratch: the moves in the enumeration order (rules.hpp:
    // grows, then jumps by piece; a table board's a word at a time, its masks from mover_sets),
    // the same comparisons and draws; the enumeration, the draw address and the best so far live
    // in the scratch. p has at least two moves (no pass).
    template <class Scratch, class ScoreFn>
    GAEVAL_HD_INLINE Move scratch_best_move(const Pos& p, const DrawAddress& at, Scratch& s,
                                            ScoreFn&& score) const {
        scratch_write(s.ties, 0u);
        scratch_write(s.index, 0u);
        scratch_write(s.seed, at.seed);
        scratch_write(s.game, at.game);
        scratch_write(s.ply, at.ply);
        if constexpr (kSquare7) {
            const uint64_t own = p.of(p.side).w[0];
            const uint64_t empty = this->empty_cells(p).w[0];
            scratch_write(s.left, this->geo.grow_closure(Bitboard<1>{{own}}).w[0] & empty);
            for (uint64_t x; (x = scratch_read(s.left)) != 0;) {
                scratch_write(s.left, clear_lowest(x));
                scratch_step(s, Move::grow(lowest_bit(x)), score);
            }
            scratch_write(s.pieces, own);
            for (uint64_t pieces; (pieces = scratch_read(s.pieces)) != 0;) {
                scratch_write(s.pieces, clear_lowest(pieces));
                const int from = lowest_bit(pieces);
                const uint64_t free = this->empty_cells(Base::read_pos(s.pos)).w[0];
                scratch_write(s.left, Square7Geometry::jump_ring(from) & free);
                for (uint64_t x; (x = scratch_read(s.left)) != 0;) {
                    scratch_write(s.left, clear_lowest(x));
                    scratch_step(s, Move::jump(from, lowest_bit(x)), score);
                }
            }
        } else {
            this->mover_sets(p, s);
            GAEVAL_ATAXX_WORD_LOOP
            for (int k = 0; k < BB::kWords; ++k) {
                scratch_write(s.left, scratch_read(s.grows[k]));
                for (uint64_t x; (x = scratch_read(s.left)) != 0;) {
                    scratch_write(s.left, clear_lowest(x));
                    scratch_step(s, Move::grow(64 * k + lowest_bit(x)), score);
                }
            }
            const auto* board = this->geo.board;
            GAEVAL_ATAXX_WORD_LOOP
            for (int i = 0; i < BB::kWords; ++i) {
                scratch_write(s.pieces, scratch_read(p.pieces[p.side].w[i]));
                for (uint64_t pieces; (pieces = scratch_read(s.pieces)) != 0;) {
                    scratch_write(s.pieces, clear_lowest(pieces));
                    const int from = 64 * i + lowest_bit(pieces);
                    GAEVAL_ATAXX_WORD_LOOP
                    for (int k = 0; k < BB::kWords; ++k) {
                        scratch_write(s.left, board->jump[from].w[k] & scratch_read(s.empty[k]));
                        for (uint64_t x; (x = scratch_read(s.left)) != 0;) {
                            scratch_write(s.left, clear_lowest(x));
                            scratch_step(s, Move::jump(from, 64 * k + lowest_bit(x)), score);
                        }
                    }
                }
            }
        }
        return Move{scratch_read(s.best.from), scratch_read(s.best.to)};
    }
    // best_move's step for move m: a float score kept in s.best_score, an int in s.best_points.
    template <class Scratch, class ScoreFn>
    GAEVAL_HD_FORCEINLINE void scratch_step(Scratch& s, Move m, ScoreFn& score) const {
        using Score = decltype(score(m));
        const Score value = score(m);
        auto& best = [&]() -> Score& {
            if constexpr (std::is_same_v<Score, float>) {
                return s.best_score;
            } else {
                return s.best_points;
            }
        }();
        const uint32_t ties = scratch_read(s.ties);
        const uint32_t index = scratch_read(s.index);
        scratch_write(s.index, index + 1);
        if (ties == 0 || scratch_read(best) < value) {
            scratch_write(s.best.from, m.from);
            scratch_write(s.best.to, m.to);
            scratch_write(best, value);
            scratch_write(s.ties, 1u);
        } else if (value == scratch_read(best)) {
            scratch_write(s.ties, ties + 1);
            const uint32_t r = philox(scratch_read(s.seed), Purpose::PlayerTieBreak,
                                      scratch_read(s.game), scratch_read(s.ply), index, 0)
                                   .v[0];
            if (below(r, ties + 1) == 0) {
                scratch_write(s.best.from, m.from);
                scratch_write(s.best.to, m.to);
            }
        }
    }

    // Perft: no children when decided; the grows and jumps; else a pass when anyone can move.
    GAEVAL_HD_FORCEINLINE uint64_t child_count(const Pos& p) const {
        if (this->decided(p)) return 0;
        const int moves = this->count_grows_and_jumps(p);
        if (moves > 0) return static_cast<uint64_t>(moves);
        return this->anyone_can_move(p) ? 1 : 0;
    }
    template <class F>
    GAEVAL_HD_FORCEINLINE void for_each_child(const Pos& p, F&& f) const {
        if (this->decided(p)) return;
        bool any = false;
        this->for_each_grow_and_jump(p, [&](Move m) {
            any = true;
            f(this->make(p, m));
        });
        if (!any && this->anyone_can_move(p)) f(this->make(p, Move::pass()));
    }

    // Device binding of the geometry's tables (none for the 7x7 fast path).
    std::size_t table_bytes() const { return this->geo.table_bytes(); }
    const void* tables() const { return this->geo.tables(); }
    Game with_tables(const void* device_tables) const {
        Game g = *this;
        g.geo = this->geo.with_tables(device_tables);
        return g;
    }
};

}  // namespace gaeval::ataxx
