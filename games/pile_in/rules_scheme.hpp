// The GA step for the rules-accurate presets: GAPI1's scheme (clones of the S best, children of
// two parents drawn uniformly among them, every new plan mutated) extended to the rules
// genome (rules.hpp):
//   moves        uniform crossover as GAPI1; a mutated move is, with equal odds, a fresh random
//                move (GAPI1's), a small creep step from the current move, a move into base
//                contact with the model's reference enemy from a random side facing the model,
//                or no move at all (always legal);
//   orientation  inherited with the model's move; mutated to a fresh random direction;
//   move order   order crossover (OX1: parent a's segment [i, j] in place, the other positions
//                filled with parent b's remaining models in b's order from position j + 1 on)
//                and swap mutation (with probability = mutation rate, two random positions).
// Generation 0 is random except individual 0, the plan in which nobody moves: legal whenever
// the start is, so every run has a legal plan to return.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/rng.hpp"
#include "games/pile_in/gapi1_scheme.hpp"
#include "games/pile_in/genome.hpp"
#include "games/pile_in/geometry.hpp"
#include "games/pile_in/rules.hpp"

namespace gaeval::pile_in {

constexpr int32_t CreepDivisor = 16;  // creep steps are random moves shrunk this much
constexpr int MoveMutationKinds = 4;  // fresh, creep, contact, still

// The move pulled back inside the limit (scaled when far outside, then unit steps).
GAEVAL_HD_INLINE Move clamp_move(Move m) {
    if (move_within_limit(m)) return m;
    const float x = static_cast<float>(m.dx), y = static_cast<float>(m.dy);
    const float scale = static_cast<float>(MoveScale) / sqrt_rn(x * x + y * y);
    m.dx = round_half_away(x * scale);
    m.dy = round_half_away(y * scale);
    while (!move_within_limit(m)) {
        if (abs(m.dx) >= abs(m.dy))
            m.dx -= m.dx > 0 ? 1 : -1;
        else
            m.dy -= m.dy > 0 ? 1 : -1;
    }
    return m;
}

// A random orientation word (a direction of length about 30000 units, by rejection).
// Bit-identical across backends: addressed draws, + - * / sqrt_rn.
GAEVAL_HD_INLINE uint32_t random_turn(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                      uint32_t c2) {
    for (uint32_t attempt = 0; attempt < 64; ++attempt) {
        Random4 r = philox(seed, purpose, c0, c1, c2, attempt);
        const float x = unit_float(r.v[0]) * 2.0f - 1.0f;
        const float y = unit_float(r.v[1]) * 2.0f - 1.0f;
        const float s = x * x + y * y;
        if (s > 1.0f || s < 0.0625f) continue;
        const float scale = 30000.0f / sqrt_rn(s);
        return pack_move(Move{round_half_away(x * scale), round_half_away(y * scale)});
    }
    return pack_move(Move{30000, 0});
}

// A move that puts model m in base contact with its reference enemy, on a random side facing
// the model (angles -90..90 degrees from the enemy-to-model direction, no trigonometry), cut
// to the move limit.
// Bit-identical across backends: addressed draws, + - * / sqrt_rn.
GAEVAL_HD inline Move contact_move(const RulesProblem& p, int m, uint32_t draw) {
    const Scenario& s = p.scenario;
    const int e = p.start[m].reference_enemy;
    if (e < 0) return Move{0, 0};
    const Shape enemy = enemy_shape(s, e);
    const Shape me = start_shape(s, m);
    float wx = me.x - enemy.x, wy = me.y - enemy.y;
    const float len = sqrt_rn(wx * wx + wy * wy);
    wx = len > 0.0f ? wx / len : 1.0f;
    wy = len > 0.0f ? wy / len : 0.0f;
    const float t = unit_float(draw) * 2.0f - 1.0f;
    const float inv = 1.0f / (1.0f + t * t);
    const float cu = (1.0f - t * t) * inv, su = (2.0f * t) * inv;
    const float ux = cu * wx - su * wy, uy = su * wx + cu * wy;
    const float d = contact_distance(enemy, me, ux, uy);
    const float dx = enemy.x + d * ux - me.x, dy = enemy.y + d * uy - me.y;
    return clamp_move(
        Move{round_half_away(dx / s.move_unit_mm), round_half_away(dy / s.move_unit_mm)});
}

// Order crossover (OX1) of two permutations of n models into child.
GAEVAL_HD inline void order_crossover(const uint8_t* a, const uint8_t* b, int n, uint32_t cut_i,
                                      uint32_t cut_j, uint8_t* child) {
    int i = static_cast<int>(cut_i), j = static_cast<int>(cut_j);
    if (i > j) swap(i, j);
    uint64_t taken = 0;
    for (int q = i; q <= j; ++q) {
        child[q] = a[q];
        taken |= uint64_t{1} << a[q];
    }
    int write = (j + 1) % n;
    for (int c = 1; c <= n; ++c) {
        const uint8_t v = b[(j + c) % n];
        if ((taken >> v) & 1u) continue;
        child[write] = v;
        write = (write + 1) % n;
    }
}

// Makes new individual k of the next generation in dst.
struct RulesStep {
    RulesProblem problem;
    Gapi1Step base;  // seed, generation, survivors, mutation rate, ranking, src, dst

