// The rules-accurate pile-in problem as the kernels see it: the scenario, the resolved rules of
// an edition preset (host/ga/pile_in_rules.hpp builds them), what each model saw at the start,
// and the plan layout. Trivially copyable, passed to kernels by value.
//
// Plan layout (one 32-bit word per gene, structure-of-arrays like GAPI1's plans):
//   words [0, n)                 move of model m (genome.hpp)
//   words [order, order + n)     with path checking: the model that moves p-th (a permutation)
//   words [turn, turn + n)       with turning ovals: the long-axis direction of model m's base
//                                at the end of its move (int16 x, int16 y; length irrelevant)
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

// Which way each moving model must go, relative to the enemy nearest to it at the start
// (or, for NoFurtherFromTarget, the target unit's models, minimum over them).
enum class Direction : uint8_t {
    Free = 0,                 // no direction rule
    StrictlyCloser = 1,       // AoS 1st/2nd edition
    NoFurther = 2,            // AoS 3rd edition
    NoFurtherFromTarget = 3,  // AoS 4th edition
};

// The hard rules of one run (host/ga/pile_in_rules.cpp: presets and overrides).
struct Rules {
    Direction direction = Direction::NoFurther;
    int32_t two_neighbours_from = 7;  // units of at least this many models need 2 neighbours
                                      // within coherency (0: one neighbour always suffices)
    bool path_check = false;          // straight paths may not cross standing bases
    bool slide = true;                // a model in base contact may slide round that enemy
    bool turn_ovals = false;          // oval friendly bases carry an orientation gene
    bool repair = false;              // repair illegal plans (else penalties only)
    float tolerance_mm = 0.01f;       // rules tolerance (see docs/pile_in_rules.md)
    // The fitness judges this much more strictly than the tolerance (every threshold moved
    // against the plan), so that a plan the search drives onto a threshold is legal for the
    // double-precision validator too, whatever the float rounding.
    float margin_mm = 0.001f;
};

// The tolerance the fitness applies (Rules::margin_mm stricter than the rules').
GAEVAL_HD_INLINE float judged_tolerance(const Rules& r) { return r.tolerance_mm - r.margin_mm; }

struct PlanLayout {
    int32_t models = 0;
    int32_t order = -1;  // first order word; -1: no order genes (models move in index order)
    int32_t turn = -1;   // first orientation word; -1: bases keep their orientation
    int32_t words = 0;
};

GAEVAL_HD_INLINE PlanLayout make_layout(int models, bool order, bool turn) {
    PlanLayout l;
    l.models = models;
    l.words = models;
    if (order) {
        l.order = l.words;
        l.words += models;
    }
    if (turn) {
        l.turn = l.words;
        l.words += models;
    }
    return l;
}

// What a friendly model saw at the start (computed on the host with the functions below).
constexpr int MaxTies = 4;      // equally near enemies kept as references (the first 4)
constexpr float TieMm = 1e-4f;  // start gaps this close count as equally near

struct StartInfo {
    int32_t reference_enemy = -1;   // nearest enemy (NoFurtherFromTarget: nearest target model)
    int32_t contact_enemy = -1;     // an enemy in base contact at the start (-1: none)
    float reference_gap = 0;        // gap to the reference (NoFurtherFromTarget: to the unit)
    uint64_t start_neighbours = 0;  // bit j: friendly j within coherency at the start
    int32_t tie_count = 0;          // more enemies as near as the reference (the rule may use any)
    int16_t ties[MaxTies] = {};
};

struct RulesProblem {
    Scenario scenario;  // reach_mm and coherency_mm are the rules' values
    Rules rules;
    PlanLayout layout;
    float in_range_weight = 1;  // W: legal fitness = W * in range - distance (a power of two)
    StartInfo start[MaxFriendly];
    uint8_t target[MaxEnemy] = {};    // 1: the enemy model belongs to the target unit
    bool target_is_everyone = false;  // every enemy model is in the target unit
};

// ---- plan decoding --------------------------------------------------------------------------

// The end state of a plan: where every friendly model stands, how its base points, whether it
// moved, and the move order (order[p] = model moving p-th, position[m] = its place).
struct PlanPose {
    float x[MaxFriendly], y[MaxFriendly];
    float c[MaxFriendly], s[MaxFriendly];
    bool moved[MaxFriendly];
    uint8_t order[MaxFriendly], position[MaxFriendly];
};

// Unit direction of an orientation word (the zero word decodes as the x axis).
GAEVAL_HD_INLINE void decode_turn(uint32_t word, float& c, float& s) {
    Move v = unpack_move(word);
    const float x = static_cast<float>(v.dx), y = static_cast<float>(v.dy);
    const float len = sqrt_rn(x * x + y * y);
    c = len > 0.0f ? x / len : 1.0f;
    s = len > 0.0f ? y / len : 0.0f;
}

