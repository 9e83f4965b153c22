// Pile-in scenario files (JSON) to the flat Scenario the kernels read, validated once here.
//
//   {"name": "...", "units": "mm" | "inch",
//    "friendly": [{"x": .., "y": .., "base": 32}, ...],            round: diameter
//    "enemy":    [{"x": .., "y": .., "base": [60, 35], "angle": 90}],  oval: length, width,
//                                                                      long axis in degrees
//    "reach": 0.5, "move": 3, "coherency": 0.5}    optional, in the file's units
//                                                  (defaults 1/2", 3", 1/2"; the rules presets
//                                                  have their own defaults for reach/coherency)
// Optional rule fields for the rules presets (--rules aos1..aos4; a flag overrides them):
//    "direction": "strictly-closer" | "no-further" | "no-further-from-target" | "free",
//    "two_neighbours_from": 7, "path_check": true, "slide": true, "turn_ovals": false,
//    "constraints": "penalty" | "repair", "target_unit": 0,
// and "unit": N on an enemy model (its unit, default 0; the target unit's models are the
// reference of "no-further-from-target").
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "problems/pile_in/rules.hpp"
#include "problems/pile_in/scenario.hpp"

namespace gaeval::pile_in {

// Rule parameters a scenario file or a flag may set; unset ones come from the preset.
struct RuleOverrides {
    std::optional<double> reach_mm, coherency_mm;
    std::optional<int> two_neighbours_from;
    std::optional<Direction> direction;
    std::optional<bool> path_check, slide, turn_ovals, repair;
    std::optional<int> target_unit;
};

struct ScenarioFile {
    std::string path;
    std::string name;             // "name" field, else the file's stem
    std::string units;            // "mm" or "inch" as written
    Scenario scenario;            // in mm
    nlohmann::json source;        // the file as read
    RuleOverrides rules;          // the file's rule fields (reach/coherency only when written)
    std::vector<int> enemy_unit;  // unit of each enemy model
};

// Direction rule names as files and flags write them; false when unknown.
bool direction_from_name(const std::string& name, Direction& out);
const char* direction_name(Direction d);
// The same for a file field or flag `where`: InputError "WHERE: unknown rule 'x' (...)".
Direction parse_direction(const std::string& name, const std::string& where);
// "penalty" (false) or "repair" (true); InputError naming `where` otherwise.
bool parse_repair(const std::string& name, const std::string& where);

// Reads and validates; every problem is an InputError "FILE: field: problem".
ScenarioFile load_scenario(const std::string& path);

// Validates a parsed document; `origin` prefixes error messages.
Scenario parse_scenario(const nlohmann::json& doc, const std::string& origin);

// A whole scenario file from a parsed document (scenario, rule fields, enemy units, name).
ScenarioFile scenario_file_from_json(const nlohmann::json& doc, const std::string& path,
                                     const std::string& origin);

// The scenario back as JSON in mm (for run.json).
nlohmann::json scenario_to_json(const Scenario& s);

// Bases that overlap at the start by more than StartOverlapTolerance (exact geometry for
// circles and ovals), named: "friendly[0] and enemy[2] overlap at the start (...)". Empty when
// none.
constexpr float StartOverlapTolerance = 0.01f;  // mm, the rules tolerance (Rules)
std::string first_starting_overlap(const Scenario& s);

}  // namespace gaeval::pile_in
