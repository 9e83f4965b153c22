// The Ataxx family as a game of the plug-in interface (games/core/game.hpp): the rules of
// rules.hpp over a geometry, a forced pass as the one legal move, the 15 features for the
// weighted player, and the built-in policies
//   1 capture      most captures; ties to the most own pieces after the move, then random
//   2 most-pieces  most own pieces after the move; ties random
// and perft's child count (a pass is one child; a finished game has none).
#pragma once

#include <cstddef>
#include <cstdint>

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
        int own = 0;
        for (int k = 0; k < BB::kWords; ++k) own += popcount64(p.pieces[p.side].w[k]);
        const typename Base::ScratchMoves moves{*this, scratch};
        return best_move(moves, p, at, [&](Move m) {
            return policy_score(policy, own, this->captures_of(p, m), m.is_grow());
        });
    }
    // A policy's score of a grow or jump converting `captures` pieces of a mover with `own`:
    // capture: most captures, then most own pieces after the move; most-pieces: the latter.
    GAEVAL_HD_FORCEINLINE static int policy_score(int policy, int own, int captures, bool grow) {
        const int pieces_after = own + captures + (grow ? 1 : 0);
        return policy == kCapture ? captures * (4 * kMaxCells) + pieces_after : pieces_after;
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
