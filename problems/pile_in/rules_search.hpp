// Plan builders and the memetic local search of the rules GA (rules_scheme.hpp), the same code
// on both backends:
//   drag_repair   models cut off from a group are pulled toward it until within coherency
//                 (a chain follows its leader); recruit_supporters: models short of friends
//                 within coherency get one from the models out of range;
//   shift_group   a whole group of models moves by one common vector (a chain shifts);
//   wrap_from     models packed one after another along the edge of an enemy's combat range,
//                 each touching the previous one (rings at capacity);
//   local_search  tries that move one model (or a group), repair coherency and keep the result
//                 when it scores at least as well or keeps as many models in range legally.
// A plan is edited as its words plus the pose they decode to (decode_plan after each edit).
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/greedy.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/rules_fitness.hpp"
#include "problems/pile_in/rules_moves.hpp"

namespace gaeval::pile_in {

constexpr uint32_t MemeticShare = 8;  // 1 survivor clone in 8 (after the elite) searched locally
constexpr int MemeticTries = 16;      // local-search tries per memetic child
constexpr int WrapRunnersUp = 4;      // a wrap slot goes to the runner-up 1 time in 4

// A plan being edited: its words (PlanLayout) and the pose they decode to.
struct PlanEdit {
    uint32_t words[3 * MaxFriendly];
    PlanPose pose;
};

GAEVAL_HD_INLINE void decode_edit(const RulesProblem& p, PlanEdit& e) {
    decode_plan(p, GenomeGenes{e.words}, e.pose);
}

// Sets model m's move (cut to the limit) and decodes the plan again.
GAEVAL_HD_INLINE void set_move(const RulesProblem& p, PlanEdit& e, int m, Move mv) {
    e.words[m] = pack_move(clamp_move(mv));
    decode_edit(p, e);
}

namespace detail {

GAEVAL_HD_INLINE float friend_radius(const Scenario& s, int j) {
    return 0.5f * s.friendly[j].base.length;
}

// Groups of friends within coherency of each other at the end (union-find, roots are the
// lowest index) and each model's count of friends within coherency.
// Pairs in index order, exact gaps (gap_up_to).
GAEVAL_HD inline void coherency_groups(const RulesProblem& p, const PlanPose& pose,
                                       uint8_t* parent, uint8_t* neighbours) {
    const int n = p.scenario.friendly_count;
    const float limit = p.scenario.coherency_mm + judged_tolerance(p.rules);
    for (int m = 0; m < n; ++m) {
        parent[m] = static_cast<uint8_t>(m);
        neighbours[m] = 0;
    }
    for (int i = 0; i < n; ++i) {
        const Shape si = end_shape(p, pose, i);
        for (int j = i + 1; j < n; ++j) {
            if (gap_up_to(si, end_shape(p, pose, j), limit) > limit) continue;
            ++neighbours[i];
            ++neighbours[j];
            const int ri = find_root(parent, i), rj = find_root(parent, j);
            if (ri != rj) parent[max(ri, rj)] = static_cast<uint8_t>(min(ri, rj));
        }
    }
}

// Whether friends i and j are within coherency at the end.
GAEVAL_HD_INLINE bool within_coherency(const RulesProblem& p, const PlanPose& pose, int i, int j) {
    const float limit = p.scenario.coherency_mm + judged_tolerance(p.rules);
    return gap_up_to(end_shape(p, pose, i), end_shape(p, pose, j), limit) <= limit;
}

}  // namespace detail

// Whether model m may end at (x, y): within its move, overlapping no enemy and no friend where
// the pose puts them, and allowed by the direction rule; *mv gets the move. Path and
// coherency are not looked at (the fitness judges the whole plan).
GAEVAL_HD_NOINLINE inline bool legal_spot(const RulesProblem& p, const PlanPose& pose, int m, float x,
                                 float y, Move* mv) {
    const Scenario& s = p.scenario;
    const float dx = x - s.friendly[m].x, dy = y - s.friendly[m].y;
    if (dx * dx + dy * dy > s.move_mm * s.move_mm) return false;
    const Move move = move_to(s, m, x, y);
    Shape at = end_shape(p, pose, m);
    at.x = s.friendly[m].x + static_cast<float>(move.dx) * s.move_unit_mm;
    at.y = s.friendly[m].y + static_cast<float>(move.dy) * s.move_unit_mm;
    const float limit = -0.5f * p.rules.tolerance_mm;
    for (int e = 0; e < s.enemy_count; ++e)
        if (gap_up_to(at, enemy_shape(s, e), 0.0f) < limit) return false;
    for (int j = 0; j < s.friendly_count; ++j)
        if (j != m && gap_up_to(at, end_shape(p, pose, j), 0.0f) < limit) return false;
    if ((move.dx != 0 || move.dy != 0) && p.rules.direction != Direction::Free) {
        const float excess =
            detail::direction_excess(p, at, m, nearest_enemy_gap(s, at, nullptr));
        if (p.rules.direction == Direction::StrictlyCloser ? excess >= 0.0f : excess > 0.0f)
            return false;
    }
    *mv = move;
    return true;
}

// The centre of model m's base touching the combat-range circle of enemy e (its enclosing
// circle grown by the reach, a hair inside) and friend j where the pose puts it (a hair
// apart), on the left of e -> j or the right. False when they cannot both be touched.
GAEVAL_HD inline bool range_spot(const RulesProblem& p, const PlanPose& pose, int m, int e, int j,
                                 bool left, float& x, float& y) {
    const Scenario& s = p.scenario;
    const float hair = 0.5f * p.rules.tolerance_mm;
    const Model& en = s.enemy[e];
    return niche_point(en.x, en.y, 0.5f * en.base.length + s.reach_mm - 2.0f * hair, pose.x[j],
                       pose.y[j], detail::friend_radius(s, j), detail::friend_radius(s, m) + hair,
                       left, x, y);
}

// Pulls models toward the group of `anchor` (friends within coherency of each other, chained):
// the model outside it nearest to a member (centres; ties by index) moves straight toward that
// member until the enclosing circles are a hair within coherency (cut to its move); again
// until the unit is one group, at most n pulls - a chain follows its leader link by link. The
// direction rule is left to the fitness.
GAEVAL_HD_NOINLINE inline void drag_repair(const RulesProblem& p, PlanEdit& e, int anchor) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    for (int pull = 0; pull < n; ++pull) {
        uint8_t parent[MaxFriendly] = {}, neighbours[MaxFriendly] = {};
        detail::coherency_groups(p, e.pose, parent, neighbours);
        const int group = detail::find_root(parent, anchor);
        int j = -1, f = -1;
        float best = 1e30f;
        for (int out = 0; out < n; ++out) {
            if (detail::find_root(parent, out) == group) continue;
            for (int m = 0; m < n; ++m) {
                if (detail::find_root(parent, m) != group) continue;
                const float dx = e.pose.x[m] - e.pose.x[out], dy = e.pose.y[m] - e.pose.y[out];
                const float d = dx * dx + dy * dy;
                if (d < best) best = d, j = out, f = m;
            }
        }
        if (j < 0) return;
        const float dist = sqrt_rn(best);
        const float want = detail::friend_radius(s, j) + detail::friend_radius(s, f) +
                           s.coherency_mm - 0.5f * p.rules.tolerance_mm;
        if (!(dist > want)) return;  // within coherency of its enclosing circle already
        const float t = want / dist;
        const float x = e.pose.x[f] + (e.pose.x[j] - e.pose.x[f]) * t;
        const float y = e.pose.y[f] + (e.pose.y[j] - e.pose.y[f]) * t;
        set_move(p, e, j, move_to(s, j, x, y));
    }
}

