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

// The move pulled back inside the limit (scaled when far outside, then unit steps).
GAEVAL_HD_INLINE Move clamp_move(Move m) {
    if (move_within_limit(m)) return m;
    const float x = static_cast<float>(m.dx), y = static_cast<float>(m.dy);
    const float scale = static_cast<float>(MoveScale) / sqrt_rn(x * x + y * y);
    return pull_inside_limit(Move{round_half_away(x * scale), round_half_away(y * scale)});
}

// A random orientation word (a direction of length about 30000 units, by rejection).
// Addressed draws, + - * / sqrt_rn.
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
// Addressed draws, + - * / sqrt_rn.
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

// Where the friendly models stand (the enemies stand where the scenario says): the table a
// niche is looked for on.
struct Table {
    float x[MaxFriendly], y[MaxFriendly];
};

// The table as plan q leaves it.
GAEVAL_HD_INLINE void table_of_plan(const RulesProblem& p, const PlanView& src, uint64_t q,
                                    Table& t) {
    const Scenario& s = p.scenario;
    for (int i = 0; i < s.friendly_count; ++i) {
        const Move mv = unpack_move(src.gene(q, i));
        t.x[i] = s.friendly[i].x + static_cast<float>(mv.dx) * s.move_unit_mm;
        t.y[i] = s.friendly[i].y + static_cast<float>(mv.dy) * s.move_unit_mm;
    }
}

// Base i of the table (friends 0..n-1, then enemies) as its enclosing circle.
GAEVAL_HD_INLINE void table_base(const RulesProblem& p, const Table& t, int i, float& x, float& y,
                                 float& r) {
    const Scenario& s = p.scenario;
    if (i < s.friendly_count) {
        x = t.x[i];
        y = t.y[i];
        r = 0.5f * s.friendly[i].base.length;
        return;
    }
    const Model& e = s.enemy[i - s.friendly_count];
    x = e.x;
    y = e.y;
    r = 0.5f * e.base.length;
}

// Which bases a niche for model m may use (indices into the table).
enum NicheBases : uint8_t {
    AnyBases = 0,     // j any base in reach, k any base beside j
    EnemyPairs = 1,   // both enemies: a spot in range
    FriendFirst = 2,  // j a friend: a spot in coherency
};

// The centre of a circle of radius r touching circles (xj, yj, rj) and (xk, yk, rk), on the
// left of j -> k (or the right); false when they are too far apart or nested.
GAEVAL_HD_INLINE bool niche_point(float xj, float yj, float rj, float xk, float yk, float rk,
                                  float r, bool left, float& nx, float& ny) {
    const float dj = rj + r, dk = rk + r;
    const float ex = xk - xj, ey = yk - yj;
    const float d = sqrt_rn(ex * ex + ey * ey);
    if (!(d > 0.0f) || d > dj + dk || d < abs(dj - dk)) return false;
    const float along = (dj * dj - dk * dk + d * d) / (2.0f * d);
    const float h = sqrt_rn(max(dj * dj - along * along, 0.0f));
    const float side = left ? 1.0f : -1.0f;
    nx = xj + (along * ex - side * h * ey) / d;
    ny = yj + (along * ey + side * h * ex) / d;
    return true;
}

// A centre for model m touching two bases j and k of the table (enclosing circles, a hair
// apart): j a base within reach of m's start, k one leaving a niche beside j (draws pick
// them and the side). False when none is found.
// Addressed draws, fixed scans, + - * / sqrt_rn.
GAEVAL_HD inline bool find_niche(const RulesProblem& p, const Table& t, int m, NicheBases which,
                                 const Random4& draw, float& nx, float& ny) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count, total = n + s.enemy_count;
    const float rm = 0.5f * s.friendly[m].base.length;
    const float sx = s.friendly[m].x, sy = s.friendly[m].y;
    float xs[2], ys[2], rs[2];
    int pick[2] = {-1, -1};
    for (int role = 0; role < 2; ++role) {
        int first = 0;
        if (which == EnemyPairs || (which == FriendFirst && role == 1)) first = n;
        const int last = (which == FriendFirst && role == 0) ? n : total;
        int count = 0;
        for (int pass = 0; pass < 2; ++pass) {
            const uint32_t chosen = pass == 1 ? below(draw.v[role], count) : 0u;
            int seen = 0;
            for (int i = first; i < last; ++i) {
                if (i == m || i == pick[0]) continue;
                float x, y, r;
                table_base(p, t, i, x, y, r);
                const float dx = role == 0 ? x - sx : x - xs[0];
                const float dy = role == 0 ? y - sy : y - ys[0];
                const float limit = role == 0 ? s.move_mm + rm + r : r + rs[0] + 2.0f * rm;
                if (dx * dx + dy * dy > limit * limit) continue;
                if (pass == 0) {
                    ++count;
                } else if (static_cast<uint32_t>(seen++) == chosen) {
                    pick[role] = i;
                    xs[role] = x;
                    ys[role] = y;
                    rs[role] = r;
                    break;
                }
            }
            if (count == 0) return false;
        }
    }
    return niche_point(xs[0], ys[0], rs[0], xs[1], ys[1], rs[1], rm + 0.5f * p.rules.tolerance_mm,
                       (draw.v[2] & 1u) != 0, nx, ny);
}

