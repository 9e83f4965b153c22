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
struct TurnEvents {
    BB eaten[2];
    BB eaten_supers[2];
    int deaths[2] = {0, 0};
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

namespace detail {

constexpr int kSlots = 2 * kMaxPacs;  // pac i is pac i % kMaxPacs of side i / kMaxPacs

// One movement sub-step: every pac with moving[i] tries to step from its cell to to[i].
// Collisions: pacs of one owner or of one type that would land on one cell or cross each other
// both stay (a pac that stays is never moved); a pac may land on a cell with an enemy of
// another type, but not cross a pac that eats it. Cancelling a step can cause another
// collision, so this repeats until nothing changes (each round cancels from the state at its
// start, so the order of the pacs does not matter). Returns the pacs whose step was cancelled.
GAEVAL_HD_INLINE void resolve_collisions(const Pos& p, const bool* moving, const int16_t* to,
                                         bool* cancelled) {
    for (int i = 0; i < kSlots; ++i) cancelled[i] = false;
    while (true) {
        bool newly[kSlots];
        bool any = false;
        for (int i = 0; i < kSlots; ++i) {
            newly[i] = false;
            if (!moving[i] || cancelled[i]) continue;
            const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
            for (int j = 0; j < kSlots && !newly[i]; ++j) {
                if (j == i || j % kMaxPacs >= p.pacs) continue;
                const Pac& b = p.pac[j / kMaxPacs][j % kMaxPacs];
                if (!b.alive) continue;
                const bool b_moves = moving[j] && !cancelled[j];
                const int b_to = b_moves ? to[j] : b.cell;
                const bool same_cell = to[i] == b_to;
                const bool crossing = b_moves && to[i] == b.cell && b_to == a.cell;
                if (!same_cell && !crossing) continue;
                if (i / kMaxPacs == j / kMaxPacs || a.type == b.type)
                    newly[i] = true;
                else if (crossing && beats(b.type, a.type))
                    newly[i] = true;
            }
            any = any || newly[i];
        }
        if (!any) return;
        for (int i = 0; i < kSlots; ++i) cancelled[i] = cancelled[i] || newly[i];
    }
}

// Kills (every pac on a cell with an enemy that eats it dies) and pellets (each side with a
// living pac on a pellet's cell scores it; the pellet is gone) after a sub-step.
GAEVAL_HD_INLINE void kill_and_eat(Pos& p, TurnEvents* ev) {
    bool dies[kSlots];
    for (int i = 0; i < kSlots; ++i) {
        dies[i] = false;
        if (i % kMaxPacs >= p.pacs) continue;
        const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
        if (!a.alive) continue;
        const int enemy = 1 - i / kMaxPacs;
        for (int k = 0; k < p.pacs; ++k) {
            const Pac& b = p.pac[enemy][k];
            if (b.alive && b.cell == a.cell && beats(b.type, a.type)) dies[i] = true;
        }
    }
    for (int i = 0; i < kSlots; ++i) {
        if (!dies[i]) continue;
        p.pac[i / kMaxPacs][i % kMaxPacs].alive = 0;
        if (ev) ev->deaths[i / kMaxPacs] += 1;
    }
    const BB occupied[2] = {pac_cells(p, 0), pac_cells(p, 1)};
    for (int s = 0; s < 2; ++s) {
        const BB pellets = p.pellets & occupied[s];
        const BB supers = p.supers & occupied[s];
        p.score[s] = static_cast<int16_t>(p.score[s] + kPelletValue * pellets.count() +
                                          kSuperValue * supers.count());
        if (ev) {
            ev->eaten[s] |= pellets;
            ev->eaten_supers[s] |= supers;
        }
    }
    const BB any = occupied[0] | occupied[1];
    p.pellets = p.pellets.minus(any);
    p.supers = p.supers.minus(any);
}

}  // namespace detail

// Whether a finished-or-not position's game is over after a resolved turn: a side without a
// pac (the other side, if it has one, takes every remaining pellet), the turn limit, or too few
// pellets left to change the ranking (remaining value below the score difference, or none).
GAEVAL_HD_INLINE void settle_end(Pos& p, TurnEvents* ev) {
    const int alive[2] = {alive_count(p, 0) + (p.hidden & 1), alive_count(p, 1) + (p.hidden >> 1)};
    if (alive[0] == 0 || alive[1] == 0) {
        for (int s = 0; s < 2; ++s) {
            if (alive[s] == 0) continue;
            p.score[s] = static_cast<int16_t>(p.score[s] + remaining_value(p));
            if (ev) {
                ev->eaten[s] |= p.pellets;
                ev->eaten_supers[s] |= p.supers;
            }
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

// Resolves one turn with both sides' commands (the game is not over):
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
GAEVAL_HD_INLINE void resolve_turn(const Map& m, Pos& p, const Command* cmd0, const Command* cmd1,
                                   TurnEvents* ev, bool update_beliefs) {
    using detail::kSlots;
    if (ev) {
        for (int s = 0; s < 2; ++s) {
            ev->eaten[s] = BB::none();
            ev->eaten_supers[s] = BB::none();
            ev->deaths[s] = 0;
        }
    }
    const Command* cmds[2] = {cmd0, cmd1};
    bool fast[kSlots];
    bool was_cancelled[kSlots];
    int16_t path[kSlots][2];
    int path_length[kSlots];
    int steps_taken[kSlots];
    // ---- abilities and paths
    for (int i = 0; i < kSlots; ++i) {
        fast[i] = was_cancelled[i] = false;
        path_length[i] = steps_taken[i] = 0;
        const int s = i / kMaxPacs, k = i % kMaxPacs;
        if (k >= p.pacs || !p.pac[s][k].alive) continue;
        Pac& a = p.pac[s][k];
        const Command& c = cmds[s][k];
        fast[i] = a.speed_turns > 0;
        if ((c.kind == kSpeed || (c.kind == kSwitch && c.type < 3)) && a.cooldown == 0) {
            if (c.kind == kSpeed)
                a.speed_turns = kSpeedTurns;
            else
                a.type = c.type;
            a.cooldown = kCooldown;
        }
        if (c.kind == kMoveTo && c.target >= 0 && c.target < m.cells && c.target != a.cell &&
            m.dist[a.cell][c.target] != kNoPath) {
            path[i][0] = static_cast<int16_t>(next_step(m, a.cell, c.target));
            path_length[i] = 1;
            if (fast[i] && path[i][0] != c.target) {
                path[i][1] = static_cast<int16_t>(next_step(m, path[i][0], c.target));
                path_length[i] = 2;
            }
        }
    }
    // ---- movement in two sub-steps
    for (int sub = 0; sub < 2; ++sub) {
        bool moving[kSlots];
        int16_t to[kSlots];
        bool anyone = false;
        for (int i = 0; i < kSlots; ++i) {
            const int s = i / kMaxPacs, k = i % kMaxPacs;
            const bool alive = k < p.pacs && p.pac[s][k].alive;
            moving[i] = alive && steps_taken[i] < path_length[i] && (sub == 0 || fast[i]);
            to[i] = moving[i] ? path[i][steps_taken[i]] : (alive ? p.pac[s][k].cell : int16_t(-1));
            anyone = anyone || moving[i];
        }
        if (!anyone) continue;
        bool cancelled[kSlots];
        detail::resolve_collisions(p, moving, to, cancelled);
        for (int i = 0; i < kSlots; ++i) {
            if (!moving[i]) continue;
            if (cancelled[i]) {
                was_cancelled[i] = true;
            } else {
                p.pac[i / kMaxPacs][i % kMaxPacs].cell = to[i];
                ++steps_taken[i];
            }
        }
        detail::kill_and_eat(p, ev);
    }
    // ---- timers, end, beliefs
    for (int i = 0; i < kSlots; ++i) {
        const int s = i / kMaxPacs, k = i % kMaxPacs;
        if (k >= p.pacs) continue;
        Pac& a = p.pac[s][k];
        if (a.cooldown > 0) --a.cooldown;
        if (fast[i] && a.speed_turns > 0) --a.speed_turns;
        a.blocked = was_cancelled[i] ? 1 : 0;
    }
    p.turn = static_cast<uint16_t>(p.turn + 1);
    settle_end(p, ev);
    if (update_beliefs) {
        for (int s = 0; s < 2; ++s) {
            const BB seen = visible(m, p, s);
            p.maybe[s] = p.maybe[s].minus(seen) | (p.pellets & seen);
        }
    }
}

}  // namespace gaeval::pac