namespace detail {

// The shortest legal move (legal_spot) that puts model h in a niche touching friends a and b
// (enclosing circles, a hair apart), either side; false when neither is legal.
GAEVAL_HD_NOINLINE inline bool support_spot(const RulesProblem& p, const PlanPose& pose, int h, int a,
                                   int b, Move* mv, float* length2) {
    const Scenario& s = p.scenario;
    const float hair = 0.5f * p.rules.tolerance_mm;
    bool found = false;
    for (int side = 0; side < 2; ++side) {
        float x, y;
        Move at;
        if (!niche_point(pose.x[a], pose.y[a], friend_radius(s, a), pose.x[b], pose.y[b],
                         friend_radius(s, b), friend_radius(s, h) + hair, side != 0, x, y) ||
            !legal_spot(p, pose, h, x, y, &at))
            continue;
        const float len = static_cast<float>(at.dx) * static_cast<float>(at.dx) +
                          static_cast<float>(at.dy) * static_cast<float>(at.dy);
        if (!found || len < *length2) *mv = at, *length2 = len, found = true;
    }
    return found;
}

GAEVAL_HD_INLINE bool in_range_now(const RulesProblem& p, const PlanPose& pose, int m) {
    return nearest_enemy_gap(p.scenario, end_shape(p, pose, m), nullptr) <=
           p.scenario.reach_mm + judged_tolerance(p.rules);
}

}  // namespace detail

