// What a pile-in run writes for people and scripts: best.json (each model's start, move, end
// and flags, with the score breakdown), picture.svg, and the per-model detail both are built
// from. The GAPI1 detail comes from the same problems/pile_in functions the kernels run.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/pile_in/engine.hpp"
#include "host/pile_in/validator.hpp"
#include "problems/pile_in/gapi1_fitness.hpp"
#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

// One friendly model as drawn and reported.
struct ModelReport {
    float start_x = 0, start_y = 0, end_x = 0, end_y = 0;  // mm
    float move_dx = 0, move_dy = 0;                        // mm
    Base base;                                             // at the start
    Base end_base;                                         // at the end (an oval may turn)
    bool in_range = false, overlaps = false, has_friend = false;
    bool illegal = false;         // breaks a hard rule (rules-accurate presets)
    float nearest_enemy_gap = 0;  // mm
    int order = -1;               // position in the move order (-1: index order)
};

struct PlanReport {
    std::vector<ModelReport> models;
    Breakdown breakdown;
    bool rules = false;    // a rules preset's plan (legend: illegal marks, move order numbers)
    bool ordered = false;  // the move order matters (path checking): numbers are that order
    std::string title;     // scenario name
    std::vector<std::string> caption;  // lines under the picture
};

// Per-model GAPI1 detail of a plan (genes: one word per friendly model).
PlanReport gapi1_report(const Scenario& s, const std::vector<uint32_t>& genes);

// Per-model detail of a rules plan: positions and turns from the plan, the breakdown from the
// rules fitness, in range / illegal / gaps from the validator's verdict.
PlanReport rules_report(const RulesProblem& p, const std::vector<uint32_t>& genes,
                        const Verdict& verdict);
// The same for end positions (a plan a player measured: gaeval pile-in --check).
PlanReport rules_report(const RulesProblem& p, const PlanEnds& ends, const Verdict& verdict);

// best.json content.
nlohmann::json plan_json(const Scenario& s, const PlanReport& plan);

// best.json of a rules plan: plan_json plus `legal`, `violations`, `order` (models in move
// order) and, per model, `illegal`.
nlohmann::json rules_plan_json(const RulesProblem& p, const PlanReport& plan,
                               const Verdict& verdict);

// picture.svg: enemy bases with combat-range rings, friendly starts faded, move arrows, ends
// coloured by outcome, the caption and a legend.
std::string plan_svg(const Scenario& s, const PlanReport& plan);

// generations.csv: its header (no newline) and the line of one generation (`best_ever`: the
// best plan's fitness so far).
extern const char* const kGenerationsCsvHeader;
std::string generations_csv_row(const GenerationReport& r, uint64_t population, float best_ever);

// Writes text to path through a temporary file and a rename (no half-written results).
void write_file_atomic(const std::string& path, const std::string& text);

}  // namespace gaeval::pile_in
