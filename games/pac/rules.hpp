// The rules of Spring Challenge 2020's Pac-Man (docs/pac.md states each one): two players with
// 2 to 5 pacs each, pellets worth 1 and super pellets worth 10, one command per pac per turn
// (MOVE to a target, SPEED, SWITCH type), simultaneous resolution in two sub-steps, kills by
// rock-paper-scissors, fog of war, 200 turns. A position is the whole state of the game; what a
// side may see of it is visible() (and the pellets it may still believe in, maybe[side]).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/pac/map.hpp"

namespace gaeval::pac {

constexpr int kMaxPacs = 5;
constexpr int kTurnLimit = 200;
constexpr int kSpeedTurns = 5;  // turns a SPEED lasts (after the turn it is used in)
constexpr int kCooldown = 10;   // turns between two abilities of one pac
constexpr int kPelletValue = 1;
constexpr int kSuperValue = 10;
constexpr int kSuperPellets = 4;

// Pac k of each side starts as type k mod 3. Paper beats rock, rock beats scissors, scissors
// beats paper. Values are part of saved results (records): never renumber.
enum PacType : uint8_t { kRock = 0, kPaper = 1, kScissors = 2 };

// Whether type a eats type b.
GAEVAL_HD_INLINE bool beats(int a, int b) { return (a + 3 - b) % 3 == 1; }
// The type that eats type t.
GAEVAL_HD_INLINE int beater_of(int t) { return (t + 1) % 3; }

struct Pac {
    int16_t cell = -1;
    uint8_t type = kRock;
    uint8_t alive = 0;
    uint8_t speed_turns = 0;  // turns left in which the pac takes two steps
    uint8_t cooldown = 0;     // turns until the pac may use an ability (0: now)
    uint8_t blocked = 0;      // a step of its last turn's move was cancelled by a collision
    uint8_t unused = 0;
};

// Values are part of saved results: append, never renumber.
enum CommandKind : uint8_t { kWait = 0, kMoveTo = 1, kSpeed = 2, kSwitch = 3 };

// One pac's command: MOVE toward target (a floor cell), SPEED, SWITCH to type, or nothing.
struct Command {
    uint8_t kind = kWait;
    uint8_t type = 0;     // kSwitch: the new type
    int16_t target = -1;  // kMoveTo: the target cell

    GAEVAL_HD_INLINE static Command wait() { return Command{}; }
    GAEVAL_HD_INLINE static Command move_to(int cell) {
        return Command{kMoveTo, 0, static_cast<int16_t>(cell)};
    }
    GAEVAL_HD_INLINE static Command speed() { return Command{kSpeed, 0, -1}; }
    GAEVAL_HD_INLINE static Command switch_to(int type) {
        return Command{kSwitch, static_cast<uint8_t>(type), -1};
    }
};

// The commands of one side's pacs (index = pac number); pacs past Pos::pacs are ignored.
struct Move {
    Command pac[kMaxPacs];
};

struct Pos {
    BB pellets;   // cells holding a pellet worth 1
    BB supers;    // cells holding a super pellet worth 10
    BB maybe[2];  // cells side s has not seen empty since the start (always a superset of pellets)
    Pac pac[2][kMaxPacs];
    Command pending[kMaxPacs];  // seat 0's commands of this turn, until seat 1 has moved
    int16_t score[2] = {0, 0};
    uint16_t turn = 0;  // turns resolved
    uint8_t pacs = 0;   // pacs per side
    uint8_t side = 0;   // the seat whose commands are asked for now
    uint8_t over = 0;
    // Bit s: side s has living pacs that this position leaves out (a bot's belief: enemies it
    // cannot place); the side counts as having pacs. Never set in a real game.
    uint8_t hidden = 0;
};

// What one turn did, for rollouts that score it: the pellet cells each side ate (a pellet eaten
// by both sides counts for both; the remaining pellets a side takes when the other has no pac
// left count too) and the pacs each side lost.
// The rules report them through the recorder's calls below (resolve_turn_into takes any type with
// them: the rollouts' scratch form counts instead, games/pac/rollout.hpp).
struct TurnEvents {
    BB eaten[2];
    BB eaten_supers[2];
    int deaths[2] = {0, 0};

