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
#include "games/core/match.hpp"
#include "games/core/players.hpp"
#include "games/core/rng.hpp"
#include "games/core/scratch.hpp"
#include "games/pac/map.hpp"
#include "games/pac/rules.hpp"

namespace gaeval::pac {

// Keeps the next loop rolled on the device: unrolled, its table loads are all issued at once and
// hold more registers than a playout thread has (bench/results/kernel-resources.md).
#if GAEVAL_DEVICE_PASS
#define GAEVAL_PAC_ROLLED _Pragma("unroll 1")
#else
#define GAEVAL_PAC_ROLLED
#endif

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

    // The options of pac k of `side`, in a fixed order: wait; MOVE to each cell one step away,
    // ascending; when fast, MOVE to each cell two steps away, ascending; when its cooldown is 0,
    // SPEED, SWITCH to (type + 1) % 3 and to (type + 2) % 3. Counted and picked from the map's
    // neighbours and distances, with no list (a list indexed at run time would sit in a GPU
    // thread's local memory).
    GAEVAL_HD_INLINE int pac_option_count(const Pos& p, int side, int k) const {
        const Pac& a = p.pac[side][k];
        if (!a.alive) return 1;
        int n = 1 + cells_away(a.cell, 1, -1);
        if (a.speed_turns > 0) n += cells_away(a.cell, 2, -1);
        return a.cooldown == 0 ? n + 3 : n;
    }
    // Option j (0 <= j < pac_option_count) of that order.
    GAEVAL_HD_INLINE Command pac_option(const Pos& p, int side, int k, int j) const {
        const Pac& a = p.pac[side][k];
        if (j == 0 || !a.alive) return Command::wait();
        --j;
        const int one = cells_away(a.cell, 1, -1);
        if (j < one) return Command::move_to(cells_away(a.cell, 1, j));
        j -= one;
        if (a.speed_turns > 0) {
            const int two = cells_away(a.cell, 2, -1);
            if (j < two) return Command::move_to(cells_away(a.cell, 2, j));
            j -= two;
        }
        if (j == 0) return Command::speed();
        return Command::switch_to((a.type + j) % 3);
    }
    // The options of pac k of `side` into out (kMaxPacOptions slots); returns their count.
    GAEVAL_HD_INLINE int pac_options(const Pos& p, int side, int k, Command* out) const {
        const int n = pac_option_count(p, side, k);
        for (int j = 0; j < n; ++j) out[j] = pac_option(p, side, k, j);
        return n;
    }
    GAEVAL_HD_INLINE int count_moves(const Pos& p) const {
        if (p.over) return 0;
        int total = 1;
        for (int k = 0; k < p.pacs; ++k) total *= pac_option_count(p, p.side, k);
        return total;
    }
    // Move k: pac 0's option is k mod (its option count), and so on (pac 0 the lowest digit).
    // The commands are gathered as 32-bit words, each set by comparing its index (nothing
    // indexed at run time: a GPU thread keeps them in registers).
    GAEVAL_HD_INLINE Move nth_move(const Pos& p, int k) const {
        uint32_t word[kMaxPacs];
        for (int i = 0; i < kMaxPacs; ++i) word[i] = command_word(Command::wait());
        for (int i = 0; i < p.pacs; ++i) {
            const int n = pac_option_count(p, p.side, i);
            const uint32_t c = command_word(pac_option(p, p.side, i, k % n));
            for (int j = 0; j < kMaxPacs; ++j) word[j] = j == i ? c : word[j];
            k /= n;
        }
        Move m;
        for (int i = 0; i < kMaxPacs; ++i) m.pac[i] = word_command(word[i]);
        return m;
    }
    template <class F>
    GAEVAL_HD_INLINE void for_each_move(const Pos& p, F&& f) const {
        const int n = count_moves(p);
        for (int k = 0; k < n; ++k) f(nth_move(p, k));
    }

    // Seat 0's ply stores its commands; seat 1's ply resolves the turn (its arrays in w).
    GAEVAL_HD_INLINE void make_in_place(Pos& p, const Move& m, TurnWork& w) const {
        if (p.side == 0) {
            for (int k = 0; k < kMaxPacs; ++k) p.pending[k] = m.pac[k];
            p.side = 1;
            return;
        }
        for (int k = 0; k < kMaxPacs; ++k) w.cmd1[k] = m.pac[k];
        resolve_turn(*map, p, p.pending, w.cmd1, nullptr, true, w);
        for (int k = 0; k < kMaxPacs; ++k) p.pending[k] = Command::wait();
        p.side = 0;
    }
    GAEVAL_HD_INLINE void make_in_place(Pos& p, const Move& m) const {
        TurnWork w;
        make_in_place(p, m, w);
    }
    GAEVAL_HD_INLINE Pos make(const Pos& p, const Move& m) const {
        Pos n = p;
        make_in_place(n, m);
        return n;
    }

