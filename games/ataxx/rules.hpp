// The rules of the Ataxx family over any geometry (geometry.hpp): move generation in a fixed
// order, make-move, game over and results for the `ataxx` and `genetic-game` rule sets.
//
// Moves, in the order every enumeration uses (nth_move, players and perft all follow it):
//   grows: one per empty cell in the grow range of an own piece, by ascending destination;
//   jumps: one per (from, to) with `to` empty in the jump range of own piece `from`, by
//          ascending from, then ascending to.
// After either, every opponent piece in the grow range of `to` becomes the mover's. A side with
// no move in a game that is not over passes (one legal move).
#pragma once

#include <cstdint>
#include <type_traits>

#include "games/ataxx/geometry.hpp"
#include "games/ataxx/position.hpp"
#include "games/core/game.hpp"
#include "games/core/hd.hpp"

namespace gaeval::ataxx {

static_assert(std::is_trivially_copyable_v<Move>, "moves go to the device by value");
static_assert(std::is_trivially_copyable_v<Position<4, 4>>, "positions go to the device");

// Final scores of a game (see Game::outcome).
template <int P>
struct Outcome {
    int score[P];
    int players = 2;
    int winner = -1;         // the seat with the unique highest score, else -1
    bool rule_draw = false;  // ataxx's 50-move rule ended the game: a draw whatever the scores
};

// The rules over a geometry with P player slots; Game (game.hpp) adds the game interface.
template <class Geometry, int P>
struct Rules {
    using GeometryType = Geometry;
    using BB = typename Geometry::BB;
    using Pos = Position<BB::kWords, P>;
    static constexpr int kPlayerSlots = P;

    Geometry geo;
    RuleSet rules = RuleSet::Ataxx;

    // Cells holding a piece of any player.
    GAEVAL_HD_FORCEINLINE BB occupied(const Pos& p) const {
        BB all = p.pieces[0];
        for (int i = 1; i < P; ++i) all |= p.pieces[i];
        return all;
    }
    // Playable cells holding no piece.
    GAEVAL_HD_FORCEINLINE BB empty_cells(const Pos& p) const {
        return geo.playable().minus(occupied(p));
    }
    // Pieces of every player but `player`.
    GAEVAL_HD_FORCEINLINE BB opponents(const Pos& p, int player) const {
        if constexpr (P == 2) {
            return p.of(player ^ 1);
        } else {
            return occupied(p).minus(p.of(player));
        }
    }
    // Number of players with at least one piece.
    GAEVAL_HD_FORCEINLINE int live_players(const Pos& p) const {
        int n = 0;
        for (int i = 0; i < P; ++i) n += p.pieces[i].any() ? 1 : 0;
        return n;
    }

    // Over by material or clock, the checks that need no reach: ataxx: a side has no pieces or
    // the halfmove clock reached 100; genetic-game: at most one player has pieces.
    GAEVAL_HD_FORCEINLINE bool decided(const Pos& p) const {
        if (rules == RuleSet::Ataxx)
            return p.pieces[0].empty() || p.pieces[1].empty() || p.halfmove >= kAtaxxHalfmoveLimit;
        return live_players(p) <= 1;
    }
    // Whether some empty cell is in the grow or jump range of some piece (anyone can move).
    GAEVAL_HD_FORCEINLINE bool anyone_can_move(const Pos& p) const {
        const BB occ = occupied(p);
        return geo.reaches(occ, geo.playable().minus(occ));
    }
    // Game over under the position's rule set.
    GAEVAL_HD_FORCEINLINE bool is_over(const Pos& p) const {
        return decided(p) || !anyone_can_move(p);
    }

    // Number of grows and jumps of the side to move (0: it must pass, or the game is over).
    GAEVAL_HD_FORCEINLINE int count_grows_and_jumps(const Pos& p) const {
        const BB own = p.of(p.side);
        const BB empty = empty_cells(p);
        return (geo.grow_closure(own) & empty).count() + geo.jump_count(own, empty);
    }

    // Calls f(move) for every grow and jump of the side to move, in the documented order.
    template <class F>
    GAEVAL_HD_FORCEINLINE void for_each_grow_and_jump(const Pos& p, F&& f) const {
        const BB own = p.of(p.side);
        const BB empty = empty_cells(p);
        for_each_cell(geo.grow_closure(own) & empty, [&](int to) { f(Move::grow(to)); });
        for_each_cell(own, [&](int from) {
            for_each_cell(geo.jump_of(from) & empty, [&](int to) { f(Move::jump(from, to)); });
        });
    }

    // The k-th grow or jump in enumeration order; a pass when k is past the last one.
    GAEVAL_HD_FORCEINLINE Move nth_grow_or_jump(const Pos& p, int k) const {
        const BB own = p.of(p.side);
        const BB empty = empty_cells(p);
        const BB grows = geo.grow_closure(own) & empty;
        const int grow_count = grows.count();
        if (k < grow_count) return Move::grow(grows.nth(k));
        k -= grow_count;
        for (int i = 0; i < BB::kWords; ++i) {
            for (uint64_t x = own.w[i]; x; x = clear_lowest(x)) {
                const int from = 64 * i + lowest_bit(x);
                const BB targets = geo.jump_of(from) & empty;
                const int n = targets.count();
                if (k < n) return Move::jump(from, targets.nth(k));
                k -= n;
            }
        }
        return Move::pass();
    }

