// Helpers for rules-preset tests: problems from the shared scenarios (tests/data/pile_in),
// plans from end positions, and a check of a plan by both the fitness and the validator.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "games/pile_in/rules_fitness.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/scenario_io.hpp"
#include "host/pile_in/validator.hpp"

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

}  // namespace gaeval::pile_in::testing
