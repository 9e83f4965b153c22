// The greedy baseline every GA run is compared with: models are processed closest first (gap
// to the nearest enemy at the start, ties by index); each moves straight toward its reference
// enemy (the nearest at the start; no-further-from-target: the target unit's nearest model)
// until it is in range, out of its move, or blocked (its path would cross a base standing at
// that moment). Then, while the plan breaks a rule (coherency, typically), the last model
// that moved goes back to its start. The result is a legal plan in the problem's layout whose
// move order is the processing order.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in {

constexpr int GreedySteps = 40;  // bisection steps for "in range" and "blocked"

namespace detail {

// Whether model m's straight path from its start by t * (ux, uy) crosses no base standing now
// (enemies; friends where `pose` puts them). Touching is fine (half the tolerance allowed).
GAEVAL_HD inline bool path_clear(const RulesProblem& p, const PlanPose& pose, int m, float ux,
                                 float uy, float t) {
    const Scenario& s = p.scenario;
    const Shape from = start_shape(s, m);
    const float limit = -0.5f * p.rules.tolerance_mm;
    for (int e = 0; e < s.enemy_count; ++e)
        if (sweep_gap(from, t * ux, t * uy, enemy_shape(s, e)) < limit) return false;
    for (int j = 0; j < s.friendly_count; ++j)
        if (j != m && sweep_gap(from, t * ux, t * uy, end_shape(p, pose, j)) < limit) return false;
    return true;
}

}  // namespace detail

// How far (mm, at most `limit`) model `me` must go along the unit direction (ux, uy) until its
// gap to `target` is within `reach`: `limit` when it never is, 0 when it already is. The gap
// shrinks along the way to the target's centre (the caller keeps limit within that distance).
// Bisection, GreedySteps steps; + - * / sqrt_rn.
GAEVAL_HD_NOINLINE inline float distance_into_range(const Shape& me, const Shape& target, float ux,
                                           float uy, float limit, float reach) {
    if (!(gap_between(shifted(me, limit * ux, limit * uy), target) < reach)) return limit;
    if (gap_between(me, target) <= reach) return 0.0f;
    float lo = 0.0f, hi = limit;  // gap(lo) > reach >= gap(hi)
    for (int step = 0; step < GreedySteps; ++step) {
        const float mid = 0.5f * (lo + hi);
        if (gap_between(shifted(me, mid * ux, mid * uy), target) <= reach)
            hi = mid;
        else
            lo = mid;
    }
    return hi;
}

// The move of model m straight toward its reference enemy until it is in range (the edge of
// its combat range) or out of move, ignoring every other base; zero without a reference.
GAEVAL_HD inline Move range_edge_move(const RulesProblem& p, int m) {
    const Scenario& s = p.scenario;
    const int e = p.start[m].reference_enemy;
    if (e < 0) return Move{0, 0};
    const Shape me = start_shape(s, m), target = enemy_shape(s, e);
    const float dx = target.x - me.x, dy = target.y - me.y;
    const float dist = sqrt_rn(dx * dx + dy * dy);
    if (!(dist > 0.0f)) return Move{0, 0};
    const float ux = dx / dist, uy = dy / dist;
    const float go = distance_into_range(me, target, ux, uy, min(s.move_mm, dist), s.reach_mm);
    // Gene units, rounded toward the start (never past the stopping point).
    return pull_inside_limit(Move{static_cast<int32_t>(go * ux / s.move_unit_mm),
                                  static_cast<int32_t>(go * uy / s.move_unit_mm)});
}

