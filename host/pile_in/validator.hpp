// The legality validator: checks a pile-in plan against a rules preset with plain host code
// (double precision, host/pile_in/reference_geometry), independently of the fitness in
// problems/pile_in/rules_fitness.hpp. Tests run it on every plan a solver returns; best.json
// reports its verdict (`legal`, `violations`, `order`).
//
// It decodes the plan itself and recomputes everything the rules depend on from the start
// positions (nearest enemies, base contact); it reads from the problem only the scenario, the
// rule parameters and the target unit. Rules, with the problem's tolerance:
//   move       centre displacement at most the move distance;
//   overlap    no two bases overlap at the end (by more than the tolerance);
//   direction  a model that moved ends strictly closer to / no further from the enemy nearest
//              to it at the start (any of them when several are equally near) or, for
//              no-further-from-target, the target unit's models (minimum over them);
//   coherency  each model has 1 friend (2 from two_neighbours_from models) within coherency at
//              the end, and the unit is one connected group;
//   path       with path checking, in the plan's move order, a moving model's straight path
//              (or its slide round the lowest-indexed enemy it touched at the start, when it
//              ends touching that enemy again and the rule is not strictly closer) crosses no
//              base standing at that moment.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "problems/pile_in/rules.hpp"

namespace gaeval::pile_in {

// One broken rule instance.
struct Violation {
    int model = -1;    // the friendly model that breaks it (-1: the plan as a whole)
    std::string rule;  // move, overlap, direction, coherency, split, path, order
    double by_mm = 0;  // how far beyond the rule's limit (its tolerance included); 0: no length
    std::string text;  // the line in `violations`
};

struct Verdict {
    bool legal = true;
    std::vector<std::string> violations;  // one line per broken rule instance
    std::vector<Violation> details;       // the same instances, structured
    std::vector<bool> illegal;            // per friendly model: breaks a rule
    std::vector<bool> in_range;           // per friendly model
    std::vector<double> nearest_gap;      // per friendly model, mm
    int in_range_count = 0;
    std::vector<int> order;  // models in move order
};

// Where a plan leaves the unit: each model's centre and long-axis direction at the end (mm,
// unit vector) and the move order (models in the order they move).
struct PlanEnds {
    std::vector<double> x, y;
    std::vector<double> c, s;
    std::vector<int> order;
};

// The end positions a plan's words give (double precision; an oval turns only when it moves
// and the layout has orientation words). InputError-free: a bad order is reported by
// validate_plan.
PlanEnds plan_ends(const RulesProblem& problem, const std::vector<uint32_t>& genes);

// Checks end positions against the problem's rules (a model moved when it ends anywhere but
// its start, or turned). `ends.order` must be a permutation of the models.
Verdict validate_ends(const RulesProblem& problem, const PlanEnds& ends);

// Checks the plan `genes` (problem.layout.words words) against the problem's rules.
Verdict validate_plan(const RulesProblem& problem, const std::vector<uint32_t>& genes);

}  // namespace gaeval::pile_in