    GAEVAL_HD_INLINE void clear() {
        for (int s = 0; s < 2; ++s) {
            eaten[s] = BB::none();
            eaten_supers[s] = BB::none();
            deaths[s] = 0;
        }
    }
    // Side s ate the pellet (the super pellet) on cell c; side s lost a pac.
    GAEVAL_HD_INLINE void ate(int s, int c) { eaten[s].set(c); }
    GAEVAL_HD_INLINE void ate_super(int s, int c) { eaten_supers[s].set(c); }
    GAEVAL_HD_INLINE void died(int s) { deaths[s] += 1; }
    // Side s takes every pellet and super pellet left (the other side has no pac).
    GAEVAL_HD_INLINE void took_rest(int s, const BB& pellets, const BB& supers) {
        eaten[s] |= pellets;
        eaten_supers[s] |= supers;
    }
};

// Cells side `side` sees: the lines of sight of its living pacs (super pellets are seen from
// anywhere: Pos::supers is public).
GAEVAL_HD_INLINE BB visible(const Map& m, const Pos& p, int side) {
    BB v = BB::none();
    for (int k = 0; k < p.pacs; ++k)
        if (p.pac[side][k].alive) v |= m.sight[p.pac[side][k].cell];
    return v;
}

// Living pacs of a side.
GAEVAL_HD_INLINE int alive_count(const Pos& p, int side) {
    int n = 0;
    for (int k = 0; k < p.pacs; ++k) n += p.pac[side][k].alive;
    return n;
}

// Cells of a side's living pacs.
GAEVAL_HD_INLINE BB pac_cells(const Pos& p, int side) {
    BB s = BB::none();
    for (int k = 0; k < p.pacs; ++k)
        if (p.pac[side][k].alive) s.set(p.pac[side][k].cell);
    return s;
}

// Value of the pellets still on the map.
GAEVAL_HD_INLINE int remaining_value(const Pos& p) {
    return kPelletValue * p.pellets.count() + kSuperValue * p.supers.count();
}

// Whether cell c is in b, and c taken out of b, reading or writing the one word that holds it
// (b in memory: a position in per-thread scratch is read and written where it lives).
GAEVAL_HD_INLINE bool holds(const BB& b, int c) { return (b.w[c >> 6] >> (c & 63)) & 1; }
GAEVAL_HD_INLINE void take(BB& b, int c) { b.w[c >> 6] &= ~(uint64_t{1} << (c & 63)); }

// Word i of visible(m, p, side), without the whole set.
GAEVAL_HD_INLINE uint64_t visible_word(const Map& m, const Pos& p, int side, int i) {
    uint64_t v = 0;
    for (int k = 0; k < p.pacs; ++k)
        if (p.pac[side][k].alive) v |= m.sight[p.pac[side][k].cell].w[i];
    return v;
}

namespace detail {

constexpr int kSlots = 2 * kMaxPacs;  // pac i is pac i % kMaxPacs of side i / kMaxPacs

}  // namespace detail

// The working arrays of one turn's resolution, per pac slot (detail::kSlots): where they live is
// the caller's choice (a local, or per-thread scratch: games/core/scratch.hpp), so that nothing
// indexed at run time has to sit in a GPU thread's local memory. resolve_turn writes every field
// before it reads it.
struct TurnWork {
    Command cmd1[kMaxPacs];  // seat 1's commands, copied here by make_in_place's scratch form
    int16_t path[detail::kSlots][2];
    int16_t to[detail::kSlots];
    uint8_t path_length[detail::kSlots];
    uint8_t steps_taken[detail::kSlots];
    bool fast[detail::kSlots];
    bool was_cancelled[detail::kSlots];
    bool moving[detail::kSlots];
    bool cancelled[detail::kSlots];
    bool newly[detail::kSlots];
    bool dies[detail::kSlots];
};

namespace detail {

// One movement sub-step: every pac with w.moving[i] tries to step from its cell to w.to[i].
// Collisions: pacs of one owner or of one type that would land on one cell or cross each other
// both stay (a pac that stays is never moved); a pac may land on a cell with an enemy of
// another type, but not cross a pac that eats it. Cancelling a step can cause another
// collision, so this repeats until nothing changes (each round cancels from the state at its
// start, so the order of the pacs does not matter). Leaves the cancelled steps in w.cancelled.
GAEVAL_HD_INLINE void resolve_collisions(const Pos& p, TurnWork& w) {
    for (int i = 0; i < kSlots; ++i) w.cancelled[i] = false;
    while (true) {
        bool any = false;
        for (int i = 0; i < kSlots; ++i) {
            w.newly[i] = false;
            if (!w.moving[i] || w.cancelled[i]) continue;
            const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
            for (int j = 0; j < kSlots && !w.newly[i]; ++j) {
                if (j == i || j % kMaxPacs >= p.pacs) continue;
                const Pac& b = p.pac[j / kMaxPacs][j % kMaxPacs];
                if (!b.alive) continue;
                const bool b_moves = w.moving[j] && !w.cancelled[j];
                const int b_to = b_moves ? w.to[j] : b.cell;
                const bool same_cell = w.to[i] == b_to;
                const bool crossing = b_moves && w.to[i] == b.cell && b_to == a.cell;
                if (!same_cell && !crossing) continue;
                if (i / kMaxPacs == j / kMaxPacs || a.type == b.type)
                    w.newly[i] = true;
                else if (crossing && beats(b.type, a.type))
                    w.newly[i] = true;
            }
            any = any || w.newly[i];
        }
        if (!any) return;
        for (int i = 0; i < kSlots; ++i) w.cancelled[i] = w.cancelled[i] || w.newly[i];
    }
}

// Whether an earlier living pac of `side` (number below k) stands on `cell`.
GAEVAL_HD_INLINE bool cell_taken_before(const Pos& p, int side, int k, int cell) {
    for (int j = 0; j < k; ++j)
        if (p.pac[side][j].alive && p.pac[side][j].cell == cell) return true;
    return false;
}

// Pellets after the kills: each side with a living pac on a pellet's cell scores it (once per
// cell), then every such pellet is gone.
template <class Events>
GAEVAL_HD_INLINE void eat(Pos& p, Events* ev) {
    for (int s = 0; s < 2; ++s) {
        int gain = 0;
        for (int k = 0; k < p.pacs; ++k) {
            const int c = p.pac[s][k].cell;
            if (!p.pac[s][k].alive || cell_taken_before(p, s, k, c)) continue;
            const bool pellet = holds(p.pellets, c), super = holds(p.supers, c);
            gain += kPelletValue * pellet + kSuperValue * super;
            if (ev && pellet) ev->ate(s, c);
            if (ev && super) ev->ate_super(s, c);
        }
        p.score[s] = static_cast<int16_t>(p.score[s] + gain);
    }
    for (int i = 0; i < kSlots; ++i) {
        const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
        if (i % kMaxPacs >= p.pacs || !a.alive) continue;
        take(p.pellets, a.cell);
        take(p.supers, a.cell);
    }
}

// Kills (every pac on a cell with an enemy that eats it dies) and pellets (eat) after a sub-step.
template <class Events>
GAEVAL_HD_INLINE void kill_and_eat(Pos& p, Events* ev, TurnWork& w) {
    for (int i = 0; i < kSlots; ++i) {
        w.dies[i] = false;
        if (i % kMaxPacs >= p.pacs) continue;
        const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
        if (!a.alive) continue;
        const int enemy = 1 - i / kMaxPacs;
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& b = p.pac[enemy][k];
            if (b.alive && b.cell == a.cell && beats(b.type, a.type)) w.dies[i] = true;
        }
    }
    for (int i = 0; i < kSlots; ++i) {
        if (!w.dies[i]) continue;
        p.pac[i / kMaxPacs][i % kMaxPacs].alive = 0;
        if (ev) ev->died(i / kMaxPacs);
    }
    eat(p, ev);
}

}  // namespace detail

