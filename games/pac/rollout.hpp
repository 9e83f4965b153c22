// The rollouts of the co-evolution bot (the Spring Challenge 2020 winner's design, docs/pac.md):
// a plan gives each pac of a side a walk of kPlanCells cells; a rollout plays kPlanDepth turns
// from the bot's believed position with one plan per side, each pac following the reflexes
// below, and scores the end from the evaluated side's point of view. RolloutOp evaluates one
// individual of a population per index: the batch layer's evaluate() runs a whole generation
// as one batch, one individual per CPU iteration or GPU thread.
//
// Reflexes of a pac each simulated turn (plan_command):
//   - in danger (an enemy that eats it can reach its cell or its next plan cell this turn):
//     flee to the neighbour farthest beyond every such enemy's reach; when no neighbour is out
//     of reach, switch to the type that eats the nearest threat (cooldown permitting);
//   - else SPEED when its cooldown is 0 and it was not blocked last turn;
//   - else MOVE along its plan: to the next plan cell, or the one after when fast.
// Value of a rollout (float; + - * / only, sums in a fixed order):
//   sum over turns t of 0.9^t * (gain of the side - gain of the other), a side's gain being its
//   pellets (1 when the cell was seen this turn, else unseen_value: the chance that an unseen
//   cell still holds one), 10 per super pellet and kill_value per enemy pac killed; plus at the
//   end voronoi_weight * sum over pellets of +-weight * 0.9^d for the side with the strictly
//   nearer pac (d its distance), and each super pellet left assigned greedily to the nearest
//   free pac (closest pair first) for +-10 * 0.9^d.
#pragma once

#include <cstddef>
#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/scratch.hpp"
#include "games/pac/game.hpp"
#include "games/pac/map.hpp"
#include "games/pac/rules.hpp"

namespace gaeval::pac {

constexpr int kPlanCells = 11;   // cells per pac (the seed: 11 cells for depth 6)
constexpr int kPlanDepth = 6;    // turns a rollout plays
constexpr int kDecaySteps = 64;  // 0.9^d for d < 64; farther counts 0

// A side's genes: per pac a walk of cells (each a neighbour of the previous, the first a
// neighbour of the pac's cell); -1 past the end.
struct Plan {
    int16_t cell[kMaxPacs][kPlanCells];
};

// The command the reflexes give pac k of `side` in p, following `plan` from plan index *next
// (advanced past the cells the pac has reached).
GAEVAL_HD_INLINE Command plan_command(const Map& m, const Pos& p, int side, int k, const Plan& plan,
                                      int* next) {
    const Pac& a = p.pac[side][k];
    if (!a.alive) return Command::wait();
    const int16_t* walk = plan.cell[k];
    if (*next + 1 < kPlanCells && walk[*next + 1] == a.cell)
        *next += 2;
    else if (*next < kPlanCells && walk[*next] == a.cell)
        *next += 1;
    const int ahead = *next < kPlanCells ? walk[*next] : -1;
    // ---- danger
    bool danger = false;
    int threat_type = 0, closest = kNoPath;
    for (int e = 0; e < p.pacs; ++e) {
        const Pac& b = p.pac[1 - side][e];
        if (!b.alive || !beats(b.type, a.type)) continue;
        const int reach = b.speed_turns > 0 ? 2 : 1;
        const int here = m.dist[b.cell][a.cell];
        const int there = ahead >= 0 ? m.dist[b.cell][ahead] : kNoPath;
        if (here > reach && there > reach) continue;
        danger = true;
        if (here < closest) {
            closest = here;
            threat_type = b.type;
        }
    }
    if (danger) {
        int best = -1, best_margin = 0;
        for (int dir = 0; dir < 4; ++dir) {
            const int n = m.neighbour[a.cell][dir];
            if (n < 0) continue;
            int margin = kNoPath;
            for (int e = 0; e < p.pacs; ++e) {
                const Pac& b = p.pac[1 - side][e];
                if (!b.alive || !beats(b.type, a.type)) continue;
                const int reach = b.speed_turns > 0 ? 2 : 1;
                margin = min(margin, m.dist[b.cell][n] - reach);
            }
            if (margin > best_margin) {
                best = n;
                best_margin = margin;
            }
        }
        if (best >= 0) return Command::move_to(best);
        if (a.cooldown == 0) return Command::switch_to(beater_of(threat_type));
    }
    if (a.cooldown == 0 && !a.blocked) return Command::speed();
    if (ahead < 0) return Command::wait();
    const int steps = a.speed_turns > 0 ? 2 : 1;
    const int last = min(*next + steps - 1, kPlanCells - 1);
    const int target = walk[last] >= 0 ? walk[last] : ahead;
    return Command::move_to(target);
}

// A turn's events as the counts RolloutOp::gain reads (a recorder for resolve_turn_into,
// rules.hpp): per side the pellets eaten on cells in *known and elsewhere, the super pellets eaten
// and the pacs lost. The same numbers as TurnEvents' bitboards give (each cell is eaten at most
// once a side a turn: eat() takes it off the map), without the four bitboards.
struct TurnCounts {
    const BB* known;
    int seen[2], unseen[2], supers[2], deaths[2];