    // The greedy policy's working memory: the pellets in sight less those its side's earlier
    // pacs chose (or, while one pac falls back on them, the pellets believed in), the cells
    // chosen, and the move being built.
    struct PolicyWork {
        BB targets;
        int16_t chosen[kMaxPacs];
        int chosen_count;
        Move move;
    };
    // Playouts in per-thread scratch (games/core/scratch.hpp, games/core/match.hpp:
    // play_match_in_scratch): the position, and the turn's or the policy's working memory (never
    // both at once).
    struct PlayoutScratch {
        Pos pos;
        union {
            TurnWork turn;
            PolicyWork policy;
        };
    };
    GAEVAL_HD_INLINE void start_match_in(PlayoutScratch& s, const Pos& start, uint64_t,
                                         uint32_t) const {
        s.pos = start;
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
        PolicyWork w;
        return greedy_move(p, at, w);
    }
    // The same in a playout's scratch.
    GAEVAL_HD_INLINE Move policy_move(const Pos& p, int, const DrawAddress& at,
                                      PlayoutScratch& s) const {
        return greedy_move(p, at, s.policy);
    }

  private:
    GAEVAL_HD_INLINE static uint32_t command_word(const Command& c) {
        return c.kind | uint32_t{c.type} << 8 | uint32_t{static_cast<uint16_t>(c.target)} << 16;
    }
    GAEVAL_HD_INLINE static Command word_command(uint32_t w) {
        return Command{static_cast<uint8_t>(w), static_cast<uint8_t>(w >> 8),
                       static_cast<int16_t>(static_cast<uint16_t>(w >> 16))};
    }

    // The cells exactly `steps` (1 or 2) steps from `cell`, ascending, found through the
    // neighbour table (the cells of distance 2 are neighbours of neighbours): with j < 0 how
    // many there are, else the j-th of them.
    GAEVAL_HD_INLINE int cells_away(int cell, int steps, int j) const {
        const Map& m = *map;
        int count = 0;
        for (int last = -1;;) {
            int next = kMaxCells;  // the smallest such cell above `last`
            GAEVAL_PAC_ROLLED
            for (int d = 0; d < (steps == 1 ? 4 : 16); ++d) {
                const int n1 = m.neighbour[cell][steps == 1 ? d : d / 4];
                const int n = steps == 1 || n1 < 0 ? n1 : m.neighbour[n1][d % 4];
                if (n > last && n < next && m.dist[cell][n] == steps) next = n;
            }
            if (next == kMaxCells) return count;
            if (count == j) return next;
            ++count;
            last = next;
        }
    }

    // The greedy policy with its working memory in w.
    GAEVAL_HD Move greedy_move(const Pos& p, const DrawAddress& at, PolicyWork& w) const {
        w.chosen_count = 0;
        in_sight(p, w);
        for (int k = 0; k < p.pacs; ++k) w.move.pac[k] = greedy_command(p, at, w, k);
        Move move;
        for (int k = 0; k < kMaxPacs; ++k) move.pac[k] = k < p.pacs ? w.move.pac[k] : Command{};
        return move;
    }

    // Pac k's greedy command; a pellet it targets joins w's chosen cells.
    GAEVAL_HD Command greedy_command(const Pos& p, const DrawAddress& at, PolicyWork& w,
                                     int k) const {
        const Map& m = *map;
        const int side = p.side;
        const Pac& a = p.pac[side][k];
        if (!a.alive) return Command::wait();
        // The nearest visible enemy that eats this pac and could reach it next turn.
        int threat = -1, threat_dist = kNoPath;
        for (int e = 0; e < p.pacs; ++e) {
            const Pac& b = p.pac[1 - side][e];
            if (!b.alive || !beats(b.type, a.type) || !sees(p, side, b.cell)) continue;
            const int d = m.dist[b.cell][a.cell];
            const int reach = b.speed_turns > 0 ? 2 : 1;
            if (d <= reach + 1 && d < threat_dist) {
                threat = e;
                threat_dist = d;
            }
        }
        if (threat >= 0) return flee(a, p.pac[1 - side][threat], threat_dist);
        if (a.blocked) return random_step(a, at, k);
        if (a.cooldown == 0) return Command::speed();
        // Pellets in sight (super pellets always), else those the side still believes in.
        int target = nearest(m, a.cell, w.targets, at, k);
        if (target < 0) {
            for (int i = 0; i < kWords; ++i)
                w.targets.w[i] = (p.maybe[side].w[i] | p.supers.w[i]) & ~chosen_word(w, i);
            target = nearest(m, a.cell, w.targets, at, k);
            in_sight(p, w);
        }
        if (target < 0) return Command::wait();
        w.chosen[w.chosen_count++] = static_cast<int16_t>(target);
        take(w.targets, target);
        return Command::move_to(target);
    }

    // w.targets = the pellets the mover sees and the super pellets, less the cells chosen.
    GAEVAL_HD_INLINE void in_sight(const Pos& p, PolicyWork& w) const {
        for (int i = 0; i < kWords; ++i)
            w.targets.w[i] = ((p.pellets.w[i] & visible_word(*map, p, p.side, i)) | p.supers.w[i]) &
                             ~chosen_word(w, i);
    }

