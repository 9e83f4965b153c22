#include "host/pile_in/validator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

#include "host/core/progress.hpp"
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

PlanEnds plan_ends(const RulesProblem& p, const std::vector<uint32_t>& genes) {
    const Scenario& s = p.scenario;
    const int n = s.friendly_count;
    PlanEnds ends;
    const double unit = s.move_unit_mm;
    for (int m = 0; m < n; ++m) {
        const Model& f = s.friendly[m];
        const Body start = body_of(f.base, f.x, f.y);
        const uint32_t w = m < static_cast<int>(genes.size()) ? genes[m] : 0u;
        double c = start.c, sn = start.s;
        if (w != 0 && p.layout.turn >= 0 && f.base.shape == BaseShape::Oval &&
            p.layout.turn + m < static_cast<int>(genes.size())) {
            const double tx = low_half(genes[p.layout.turn + m]),
                         ty = high_half(genes[p.layout.turn + m]);
            const double len = std::hypot(tx, ty);
            c = len > 0 ? tx / len : 1.0;
            sn = len > 0 ? ty / len : 0.0;
        }
        ends.x.push_back(start.x + low_half(w) * unit);
        ends.y.push_back(start.y + high_half(w) * unit);
        ends.c.push_back(c);
        ends.s.push_back(sn);
        ends.order.push_back(m);
    }
    if (p.layout.order >= 0 && p.layout.order + n <= static_cast<int>(genes.size()))
        for (int k = 0; k < n; ++k)
            ends.order[k] = static_cast<int>(std::min<uint32_t>(genes[p.layout.order + k], 255u));
    return ends;
}

Verdict validate_plan(const RulesProblem& p, const std::vector<uint32_t>& genes) {
    if (static_cast<int>(genes.size()) != p.layout.words) {
        Verdict v;
        v.legal = false;
        const std::string text = "the plan has " + std::to_string(genes.size()) +
                                 " words, expected " + std::to_string(p.layout.words);
        v.violations.push_back(text);
        v.details.push_back(Violation{-1, "plan", 0.0, text});
        const int n = p.scenario.friendly_count;
        v.illegal.assign(n, false);
        v.in_range.assign(n, false);
        v.nearest_gap.assign(n, 0.0);
        return v;
    }
    return validate_ends(p, plan_ends(p, genes));
}

namespace {

// The checks of validate_ends, one method a phase, in the order their violations are listed:
// moves, order, the end state against enemies, friends (overlaps, coherency, one group),
// direction, paths.
class EndsCheck {
  public:
    EndsCheck(const RulesProblem& problem, const PlanEnds& plan)
        : p(problem),
          s(problem.scenario),
          rules(problem.rules),
          plan(plan),
          n(s.friendly_count),
          en(s.enemy_count),
          tol(rules.tolerance_mm),
          coherency(s.coherency_mm),
          reach(s.reach_mm) {
        v.illegal.assign(n, false);
        v.in_range.assign(n, false);
        v.nearest_gap.assign(n, 0.0);
    }

    Verdict run() {
        if (!sizes_match()) return v;
        place();
        if (!order()) return v;
        enemies_at_the_end();
        friends_at_the_end();
        direction();
        if (rules.path_check) paths();
        return v;
    }

  private:
    const RulesProblem& p;
    const Scenario& s;
    const Rules& rules;
    const PlanEnds& plan;
    const int n, en;
    const double tol, coherency, reach;
    Verdict v;
    std::vector<Body> enemies, starts, ends;
    std::vector<bool> moved;
    std::vector<int> position;  // of each model in the move order
    std::vector<int> contact;   // lowest-indexed enemy touched at the start

    void broken(int m, const char* rule, double by, const std::string& text) {
        v.legal = false;
        v.violations.push_back(text);
        v.details.push_back(Violation{m, rule, by, text});
        if (m >= 0) v.illegal[m] = true;
    }

    bool sizes_match() {
        if (static_cast<int>(plan.x.size()) == n && static_cast<int>(plan.y.size()) == n &&
            static_cast<int>(plan.c.size()) == n && static_cast<int>(plan.s.size()) == n)
            return true;
        broken(-1, "plan", 0.0,
               "the plan places " + counted(plan.x.size(), "model") + ", expected " +
                   std::to_string(n));
        return false;
    }

    // Where everybody stands, and the move lengths.
    void place() {
        enemies.resize(en);
        starts.resize(n);
        ends.resize(n);
        moved.resize(n);
        for (int e = 0; e < en; ++e)
            enemies[e] = body_of(s.enemy[e].base, s.enemy[e].x, s.enemy[e].y);
        for (int m = 0; m < n; ++m) {
            const Model& f = s.friendly[m];
            starts[m] = body_of(f.base, f.x, f.y);
            ends[m] = starts[m];
            ends[m].x = plan.x[m];
            ends[m].y = plan.y[m];
            bool turned = false;
            if (f.base.shape == BaseShape::Oval) {
                const double len = std::hypot(plan.c[m], plan.s[m]);
                const double c = len > 0 ? plan.c[m] / len : 1.0,
                             sn = len > 0 ? plan.s[m] / len : 0.0;
                turned = std::abs(c - starts[m].c) > 1e-9 || std::abs(sn - starts[m].s) > 1e-9;
                if (turned) ends[m].c = c, ends[m].s = sn;
            }
            const double dx = ends[m].x - starts[m].x, dy = ends[m].y - starts[m].y;
            moved[m] = dx != 0 || dy != 0 || turned;
            const double length = std::hypot(dx, dy);
            if (length > s.move_mm + tol)
                broken(m, "move", length - s.move_mm - tol,
                       friendly(m) + " moves " + mm(length) + " (limit " + mm(s.move_mm) + ")");
        }
    }

