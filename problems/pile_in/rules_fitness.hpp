// Rules-accurate pile-in fitness (presets aos1..aos4): the edition's hard rules as constraints
// with a feasibility-first score, and an optional repair that sends offending models back to
// their start until the plan is legal. See docs/pile_in_rules.md.
//
// Hard rules, on the end state unless said otherwise (gaps from geometry.hpp, all compared with
// Rules::tolerance_mm):
//   overlap    no base overlaps another (friend or foe);
//   direction  a model that moved ends strictly closer to / no further from its reference;
//   coherency  every model within coherency of 1 other model (2 in units of two_neighbours_from
//              or more), and the unit one connected group;
//   path       (path checking) a moving model's straight path, or its slide round the enemy it
//              was in base contact with, crosses no base standing at that moment (models move
//              in the plan's order; those before stand at their ends, those after at starts).
// Score of a legal plan: W * (models in range) - (summed gaps to the nearest enemy), where W is
// a power of two larger than any distance sum a legal plan can have, so the count comes first
// and the GAPI1 distance term breaks ties. An illegal plan scores -2W - (broken rule instances
// + mm by which they are broken): every legal plan ranks above every illegal one, and among
// illegal plans the less illegal ranks higher.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/rules.hpp"

namespace gaeval::pile_in {

// Per-model flags of the rules a model breaks.
enum RuleFlag : uint8_t {
    BrokeOverlap = 1,    // its base overlaps another at the end
    BrokeDirection = 2,  // it ends further than the direction rule allows
    BrokePath = 4,       // its path crosses a standing base
    BrokeCoherency = 8,  // too few friends within coherency at the end
    BrokeSplit = 16,     // outside the unit's largest connected group
};

constexpr int RepairRounds = 4;  // targeted rounds before the repair sends every mover back

namespace detail {

GAEVAL_HD_INLINE int find_root(uint8_t* parent, int x) {
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

// Sum over the edges of a minimum spanning tree (gaps as weights) of what exceeds the
// coherency distance: how far a split unit is from being one group (0 when it is).
// Prim's algorithm, ties to the lower index.
GAEVAL_HD_NOINLINE inline float split_excess(const RulesProblem& p, const PlanPose& pose) {
    const int n = p.scenario.friendly_count;
    const float coh = p.scenario.coherency_mm;
    const float limit = coh + judged_tolerance(p.rules);
    float key[MaxFriendly];
    bool in_tree[MaxFriendly];
    for (int j = 0; j < n; ++j) {
        in_tree[j] = false;
        key[j] = 1e30f;
    }
    key[0] = 0.0f;
    float total = 0.0f;
    for (int step = 0; step < n; ++step) {
        int v = -1;
        for (int j = 0; j < n; ++j)
            if (!in_tree[j] && (v < 0 || key[j] < key[v])) v = j;
        in_tree[v] = true;
        total += key[v];
        const Shape sv = end_shape(p, pose, v);
        for (int j = 0; j < n; ++j) {
            if (in_tree[j]) continue;
            const float w = max(gap_up_to(sv, end_shape(p, pose, j), limit) - coh, 0.0f);
            key[j] = min(key[j], w);
        }
    }
    return total;
}

// How far model m (ending as `sh`) misses the direction rule: for "strictly closer" the end gap
// minus (start gap - tolerance), which must be negative; for "no further" the end gap minus
// (start gap + tolerance), which must not be positive. Against equally near enemies the best.
// `nearest` is the gap to the nearest enemy (the target unit's when every enemy is in it).
GAEVAL_HD inline float direction_excess(const RulesProblem& p, const Shape& sh, int m,
                                        float nearest) {
    const StartInfo& st = p.start[m];
    const float tol = judged_tolerance(p.rules);
    const float allowed = p.rules.direction == Direction::StrictlyCloser
                              ? st.reference_gap - (p.rules.tolerance_mm + p.rules.margin_mm)
                              : st.reference_gap + tol;
    if (p.rules.direction == Direction::NoFurtherFromTarget)
        return (p.target_is_everyone ? nearest : target_gap(p, sh, nullptr)) - allowed;
    float best = gap_between(sh, enemy_shape(p.scenario, st.reference_enemy)) - allowed;
    for (int t = 0; t < st.tie_count; ++t)
        best = min(best, gap_between(sh, enemy_shape(p.scenario, st.ties[t])) - allowed);
    return best;
}

// Model m's base at the start of its move, turned as it will be during the move.
GAEVAL_HD_INLINE Shape moving_shape(const RulesProblem& p, const PlanPose& pose, int m) {
    Shape sh = start_shape(p.scenario, m);
    sh.c = pose.c[m];
    sh.s = pose.s[m];
    return sh;
}

}  // namespace detail

// Checks a decoded plan against the rules; flags (optional, one per friendly model) gets the
// RuleFlag bits each model breaks. Returns the score and its breakdown.
GAEVAL_HD_NOINLINE inline Breakdown check_plan(const RulesProblem& p, const PlanPose& pose, uint8_t* flags) {
    const Scenario& s = p.scenario;
    const Rules& r = p.rules;
    const int n = s.friendly_count;
    const float tol = judged_tolerance(r);  // thresholds a hair stricter than the validator's
    const float coherency_limit = s.coherency_mm + tol;
    uint8_t own_flags[MaxFriendly];
    uint8_t* f = flags ? flags : own_flags;
    for (int m = 0; m < n; ++m) f[m] = 0;
    Breakdown b;
    int32_t violations = 0;
    float amount = 0.0f;

    // ---- enemies: range, distance, overlaps, direction ----
    for (int m = 0; m < n; ++m) {
        const Shape sh = end_shape(p, pose, m);
        const float nearest = nearest_enemy_gap(s, sh, nullptr);
        if (nearest <= s.reach_mm + tol) ++b.in_range_count;
        b.distance_mm += max(nearest, 0.0f);
        if (nearest < -tol) {
            f[m] |= BrokeOverlap;
            ++violations;
            amount += -nearest;
        }
        if (pose.moved[m] && r.direction != Direction::Free) {
            const float excess = detail::direction_excess(p, sh, m, nearest);
            if (r.direction == Direction::StrictlyCloser ? excess >= 0.0f : excess > 0.0f) {
                f[m] |= BrokeDirection;
                ++violations;
                amount += excess;
            }
        }
    }

    // ---- friends: overlaps, neighbours within coherency, connected groups ----
    float first[MaxFriendly], second[MaxFriendly];  // two smallest gaps to friends
    uint8_t parent[MaxFriendly];
    for (int m = 0; m < n; ++m) {
        first[m] = second[m] = 1e30f;
        parent[m] = static_cast<uint8_t>(m);
    }
    for (int i = 0; i < n; ++i) {
        const Shape si = end_shape(p, pose, i);
        for (int j = i + 1; j < n; ++j) {
            const float g = gap_up_to(si, end_shape(p, pose, j), coherency_limit);
            second[i] = min(second[i], max(first[i], g));
            first[i] = min(first[i], g);
            second[j] = min(second[j], max(first[j], g));
            first[j] = min(first[j], g);
            if (g < -tol) {
                f[i] |= BrokeOverlap;
                f[j] |= BrokeOverlap;
                ++violations;
                amount += -g;
            }
            if (g <= coherency_limit) {
                const int ri = detail::find_root(parent, i), rj = detail::find_root(parent, j);
                if (ri != rj) parent[max(ri, rj)] = static_cast<uint8_t>(min(ri, rj));
            }
        }
    }
    if (n > 1) {
        const bool two = r.two_neighbours_from > 0 && n >= r.two_neighbours_from;
        for (int m = 0; m < n; ++m) {
            const float needed = two ? second[m] : first[m];
            if (needed > coherency_limit) {
                f[m] |= BrokeCoherency;
                ++violations;
                ++b.isolated_count;
                amount += needed - s.coherency_mm;
            }
        }
        int size[MaxFriendly];
        for (int m = 0; m < n; ++m) size[m] = 0;
        for (int m = 0; m < n; ++m) ++size[detail::find_root(parent, m)];
        int groups = 0, largest = 0;  // roots are their group's lowest index
        for (int m = 0; m < n; ++m) {
            groups += size[m] > 0 ? 1 : 0;
            if (size[m] > size[largest]) largest = m;
        }
        if (groups > 1) {
            for (int m = 0; m < n; ++m)
                if (detail::find_root(parent, m) != largest) f[m] |= BrokeSplit;
            violations += groups - 1;
            amount += detail::split_excess(p, pose);
        }
    }

    // ---- paths, in the plan's move order ----
    if (r.path_check) {
        for (int k = 0; k < n; ++k) {
            const int m = pose.order[k];
            if (!pose.moved[m]) continue;
            const Shape from = detail::moving_shape(p, pose, m);
            const float mx = pose.x[m] - from.x, my = pose.y[m] - from.y;
            // A model in base contact with an enemy that ends in contact with it again slid
            // round it (under "no further"; "strictly closer" never lets it move).
            int pivot = -1;
            const int contact = p.start[m].contact_enemy;
            if (r.slide && contact >= 0 && r.direction != Direction::StrictlyCloser &&
                gap_up_to(end_shape(p, pose, m), enemy_shape(s, contact), tol) <= tol)
                pivot = contact;
            SlidePath slide;
            if (pivot >= 0) make_slide(enemy_shape(s, pivot), from, pose.x[m], pose.y[m], slide);
            float worst = 1e30f;
            for (int e = 0; e < s.enemy_count; ++e) {
                if (e == pivot) continue;
                const Shape en = enemy_shape(s, e);
                worst = min(worst, pivot >= 0 ? slide_gap(slide, en) : sweep_gap(from, mx, my, en));
            }
            for (int j = 0; j < n; ++j) {
                if (j == m) continue;
                const Shape other =
                    pose.position[j] < k ? end_shape(p, pose, j) : start_shape(s, j);
                worst = min(worst,
                            pivot >= 0 ? slide_gap(slide, other) : sweep_gap(from, mx, my, other));
            }
            if (worst < -tol) {
                f[m] |= BrokePath;
                ++violations;
                amount += -worst;
            }
        }
    }

    for (int m = 0; m < n; ++m) b.overlap_count += (f[m] & BrokeOverlap) ? 1 : 0;
    b.legal = violations == 0;
    b.violation_count = violations;
    b.violation_amount = amount;
    const float w = p.in_range_weight;
    const float score = static_cast<float>(b.in_range_count) * w - b.distance_mm;
    if (b.legal) {
        b.fitness = score;
    } else {
        // Fewer broken rule instances first (tiers (n + 3) W apart), then the legal score
        // less the mm broken (capped at W): in (-2W, nW] within a tier.
        const float tier = static_cast<float>(n + 3) * w;
        b.fitness = -tier * static_cast<float>(violations) + (score - min(amount, w));
    }
    return b;
}

// Sends model m back to its start (it does not move).
GAEVAL_HD_INLINE void send_back(const RulesProblem& p, PlanPose& pose, int m) {
    const Model& start = p.scenario.friendly[m];
    pose.x[m] = start.x;
    pose.y[m] = start.y;
    pose.c[m] = start.base.cos_angle;
    pose.s[m] = start.base.sin_angle;
    pose.moved[m] = false;
}

// Repairs the plan in place: while it is illegal, models that moved and break a rule go back
// to their start; when only models that stayed break one (coherency left behind), the movers
// that stood within coherency of them at the start go back; after RepairRounds rounds every
// mover goes back (not moving is legal: the loader checks the start). Returns the models sent
// back (bit m) and the final breakdown in *out.
// Deterministic rounds over check_plan.
GAEVAL_HD_NOINLINE inline uint64_t repair_plan(const RulesProblem& p, PlanPose& pose, Breakdown* out,
                                      uint8_t* flags) {
    const int n = p.scenario.friendly_count;
    uint64_t sent_back = 0;
    for (int round = 0;; ++round) {
        *out = check_plan(p, pose, flags);
        if (out->legal) return sent_back;
        uint64_t back = 0;
        if (round < RepairRounds) {
            for (int m = 0; m < n; ++m)
                if (pose.moved[m] && flags[m]) back |= uint64_t{1} << m;
            if (back == 0)
                for (int m = 0; m < n; ++m)
                    if (flags[m]) back |= p.start[m].start_neighbours;
        }
        uint64_t movers = 0;
        for (int m = 0; m < n; ++m)
            if (pose.moved[m]) movers |= uint64_t{1} << m;
        back &= movers;
        if (back == 0) back = movers;
        if (back == 0) return sent_back;  // nobody moved: nothing left to repair
        for (int m = 0; m < n; ++m)
            if ((back >> m) & 1u) send_back(p, pose, m);
        sent_back |= back;
    }
}

// Scores one plan read through `genes`: decode, then check (or repair, in repair mode: the
// score of the repaired plan). Repair calls sent_back(m) for each model it sent back, whose
// move becomes zero where the plan is stored: the one rule of every population that keeps the
// repaired plans (EvaluateRules, PileInRules::fitness_rewriting).
template <class Genes, class SentBack>
GAEVAL_HD Breakdown rules_evaluate(const RulesProblem& p, const Genes& genes, SentBack&& sent_back) {
    PlanPose pose;
    decode_plan(p, genes, pose);
    if (!p.rules.repair) return check_plan(p, pose, nullptr);
    Breakdown b;
    uint8_t flags[MaxFriendly];
    const uint64_t back = repair_plan(p, pose, &b, flags);
    for (int m = 0; m < p.scenario.friendly_count; ++m)
        if ((back >> m) & 1u) sent_back(m);
    return b;
}

// Scores one plan (host and tests), the plan left as it is (repair mode: the score of the
// repaired plan, as the population stores it).
template <class Genes>
GAEVAL_HD Breakdown rules_evaluate(const RulesProblem& p, const Genes& genes) {
    return rules_evaluate(p, genes, [](int) {});
}

// Scores individual i into fitness[i]; in repair mode the repaired plan replaces it (the
// moves of models sent back become zero), so the population holds legal plans only.
struct EvaluateRules {
    RulesProblem problem;
    PlanView plans;
    float* fitness = nullptr;
    GAEVAL_HD void operator()(uint64_t i) const {
        fitness[i] = rules_evaluate(problem, PopulationGenes{plans, i},
                                    [this, i](int m) { plans.set_gene(i, m, 0u); })
                         .fitness;
    }
};

}  // namespace gaeval::pile_in