// Models short of friends within coherency (two from two_neighbours_from models, else one):
// first each model in range that is short recruits a supporter - the model out of range, not
// recruited before, with the shortest legal move into a niche touching it and one of its
// friends; then each model out of range that is short moves itself into a niche touching its
// nearest friend and one of that friend's friends (shortest legal move). Index order; models
// whose niche is not legal stay short (the fitness judges).
GAEVAL_HD_NOINLINE inline void recruit_supporters(const RulesProblem& p, PlanEdit& e) {
    const int n = p.scenario.friendly_count;
    const int needed = p.rules.two_neighbours_from > 0 && n >= p.rules.two_neighbours_from ? 2 : 1;
    uint64_t recruited = 0;
    for (int a = 0; a < n; ++a) {
        uint8_t parent[MaxFriendly] = {}, neighbours[MaxFriendly] = {};
        detail::coherency_groups(p, e.pose, parent, neighbours);
        if (neighbours[a] >= needed || !detail::in_range_now(p, e.pose, a)) continue;
        int f = -1;
        for (int j = 0; j < n && f < 0; ++j)
            if (j != a && detail::within_coherency(p, e.pose, a, j)) f = j;
        if (f < 0) continue;
        int helper = -1;
        Move helper_mv{};
        float best = 1e30f;
        for (int h = 0; h < n; ++h) {
            Move mv;
            float len;
            if (h == a || h == f || ((recruited >> h) & 1u) || detail::in_range_now(p, e.pose, h) ||
                !detail::support_spot(p, e.pose, h, a, f, &mv, &len) || !(len < best))
                continue;
            best = len, helper = h, helper_mv = mv;
        }
        if (helper < 0) continue;
        set_move(p, e, helper, helper_mv);
        recruited |= uint64_t{1} << helper;
    }
    for (int a = 0; a < n; ++a) {
        uint8_t parent[MaxFriendly] = {}, neighbours[MaxFriendly] = {};
        detail::coherency_groups(p, e.pose, parent, neighbours);
        if (neighbours[a] >= needed || detail::in_range_now(p, e.pose, a)) continue;
        int f = -1;
        float nearest = 1e30f;
        for (int j = 0; j < n; ++j) {
            const float dx = e.pose.x[j] - e.pose.x[a], dy = e.pose.y[j] - e.pose.y[a];
            if (j != a && dx * dx + dy * dy < nearest) nearest = dx * dx + dy * dy, f = j;
        }
        if (f < 0) continue;
        Move spot{};
        float best = 1e30f;
        bool found = false;
        for (int g = 0; g < n; ++g) {
            Move mv;
            float len;
            if (g == a || g == f || !detail::within_coherency(p, e.pose, f, g) ||
                !detail::support_spot(p, e.pose, a, f, g, &mv, &len) || !(len < best))
                continue;
            best = len, spot = mv, found = true;
        }
        if (found) set_move(p, e, a, spot);
    }
}