// Whether a finished-or-not position's game is over after a resolved turn: a side without a
// pac (the other side, if it has one, takes every remaining pellet), the turn limit, or too few
// pellets left to change the ranking (remaining value below the score difference, or none).
template <class Events>
GAEVAL_HD_INLINE void settle_end(Pos& p, Events* ev) {
    const int alive[2] = {alive_count(p, 0) + (p.hidden & 1), alive_count(p, 1) + (p.hidden >> 1)};
    if (alive[0] == 0 || alive[1] == 0) {
        for (int s = 0; s < 2; ++s) {
            if (alive[s] == 0) continue;
            p.score[s] = static_cast<int16_t>(p.score[s] + remaining_value(p));
            if (ev) ev->took_rest(s, p.pellets, p.supers);
        }
        p.pellets = BB::none();
        p.supers = BB::none();
        p.over = 1;
        return;
    }
    const int remaining = remaining_value(p);
    const int lead = abs(p.score[0] - p.score[1]);
    if (p.turn >= kTurnLimit || remaining == 0 || remaining < lead) p.over = 1;
}

namespace detail {

// Abilities and paths of every pac (resolve_turn's step 1 and 2).
GAEVAL_HD_INLINE void start_turn(const Map& m, Pos& p, const Command* cmd0, const Command* cmd1,
                                 TurnWork& w) {
    for (int i = 0; i < kSlots; ++i) {
        w.fast[i] = w.was_cancelled[i] = false;
        w.path_length[i] = w.steps_taken[i] = 0;
        const int s = i / kMaxPacs, k = i % kMaxPacs;
        if (k >= p.pacs || !p.pac[s][k].alive) continue;
        Pac& a = p.pac[s][k];
        const Command& c = s == 0 ? cmd0[k] : cmd1[k];
        w.fast[i] = a.speed_turns > 0;
        if ((c.kind == kSpeed || (c.kind == kSwitch && c.type < 3)) && a.cooldown == 0) {
            if (c.kind == kSpeed)
                a.speed_turns = kSpeedTurns;
            else
                a.type = c.type;
            a.cooldown = kCooldown;
        }
        if (c.kind == kMoveTo && c.target >= 0 && c.target < m.cells && c.target != a.cell &&
            m.dist[a.cell][c.target] != kNoPath) {
            w.path[i][0] = static_cast<int16_t>(next_step(m, a.cell, c.target));
            w.path_length[i] = 1;
            if (w.fast[i] && w.path[i][0] != c.target) {
                w.path[i][1] = static_cast<int16_t>(next_step(m, w.path[i][0], c.target));
                w.path_length[i] = 2;
            }
        }
    }
}

// Movement sub-step `sub` (0, or 1 for the fast pacs' second step), then kills and pellets.
template <class Events>
GAEVAL_HD_INLINE void move_step(Pos& p, int sub, Events* ev, TurnWork& w) {
    bool anyone = false;
    for (int i = 0; i < kSlots; ++i) {
        const int s = i / kMaxPacs, k = i % kMaxPacs;
        const bool alive = k < p.pacs && p.pac[s][k].alive;
        w.moving[i] = alive && w.steps_taken[i] < w.path_length[i] && (sub == 0 || w.fast[i]);
        w.to[i] =
            w.moving[i] ? w.path[i][w.steps_taken[i]] : (alive ? p.pac[s][k].cell : int16_t(-1));
        anyone = anyone || w.moving[i];
    }
    if (!anyone) return;
    resolve_collisions(p, w);
    for (int i = 0; i < kSlots; ++i) {
        if (!w.moving[i]) continue;
        if (w.cancelled[i]) {
            w.was_cancelled[i] = true;
        } else {
            p.pac[i / kMaxPacs][i % kMaxPacs].cell = w.to[i];
            ++w.steps_taken[i];
        }
    }
    kill_and_eat(p, ev, w);
}

// Each side's maybe set drops the cells it sees empty (word by word: no whole-board temporary).
GAEVAL_HD_INLINE void update_beliefs(const Map& m, Pos& p) {
    for (int s = 0; s < 2; ++s)
        for (int i = 0; i < kWords; ++i) {
            const uint64_t seen = visible_word(m, p, s, i);
            p.maybe[s].w[i] = (p.maybe[s].w[i] & ~seen) | (p.pellets.w[i] & seen);
        }
}

}  // namespace detail