    // The move order (a permutation of the models when paths are checked).
    bool order() {
        v.order.resize(n);
        for (int k = 0; k < n; ++k) v.order[k] = k;
        if (rules.path_check) {
            std::vector<bool> seen(n, false);
            bool permutation = static_cast<int>(plan.order.size()) == n;
            for (int k = 0; permutation && k < n; ++k) {
                const int w = plan.order[k];
                permutation = w >= 0 && w < n && !seen[w];
                if (permutation) seen[w] = true;
            }
            if (!permutation) {
                broken(-1, "order", 0.0, "the move order is not a permutation of the models");
                return false;
            }
            v.order = plan.order;
        }
        position.resize(n);
        for (int k = 0; k < n; ++k) position[v.order[k]] = k;
        return true;
    }

    // The end state: range, and overlaps with enemies.
    void enemies_at_the_end() {
        for (int m = 0; m < n; ++m) {
            double nearest = 1e300;
            for (int e = 0; e < en; ++e) {
                const double g = reference::gap(ends[m], enemies[e]);
                nearest = std::min(nearest, g);
                if (g < -tol)
                    broken(m, "overlap", -g - tol,
                           friendly(m) + " overlaps " + enemy(e) + " at the end by " + mm(-g));
            }
            v.nearest_gap[m] = nearest;
            v.in_range[m] = nearest <= reach + tol;
            v.in_range_count += v.in_range[m] ? 1 : 0;
        }
    }

    // Friends at the end: overlaps, neighbours within coherency, one group.
    void friends_at_the_end() {
        std::vector<std::vector<bool>> linked(n, std::vector<bool>(n, false));
        std::vector<std::vector<double>> gaps(n, std::vector<double>(n, 0.0));
        std::vector<int> neighbours(n, 0);
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j < n; ++j) {
                const double g = reference::gap(ends[i], ends[j]);
                gaps[i][j] = gaps[j][i] = g;
                if (g < -tol) {
                    broken(i, "overlap", -g - tol,
                           friendly(i) + " overlaps " + friendly(j) + " at the end by " + mm(-g));
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
            const int needed =
                rules.two_neighbours_from > 0 && n >= rules.two_neighbours_from ? 2 : 1;
            for (int m = 0; m < n; ++m) {
                if (neighbours[m] >= needed) continue;
                // The needed-th nearest friend: how far beyond coherency it stands.
                std::vector<double> near;
                for (int j = 0; j < n; ++j)
                    if (j != m) near.push_back(gaps[m][j]);
                std::sort(near.begin(), near.end());
                const double beyond = near.size() >= static_cast<std::size_t>(needed)
                                          ? near[needed - 1] - coherency - tol
                                          : 0.0;
                broken(m, "coherency", beyond,
                       friendly(m) + " has " + std::to_string(neighbours[m]) +
                           " friend(s) within " + mm(coherency) + " at the end (needs " +
                           std::to_string(needed) + "; the next is " + mm(beyond) + " too far)");
            }
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
                double closest = 1e300;  // smallest gap between the largest group and the others
                for (int m = 0; m < n; ++m) {
                    if (group[m] == largest) continue;
                    v.illegal[m] = true;
                    if (first_apart < 0) first_apart = m;
                    for (int j = 0; j < n; ++j)
                        if (group[j] == largest) closest = std::min(closest, gaps[m][j]);
                }
                const double beyond = closest - coherency - tol;
                broken(first_apart, "split", beyond,
                       "the unit ends split into " + std::to_string(sizes.size()) + " groups (" +
                           friendly(first_apart) +
                           " is not connected to the largest; the groups are " + mm(beyond) +
                           " too far apart)");
            }
        }
    }

    // Each moved model's direction against its nearest enemy (or the target unit).
    void direction() {
        contact.assign(n, -1);
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
                    broken(
                        m, "direction", end_min - start_min - tol,
                        friendly(m) + " ends " + mm(end_min - start_min) +
                            " further from the target unit than it started (no further allowed)");
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
            if (!ok) {
                const double allowed =
                    strict ? before[reference_enemy] - tol : before[reference_enemy] + tol;
                broken(m, "direction", gap_after - allowed,
                       friendly(m) + " ends " + mm(gap_after) + " from " + enemy(reference_enemy) +
                           ", its nearest enemy at the start (then " + mm(before[reference_enemy]) +
                           "): " + (strict ? "strictly closer" : "no further") + " required, " +
                           mm(gap_after - allowed) + " too far");
            }
        }
    }

    // Paths, in move order: slides round the enemy touched at the start, sweeps otherwise.
    void paths() {
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
                    broken(m, "path", -g - tol,
                           friendly(m) + "'s " + how + " crosses " + enemy(e) + " by " + mm(-g));
            }
            for (int j = 0; j < n; ++j) {
                if (j == m) continue;
                const bool before = position[j] < k;
                const double g = along(before ? ends[j] : starts[j]);
                if (g < -tol)
                    broken(m, "path", -g - tol,
                           friendly(m) + "'s " + how + " crosses " + friendly(j) +
                               (before ? " (at its end)" : " (at its start)") + " by " + mm(-g));
            }
        }
    }
};

}  // namespace

Verdict validate_ends(const RulesProblem& p, const PlanEnds& plan) {
    return EndsCheck(p, plan).run();
}

}  // namespace gaeval::pile_in
