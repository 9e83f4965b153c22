// GAPI1 fitness, exactly as the seed "GAPI1 - The concept proven" states it, per friendly model:
//   +200 if within combat range of an enemy base (edge gap <= reach),
//   -400 if its base overlaps any other base (friend or foe),
//   -400 if no other friendly model is within the coherency distance (edge gap <= coherency),
//   -1 per mm of edge gap to the nearest enemy base (0 when touching or overlapping).
// Ovals are scored as their enclosing circle here; the rules-accurate presets score them exactly.
#pragma once

#include <cstdint>

#include "games/core/bits.hpp"
#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

constexpr int32_t InRangePoints = 200;
constexpr int32_t OverlapPoints = -400;
constexpr int32_t IsolatedPoints = -400;

// Score and its four terms (points; the terms sum to fitness up to float rounding order:
// fitness = float(in_range + overlap + coherency points) - distance_mm).
// GAPI1's integer points: models in range, overlapping and isolated, weighted (the one formula
// of every GAPI1 evaluator).
GAEVAL_HD_INLINE int32_t gapi1_points(int32_t in_range, int32_t overlapping, int32_t isolated) {
    return InRangePoints * in_range + OverlapPoints * overlapping + IsolatedPoints * isolated;
}

struct Breakdown {
    int32_t in_range_count = 0;
    int32_t overlap_count = 0;
    int32_t isolated_count = 0;
    float distance_mm = 0;  // summed edge gaps to the nearest enemy
    float fitness = 0;
    // Rules-accurate presets only (problems/pile_in/rules_fitness.hpp); GAPI1 leaves them be.
    bool legal = true;
    int32_t violation_count = 0;  // broken rule instances
    float violation_amount = 0;   // mm by which they are broken, summed
    GAEVAL_HD_INLINE int32_t integer_points() const {
        return gapi1_points(in_range_count, overlap_count, isolated_count);
    }
};

// What GAPI1 sees of one friendly model at the end of the plan.
struct ModelOutcome {
    float end_x = 0, end_y = 0;
    float nearest_enemy_gap = 0;   // mm, edge to edge (negative: overlapping)
    float nearest_friend_gap = 0;  // mm; +inf-like 1e30 when the unit has one model
    bool in_range = false, overlaps = false, has_friend = false;
};

// Gene accessors: a population column (PlanView + individual) or one host genome.
struct PopulationGenes {
    PlanView view;
    uint64_t individual;
    GAEVAL_HD_INLINE uint32_t operator()(int m) const { return view.gene(individual, m); }
};
struct GenomeGenes {
    const uint32_t* genes;
    GAEVAL_HD_INLINE uint32_t operator()(int m) const { return genes[m]; }
};

// Edge-to-edge gap between two circles (centre distance minus both radii); negative: overlap.
GAEVAL_HD_INLINE float circle_gap(float ax, float ay, float ar, float bx, float by, float br) {
    float dx = ax - bx;
    float dy = ay - by;
    return sqrt_rn(dx * dx + dy * dy) - (ar + br);
}

// End position of friendly model m under the plan.
template <class Genes>
GAEVAL_HD_INLINE void end_position(const Scenario& s, const Genes& genes, int m, float& x,
                                   float& y) {
    Move mv = unpack_move(genes(m));
    x = s.friendly[m].x + static_cast<float>(mv.dx) * s.move_unit_mm;
    y = s.friendly[m].y + static_cast<float>(mv.dy) * s.move_unit_mm;
}

// Pair predicates on squared centre distances (no sqrt), with the 1 um tolerance:
//   overlap:  gap < -tol           <=>  d^2 <  (r1 + r2 - tol)^2
//   within:   gap <= limit + tol   <=>  d^2 <= (r1 + r2 + limit + tol)^2
// Symmetric in the two models (the same float operations in either order), so a per-pair
// evaluation and a per-model one give identical flags.
GAEVAL_HD_INLINE float squared(float v) { return v * v; }
GAEVAL_HD_INLINE bool overlaps_sq(float d2, float radii) {
    const float t = radii - GapTolerance;
    return (t > 0.0f) & (d2 < t * t);  // no short circuit: the CPU lanes stay vector code
}
GAEVAL_HD_INLINE bool within_sq(float d2, float radii, float limit) {
    return d2 <= squared(radii + limit + GapTolerance);
}