// Writes the greedy plan (p.layout.words words) into genes, processing the models in
// `processing` order (a permutation of the n models): each moves as range_edge_move says,
// stopped earlier where its path would cross a base standing at that moment; then the last
// movers go back while the plan breaks a rule. Legal whenever the start is.
GAEVAL_HD_NOINLINE inline void greedy_plan_in_order(const RulesProblem& p, const uint8_t* processing,
                                           uint32_t* genes) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    PlanPose pose;
    for (int m = 0; m < n; ++m) {
        pose.x[m] = s.friendly[m].x;
        pose.y[m] = s.friendly[m].y;
        pose.c[m] = s.friendly[m].base.cos_angle;
        pose.s[m] = s.friendly[m].base.sin_angle;
        pose.moved[m] = false;
        pose.order[m] = processing[m];
        genes[m] = 0u;
    }
    for (int k = 0; k < n; ++k) pose.position[pose.order[k]] = static_cast<uint8_t>(k);

    for (int k = 0; k < n; ++k) {
        const int m = pose.order[k];
        const Move aim = range_edge_move(p, m);
        const float ax = static_cast<float>(aim.dx) * s.move_unit_mm;
        const float ay = static_cast<float>(aim.dy) * s.move_unit_mm;
        float go = sqrt_rn(ax * ax + ay * ay);
        if (!(go > 0.0f)) continue;
        const float ux = ax / go, uy = ay / go;
        Move mv = aim;
        // How far until blocked.
        if (!detail::path_clear(p, pose, m, ux, uy, go)) {
            float lo = 0.0f, hi = go;  // clear(lo), blocked(hi)
            for (int step = 0; step < GreedySteps; ++step) {
                const float mid = 0.5f * (lo + hi);
                if (detail::path_clear(p, pose, m, ux, uy, mid))
                    lo = mid;
                else
                    hi = mid;
            }
            go = lo;
            mv = pull_inside_limit(Move{static_cast<int32_t>(go * ux / s.move_unit_mm),
                                        static_cast<int32_t>(go * uy / s.move_unit_mm)});
        }
        genes[m] = pack_move(mv);
        pose.moved[m] = genes[m] != 0u;
        pose.x[m] = s.friendly[m].x + static_cast<float>(mv.dx) * s.move_unit_mm;
        pose.y[m] = s.friendly[m].y + static_cast<float>(mv.dy) * s.move_unit_mm;
    }
    // Back out the last movers while the plan breaks a rule.
    for (int k = n - 1; k >= 0; --k) {
        Breakdown b = check_plan(p, pose, nullptr);
        if (b.legal) break;
        const int m = pose.order[k];
        if (!pose.moved[m]) continue;
        send_back(p, pose, m);
        genes[m] = 0u;
    }
    if (p.layout.order >= 0)
        for (int k = 0; k < n; ++k) genes[p.layout.order + k] = pose.order[k];
    if (p.layout.turn >= 0)
        for (int m = 0; m < n; ++m)
            genes[p.layout.turn + m] =
                pack_move(Move{round_half_away(30000.0f * s.friendly[m].base.cos_angle),
                               round_half_away(30000.0f * s.friendly[m].base.sin_angle)});
}

// Models sorted by `key` ascending (insertion sort: stable, ties by index).
GAEVAL_HD inline void order_by_key(int n, const float* key, uint8_t* order) {
    for (int m = 0; m < n; ++m) order[m] = static_cast<uint8_t>(m);
    for (int k = 1; k < n; ++k)
        for (int q = k; q > 0 && key[order[q]] < key[order[q - 1]]; --q)
            swap(order[q], order[q - 1]);
}

// The greedy baseline: closest first (gap to the nearest enemy at the start, ties by index).
GAEVAL_HD inline void greedy_plan(const RulesProblem& p, uint32_t* genes) {
    const Scenario& s = p.scenario;
    float start_gap[MaxFriendly];
    uint8_t order[MaxFriendly];
    for (int m = 0; m < s.friendly_count; ++m)
        start_gap[m] = nearest_enemy_gap(s, start_shape(s, m), nullptr);
    order_by_key(s.friendly_count, start_gap, order);
    greedy_plan_in_order(p, order, genes);
}

// A randomized greedy plan (GRASP): the greedy with each model's start gap raised by a random
// amount up to half a move, so that nearby models swap turns. Addressed by (c0, c1, model).
GAEVAL_HD inline void grasp_plan(const RulesProblem& p, uint64_t seed, Purpose purpose,
                                 uint32_t c0, uint32_t c1, uint32_t* genes) {
    const Scenario& s = p.scenario;
    float key[MaxFriendly];
    uint8_t order[MaxFriendly];
    for (int m = 0; m < s.friendly_count; ++m) {
        const Random4 r = philox(seed, purpose, c0, c1, static_cast<uint32_t>(m), 0);
        key[m] = nearest_enemy_gap(s, start_shape(s, m), nullptr) +
                 0.5f * s.move_mm * unit_float(r.v[0]);
    }
    order_by_key(s.friendly_count, key, order);
    greedy_plan_in_order(p, order, genes);
}

}  // namespace gaeval::pile_in