    GAEVAL_HD_INLINE void clear() {
        for (int s = 0; s < 2; ++s) seen[s] = unseen[s] = supers[s] = deaths[s] = 0;
    }
    GAEVAL_HD_INLINE void ate(int s, int c) {
        if (holds(*known, c))
            ++seen[s];
        else
            ++unseen[s];
    }
    GAEVAL_HD_INLINE void ate_super(int s, int) { ++supers[s]; }
    GAEVAL_HD_INLINE void died(int s) { ++deaths[s]; }
    // Word by word: no whole-board temporary.
    GAEVAL_HD_INLINE void took_rest(int s, const BB& pellets, const BB& supers_left) {
        for (int i = 0; i < kWords; ++i) {
            const int here = popcount64(pellets.w[i]);
            const int in_sight = popcount64(pellets.w[i] & known->w[i]);
            seen[s] += in_sight;
            unseen[s] += here - in_sight;
            supers[s] += popcount64(supers_left.w[i]);
        }
    }
};

// One generation's rollouts: individual i of `population` plans (inputs[0, population)) for
// `side` against the other side's plan inputs[population], from `start`.
struct RolloutOp {
    using Input = Plan;
    using Output = float;

    Game game;
    Pos start;                 // the bot's believed position (unknown enemies are not alive)
    BB known;                  // cells whose content the bot sees this turn
    float unseen_value = 0;    // a pellet on a cell not seen this turn
    float kill_value = 0;      // a pac killed (negative for a pac lost)
    float voronoi_weight = 0;  // the end's nearer-pellets term
    float decay[kDecaySteps];  // 0.9^d (computed on the host by repeated products)
    uint8_t side = 0;          // the side whose individuals are evaluated
    uint8_t depth = kPlanDepth;
    uint32_t population = 0;

    GAEVAL_HD_INLINE float decay_at(int d) const { return d < kDecaySteps ? decay[d] : 0.0f; }

    // The rollout in per-thread scratch (games/core/scratch.hpp; the batch layer's evaluate runs
    // it: kernels/batch_ops.hpp, evaluate_shape): the position, the turn's working arrays, seat
    // 0's commands, the turn's counts and the plan indexes, so that nothing indexed at run time
    // sits in a GPU thread's local memory. The same value as the rollout over a copy of the
    // position with TurnEvents' bitboards that it replaced (tests/test_pac_rollout_scratch.cpp
    // keeps that one as its reference).
    struct Scratch {
        Pos pos;
        TurnWork turn;
        Command cmd0[kMaxPacs];
        TurnCounts counts;
        int next[2][kMaxPacs];
    };
    GAEVAL_HD float operator()(const Plan* inputs, uint64_t i, const ThreadScratch& scratch) const {
        return rollout_in(inputs[i], inputs[population], scratch.as<Scratch>());
    }
    // The same rollout in a scratch of its own (a caller outside a batch: a test's op by hand).
    GAEVAL_HD float operator()(const Plan* inputs, uint64_t i) const {
        Scratch s;
        return rollout_in(inputs[i], inputs[population], s);
    }