    // Mutates one move (hit already decided). Addressed by (generation, k, m).
    GAEVAL_HD_INLINE uint32_t mutate_move(uint32_t gene, uint32_t k32, int m) const {
        const uint32_t g = base.generation, m32 = static_cast<uint32_t>(m);
        Random4 r = philox(base.seed, Purpose::MutationKind, g, k32, m32, 0);
        switch (below(r.v[0], MoveMutationKinds)) {
            case 0:
                return pack_move(random_move(base.seed, Purpose::MutationMove, g, k32, m32));
            case 1: {
                Move step = random_move(base.seed, Purpose::MutationCreep, g, k32, m32);
                Move now = unpack_move(gene);
                return pack_move(clamp_move(
                    Move{now.dx + step.dx / CreepDivisor, now.dy + step.dy / CreepDivisor}));
            }
            case 2:
                return pack_move(contact_move(problem, m, r.v[1]));
            default:
                return 0u;
        }
    }

    // Bit-identical across backends: every draw addressed by (generation, k, gene).
    GAEVAL_HD void operator()(uint64_t k) const {
        uint64_t a, b;
        base.parents(k, a, b);
        const PlanLayout& layout = problem.layout;
        const PlanView& src = base.src;
        const PlanView& dst = base.dst;
        const uint32_t k32 = static_cast<uint32_t>(k), g = base.generation;
        const double rate = base.mutation_rate;
        Random4 mask = philox(base.seed, Purpose::CrossoverMask, g, k32, 0, 0);
        Random4 hits{};
        for (int m = 0; m < layout.models; ++m) {
            const bool from_b = a != b && ((mask.v[m >> 5] >> (m & 31)) & 1u);
            const uint64_t parent = from_b ? b : a;
            uint32_t gene = src.gene(parent, m);
            if ((m & 3) == 0)
                hits = philox(base.seed, Purpose::MutationHit, g, k32,
                              static_cast<uint32_t>(m >> 2), 0);
            if (bernoulli(hits.v[m & 3], rate)) gene = mutate_move(gene, k32, m);
            dst.set_gene(k, m, gene);
            if (layout.turn >= 0) {
                uint32_t turn = src.gene(parent, layout.turn + m);
                Random4 t =
                    philox(base.seed, Purpose::MutationTurn, g, k32, static_cast<uint32_t>(m), 0);
                if (bernoulli(t.v[0], rate))
                    turn = random_turn(base.seed, Purpose::MutationTurn, g, k32,
                                       static_cast<uint32_t>(m) + 0x10000u);
                dst.set_gene(k, layout.turn + m, turn);
            }
        }
        if (layout.order < 0) return;
        const int n = layout.models;
        uint8_t pa[MaxFriendly], pb[MaxFriendly], child[MaxFriendly];
        for (int q = 0; q < n; ++q) {
            pa[q] = static_cast<uint8_t>(src.gene(a, layout.order + q));
            pb[q] = static_cast<uint8_t>(src.gene(b, layout.order + q));
        }
        if (a == b) {
            for (int q = 0; q < n; ++q) child[q] = pa[q];
        } else {
            Random4 cut = philox(base.seed, Purpose::OrderCrossover, g, k32, 0, 0);
            order_crossover(pa, pb, n, below(cut.v[0], static_cast<uint32_t>(n)),
                            below(cut.v[1], static_cast<uint32_t>(n)), child);
        }
        Random4 sw = philox(base.seed, Purpose::OrderMutation, g, k32, 0, 0);
        if (bernoulli(sw.v[0], rate))
            swap(child[below(sw.v[1], static_cast<uint32_t>(n))],
                 child[below(sw.v[2], static_cast<uint32_t>(n))]);
        for (int q = 0; q < n; ++q) dst.set_gene(k, layout.order + q, child[q]);
    }
};

// Generation 0: individual 0 does not move (index order); every other plan has GAPI1's random
// moves (the same draws), a random move order (Fisher-Yates) and random orientations.
// Bit-identical across backends: addressed by (0, individual, gene).
struct RandomizeRulesPlans {
    uint64_t seed = 0;
    PlanLayout layout;
    PlanView dst;
    GAEVAL_HD void operator()(uint64_t i) const {
        const uint32_t i32 = static_cast<uint32_t>(i);
        const int n = layout.models;
        for (int m = 0; m < n; ++m) {
            const uint32_t m32 = static_cast<uint32_t>(m);
            dst.set_gene(
                i, m, i == 0 ? 0u : pack_move(random_move(seed, Purpose::InitMove, 0, i32, m32)));
            if (layout.turn >= 0)
                dst.set_gene(i, layout.turn + m,
                             random_turn(seed, Purpose::InitAngle, 0, i32, m32));
        }
        if (layout.order < 0) return;
        uint8_t order[MaxFriendly];
        for (int q = 0; q < n; ++q) order[q] = static_cast<uint8_t>(q);
        if (i != 0) {
            for (int q = n - 1; q > 0; --q) {
                Random4 r = philox(seed, Purpose::InitOrder, 0, i32, static_cast<uint32_t>(q), 0);
                swap(order[q], order[below(r.v[0], static_cast<uint32_t>(q + 1))]);
            }
        }
        for (int q = 0; q < n; ++q) dst.set_gene(i, layout.order + q, order[q]);
    }
};

}  // namespace gaeval::pile_in
