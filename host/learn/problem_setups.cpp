#include "host/learn/problem_setups.hpp"

#include <filesystem>

#include "host/core/error.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/scenario_io.hpp"

namespace gaeval::learn {

namespace fs = std::filesystem;

namespace {

LoadedSetup<pile_in::Scenario> loaded(const pile_in::ScenarioFile& file) {
    return {file.scenario, file.name, {{"path", file.path}, {"source", file.source}}};
}

}  // namespace

template <>
LoadedSetup<pile_in::Scenario> load_setup<pile_in::Scenario>(const std::string& text) {
    if (text.empty()) throw InputError("--scenario: a scenario NAME or FILE is needed");
    std::string path = text;
    const std::string named = "scenarios/" + text + ".json";
    if (!fs::exists(path) && text.find('/') == std::string::npos && fs::exists(named))
        path = named;
    else if (!fs::exists(path))
        throw InputError("--scenario " + text + ": no such file (nor " + named + ")");
    return loaded(pile_in::load_scenario(path));
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

}  // namespace gaeval::learn
