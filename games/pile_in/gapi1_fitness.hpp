// GAPI1 fitness, exactly as the seed "GAPI1 - The concept proven" states it, per friendly model:
//   +200 if within combat range of an enemy base (edge gap <= reach),
//   -400 if its base overlaps any other base (friend or foe),
//   -400 if no other friendly model is within the coherency distance (edge gap <= coherency),
//   -1 per mm of edge gap to the nearest enemy base (0 when touching or overlapping).
// Ovals are scored as their enclosing circle here; the rules-accurate presets score them exactly.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/pile_in/genome.hpp"
#include "games/pile_in/scenario.hpp"

namespace gaeval::pile_in {

constexpr int32_t InRangePoints = 200;
constexpr int32_t OverlapPoints = -400;
constexpr int32_t IsolatedPoints = -400;

// Score and its four terms (points; the terms sum to fitness up to float rounding order:
// fitness = float(in_range + overlap + coherency points) - distance_mm).
struct Breakdown {
    int32_t in_range_count = 0;
    int32_t overlap_count = 0;
    int32_t isolated_count = 0;
    float distance_mm = 0;  // summed edge gaps to the nearest enemy
    float fitness = 0;
    GAEVAL_HD_INLINE int32_t integer_points() const {
        return InRangePoints * in_range_count + OverlapPoints * overlap_count +
               IsolatedPoints * isolated_count;
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
// Bit-identical across backends: + - * and sqrt_rn only, in this order.
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

// GAPI1's view of model m at the end of the plan (enclosing circles, end positions of all).
// Bit-identical across backends: fixed loop order, + - * / sqrt only.
template <class Genes>
GAEVAL_HD ModelOutcome gapi1_model(const Scenario& s, const Genes& genes, int m) {
    ModelOutcome o;
    end_position(s, genes, m, o.end_x, o.end_y);
    const float r = s.friendly[m].base.enclosing_radius();
    float nearest_enemy = 1e30f;
    bool overlaps = false;
    for (int e = 0; e < s.enemy_count; ++e) {
        const Model& en = s.enemy[e];
        float g = circle_gap(o.end_x, o.end_y, r, en.x, en.y, en.base.enclosing_radius());
        nearest_enemy = min(nearest_enemy, g);
        overlaps = overlaps || g < -GapTolerance;
    }
    float nearest_friend = 1e30f;
    for (int j = 0; j < s.friendly_count; ++j) {
        if (j == m) continue;
        float jx, jy;
        end_position(s, genes, j, jx, jy);
        float g = circle_gap(o.end_x, o.end_y, r, jx, jy, s.friendly[j].base.enclosing_radius());
        nearest_friend = min(nearest_friend, g);
        overlaps = overlaps || g < -GapTolerance;
    }
    o.nearest_enemy_gap = nearest_enemy;
    o.nearest_friend_gap = nearest_friend;
    o.in_range = nearest_enemy <= s.reach_mm + GapTolerance;
    o.overlaps = overlaps;
    // A unit of one model is coherent by definition.
    o.has_friend = s.friendly_count == 1 || nearest_friend <= s.coherency_mm + GapTolerance;
    return o;
}

// GAPI1 fitness of a whole plan with its breakdown.
// Bit-identical across backends: models summed in index order.
template <class Genes>
GAEVAL_HD Breakdown gapi1_evaluate(const Scenario& s, const Genes& genes) {
    Breakdown b;
    for (int m = 0; m < s.friendly_count; ++m) {
        ModelOutcome o = gapi1_model(s, genes, m);
        b.in_range_count += o.in_range ? 1 : 0;
        b.overlap_count += o.overlaps ? 1 : 0;
        b.isolated_count += o.has_friend ? 0 : 1;
        b.distance_mm += max(o.nearest_enemy_gap, 0.0f);
    }
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

}  // namespace gaeval::pile_in