    // Opponent pieces that move m (not a pass) of the side to move would convert.
    GAEVAL_HD_FORCEINLINE BB captured_by(const Pos& p, Move m) const {
        return geo.grow_of(m.to) & opponents(p, p.side);
    }

    // Who moves after `player`: the other side under ataxx; under genetic-game the next player
    // in turn order that still has pieces (eliminated players are skipped).
    GAEVAL_HD_FORCEINLINE int next_player(const Pos& p, int player) const {
        if (rules == RuleSet::Ataxx || p.players == 2) return player ^ 1;
        for (int i = 1; i < p.players; ++i) {
            int next = player + i;
            if (next >= p.players) next -= p.players;
            if (p.of(next).any()) return next;
        }
        return player + 1 == p.players ? 0 : player + 1;
    }

    // The position after move m (a grow, a jump or a pass) of the side to move; m must be legal.
    // Grows reset the halfmove clock, jumps and passes advance it; the fullmove number goes up
    // when the turn wraps around to a lower-numbered player.
    GAEVAL_HD_FORCEINLINE Pos make(const Pos& p, Move m) const {
        Pos n = p;
        const int us = p.side;
        if (!m.is_pass()) {
            const BB captured = captured_by(p, m);
            BB gained = captured | BB::cell(m.to);
            const BB left = m.is_jump() ? BB::cell(m.from) : BB::none();
            for (int i = 0; i < P; ++i)
                n.pieces[i] =
                    i == us ? (n.pieces[i] | gained).minus(left) : n.pieces[i].minus(captured);
        }
        end_turn(n, us, m);
        return n;
    }

    // The end of make() once the pieces of n are moved: the halfmove clock, the fullmove number
    // and the next side (us: the side that played m). make_in_place of the table boards ends so.
    GAEVAL_HD_FORCEINLINE void end_turn(Pos& n, int us, Move m) const {
        if (m.is_grow())
            n.halfmove = 0;
        else if (n.halfmove < 0xffff)
            ++n.halfmove;
        const int next = next_player(n, us);
        if (next <= us) ++n.fullmove;
        n.side = static_cast<uint8_t>(next);
    }

    // The result of a finished game: each player's score, the winner (the unique highest
    // score, or -1) and whether a rule declared a draw. Scores are piece counts; under
    // genetic-game a sole survivor also owns every empty cell. Under ataxx a game that ended by
    // the 50-move rule (pieces on both sides and an empty cell still in reach) is a draw, as in
    // libataxx. A game stopped before its end (a playout's ply cap) is scored the same way.
    GAEVAL_HD_FORCEINLINE Outcome<P> outcome(const Pos& p) const {
        Outcome<P> o;
        for (int i = 0; i < P; ++i) o.score[i] = i < p.players ? p.pieces[i].count() : 0;
        o.players = p.players;
        if (rules == RuleSet::Ataxx) {
            const bool material_or_blocked =
                p.pieces[0].empty() || p.pieces[1].empty() || !anyone_can_move(p);
            o.rule_draw = !material_or_blocked && p.halfmove >= kAtaxxHalfmoveLimit;
        } else if (live_players(p) == 1) {
            const int extra = empty_cells(p).count();
            for (int i = 0; i < P; ++i)
                if (i < p.players && p.pieces[i].any()) o.score[i] += extra;
        }
        // (Loops over every slot and the best score as a value: no score indexed at run time,
        // so a GPU thread keeps them in registers.)
        int best = 0, best_score = o.score[0];
        for (int i = 1; i < P; ++i)
            if (i < p.players && o.score[i] > best_score) {
                best = i;
                best_score = o.score[i];
            }
        o.winner = best;
        for (int i = 0; i < P; ++i)
            if (i < p.players && i != best && o.score[i] == best_score) o.winner = -1;
        if (o.rule_draw) o.winner = -1;
        return o;
    }
};

// How seat `seat` did: a win when it is the winner, a draw under a rule draw or when it shares
// the top score, else a loss.
template <int P>
GAEVAL_HD_FORCEINLINE SeatResult seat_result(const Outcome<P>& o, int seat) {
    if (o.winner == seat) return SeatResult::Win;
    if (o.rule_draw) return SeatResult::Draw;
    // the seat's score by a masked blend (a select was compiled back into an indexed load)
    int own = 0;
    for (int i = 0; i < P; ++i) own ^= (own ^ o.score[i]) & -static_cast<int>(i == seat);
    for (int i = 0; i < P; ++i)
        if (i < o.players && i != seat && o.score[i] > own) return SeatResult::Loss;
    return SeatResult::Draw;
}

}  // namespace gaeval::ataxx
