#include "host/learn/problem_setups.hpp"

#include <filesystem>

#include "host/core/error.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/rules.hpp"
#include "host/pile_in/scenario_io.hpp"
#include "host/pile_in/validator.hpp"

namespace gaeval::learn {

namespace fs = std::filesystem;

namespace {

LoadedSetup<pile_in::Scenario> loaded(const pile_in::ScenarioFile& file) {
    return {file.scenario, file.name, {{"path", file.path}, {"source", file.source}}};
}

// The scenario file `text` names for flag `flag`: a file, or NAME for scenarios/NAME.json.
pile_in::ScenarioFile scenario_named(const std::string& flag, const std::string& text) {
    if (text.empty()) throw InputError("--" + flag + ": a scenario NAME or FILE is needed");
    std::string path = text;
    const std::string named = "scenarios/" + text + ".json";
    if (!fs::exists(path) && text.find('/') == std::string::npos && fs::exists(named))
        path = named;
    else if (!fs::exists(path))
        throw InputError("--" + flag + " " + text + ": no such file (nor " + named + ")");
    return pile_in::load_scenario(path);
}

// The rules problem of `preset` on a scenario file: the preset's defaults under the file's rule
// fields under the rule flags `flags` (pile_in::build_rules_problem, as `gaeval pile-in --rules
// PRESET` with the same flags). InputError naming `where` for gapi1 or an unknown preset.
// Repair constraints are kept: the problem then rewrites plans as it scores them
// (ProblemInstance::rewrites_genomes).
LoadedSetup<pile_in::RulesProblem> loaded_rules(const std::string& preset,
                                                const pile_in::ScenarioFile& file,
                                                const pile_in::RuleOverrides& flags,
                                                const std::string& where) {
    if (!pile_in::find_preset(preset))
        throw InputError(where + ": unknown rules preset '" + preset +
                         "' (expected aos1, aos2, aos3, aos4; gapi1 is problem pile-in)");
    const pile_in::RulesProblem problem = pile_in::build_rules_problem(preset, file, flags);
    nlohmann::json json = {{"preset", preset}, {"path", file.path}, {"source", file.source}};
    if (pile_in::any_override(flags)) json["rule_flags"] = pile_in::overrides_json(flags);
    return {problem, file.name, json};
}

}  // namespace

template <>
LoadedSetup<pile_in::Scenario> load_setup<pile_in::Scenario>(
    const std::string& text, const std::map<std::string, std::string>& options) {
    if (!options.empty())
        throw InputError("--" + options.begin()->first + ": not a setting of a scenario");
    return loaded(scenario_named("scenario", text));
}

template <>
std::vector<std::pair<std::string, std::string>> setup_options<pile_in::RulesProblem>() {
    std::vector<std::pair<std::string, std::string>> options;
    for (const pile_in::RuleFlagInfo& f : pile_in::rule_flags())
        options.emplace_back(f.name, f.help);
    return options;
}

template <>
LoadedSetup<pile_in::RulesProblem> load_setup<pile_in::RulesProblem>(
    const std::string& text, const std::map<std::string, std::string>& options) {
    const size_t colon = text.find(':');
    if (colon == std::string::npos)
        throw InputError("--rules " + text + ": expected PRESET:SCENARIO (e.g. aos2:s1_line_5v5)");
    const pile_in::RuleOverrides flags = pile_in::parse_rule_flags(options);
    return loaded_rules(text.substr(0, colon), scenario_named("rules", text.substr(colon + 1)),
                        flags, "--rules " + text);
}

template <>
LoadedSetup<pile_in::RulesProblem> reload_setup<pile_in::RulesProblem>(const nlohmann::json& json,
                                                                       const std::string& where) {
    try {
        const pile_in::RuleOverrides flags =
            json.contains("rule_flags") ? pile_in::overrides_from_json(json.at("rule_flags"))
                                        : pile_in::RuleOverrides{};
        return loaded_rules(
            json.at("preset").get<std::string>(),
            pile_in::scenario_file_from_json(json.at("source"), json.at("path").get<std::string>(),
                                             where + ": scenario"),
            flags, where + ": rules");
    } catch (const nlohmann::json::exception& e) {
        throw InputError(where + ": rules: not a saved rules setup (" + std::string(e.what()) +
                         ")");
    }
}

template <>
LoadedSetup<pile_in::Scenario> reload_setup<pile_in::Scenario>(const nlohmann::json& json,
                                                               const std::string& where) {
    try {
        return loaded(pile_in::scenario_file_from_json(
            json.at("source"), json.at("path").get<std::string>(), where + ": scenario"));
    } catch (const nlohmann::json::exception& e) {
        throw InputError(where + ": scenario: not a saved scenario (" + std::string(e.what()) +
                         ")");
    }
}

nlohmann::json describe_genome(const pile_in::Scenario& scenario,
                               const std::vector<uint32_t>& genome) {
    return pile_in::plan_json(scenario, pile_in::gapi1_report(scenario, genome));
}

nlohmann::json describe_genome(const pile_in::RulesProblem& problem,
                               const std::vector<uint32_t>& genome) {
    const pile_in::Verdict verdict = pile_in::validate_plan(problem, genome);
    return pile_in::rules_plan_json(problem, pile_in::rules_report(problem, genome, verdict),
                                    verdict);
}

}  // namespace gaeval::learn
