// Rules presets (aos1..aos4) and how a run's rules are resolved: preset defaults, overridden by
// the scenario file's rule fields, overridden by flags. The result is the RulesProblem the
// populations score (problems/pile_in/rules.hpp), checked once here: bad values and a start that
// breaks the rules are InputErrors. See docs/pile_in_rules.md.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/pile_in/scenario_io.hpp"
#include "problems/pile_in/rules.hpp"

namespace gaeval::pile_in {

struct RulesPreset {
    const char* name;
    const char* edition;
    Direction direction;
    double coherency_inch;
    int two_neighbours_from;  // 0: one neighbour always suffices
    double reach_inch;        // default reach when the scenario sets none
};

// The preset called `name`, or nullptr (gapi1 and unknown names).
const RulesPreset* find_preset(const std::string& name);

// InputError "--rules: unknown rules 'x' (expected gapi1, aos1, aos2, aos3, aos4)" unless known.
void check_rules_name(const std::string& name);

// Resolves preset < file fields < flags into the problem the populations score. InputError on
// a negative reach or coherency, an unknown target unit, or a start that breaks the rules
// (out of coherency; overlaps are refused by the scenario loader already).
RulesProblem build_rules_problem(const std::string& preset, const ScenarioFile& file,
                                 const RuleOverrides& flags);

// The resolved rules (run.json, fingerprints, best.json).
nlohmann::json rules_json(const std::string& preset, const RulesProblem& problem);

// Flags as JSON and back (run.json keeps them so that --resume rebuilds the same problem).
nlohmann::json overrides_json(const RuleOverrides& overrides);
RuleOverrides overrides_from_json(const nlohmann::json& j);
bool any_override(const RuleOverrides& overrides);

// A rule flag (--reach, --coherency, ...): its name without "--" and its help line. The same
// flags, names and meanings in `gaeval pile-in` and `gaeval learn --problem pile-in-rules`.
struct RuleFlagInfo {
    const char* name;
    const char* help;
};
// Every rule flag, in the order help lists them.
const std::vector<RuleFlagInfo>& rule_flags();

// The overrides that the given rule flags set: `given` maps a flag's name (rule_flags()) to its
// text as typed. Lengths carry their unit (12.7mm, 0.5in; a bare number is read in inches with
// a deprecation note). InputError naming the flag on a bad value or an unknown flag.
RuleOverrides parse_rule_flags(const std::map<std::string, std::string>& given);

}  // namespace gaeval::pile_in
