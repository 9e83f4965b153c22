// Move operators of the rules GA (problems/pile_in/rules_scheme.hpp) and of the plan builders and
// local search (rules_search.hpp): a move cut to the limit, into contact, straight in, into a
// niche between two bases, and a whole plan built model by model (GRASP-like). Every draw is
// addressed; + - * / and sqrt only.
#pragma once

#include <cstdint>

#include "games/core/hd.hpp"
#include "games/core/math.hpp"
#include "games/core/rng.hpp"
#include "problems/pile_in/genome.hpp"
#include "problems/pile_in/geometry.hpp"
#include "problems/pile_in/rules.hpp"

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
GAEVAL_HD_NOINLINE inline bool find_niche(const RulesProblem& p, const Table& t, int m,
                                          NicheBases which, const Random4& draw, float& nx,
                                          float& ny) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count, total = n + s.enemy_count;
    const float rm = 0.5f * s.friendly[m].base.length;
    const float sx = s.friendly[m].x, sy = s.friendly[m].y;
    float xs[2] = {0, 0}, ys[2] = {0, 0}, rs[2] = {0, 0};  // role 1 reads role 0's, set first
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
GAEVAL_HD_NOINLINE inline void rebuild_plan(const RulesProblem& p, uint64_t seed, Purpose purpose,
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

}  // namespace gaeval::pile_in