// The move from model m's start to (x, y) in gene units, cut to the limit.
GAEVAL_HD_INLINE Move move_to(const Scenario& s, int m, float x, float y) {
    return clamp_move(Move{round_half_away((x - s.friendly[m].x) / s.move_unit_mm),
                           round_half_away((y - s.friendly[m].y) / s.move_unit_mm)});
}

// A move that nestles model m against two bases at once (find_niche, any bases): niches
// between enemies are in range, between an enemy and a friend in range and coherent, between
// two friends a supporting spot. Zero (no move) when no niche is in reach.
GAEVAL_HD inline Move nestle_move(const RulesProblem& p, const Table& t, int m,
                                  const Random4& draw) {
    float x, y;
    if (!find_niche(p, t, m, AnyBases, draw, x, y)) return Move{0, 0};
    return move_to(p.scenario, m, x, y);
}

constexpr int RebuildTries = 12;         // niches tried per model by rebuild_plan
constexpr uint32_t SupportShare = 4;     // 1 model in 4 tries supporting spots first
constexpr uint32_t ImmigrantShare = 16;  // 1 child in 16 is a rebuilt plan

namespace detail {

// Whether model m may stand at (x, y) (its move cut to the limit): reachable and overlapping
// no enemy and no friend where the table puts it. On success *mv is the move.
GAEVAL_HD inline bool free_spot(const RulesProblem& p, const Table& t, int m, float x, float y,
                                Move* mv) {
    const Scenario& s = p.scenario;
    const Move move = move_to(s, m, x, y);
    x = s.friendly[m].x + static_cast<float>(move.dx) * s.move_unit_mm;
    y = s.friendly[m].y + static_cast<float>(move.dy) * s.move_unit_mm;
    const Shape at = shape_at(s.friendly[m].base, x, y);
    const float limit = -0.5f * p.rules.tolerance_mm;
    for (int e = 0; e < s.enemy_count; ++e)
        if (gap_up_to(at, enemy_shape(s, e), 0.0f) < limit) return false;
    for (int j = 0; j < s.friendly_count; ++j)
        if (j != m && gap_up_to(at, shape_at(s.friendly[j].base, t.x[j], t.y[j]), 0.0f) < limit)
            return false;
    *mv = move;
    return true;
}

GAEVAL_HD_INLINE void place(const Scenario& s, Table& t, Move* moves, int m, Move mv) {
    moves[m] = mv;
    t.x[m] = s.friendly[m].x + static_cast<float>(mv.dx) * s.move_unit_mm;
    t.y[m] = s.friendly[m].y + static_cast<float>(mv.dy) * s.move_unit_mm;
}

}  // namespace detail

