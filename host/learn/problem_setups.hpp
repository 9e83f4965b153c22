// The setups problems are built from (problems/problem.hpp: P::Setup), loaded and checked on the
// host: one loader per setup type, whichever problems use it. A pile-in scenario
// (pile_in::Scenario) comes from `--scenario NAME|FILE`: a scenario file, or NAME for
// scenarios/NAME.json under the working directory.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::learn {

// A setup as loaded: the value, its name (a scenario's) and what run.json keeps to load it again.
template <class Setup>
struct LoadedSetup {
    Setup setup;
    std::string name;
    nlohmann::json json;
};

// The flags that shape a setup beyond its flag's text (name without "--", help line); the
// setup loader reads their texts (load_setup's `options`). Most setups have none.
template <class Setup>
std::vector<std::pair<std::string, std::string>> setup_options() {
    return {};
}

// The setup the flag's text and the options' texts (flag name -> text, of setup_options<Setup>)
// name; InputError naming the flag or the file.
template <class Setup>
LoadedSetup<Setup> load_setup(const std::string& text,
                              const std::map<std::string, std::string>& options);
// The setup run.json kept (LoadedSetup::json), bit for bit the one loaded; InputError naming
// `where`.
template <class Setup>
LoadedSetup<Setup> reload_setup(const nlohmann::json& json, const std::string& where);

template <>
LoadedSetup<pile_in::Scenario> load_setup<pile_in::Scenario>(
    const std::string& text, const std::map<std::string, std::string>& options);
template <>
LoadedSetup<pile_in::Scenario> reload_setup<pile_in::Scenario>(const nlohmann::json& json,
                                                               const std::string& where);

// A rules problem (pile_in::RulesProblem) comes from `--rules PRESET:NAME|FILE`: a preset
// aos1..aos4 over a scenario, the file's rule fields over the preset's and the rule flags
// (`gaeval pile-in`'s: --reach, --coherency, ...; pile_in::rule_flags) over both, as `gaeval
// pile-in --rules PRESET` resolves them. Penalty or repair constraints
// (repair: the problem rewrites plans as it scores them, on the cpu backend).
template <>
std::vector<std::pair<std::string, std::string>> setup_options<pile_in::RulesProblem>();
template <>
LoadedSetup<pile_in::RulesProblem> load_setup<pile_in::RulesProblem>(
    const std::string& text, const std::map<std::string, std::string>& options);
template <>
LoadedSetup<pile_in::RulesProblem> reload_setup<pile_in::RulesProblem>(const nlohmann::json& json,
                                                                       const std::string& where);

// A genome of a problem on this setup as best.json describes it: a pile-in plan's models (start,
// move, end, in range) and its GAPI1 breakdown, as `gaeval pile-in`'s best.json has them.
nlohmann::json describe_genome(const pile_in::Scenario& scenario,
                               const std::vector<uint32_t>& genome);
// A rules plan as `gaeval pile-in --rules`'s best.json describes it (validator's verdict).
nlohmann::json describe_genome(const pile_in::RulesProblem& problem,
                               const std::vector<uint32_t>& genome);

}  // namespace gaeval::learn
