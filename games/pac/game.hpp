// Pac-Man as a game of the plug-in interface (games/core/game.hpp). Simultaneous moves: a turn
// is two plies, seat 0's then seat 1's; seat 0's commands wait in Pos::pending and seat 1's ply
// resolves the turn. A move is the commands of all the mover's pacs. The enumerated moves
// (count_moves / nth_move, what `random` draws from) are every combination of each pac's
// options: wait, MOVE to a floor cell one step away (and two steps away when the pac is fast),
// and when its cooldown is 0, SPEED and SWITCH to each other type; make() also takes any
// command the contest allows (MOVE to any floor cell), as the built-in policies give.
//   policy 1 `greedy`: each pac flees (or switches, cooldown permitting) from a visible enemy
//     that could eat it next turn; else steps to a random neighbour when it was blocked last
//     turn; else uses SPEED when it can; else moves to the nearest
//     visible pellet no earlier pac of its side chose (super pellets are always visible; with
//     none in sight, the nearest cell the side still believes holds one); ties at random.
// Policies read only what their side sees (visible(), supers, maybe[side], own pacs), never
// Pos::pending.
#pragma once

#include <cstddef>
#include <cstdint>

#include "games/core/game.hpp"
#include "games/core/hd.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"
#include "games/pac/map.hpp"
#include "games/pac/rules.hpp"

namespace gaeval::pac {

// Most options one pac can have: wait, 4 one-step and 8 two-step targets (a fast pac has a
// cooldown, so no abilities), or wait, 4 one-step targets, SPEED and two SWITCHes.
constexpr int kMaxPacOptions = 13;

struct Game {
    using Pos = pac::Pos;
    using Move = pac::Move;
    static constexpr int kMaxSeats = 2;
    static constexpr int kWeightCount = 0;
    static constexpr int kPolicyCount = 1;
    static constexpr bool kHasPerft = false;

    const Map* map = nullptr;  // host or device memory, as the caller runs

    GAEVAL_HD_INLINE int seats(const Pos&) const { return 2; }
    GAEVAL_HD_INLINE int to_move(const Pos& p) const { return p.side; }
    GAEVAL_HD_INLINE bool is_over(const Pos& p) const { return p.over != 0; }

