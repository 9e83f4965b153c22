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
#include "games/pile_in/genome.hpp"
#include "games/pile_in/geometry.hpp"
#include "games/pile_in/rules.hpp"
#include "games/pile_in/rules_fitness.hpp"

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

// Writes the greedy plan (p.layout.words words) into genes.
GAEVAL_HD inline void greedy_plan(const RulesProblem& p, uint32_t* genes) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    PlanPose pose;
    float start_gap[MaxFriendly];
    for (int m = 0; m < n; ++m) {
        pose.x[m] = s.friendly[m].x;
        pose.y[m] = s.friendly[m].y;
        pose.c[m] = s.friendly[m].base.cos_angle;
        pose.s[m] = s.friendly[m].base.sin_angle;
        pose.moved[m] = false;
        pose.order[m] = static_cast<uint8_t>(m);
        start_gap[m] = nearest_enemy_gap(s, start_shape(s, m), nullptr);
        genes[m] = 0u;
    }
    // Closest first (insertion sort: stable, ties by index).
    for (int k = 1; k < n; ++k)
        for (int q = k; q > 0 && start_gap[pose.order[q]] < start_gap[pose.order[q - 1]]; --q)
            swap(pose.order[q], pose.order[q - 1]);
    for (int k = 0; k < n; ++k) pose.position[pose.order[k]] = static_cast<uint8_t>(k);

    for (int k = 0; k < n; ++k) {
        const int m = pose.order[k];
        const int e = p.start[m].reference_enemy;
        if (e < 0) continue;
        const Shape me = start_shape(s, m), target = enemy_shape(s, e);
        const float dx = target.x - me.x, dy = target.y - me.y;
        const float dist = sqrt_rn(dx * dx + dy * dy);
        if (!(dist > 0.0f)) continue;
        const float ux = dx / dist, uy = dy / dist;
        // How far until in range: the gap shrinks along the way to the enemy's centre.
        float go = min(s.move_mm, dist);
        if (gap_between(shifted(me, go * ux, go * uy), target) < s.reach_mm) {
            float lo = 0.0f, hi = go;  // gap(lo) > reach >= gap(hi)
            if (gap_between(me, target) <= s.reach_mm) hi = 0.0f;
            for (int step = 0; step < GreedySteps && hi > 0.0f; ++step) {
                const float mid = 0.5f * (lo + hi);
                if (gap_between(shifted(me, mid * ux, mid * uy), target) <= s.reach_mm)
                    hi = mid;
                else
                    lo = mid;
            }
            go = hi;
        }
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
        }
        // Gene units, rounded toward the start (never past the stopping point).
        const Move mv = pull_inside_limit(Move{static_cast<int32_t>(go * ux / s.move_unit_mm),
                                               static_cast<int32_t>(go * uy / s.move_unit_mm)});
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

}  // namespace gaeval::pile_in