// Coherency repaired round `anchor`: drag_repair, then recruit_supporters.
GAEVAL_HD inline void repair_coherency(const RulesProblem& p, PlanEdit& e, int anchor) {
    drag_repair(p, e, anchor);
    recruit_supporters(p, e);
}

// Adds v (gene units) to the move of every model in m's group (coherency at the end), each
// cut to its limit: the group shifts as one.
GAEVAL_HD_NOINLINE inline void shift_group(const RulesProblem& p, PlanEdit& e, int m, Move v) {
    const int n = p.scenario.friendly_count;
    uint8_t parent[MaxFriendly] = {}, neighbours[MaxFriendly] = {};
    detail::coherency_groups(p, e.pose, parent, neighbours);
    const int group = detail::find_root(parent, m);
    for (int j = 0; j < n; ++j) {
        if (detail::find_root(parent, j) != group) continue;
        const Move now = unpack_move(e.words[j]);
        e.words[j] = pack_move(clamp_move(Move{now.dx + v.dx, now.dy + v.dy}));
    }
    decode_edit(p, e);
}

// Packs models along the edge of the enemies' combat range from `anchor` (which stays where
// the plan puts it), in two directions: each slot touches the combat-range circle of an enemy
// and the model placed last in its direction (the anchor at first), on the left of
// enemy -> last model (direction 0) or the right (direction 1), and goes to the model that
// reaches it legally (legal_spot) with the shortest move among those not yet placed - the
// runner-up one time in WrapRunnersUp. The enemy is `first` for a direction's first slot, then
// that of its last slot, else the others in index order. Slots go to direction `lead` until it
// is stuck, then to the other; with `alternate`, to both in turn. Stops after `slots` slots or
// when neither direction has one; returns the slots filled. Draws addressed by
// (c0, c1, slot, c3).
GAEVAL_HD_NOINLINE inline int wrap_from(const RulesProblem& p, PlanEdit& e, int anchor, int first,
                               int lead, bool alternate, int slots, uint64_t seed,
                               Purpose purpose, uint32_t c0, uint32_t c1, uint32_t c3) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    uint64_t placed = uint64_t{1} << anchor;
    int last[2] = {anchor, anchor}, enemy[2] = {first, first};
    bool stuck[2] = {false, false};
    int dir = lead, slot = 0;
    while (slot + 1 < n && slot < slots) {
        if (stuck[dir]) dir = 1 - dir;
        if (stuck[dir]) break;
        const Random4 r = philox(seed, purpose, c0, c1, static_cast<uint32_t>(slot), c3);
        const bool runner_up = below(r.v[0], WrapRunnersUp) == 0;
        int best_m = -1, second_m = -1, best_e = -1, second_e = -1;
        Move best_mv{}, second_mv{};
        float best_len = 1e30f, second_len = 1e30f;
        for (int pass = -1; pass < s.enemy_count && best_m < 0; ++pass) {
            const int en = pass < 0 ? enemy[dir] : pass;
            if (pass == enemy[dir]) continue;
            for (int m = 0; m < n; ++m) {
                if ((placed >> m) & 1u) continue;
                float x, y;
                Move mv;
                if (!range_spot(p, e.pose, m, en, last[dir], dir == 0, x, y) ||
                    !legal_spot(p, e.pose, m, x, y, &mv))
                    continue;
                const float len = static_cast<float>(mv.dx) * static_cast<float>(mv.dx) +
                                  static_cast<float>(mv.dy) * static_cast<float>(mv.dy);
                if (len < best_len) {
                    second_len = best_len, second_m = best_m, second_mv = best_mv,
                    second_e = best_e;
                    best_len = len, best_m = m, best_mv = mv, best_e = en;
                } else if (len < second_len) {
                    second_len = len, second_m = m, second_mv = mv, second_e = en;
                }
            }
        }
        if (best_m < 0) {
            stuck[dir] = true;
            continue;
        }
        if (runner_up && second_m >= 0) best_m = second_m, best_mv = second_mv, best_e = second_e;
        e.words[best_m] = pack_move(best_mv);
        decode_edit(p, e);
        placed |= uint64_t{1} << best_m;
        last[dir] = best_m;
        enemy[dir] = best_e;
        ++slot;
        if (alternate) dir = 1 - dir;
    }
    return slot;
}