    // The value of plan `mine` for `side` against `theirs`, played in s: the turns to `depth`
    // (each side's commands from its plan, the events counted), then the end's terms.
    GAEVAL_HD float rollout_in(const Plan& mine, const Plan& theirs, Scratch& s) const {
        const Map& m = *game.map;
        s.pos = start;
        s.counts.known = &known;
        for (int k = 0; k < kMaxPacs; ++k) s.next[0][k] = s.next[1][k] = 0;
        float value = 0.0f;
        for (int t = 0; t < depth && !s.pos.over; ++t) {
            for (int k = 0; k < kMaxPacs; ++k) s.cmd0[k] = command_in(s, 0, k, mine, theirs);
            for (int k = 0; k < kMaxPacs; ++k) s.turn.cmd1[k] = command_in(s, 1, k, mine, theirs);
            resolve_turn_into(m, s.pos, s.cmd0, s.turn.cmd1, &s.counts, false, s.turn);
            value = value + decay_at(t) * (gain(s.counts, side) - gain(s.counts, 1 - side));
        }
        return value + end_value_in(s.pos);
    }

    // Pac k of seat `seat`'s command in s (seat's commands by pac).
    GAEVAL_HD_INLINE Command command_in(Scratch& s, int seat, int k, const Plan& mine,
                                        const Plan& theirs) const {
        if (k >= s.pos.pacs) return Command::wait();
        return plan_command(*game.map, s.pos, seat, k, seat == side ? mine : theirs,
                            &s.next[seat][k]);
    }

    // Gain of side s in a turn (see the header comment), from the turn's counts.
    GAEVAL_HD_INLINE float gain(const TurnCounts& c, int s) const {
        const float pellets =
            static_cast<float>(c.seen[s]) + unseen_value * static_cast<float>(c.unseen[s]);
        const float supers = static_cast<float>(kSuperValue * c.supers[s]);
        const float kills = kill_value * static_cast<float>(c.deaths[1 - s]);
        return pellets + supers + kills;
    }

    // The end's terms (nearer pellets, the super pellet assignment) for side `side`, of p in
    // scratch, which it consumes (the super pellets are taken off p as they
    // are assigned): the pacs taken as a bit mask, no whole-board temporary.
    GAEVAL_HD float end_value_in(Pos& p) const {
        const Map& m = *game.map;
        float voronoi = 0.0f;
        for_each_cell(p.pellets, [&](int c) {
            int near0 = kNoPath, near1 = kNoPath;
            for (int k = 0; k < p.pacs; ++k) {
                if (p.pac[0][k].alive) near0 = min(near0, int(m.dist[p.pac[0][k].cell][c]));
                if (p.pac[1][k].alive) near1 = min(near1, int(m.dist[p.pac[1][k].cell][c]));
            }
            if (near0 == near1) return;
            const float weight = known.test(c) ? 1.0f : unseen_value;
            const int winner = near1 < near0 ? 1 : 0;
            const float term = weight * decay_at(winner ? near1 : near0);
            voronoi = winner == side ? voronoi + term : voronoi - term;
        });
        return voronoi_weight * voronoi + supers_in(p);
    }

    // The end's super pellet assignment, taking the assigned super pellets off p.
    GAEVAL_HD_INLINE float supers_in(Pos& p) const {
        const Map& m = *game.map;
        float supers = 0.0f;
        uint32_t taken = 0;  // bit i: pac i (side i / kMaxPacs) is assigned
        while (p.supers.any()) {
            int best_pac = -1, best_cell = -1, best_dist = kNoPath;
            for (int i = 0; i < 2 * kMaxPacs; ++i) {
                const Pac& a = p.pac[i / kMaxPacs][i % kMaxPacs];
                if (i % kMaxPacs >= p.pacs || !a.alive || (taken >> i & 1)) continue;
                for_each_cell(p.supers, [&](int c) {
                    if (m.dist[a.cell][c] < best_dist) {
                        best_dist = m.dist[a.cell][c];
                        best_pac = i;
                        best_cell = c;
                    }
                });
            }
            if (best_pac < 0) break;
            taken |= uint32_t{1} << best_pac;
            take(p.supers, best_cell);
            const float term = static_cast<float>(kSuperValue) * decay_at(best_dist);
            supers = best_pac / kMaxPacs == side ? supers + term : supers - term;
        }
        return supers;
    }

    // Device binding of the map (games/core/game.hpp's table hooks).
    std::size_t table_bytes() const { return game.table_bytes(); }
    const void* tables() const { return game.tables(); }
    RolloutOp with_tables(const void* device_map) const {
        RolloutOp op = *this;
        op.game = game.with_tables(device_map);
        return op;
    }
};

}  // namespace gaeval::pac