// Resolves one turn with both sides' commands (the game is not over), its working arrays in w:
//   1 abilities: a pac with cooldown 0 that is told SPEED or SWITCH uses it (cooldown 10; SPEED
//     gives two steps per turn in the next 5 turns; SWITCH changes its type at once); an ability
//     asked for during the cooldown is ignored;
//   2 paths: a pac told MOVE takes the first one (two when fast) steps of a shortest path to
//     its target (next_step);
//   3 sub-step 1: every moving pac takes one step, collisions, kills, pellets; sub-step 2: the
//     same for the fast pacs with a step left;
//   4 timers: cooldowns fall by one, and the speed turns of pacs that were fast; the turn
//     counter advances and the end rules apply; with update_beliefs, each side's maybe set drops
//     the cells it sees empty.
// The events go to ev (when not null), a TurnEvents or a type with its recorder's calls.
template <class Events>
GAEVAL_HD_INLINE void resolve_turn_into(const Map& m, Pos& p, const Command* cmd0,
                                        const Command* cmd1, Events* ev, bool update_beliefs,
                                        TurnWork& w) {
    using detail::kSlots;
    if (ev) ev->clear();
    detail::start_turn(m, p, cmd0, cmd1, w);
    for (int sub = 0; sub < 2; ++sub) detail::move_step(p, sub, ev, w);
    for (int i = 0; i < kSlots; ++i) {
        const int s = i / kMaxPacs, k = i % kMaxPacs;
        if (k >= p.pacs) continue;
        Pac& a = p.pac[s][k];
        if (a.cooldown > 0) --a.cooldown;
        if (w.fast[i] && a.speed_turns > 0) --a.speed_turns;
        a.blocked = w.was_cancelled[i] ? 1 : 0;
    }
    p.turn = static_cast<uint16_t>(p.turn + 1);
    settle_end(p, ev);
    if (update_beliefs) detail::update_beliefs(m, p);
}

// The same with the events in a TurnEvents.
GAEVAL_HD_INLINE void resolve_turn(const Map& m, Pos& p, const Command* cmd0, const Command* cmd1,
                                   TurnEvents* ev, bool update_beliefs, TurnWork& w) {
    resolve_turn_into(m, p, cmd0, cmd1, ev, update_beliefs, w);
}

// The same with the working arrays in a local.
GAEVAL_HD_INLINE void resolve_turn(const Map& m, Pos& p, const Command* cmd0, const Command* cmd1,
                                   TurnEvents* ev, bool update_beliefs) {
    TurnWork w;
    resolve_turn(m, p, cmd0, cmd1, ev, update_beliefs, w);
}

}  // namespace gaeval::pac