// The enemy nearest to model m where the pose puts it.
GAEVAL_HD_INLINE int nearest_enemy_now(const RulesProblem& p, const PlanPose& pose, int m) {
    int e = -1;
    nearest_enemy_gap(p.scenario, end_shape(p, pose, m), &e);
    return e;
}

// Slots of a wrap: every model but the anchor half the time, else 1 to 4 fewer (models kept
// back to support the ends of the packed line).
GAEVAL_HD_INLINE int wrap_slots(int n, uint32_t draw) {
    const uint32_t spare = below(draw, 8);
    return n - 1 - (spare < 4 ? 0 : static_cast<int>(spare) - 3);
}

// A wrap (wrap_from) round an anchor's nearest enemy (random lead direction, one way or
// alternating), then repair_coherency. Half the time the anchor first moves straight to its
// range edge (when that spot is legal), else it stays. The anchor is the first model, from a
// random index on, from which the wrap fills a slot. Addressed by (c0, c1) (the slots by
// (c0, c1, slot, anchor)).
GAEVAL_HD_NOINLINE inline void wrap_plan(const RulesProblem& p, PlanEdit& e, uint64_t seed,
                                Purpose purpose, uint32_t c0, uint32_t c1) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    const Random4 r = philox(seed, purpose, c0, c1, 0xffffu, 0);
    const int start = static_cast<int>(below(r.v[0], static_cast<uint32_t>(n)));
    PlanEdit trial;
    for (int k = 0; k < n; ++k) {
        const int anchor = (start + k) % n;
        trial = e;
        if ((r.v[3] & 1u) != 0) {
            const Move in = range_edge_move(p, anchor);
            Move mv;
            if (legal_spot(p, trial.pose, anchor,
                           s.friendly[anchor].x + static_cast<float>(in.dx) * s.move_unit_mm,
                           s.friendly[anchor].y + static_cast<float>(in.dy) * s.move_unit_mm,
                           &mv))
                set_move(p, trial, anchor, mv);
        }
        const int enemy = nearest_enemy_now(p, trial.pose, anchor);
        if (enemy < 0) return;
        if (wrap_from(p, trial, anchor, enemy, static_cast<int>(r.v[1] & 1u), (r.v[1] & 2u) != 0,
                      wrap_slots(n, r.v[2]), seed, purpose, c0, c1,
                      static_cast<uint32_t>(anchor)) == 0)
            continue;
        repair_coherency(p, trial, anchor);
        e = trial;
        return;
    }
}

namespace detail {

// A model for a local-search try: with odds 3 in 4 the first model out of range from a random
// index on (when there is one), else any.
GAEVAL_HD inline int pick_model(const RulesProblem& p, const PlanPose& pose, const Random4& r) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    const int start = static_cast<int>(below(r.v[0], static_cast<uint32_t>(n)));
    if (below(r.v[1], 4) == 0) return start;
    for (int k = 0; k < n; ++k) {
        const int m = (start + k) % n;
        if (nearest_enemy_gap(s, end_shape(p, pose, m), nullptr) >
            s.reach_mm + judged_tolerance(p.rules))
            return m;
    }
    return start;
}

// A random move shrunk `divisor` times (creep steps, group shifts).
GAEVAL_HD_INLINE Move small_move(uint64_t seed, Purpose purpose, uint32_t c0, uint32_t c1,
                                 uint32_t c2, int32_t divisor) {
    const Move v = random_move(seed, purpose, c0, c1, c2);
    return Move{v.dx / divisor, v.dy / divisor};
}

}  // namespace detail