// The enemy side of model (x, y, r): in range of any enemy, overlapping any, and the edge gap
// to the nearest one (a sqrt only when an enemy can beat the best gap so far).
struct EnemyView {
    bool in_range = false, overlaps = false;
    float nearest_gap = 1e30f;
};
GAEVAL_HD_INLINE EnemyView enemy_view(const Scenario& s, float x, float y, float r) {
    EnemyView v;
    for (int e = 0; e < s.enemy_count; ++e) {
        const Model& en = s.enemy[e];
        const float dx = x - en.x, dy = y - en.y;
        const float d2 = dx * dx + dy * dy;
        const float radii = r + en.base.enclosing_radius();
        v.overlaps = v.overlaps || overlaps_sq(d2, radii);
        v.in_range = v.in_range || within_sq(d2, radii, s.reach_mm);
        const float bound = v.nearest_gap + radii;  // gap_e < best  <=>  d < best + radii
        if (bound > 0.0f && d2 < bound * bound)
            v.nearest_gap = min(v.nearest_gap, sqrt_rn(d2) - radii);
    }
    return v;
}

// GAPI1's view of model m at the end of the plan (enclosing circles, end positions of all).
// Used for reports; gapi1_evaluate computes the same flags pair by pair.
template <class Genes>
GAEVAL_HD ModelOutcome gapi1_model(const Scenario& s, const Genes& genes, int m) {
    ModelOutcome o;
    end_position(s, genes, m, o.end_x, o.end_y);
    const float r = s.friendly[m].base.enclosing_radius();
    EnemyView ev = enemy_view(s, o.end_x, o.end_y, r);
    bool overlaps = ev.overlaps, has_friend = s.friendly_count == 1;
    float nearest_friend = 1e30f;
    for (int j = 0; j < s.friendly_count; ++j) {
        if (j == m) continue;
        float jx, jy;
        end_position(s, genes, j, jx, jy);
        const float dx = o.end_x - jx, dy = o.end_y - jy;
        const float d2 = dx * dx + dy * dy;
        const float radii = r + s.friendly[j].base.enclosing_radius();
        overlaps = overlaps || overlaps_sq(d2, radii);
        has_friend = has_friend || within_sq(d2, radii, s.coherency_mm);
        nearest_friend = min(nearest_friend, sqrt_rn(d2) - radii);
    }
    o.nearest_enemy_gap = ev.nearest_gap;
    o.nearest_friend_gap = nearest_friend;
    o.in_range = ev.in_range;
    o.overlaps = overlaps;
    o.has_friend = has_friend;  // a unit of one model is coherent by definition
    return o;
}

// GAPI1 fitness of a whole plan with its breakdown: friendly pairs once each, their flags
// kept in two 64-bit masks (registers, not local memory, on the GPU).
// Models summed in index order.
template <class Genes>
GAEVAL_HD Breakdown gapi1_evaluate(const Scenario& s, const Genes& genes) {
    Breakdown b;
    uint64_t overlap_mask = 0, friend_mask = s.friendly_count == 1 ? 1u : 0u;
    for (int i = 0; i < s.friendly_count; ++i) {
        float xi, yi;
        end_position(s, genes, i, xi, yi);
        const float ri = s.friendly[i].base.enclosing_radius();
        const EnemyView ev = enemy_view(s, xi, yi, ri);
        b.in_range_count += ev.in_range ? 1 : 0;
        b.distance_mm += max(ev.nearest_gap, 0.0f);
        if (ev.overlaps) overlap_mask |= uint64_t{1} << i;
        for (int j = i + 1; j < s.friendly_count; ++j) {
            float xj, yj;
            end_position(s, genes, j, xj, yj);
            const float dx = xi - xj, dy = yi - yj;
            const float d2 = dx * dx + dy * dy;
            const float radii = ri + s.friendly[j].base.enclosing_radius();
            const uint64_t pair = (uint64_t{1} << i) | (uint64_t{1} << j);
            if (overlaps_sq(d2, radii)) overlap_mask |= pair;
            if (within_sq(d2, radii, s.coherency_mm)) friend_mask |= pair;
        }
    }
    b.overlap_count = popcount64(overlap_mask);
    b.isolated_count = s.friendly_count - popcount64(friend_mask);
    b.fitness = static_cast<float>(b.integer_points()) - b.distance_mm;
    return b;
}

// Scores individual i of a population into fitness[i] (one thread or loop index per plan).
struct EvaluateGapi1 {
    Scenario scenario;
    PlanView plans;
    float* fitness = nullptr;
    GAEVAL_HD void operator()(uint64_t i) const {
        fitness[i] = gapi1_evaluate(scenario, PopulationGenes{plans, i}).fitness;
    }
};

