// Helpers for rules-preset tests: problems from the shared scenarios (tests/data/pile_in),
// plans from end positions, and a check of a plan by both the fitness and the validator.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "host/pile_in/rules.hpp"
#include "host/pile_in/scenario_io.hpp"
#include "host/pile_in/validator.hpp"
#include "problems/pile_in/rules_fitness.hpp"

namespace gaeval::pile_in::testing {

inline std::string data_file(const std::string& name) {
    return std::string(GAEVAL_TEST_DATA_DIR) + "/pile_in/" + name;
}

// The problem of a shipped scenario under a preset, with flags on top.
inline RulesProblem problem_for(const std::string& file, const std::string& preset,
                                const RuleOverrides& flags = {}) {
    return build_rules_problem(preset, load_scenario(data_file(file)), flags);
}

inline RuleOverrides with_paths() {
    RuleOverrides o;
    o.path_check = true;
    return o;
}

// A plan whose models end at `ends` (mm; rounded to gene units), moving in `order` (index
// order when empty; only used with path checking).
inline std::vector<uint32_t> plan_to(const RulesProblem& p,
                                     const std::vector<std::pair<double, double>>& ends,
                                     const std::vector<int>& order = {}) {
    const Scenario& s = p.scenario;
    std::vector<uint32_t> genes(p.layout.words, 0u);
    for (int m = 0; m < s.friendly_count; ++m) {
        const double dx = ends[m].first - s.friendly[m].x, dy = ends[m].second - s.friendly[m].y;
        genes[m] = pack_move(Move{static_cast<int32_t>(std::lround(dx / s.move_unit_mm)),
                                  static_cast<int32_t>(std::lround(dy / s.move_unit_mm))});
    }
    if (p.layout.order >= 0)
        for (int k = 0; k < s.friendly_count; ++k)
            genes[p.layout.order + k] = static_cast<uint32_t>(order.empty() ? k : order[k]);
    return genes;
}

// The fitness's breakdown (and its per-model flags) of a plan.
inline Breakdown fitness_of(const RulesProblem& p, const std::vector<uint32_t>& genes,
                            std::vector<uint8_t>* flags = nullptr) {
    PlanPose pose;
    decode_plan(p, GenomeGenes{genes.data()}, pose);
    uint8_t f[MaxFriendly];
    Breakdown b = check_plan(p, pose, f);
    if (flags) flags->assign(f, f + p.scenario.friendly_count);
    return b;
}

// Both judges agree on legality and on the number in range; returns the validator's verdict.
// The fitness judges Rules::margin_mm more strictly: a model whose gap lies in that band above
// the reach counts in range for the validator only.
inline Verdict judged(const RulesProblem& p, const std::vector<uint32_t>& genes) {
    const Verdict v = validate_plan(p, genes);
    const Breakdown b = fitness_of(p, genes);
    std::string lines;
    for (const std::string& line : v.violations) lines += "\n  " + line;
    EXPECT_EQ(b.legal, v.legal) << "fitness and validator disagree:" << lines;
    const double limit = p.scenario.reach_mm + p.rules.tolerance_mm;
    int in_band = 0;
    for (double gap : v.nearest_gap) in_band += gap <= limit && gap > limit - p.rules.margin_mm;
    EXPECT_LE(b.in_range_count, v.in_range_count);
    EXPECT_GE(b.in_range_count, v.in_range_count - in_band);
    return v;
}

// Whether any violation line mentions `text`.
inline bool mentions(const Verdict& v, const std::string& text) {
    for (const std::string& line : v.violations)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

// A shipped scenario (scenarios/) under a preset.
inline RulesProblem shipped_problem(const std::string& file, const std::string& preset,
                                    const RuleOverrides& flags = {}) {
    return build_rules_problem(
        preset, load_scenario(std::string(GAEVAL_SOURCE_DIR) + "/scenarios/" + file), flags);
}

// ---- hand-derived optimal plans (docs/pile_in_optima.md), end positions in mm ----

// R1 and R2: model 0 stays; models 1..6 stand on the circle of radius 50.19 mm round the
// enemy at the origin (gap 12.69 mm: in range), each 50.005 mm from the next (a gap of 5
// microns) and the first and last 50.005 mm from model 0; the slack left over is shared
// equally among the seven gaps.
inline std::vector<std::pair<double, double>> ring_witness(const Scenario& s) {
    const double pi = 3.14159265358979323846;
    const double ox = s.friendly[0].x, oy = s.friendly[0].y;
    const double ro = std::hypot(ox, oy), ao = std::atan2(oy, ox);
    const double rw = 50.19, d = 50.005;
    const double phi = std::acos((ro * ro + rw * rw - d * d) / (2 * ro * rw));
    const double delta = 2 * std::asin(d / (2 * rw));
    const double share = (2 * pi - 2 * phi - 5 * delta) / 7;
    std::vector<std::pair<double, double>> ends = {{ox, oy}};
    for (int j = 0; j < 6; ++j) {
        const double a = ao + phi + share + j * (delta + share);
        ends.push_back({rw * std::cos(a), rw * std::sin(a)});
    }
    return ends;
}

// C1: the whole chain shifts by (74.874, 8.347) mm.
inline std::vector<std::pair<double, double>> chain_shift_witness(const Scenario& s) {
    std::vector<std::pair<double, double>> ends;
    for (int m = 0; m < s.friendly_count; ++m)
        ends.push_back({s.friendly[m].x + 74.874, s.friendly[m].y + 8.347});
    return ends;
}

// C2: the last model stays, the chain stretches straight to 57.40 mm between centres.
inline std::vector<std::pair<double, double>> chain_stretch_witness() {
    return {{0, 0}, {57.40, 0}, {114.80, 0}, {172.20, 0}};
}

}  // namespace gaeval::pile_in::testing