// A whole plan built model by model in a random order, GRASP-like: each model tries niches
// between two enemies (in range), then niches next to a friend (coherent) - one model in
// SupportShare the other way round - and keeps the first reachable one that overlaps nothing
// on the table (models not yet placed stand at their start); a model with no free niche does
// not move. Then models short of neighbours recruit a supporter: a model out of range moves
// into the niche between them and one of their friends. Draws addressed by (c0, c1, model,
// try).
// Addressed draws, fixed scans, + - * / sqrt_rn.
GAEVAL_HD inline void rebuild_plan(const RulesProblem& p, uint64_t seed, Purpose purpose,
                                   uint32_t c0, uint32_t c1, Move* moves) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    Table t;
    uint8_t order[MaxFriendly];
    for (int m = 0; m < n; ++m) {
        t.x[m] = s.friendly[m].x;
        t.y[m] = s.friendly[m].y;
        order[m] = static_cast<uint8_t>(m);
        moves[m] = Move{0, 0};
    }
    for (int q = n - 1; q > 0; --q) {
        Random4 r = philox(seed, purpose, c0, c1, 0xffffu, static_cast<uint32_t>(q));
        swap(order[q], order[below(r.v[0], static_cast<uint32_t>(q + 1))]);
    }
    for (int k = 0; k < n; ++k) {
        const int m = order[k];
        Random4 role = philox(seed, purpose, c0, c1, static_cast<uint32_t>(m), 0xffffu);
        const bool support_first = below(role.v[0], SupportShare) == 0;
        for (int attempt = 0; attempt < RebuildTries; ++attempt) {
            Random4 r = philox(seed, purpose, c0, c1, static_cast<uint32_t>(m),
                               static_cast<uint32_t>(attempt));
            const bool first_half = attempt < RebuildTries / 2;
            const NicheBases which = first_half != support_first ? EnemyPairs : FriendFirst;
            float x, y;
            Move mv;
            if (!find_niche(p, t, m, which, r, x, y) || !detail::free_spot(p, t, m, x, y, &mv))
                continue;
            detail::place(s, t, moves, m, mv);
            break;
        }
    }
    // Supporters for models short of neighbours within coherency.
    const float coherency = s.coherency_mm + p.rules.tolerance_mm;
    const int needed = p.rules.two_neighbours_from > 0 && n >= p.rules.two_neighbours_from ? 2 : 1;
    for (int k = 0; k < n && n > 1; ++k) {
        const int a = order[k];
        const Shape sa = shape_at(s.friendly[a].base, t.x[a], t.y[a]);
        int neighbours = 0, friend_of_a = -1;
        for (int j = 0; j < n; ++j) {
            if (j == a) continue;
            if (gap_up_to(sa, shape_at(s.friendly[j].base, t.x[j], t.y[j]), coherency) <=
                coherency) {
                ++neighbours;
                friend_of_a = j;
            }
        }
        if (neighbours >= needed || friend_of_a < 0) continue;
        for (int attempt = 0; attempt < RebuildTries; ++attempt) {
            Random4 r = philox(seed, purpose, c0, c1, 0x10000u + static_cast<uint32_t>(a),
                               static_cast<uint32_t>(attempt));
            const int helper = static_cast<int>(below(r.v[0], static_cast<uint32_t>(n)));
            if (helper == a || helper == friend_of_a) continue;
            const Shape sh = shape_at(s.friendly[helper].base, t.x[helper], t.y[helper]);
            if (nearest_enemy_gap(s, sh, nullptr) <= s.reach_mm + p.rules.tolerance_mm) continue;
            float x, y;
            Move mv;
            if (!niche_point(t.x[a], t.y[a], sa.a, t.x[friend_of_a], t.y[friend_of_a],
                             0.5f * s.friendly[friend_of_a].base.length,
                             sh.a + 0.5f * p.rules.tolerance_mm, (r.v[1] & 1u) != 0, x, y) ||
                !detail::free_spot(p, t, helper, x, y, &mv))
                continue;
            detail::place(s, t, moves, helper, mv);
            break;
        }
    }
}