// One local-search try on e (the caller keeps or drops it): in eighths, model m to a range-edge
// spot beside a friend 2, straight to its range edge 1, into a niche between two bases 1, a
// creep step 1, its whole group shifted by a small step 1 or by m's own straight-in move 1, a
// wrap from m 1; then coherency is repaired round m (repair_coherency). Addressed by (c0, c1, try) (a wrap by
// Purpose::Wrap and (c0, c1, slot, try + 1)).
GAEVAL_HD_NOINLINE inline void local_try(const RulesProblem& p, PlanEdit& e, uint64_t seed,
                                Purpose purpose, uint32_t c0, uint32_t c1, uint32_t attempt) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    const Random4 r = philox(seed, purpose, c0, c1, attempt, 0);
    const Random4 more = philox(seed, purpose, c0, c1, attempt, 1);
    const int m = detail::pick_model(p, e.pose, r);
    const uint32_t kind = below(r.v[2], 8);
    const int32_t divisor = int32_t{2} << below(more.v[2], 6);  // 2 to 64 times smaller
    const uint32_t sub = attempt | 0x100000u;                   // counters of random_move
    if (kind < 2) {
        const int j = static_cast<int>(below(more.v[0], static_cast<uint32_t>(n)));
        const int enemy = nearest_enemy_now(p, e.pose, j == m ? m : j);
        float x, y;
        Move mv;
        if (j == m || enemy < 0 ||
            !range_spot(p, e.pose, m, enemy, j, (more.v[1] & 1u) != 0, x, y) ||
            !legal_spot(p, e.pose, m, x, y, &mv))
            return;
        set_move(p, e, m, mv);
    } else if (kind == 2) {
        set_move(p, e, m, range_edge_move(p, m));
    } else if (kind == 3) {
        Table t;
        for (int j = 0; j < n; ++j) t.x[j] = e.pose.x[j], t.y[j] = e.pose.y[j];
        set_move(p, e, m, nestle_move(p, t, m, more));
    } else if (kind == 4) {
        const Move now = unpack_move(e.words[m]);
        const Move step = detail::small_move(seed, purpose, c0, c1, sub, divisor);
        set_move(p, e, m, Move{now.dx + step.dx, now.dy + step.dy});
    } else if (kind == 5) {
        shift_group(p, e, m, detail::small_move(seed, purpose, c0, c1, sub, divisor));
    } else if (kind == 6) {
        const Move aim = range_edge_move(p, m), now = unpack_move(e.words[m]);
        shift_group(p, e, m, Move{aim.dx - now.dx, aim.dy - now.dy});
    } else {
        const int enemy = nearest_enemy_now(p, e.pose, m);
        if (enemy < 0) return;
        wrap_from(p, e, m, enemy, static_cast<int>(more.v[1] & 1u), (more.v[1] & 2u) != 0,
                  wrap_slots(n, more.v[3]), seed, Purpose::Wrap, c0, c1, attempt + 1);
    }
    repair_coherency(p, e, m);
}

// Memetic improvement of e: `tries` local_try's; a try is kept when the plan scores at least as
// well, or when both are legal and it keeps at least as many models in range (a legal plan may
// drift along a plateau of equal counts, whatever its distance term). Addressed by (c0, c1).
GAEVAL_HD_NOINLINE inline void local_search(const RulesProblem& p, PlanEdit& e, uint64_t seed,
                                   Purpose purpose, uint32_t c0, uint32_t c1, int tries) {
    Breakdown now = check_plan(p, e.pose, nullptr);
    PlanEdit trial;
    for (int t = 0; t < tries; ++t) {
        trial = e;
        local_try(p, trial, seed, purpose, c0, c1, static_cast<uint32_t>(t));
        const Breakdown b = check_plan(p, trial.pose, nullptr);
        if (b.fitness >= now.fitness ||
            (b.legal && now.legal && b.in_range_count >= now.in_range_count)) {
            e = trial;
            now = b;
        }
    }
}

}  // namespace gaeval::pile_in