// Decodes a plan; a model whose move is zero did not move and keeps its start orientation.
// Integer decoding, + - * / sqrt_rn.
template <class Genes>
GAEVAL_HD void decode_plan(const RulesProblem& p, const Genes& genes, PlanPose& pose) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    for (int m = 0; m < n; ++m) {
        const uint32_t word = genes(m);
        Move mv = unpack_move(word);
        pose.moved[m] = word != 0u;
        pose.x[m] = s.friendly[m].x + static_cast<float>(mv.dx) * s.move_unit_mm;
        pose.y[m] = s.friendly[m].y + static_cast<float>(mv.dy) * s.move_unit_mm;
        pose.c[m] = s.friendly[m].base.cos_angle;
        pose.s[m] = s.friendly[m].base.sin_angle;
        if (p.layout.turn >= 0 && pose.moved[m] && s.friendly[m].base.shape == BaseShape::Oval)
            decode_turn(genes(p.layout.turn + m), pose.c[m], pose.s[m]);
        pose.order[m] = static_cast<uint8_t>(m);
    }
    if (p.layout.order >= 0)
        for (int k = 0; k < n; ++k) pose.order[k] = static_cast<uint8_t>(genes(p.layout.order + k));
    for (int k = 0; k < n; ++k) pose.position[pose.order[k]] = static_cast<uint8_t>(k);
}

// Model m's base where the plan puts it.
GAEVAL_HD_INLINE Shape end_shape(const RulesProblem& p, const PlanPose& pose, int m) {
    Shape sh = shape_at(p.scenario.friendly[m].base, pose.x[m], pose.y[m]);
    sh.c = pose.c[m];
    sh.s = pose.s[m];
    return sh;
}

// Model m's base where it started.
GAEVAL_HD_INLINE Shape start_shape(const Scenario& s, int m) {
    return shape_at(s.friendly[m].base, s.friendly[m].x, s.friendly[m].y);
}

GAEVAL_HD_INLINE Shape enemy_shape(const Scenario& s, int e) {
    return shape_at(s.enemy[e].base, s.enemy[e].x, s.enemy[e].y);
}

// Smallest gap from `sh` to the enemies (only those with only[e] != 0 when `only` is given);
// *nearest gets that enemy's index, the lowest one on a tie (-1, and 1e30, when none counts).
// The enemy whose enclosing circle is nearest is measured first: its exact gap is usually the
// minimum, and every enemy whose enclosing-circle gap (a lower bound of its gap) cannot beat it
// is skipped. The result is the exact minimum, the same as measuring in index order.
GAEVAL_HD_INLINE float nearest_gap_among(const Scenario& s, const Shape& sh, const uint8_t* only,
                                         int* nearest) {
    int first = -1;
    float first_lower = 0;
    for (int e = 0; e < s.enemy_count; ++e) {
        if (only && !only[e]) continue;
        const float lower = enclosing_gap(sh, enemy_shape(s, e));
        if (first < 0 || lower < first_lower) {
            first = e;
            first_lower = lower;
        }
    }
    if (nearest) *nearest = first;
    if (first < 0) return 1e30f;
    float best = gap_between(sh, enemy_shape(s, first));
    int best_e = first;
    for (int e = 0; e < s.enemy_count; ++e) {
        if (e == first || (only && !only[e])) continue;
        const Shape en = enemy_shape(s, e);
        const float lower = enclosing_gap(sh, en);
        if (lower > best || (lower == best && e > best_e)) continue;
        const float g = gap_between(sh, en);
        if (g < best || (g == best && e < best_e)) {
            best = g;
            best_e = e;
        }
    }
    if (nearest) *nearest = best_e;
    return best;
}

GAEVAL_HD_INLINE float nearest_enemy_gap(const Scenario& s, const Shape& sh, int* nearest) {
    return nearest_gap_among(s, sh, nullptr, nearest);
}

// Smallest gap from `sh` to the target unit's models.
GAEVAL_HD_INLINE float target_gap(const RulesProblem& p, const Shape& sh, int* nearest) {
    return nearest_gap_among(p.scenario, sh, p.target, nearest);
}

// Fills problem.start from the start positions (host, once; both backends then read it).
GAEVAL_HD inline void compute_start_info(RulesProblem& p) {
    const Scenario& s = p.scenario;
    p.target_is_everyone = true;
    for (int e = 0; e < s.enemy_count; ++e)
        p.target_is_everyone = p.target_is_everyone && p.target[e];
    const float tol = p.rules.tolerance_mm;
    for (int m = 0; m < s.friendly_count; ++m) {
        StartInfo& info = p.start[m];
        const Shape sh = start_shape(s, m);
        int nearest = -1;
        const float gap = nearest_enemy_gap(s, sh, &nearest);
        info.reference_enemy = nearest;
        info.reference_gap = gap;
        if (p.rules.direction == Direction::NoFurtherFromTarget) {
            info.reference_gap = target_gap(p, sh, &nearest);
            info.reference_enemy = nearest;
        }
        info.tie_count = 0;
        if (p.rules.direction != Direction::NoFurtherFromTarget)
            for (int e = 0; e < s.enemy_count && info.tie_count < MaxTies; ++e)
                if (e != nearest && gap_up_to(sh, enemy_shape(s, e), gap + TieMm) <= gap + TieMm)
                    info.ties[info.tie_count++] = static_cast<int16_t>(e);
        info.contact_enemy = -1;
        for (int e = 0; e < s.enemy_count && info.contact_enemy < 0; ++e)
            if (gap_up_to(sh, enemy_shape(s, e), tol) <= tol) info.contact_enemy = e;
        info.start_neighbours = 0;
        for (int j = 0; j < s.friendly_count; ++j)
            if (j != m &&
                gap_up_to(sh, start_shape(s, j), s.coherency_mm + tol) <= s.coherency_mm + tol)
                info.start_neighbours |= uint64_t{1} << j;
    }
}

}  // namespace gaeval::pile_in
