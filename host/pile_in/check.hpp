// `gaeval pile-in --check PLAN`: end positions a player measured on the table (or a plan
// gaeval wrote) judged against a rules preset by the validator, with a picture.
//
// PLAN is JSON in best.json's shape - "models": [{"end": {"x": X, "y": Y}, "end_base":
// {"angle": A}}, ...] in model order ("end_base" only for ovals that turned), optional
// "order" (models in move order, for path checking) and "units" ("mm" or "inch"; default the
// scenario's); other fields are ignored, so a best.json is a PLAN as it stands - or a CSV with
// one line "x,y" (or "x,y,angle") per model in model order, in the scenario's units (a header
// line and lines starting with '#' are skipped; models move in index order).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "host/pile_in/scenario_io.hpp"
#include "host/pile_in/validator.hpp"
#include "problems/pile_in/rules.hpp"

namespace gaeval::pile_in {

// The end positions in PLAN for the problem's models (mm). InputError naming the file and the
// line or field: unreadable, malformed, a model count other than the scenario's, a number
// that is not finite, an order that is not a permutation.
PlanEnds read_plan_file(const std::string& path, const ScenarioFile& scenario,
                        const RulesProblem& problem);

struct CheckResult {
    Verdict verdict;
    nlohmann::json report;  // check.json: the verdict, each violation, each model
};

// Judges PLAN and writes check.json and check.svg (the picture) into out_dir (created; the
// plan is read and judged before anything is written). `title` names the scenario.
CheckResult check_plan_file(const std::string& plan_path, const ScenarioFile& scenario,
                            const std::string& preset, const RulesProblem& problem,
                            const std::string& out_dir);

}  // namespace gaeval::pile_in