    // Whether `side` sees `cell` (visible()).
    GAEVAL_HD_INLINE bool sees(const Pos& p, int side, int cell) const {
        for (int k = 0; k < p.pacs; ++k)
            if (p.pac[side][k].alive && holds(map->sight[p.pac[side][k].cell], cell)) return true;
        return false;
    }

    // Word i of the set of the cells chosen so far.
    GAEVAL_HD_INLINE static uint64_t chosen_word(const PolicyWork& w, int i) {
        uint64_t word = 0;
        for (int j = 0; j < w.chosen_count; ++j)
            if (w.chosen[j] >> 6 == i) word |= uint64_t{1} << (w.chosen[j] & 63);
        return word;
    }

    // Pac a's escape from enemy b at distance d: SWITCH to b's beater when it can, else the first
    // neighbour (Direction order) that gains the most distance from b, else wait.
    GAEVAL_HD_INLINE Command flee(const Pac& a, const Pac& b, int d) const {
        const Map& m = *map;
        if (a.cooldown == 0) return Command::switch_to(beater_of(b.type));
        int best = a.cell, best_dist = d;
        for (int dir = 0; dir < 4; ++dir) {
            const int n = m.neighbour[a.cell][dir];
            if (n >= 0 && m.dist[b.cell][n] > best_dist) {
                best = n;
                best_dist = m.dist[b.cell][n];
            }
        }
        return best != a.cell ? Command::move_to(best) : Command::wait();
    }

    // A blocked pac's step to one of its neighbours at random (draw addressed by (at, pac k)).
    GAEVAL_HD_INLINE Command random_step(const Pac& a, const DrawAddress& at, int k) const {
        const Map& m = *map;
        int n = 0;
        for (int dir = 0; dir < 4; ++dir) n += m.neighbour[a.cell][dir] >= 0;
        const uint32_t r =
            philox(at.seed, Purpose::PacGreedyTie, at.game, at.ply, static_cast<uint32_t>(k), 0)
                .v[1];
        int pick = static_cast<int>(below(r, static_cast<uint32_t>(n)));
        for (int dir = 0; dir < 4; ++dir) {
            const int c = m.neighbour[a.cell][dir];
            if (c >= 0 && pick-- == 0) return Command::move_to(c);
        }
        return Command::wait();
    }

    // The cell of `targets` nearest to `from` (ties uniformly at random by reservoir sampling
    // over ascending cells, draws addressed by (at, pac)), or -1 when none is reachable.
    GAEVAL_HD_INLINE static int nearest(const Map& m, int from, const BB& targets,
                                        const DrawAddress& at, int pac) {
        int best = -1, best_dist = kNoPath;
        uint32_t ties = 0;
        for (int i = 0; i < kWords; ++i)
            for (uint64_t x = targets.w[i]; x; x = clear_lowest(x)) {
                const int c = 64 * i + lowest_bit(x);
                const int d = m.dist[from][c];
                if (d == kNoPath || c == from || d > best_dist) continue;
                if (d < best_dist) {
                    best = c;
                    best_dist = d;
                    ties = 1;
                    continue;
                }
                ++ties;
                const uint32_t r = philox(at.seed, Purpose::PacGreedyTie, at.game, at.ply,
                                          static_cast<uint32_t>(pac), ties)
                                       .v[0];
                if (below(r, ties) == 0) best = c;
            }
        return best;
    }

  public:
    // Device binding of the map (games/core/game.hpp's table hooks).
    std::size_t table_bytes() const { return sizeof(Map); }
    const void* tables() const { return map; }
    Game with_tables(const void* device_map) const {
        return Game{static_cast<const Map*>(device_map)};
    }
};

static_assert(check_game<Game>());

}  // namespace gaeval::pac

namespace gaeval {

// Pac-Man's playouts in per-thread scratch: play_match_in_scratch (games/core/match.hpp) with
// each move made by make_in_place(p, move, turn work), the turn's working arrays in the scratch
// beside the position, so that resolving a turn indexes nothing in local memory. The same record
// as play_match_seated (tests/test_pac_scratch.cpp).
template <>
inline GAEVAL_HD GameRecord play_match_in_scratch<pac::Game, PlayerSet::Playout>(
    const pac::Game& game, const pac::Pos& start, const Player<pac::Game>& a,
    const Player<pac::Game>& b, int a_seat, uint64_t seed, uint32_t index, uint32_t max_plies,
    const ThreadScratch& scratch) {
    using Scratch = pac::Game::PlayoutScratch;
    Scratch& s = scratch.as<Scratch>();
    game.start_match_in(s, start, seed, index);
    return play_moves(
        game, s.pos, a, b, a_seat, seed, index, max_plies,
        [&](const pac::Pos& p, const Player<pac::Game>& mover, const DrawAddress& at) {
            return choose_playout_move(game, p, mover, at, s);
        },
        [&](pac::Pos& q, const pac::Move& m) { game.make_in_place(q, m, s.turn); });
}

}  // namespace gaeval