    // The options of pac k of `side`, in a fixed order, into out (kMaxPacOptions slots).
    GAEVAL_HD_INLINE int pac_options(const Pos& p, int side, int k, Command* out) const {
        const Pac& a = p.pac[side][k];
        int n = 0;
        out[n++] = Command::wait();
        if (!a.alive) return n;
        const BB here = BB::cell(a.cell);
        const BB one = grow(*map, here).minus(here);
        for_each_cell(one, [&](int c) { out[n++] = Command::move_to(c); });
        if (a.speed_turns > 0) {
            const BB two = grow(*map, one).minus(one).minus(here);
            for_each_cell(two, [&](int c) { out[n++] = Command::move_to(c); });
        }
        if (a.cooldown == 0) {
            out[n++] = Command::speed();
            out[n++] = Command::switch_to((a.type + 1) % 3);
            out[n++] = Command::switch_to((a.type + 2) % 3);
        }
        return n;
    }
    GAEVAL_HD_INLINE int count_moves(const Pos& p) const {
        if (p.over) return 0;
        int total = 1;
        Command options[kMaxPacOptions];
        for (int k = 0; k < p.pacs; ++k) total *= pac_options(p, p.side, k, options);
        return total;
    }
    // Move k: pac 0's option is k mod (its option count), and so on (pac 0 the lowest digit).
    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        Move m;
        Command options[kMaxPacOptions];
        for (int i = 0; i < p.pacs; ++i) {
            const int n = pac_options(p, p.side, i, options);
            m.pac[i] = options[k % n];
            k /= n;
        }
        return m;
    }
    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        const int n = count_moves(p);
        for (int k = 0; k < n; ++k) f(nth_move(p, k));
    }

    // Seat 0's ply stores its commands; seat 1's ply resolves the turn.
    GAEVAL_HD_INLINE Pos make(const Pos& p, const Move& m) const {
        Pos n = p;
        if (p.side == 0) {
            for (int k = 0; k < kMaxPacs; ++k) n.pending[k] = m.pac[k];
            n.side = 1;
            return n;
        }
        resolve_turn(*map, n, p.pending, m.pac, nullptr, true);
        for (int k = 0; k < kMaxPacs; ++k) n.pending[k] = Command::wait();
        n.side = 0;
        return n;
    }

    GAEVAL_HD_INLINE int winner(const Pos& p) const {
        return p.score[0] > p.score[1] ? 0 : p.score[1] > p.score[0] ? 1 : -1;
    }
    GAEVAL_HD_INLINE SeatResult seat_result(const Pos& p, int seat) const {
        const int w = winner(p);
        return w < 0 ? SeatResult::Draw : w == seat ? SeatResult::Win : SeatResult::Loss;
    }

    // Policy 1, greedy (see the header comment).
    GAEVAL_HD Move policy_move(const Pos& p, int, const DrawAddress& at) const {
        const Map& m = *map;
        const int side = p.side, enemy = 1 - p.side;
        const BB seen = visible(m, p, side);
        const BB in_sight = (p.pellets & seen) | p.supers;
        const BB believed = p.maybe[side] | p.supers;
        BB chosen = BB::none();
        Move move;
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& a = p.pac[side][k];
            move.pac[k] = Command::wait();
            if (!a.alive) continue;
            // The nearest visible enemy that eats this pac and could reach it next turn.
            int threat = -1, threat_dist = kNoPath;
            for (int e = 0; e < p.pacs; ++e) {
                const Pac& b = p.pac[enemy][e];
                if (!b.alive || !seen.test(b.cell) || !beats(b.type, a.type)) continue;
                const int d = m.dist[b.cell][a.cell];
                const int reach = b.speed_turns > 0 ? 2 : 1;
                if (d <= reach + 1 && d < threat_dist) {
                    threat = e;
                    threat_dist = d;
                }
            }
            if (threat >= 0) {
                const Pac& b = p.pac[enemy][threat];
                if (a.cooldown == 0) {
                    move.pac[k] = Command::switch_to(beater_of(b.type));
                    continue;
                }
                int best = a.cell, best_dist = threat_dist;
                for (int dir = 0; dir < 4; ++dir) {
                    const int n = m.neighbour[a.cell][dir];
                    if (n >= 0 && m.dist[b.cell][n] > best_dist) {
                        best = n;
                        best_dist = m.dist[b.cell][n];
                    }
                }
                if (best != a.cell) move.pac[k] = Command::move_to(best);
                continue;
            }
            if (a.blocked) {  // bounced last turn: a random step, so that two pacs unlock
                int options[4], n = 0;
                for (int dir = 0; dir < 4; ++dir)
                    if (m.neighbour[a.cell][dir] >= 0) options[n++] = m.neighbour[a.cell][dir];
                const uint32_t r = philox(at.seed, Purpose::PacGreedyTie, at.game, at.ply,
                                          static_cast<uint32_t>(k), 0)
                                       .v[1];
                move.pac[k] = Command::move_to(options[below(r, static_cast<uint32_t>(n))]);
                continue;
            }
            if (a.cooldown == 0) {
                move.pac[k] = Command::speed();
                continue;
            }
            int target = nearest(m, a.cell, in_sight.minus(chosen), at, k);
            if (target < 0) target = nearest(m, a.cell, believed.minus(chosen), at, k);
            if (target < 0) continue;
            chosen.set(target);
            move.pac[k] = Command::move_to(target);
        }
        return move;
    }

    // The cell of `targets` nearest to `from` (ties uniformly at random by reservoir sampling
    // over ascending cells, draws addressed by (at, pac)), or -1 when none is reachable.
    GAEVAL_HD_INLINE int nearest(const Map& m, int from, const BB& targets, const DrawAddress& at,
                                 int pac) const {
        int best = -1, best_dist = kNoPath;
        uint32_t ties = 0;
        for_each_cell(targets, [&](int c) {
            const int d = m.dist[from][c];
            if (d == kNoPath || c == from || d > best_dist) return;
            if (d < best_dist) {
                best = c;
                best_dist = d;
                ties = 1;
                return;
            }
            ++ties;
            const uint32_t r = philox(at.seed, Purpose::PacGreedyTie, at.game, at.ply,
                                      static_cast<uint32_t>(pac), ties)
                                   .v[0];
            if (below(r, ties) == 0) best = c;
        });
        return best;
    }

    // Device binding of the map (games/core/game.hpp's table hooks).
    std::size_t table_bytes() const { return sizeof(Map); }
    const void* tables() const { return map; }
    Game with_tables(const void* device_map) const {
        return Game{static_cast<const Map*>(device_map)};
    }
};

static_assert(check_game<Game>());

}  // namespace gaeval::pac