// A move straight toward model m's reference enemy until base contact or out of move.
GAEVAL_HD inline Move aim_move(const RulesProblem& p, int m) {
    const Scenario& s = p.scenario;
    const int e = p.start[m].reference_enemy;
    if (e < 0) return Move{0, 0};
    const Shape enemy = enemy_shape(s, e);
    const Shape me = start_shape(s, m);
    const float dx = enemy.x - me.x, dy = enemy.y - me.y;
    const float dist = sqrt_rn(dx * dx + dy * dy);
    if (!(dist > 0.0f)) return Move{0, 0};
    const float ux = dx / dist, uy = dy / dist;
    const float go = min(dist - contact_distance(enemy, me, -ux, -uy), s.move_mm);
    if (!(go > 0.0f)) return Move{0, 0};
    return clamp_move(
        Move{round_half_away(go * ux / s.move_unit_mm), round_half_away(go * uy / s.move_unit_mm)});
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

    // Mutates one move (hit already decided) of a child of plan q: in eighths, a fresh random
    // move 2, a creep step 3, a nestle 1.5, into contact from a random side 0.5, straight in
    // 0.5, no move 0.5. Addressed by (generation, k, m).
    GAEVAL_HD_INLINE uint32_t mutate_move(uint32_t gene, uint32_t k32, int m, uint64_t q) const {
        const uint32_t g = base.generation, m32 = static_cast<uint32_t>(m);
        Random4 r = philox(base.seed, Purpose::MutationKind, g, k32, m32, 0);
        const uint32_t kind = below(r.v[0], 8);
        const bool half = (r.v[3] & 1u) != 0;
        if (kind < 2) return pack_move(random_move(base.seed, Purpose::MutationMove, g, k32, m32));
        if (kind < 5) {
            // Creep: a random move shrunk 4 to 64 times (log-uniform scale).
            const int32_t divisor = int32_t{4} << below(r.v[2], 5);
            Move step = random_move(base.seed, Purpose::MutationCreep, g, k32, m32);
            Move now = unpack_move(gene);
            return pack_move(
                clamp_move(Move{now.dx + step.dx / divisor, now.dy + step.dy / divisor}));
        }
        if (kind == 6 && !half) return pack_move(aim_move(problem, m));
        if (kind == 6) {
            Random4 side = philox(base.seed, Purpose::MutationContact, g, k32, m32, 0);
            return pack_move(contact_move(problem, m, side.v[0]));
        }
        if (kind == 7 && half) return 0u;
        Random4 at = philox(base.seed, Purpose::MutationNestle, g, k32, m32, 0);
        Table t;
        table_of_plan(problem, base.src, q, t);
        return pack_move(nestle_move(problem, t, m, at));
    }

    // Every draw addressed by (generation, k, gene).
    GAEVAL_HD void operator()(uint64_t k) const {
        uint64_t a, b;
        base.parents(k, a, b);
        const PlanLayout& layout = problem.layout;
        const PlanView& src = base.src;
        const PlanView& dst = base.dst;
        const uint32_t k32 = static_cast<uint32_t>(k), g = base.generation;
        const double rate = k == 0 ? 0.0 : base.mutation_rate;  // the best plan survives as is
        Random4 mask = philox(base.seed, Purpose::CrossoverMask, g, k32, 0, 0);
        // Immigrants: one child in ImmigrantShare (never a clone) is built afresh.
        Move built[MaxFriendly];
        const bool immigrant = k >= base.survivors && below(mask.v[3], ImmigrantShare) == 0;
        if (immigrant) rebuild_plan(problem, base.seed, Purpose::Rebuild, g, k32, built);
        Random4 hits{};
        for (int m = 0; m < layout.models; ++m) {
            const bool from_b = a != b && ((mask.v[m >> 5] >> (m & 31)) & 1u);
            const uint64_t parent = from_b ? b : a;
            uint32_t gene = src.gene(parent, m);
            if ((m & 3) == 0)
                hits = philox(base.seed, Purpose::MutationHit, g, k32,
                              static_cast<uint32_t>(m >> 2), 0);
            if (immigrant)
                gene = pack_move(built[m]);
            else if (bernoulli(hits.v[m & 3], rate))
                gene = mutate_move(gene, k32, m, a);
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
// Addressed by (0, individual, gene).
struct RandomizeRulesPlans {
    uint64_t seed = 0;
    RulesProblem problem;
    PlanView dst;
    GAEVAL_HD void operator()(uint64_t i) const {
        const PlanLayout& layout = problem.layout;
        const uint32_t i32 = static_cast<uint32_t>(i);
        const int n = layout.models;
        Move built[MaxFriendly];
        const bool rebuilt = (i & 1u) != 0;  // odd plans: built model by model
        if (rebuilt) rebuild_plan(problem, seed, Purpose::Rebuild, 0, i32, built);
        for (int m = 0; m < n; ++m) {
            const uint32_t m32 = static_cast<uint32_t>(m);
            uint32_t move = 0u;
            if (rebuilt)
                move = pack_move(built[m]);
            else if (i != 0)
                move = pack_move(random_move(seed, Purpose::InitMove, 0, i32, m32));
            dst.set_gene(i, m, move);
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