// GAPI1 fitness of L consecutive plans first .. first+L-1 of a gene-major population
// (plans.step == 1) into fitness[first + l], in SIMD lanes: every plan goes through exactly the
// float operations of gapi1_evaluate, in the same order, so each result has the same bits; the
// lanes only run side by side (the host compiler turns the l-loops into vector instructions).
// Two differences in form, none in value: the sqrt of an enemy gap is taken in every lane and
// kept only where gapi1_evaluate would take it, and the pair flags are per-model words instead
// of bit masks (the same counts). Host use (the CPU backend); the GPU runs one plan per thread.
template <int L>
GAEVAL_HD void gapi1_fitness_lanes(const Scenario& s, const PlanView& plans, uint64_t first,
                                   float* fitness) {
    const int n = s.friendly_count;
    float x[MaxFriendly][L], y[MaxFriendly][L];
    int32_t overlapping[MaxFriendly][L], has_friend[MaxFriendly][L];
    for (int m = 0; m < n; ++m) {
        const uint32_t* genes = plans.genes + static_cast<uint64_t>(m) * plans.stride + first;
        const float fx = s.friendly[m].x, fy = s.friendly[m].y, unit = s.move_unit_mm;
        for (int l = 0; l < L; ++l) {
            const uint32_t g = genes[l];
            const float dx = static_cast<float>(static_cast<int16_t>(static_cast<uint16_t>(g)));
            const float dy =
                static_cast<float>(static_cast<int16_t>(static_cast<uint16_t>(g >> 16)));
            x[m][l] = fx + dx * unit;
            y[m][l] = fy + dy * unit;
            overlapping[m][l] = 0;
            has_friend[m][l] = n == 1 ? 1 : 0;  // a unit of one model is coherent
        }
    }
    float distance[L];
    int32_t in_range[L];
    for (int l = 0; l < L; ++l) {
        distance[l] = 0;
        in_range[l] = 0;
    }
    for (int i = 0; i < n; ++i) {
        const float ri = s.friendly[i].base.enclosing_radius();
        // The enemy side (enemy_view, lane by lane).
        float nearest[L];
        int32_t reach_any[L], overlap_any[L];
        for (int l = 0; l < L; ++l) {
            nearest[l] = 1e30f;
            reach_any[l] = 0;
            overlap_any[l] = 0;
        }
        for (int e = 0; e < s.enemy_count; ++e) {
            const Model& en = s.enemy[e];
            const float radii = ri + en.base.enclosing_radius();
            for (int l = 0; l < L; ++l) {
                const float dx = x[i][l] - en.x, dy = y[i][l] - en.y;
                const float d2 = dx * dx + dy * dy;
                overlap_any[l] |= static_cast<int32_t>(overlaps_sq(d2, radii));
                reach_any[l] |= static_cast<int32_t>(within_sq(d2, radii, s.reach_mm));
                const float bound = nearest[l] + radii;
                const float gap = sqrt_rn(d2) - radii;
                const bool closer = (bound > 0.0f) & (d2 < bound * bound) & (gap < nearest[l]);
                nearest[l] = closer ? gap : nearest[l];
            }
        }
        for (int l = 0; l < L; ++l) {
            in_range[l] += reach_any[l];
            distance[l] += max(nearest[l], 0.0f);
            overlapping[i][l] |= overlap_any[l];
        }
        // Friendly pairs (i, j > i).
        for (int j = i + 1; j < n; ++j) {
            const float radii = ri + s.friendly[j].base.enclosing_radius();
            for (int l = 0; l < L; ++l) {
                const float dx = x[i][l] - x[j][l], dy = y[i][l] - y[j][l];
                const float d2 = dx * dx + dy * dy;
                const int32_t overlap = static_cast<int32_t>(overlaps_sq(d2, radii));
                const int32_t within = static_cast<int32_t>(within_sq(d2, radii, s.coherency_mm));
                overlapping[i][l] |= overlap;
                overlapping[j][l] |= overlap;
                has_friend[i][l] |= within;
                has_friend[j][l] |= within;
            }
        }
    }
    int32_t overlap_count[L], friend_count[L];
    for (int l = 0; l < L; ++l) overlap_count[l] = friend_count[l] = 0;
    for (int m = 0; m < n; ++m) {
        for (int l = 0; l < L; ++l) {
            overlap_count[l] += overlapping[m][l];
            friend_count[l] += has_friend[m][l];
        }
    }
    for (int l = 0; l < L; ++l) {
        const int32_t points = gapi1_points(in_range[l], overlap_count[l], n - friend_count[l]);
        fitness[first + l] = static_cast<float>(points) - distance[l];
    }
}

// Plans per SIMD block of the GAPI1 fitness on the CPU (16 floats: four SSE or two AVX
// registers): the CPU population's blocks and the public API's.
constexpr int kGapi1Lanes = 16;

// Scores plans [L * block, L * block + L) of a gene-major population (CPU backend: one loop
// index per block of L plans; the plans past the last whole block go through EvaluateGapi1).
template <int L>
struct EvaluateGapi1Lanes {
    Scenario scenario;
    PlanView plans;  // step 1
    float* fitness = nullptr;
    GAEVAL_HD void operator()(uint64_t block) const {
        gapi1_fitness_lanes<L>(scenario, plans, block * L, fitness);
    }
};

}  // namespace gaeval::pile_in
