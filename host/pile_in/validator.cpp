#include "host/pile_in/validator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "host/pile_in/reference_geometry.hpp"

namespace gaeval::pile_in {

namespace {

using reference::Body;

std::string friendly(int m) { return "friendly[" + std::to_string(m) + "]"; }
std::string enemy(int e) { return "enemy[" + std::to_string(e) + "]"; }

std::string mm(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f mm", v);
    return buf;
}

Body body_of(const Base& base, double x, double y) {
    Body b;
    b.x = x;
    b.y = y;
    b.a = 0.5 * static_cast<double>(base.length);
    b.b = 0.5 * static_cast<double>(base.width);
    if (base.shape == BaseShape::Circle) b.b = b.a;
    const double len =
        std::hypot(static_cast<double>(base.cos_angle), static_cast<double>(base.sin_angle));
    b.c = base.cos_angle / len;
    b.s = base.sin_angle / len;
    return b;
}

int16_t low_half(uint32_t w) { return static_cast<int16_t>(static_cast<uint16_t>(w & 0xffffu)); }
int16_t high_half(uint32_t w) { return static_cast<int16_t>(static_cast<uint16_t>(w >> 16)); }

}  // namespace

Verdict validate_plan(const RulesProblem& p, const std::vector<uint32_t>& genes) {
    const Scenario& s = p.scenario;
    const Rules& rules = p.rules;
    const int n = s.friendly_count, en = s.enemy_count;
    const double tol = rules.tolerance_mm;
    const double coherency = s.coherency_mm, reach = s.reach_mm;
    Verdict v;
    v.illegal.assign(n, false);
    v.in_range.assign(n, false);
    v.nearest_gap.assign(n, 0.0);
    auto broken = [&](int m, const std::string& text) {
        v.legal = false;
        v.violations.push_back(text);
        if (m >= 0) v.illegal[m] = true;
    };
    if (static_cast<int>(genes.size()) != p.layout.words) {
        broken(-1, "the plan has " + std::to_string(genes.size()) + " words, expected " +
                       std::to_string(p.layout.words));
        return v;
    }

    // ---- decode (own arithmetic, in double) ----
    std::vector<Body> enemies(en), starts(n), ends(n);
    std::vector<bool> moved(n);
    for (int e = 0; e < en; ++e) enemies[e] = body_of(s.enemy[e].base, s.enemy[e].x, s.enemy[e].y);
    const double unit = s.move_unit_mm;
    for (int m = 0; m < n; ++m) {
        const Model& f = s.friendly[m];
        starts[m] = body_of(f.base, f.x, f.y);
        const double dx = low_half(genes[m]) * unit, dy = high_half(genes[m]) * unit;
        moved[m] = genes[m] != 0;
        ends[m] = starts[m];
        ends[m].x += dx;
        ends[m].y += dy;
        if (moved[m] && p.layout.turn >= 0 && f.base.shape == BaseShape::Oval) {
            const double tx = low_half(genes[p.layout.turn + m]),
                         ty = high_half(genes[p.layout.turn + m]);
            const double len = std::hypot(tx, ty);
            ends[m].c = len > 0 ? tx / len : 1.0;
            ends[m].s = len > 0 ? ty / len : 0.0;
        }
        const double length = std::hypot(dx, dy);
        if (length > s.move_mm + tol)
            broken(m, friendly(m) + " moves " + mm(length) + " (limit " + mm(s.move_mm) + ")");
    }
    v.order.resize(n);
    for (int k = 0; k < n; ++k) v.order[k] = k;
    if (p.layout.order >= 0) {
        std::vector<bool> seen(n, false);
        for (int k = 0; k < n; ++k) {
            const uint32_t w = genes[p.layout.order + k];
            if (w >= static_cast<uint32_t>(n) || seen[w]) {
                broken(-1, "the move order is not a permutation of the models");
                return v;
            }
            seen[w] = true;
            v.order[k] = static_cast<int>(w);
        }
    }
    std::vector<int> position(n);
    for (int k = 0; k < n; ++k) position[v.order[k]] = k;

    // ---- end state: range and overlaps with enemies ----
    for (int m = 0; m < n; ++m) {
        double nearest = 1e300;
        for (int e = 0; e < en; ++e) {
            const double g = reference::gap(ends[m], enemies[e]);
            nearest = std::min(nearest, g);
            if (g < -tol)
                broken(m, friendly(m) + " overlaps " + enemy(e) + " at the end by " + mm(-g));
        }
        v.nearest_gap[m] = nearest;
        v.in_range[m] = nearest <= reach + tol;
        v.in_range_count += v.in_range[m] ? 1 : 0;
    }

    // ---- friends: overlaps, neighbours, one group ----
    std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
    std::vector<int> neighbours(n, 0);
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            const double g = reference::gap(ends[i], ends[j]);
            if (g < -tol) {
                broken(i, friendly(i) + " overlaps " + friendly(j) + " at the end by " + mm(-g));
                v.illegal[j] = true;
            }
            if (g <= coherency + tol) {
                linked[i][j] = linked[j][i] = true;
                ++neighbours[i];
                ++neighbours[j];
            }
        }
    }
    if (n > 1) {
        const int needed = rules.two_neighbours_from > 0 && n >= rules.two_neighbours_from ? 2 : 1;
        for (int m = 0; m < n; ++m)
            if (neighbours[m] < needed)
                broken(m, friendly(m) + " has " + std::to_string(neighbours[m]) +
                              " friend(s) within " + mm(coherency) + " at the end (needs " +
                              std::to_string(needed) + ")");
        std::vector<int> group(n, -1);
        std::vector<int> sizes;
        for (int m = 0; m < n; ++m) {
            if (group[m] >= 0) continue;
            const int id = static_cast<int>(sizes.size());
            sizes.push_back(0);
            std::vector<int> stack = {m};
            group[m] = id;
            while (!stack.empty()) {
                const int a = stack.back();
                stack.pop_back();
                ++sizes[id];
                for (int b = 0; b < n; ++b)
                    if (linked[a][b] && group[b] < 0) {
                        group[b] = id;
                        stack.push_back(b);
                    }
            }
        }
        if (sizes.size() > 1) {
            const int largest =
                static_cast<int>(std::max_element(sizes.begin(), sizes.end()) - sizes.begin());
            int first_apart = -1;
            for (int m = 0; m < n; ++m)
                if (group[m] != largest) {
                    v.illegal[m] = true;
                    if (first_apart < 0) first_apart = m;
                }
            broken(first_apart, "the unit ends split into " + std::to_string(sizes.size()) +
                                    " groups (" + friendly(first_apart) +
                                    " is not connected to the largest)");
        }
    }

    // ---- direction ----
    std::vector<int> contact(n, -1);  // lowest-indexed enemy touched at the start
    for (int m = 0; m < n; ++m) {
        std::vector<double> before(en);
        for (int e = 0; e < en; ++e) before[e] = reference::gap(starts[m], enemies[e]);
        for (int e = 0; e < en && contact[m] < 0; ++e)
            if (before[e] <= tol) contact[m] = e;
        if (!moved[m] || rules.direction == Direction::Free) continue;
        if (rules.direction == Direction::NoFurtherFromTarget) {
            double start_min = 1e300, end_min = 1e300;
            for (int e = 0; e < en; ++e) {
                if (!p.target[e]) continue;
                start_min = std::min(start_min, before[e]);
                end_min = std::min(end_min, reference::gap(ends[m], enemies[e]));
            }
            if (end_min > start_min + tol)
                broken(m, friendly(m) + " ends " + mm(end_min - start_min) +
                              " further from the target unit than it started (no further "
                              "allowed)");
            continue;
        }
        const double nearest = *std::min_element(before.begin(), before.end());
        const bool strict = rules.direction == Direction::StrictlyCloser;
        bool ok = false;
        int reference_enemy = -1;
        double gap_after = 0;
        for (int e = 0; e < en && !ok; ++e) {
            if (before[e] > nearest + 1e-4) continue;  // not (one of) the nearest
            const double after = reference::gap(ends[m], enemies[e]);
            ok = strict ? after < before[e] - tol : after <= before[e] + tol;
            if (reference_enemy < 0) reference_enemy = e, gap_after = after;
        }
        if (!ok)
            broken(m, friendly(m) + " ends " + mm(gap_after) + " from " + enemy(reference_enemy) +
                          ", its nearest enemy at the start (then " + mm(before[reference_enemy]) +
                          "): " + (strict ? "strictly closer" : "no further") + " required");
    }

    // ---- paths, in move order ----
    if (rules.path_check) {
        for (int k = 0; k < n; ++k) {
            const int m = v.order[k];
            if (!moved[m]) continue;
            Body from = starts[m];
            from.c = ends[m].c;
            from.s = ends[m].s;
            const double mx = ends[m].x - from.x, my = ends[m].y - from.y;
            int pivot = -1;
            if (rules.slide && rules.direction != Direction::StrictlyCloser && contact[m] >= 0 &&
                reference::gap(ends[m], enemies[contact[m]]) <= tol)
                pivot = contact[m];
            auto along = [&](const Body& obstacle) {
                return pivot >= 0 ? reference::slide_gap(enemies[pivot], from, ends[m].x, ends[m].y,
                                                         obstacle)
                                  : reference::sweep_gap(from, mx, my, obstacle);
            };
            const std::string how = pivot >= 0 ? "slide round " + enemy(pivot) : "path";
            for (int e = 0; e < en; ++e) {
                if (e == pivot) continue;
                const double g = along(enemies[e]);
                if (g < -tol)
                    broken(m, friendly(m) + "'s " + how + " crosses " + enemy(e) + " by " + mm(-g));
            }
            for (int j = 0; j < n; ++j) {
                if (j == m) continue;
                const bool before = position[j] < k;
                const double g = along(before ? ends[j] : starts[j]);
                if (g < -tol)
                    broken(m, friendly(m) + "'s " + how + " crosses " + friendly(j) +
                                  (before ? " (at its end)" : " (at its start)") + " by " + mm(-g));
            }
        }
    }
    return v;
}

}  // namespace gaeval::pile_in
