// Pile-in scenario files (JSON) to the flat Scenario the kernels read, validated once here.
//
//   {"name": "...", "units": "mm" | "inch",
//    "friendly": [{"x": .., "y": .., "base": 32}, ...],            round: diameter
//    "enemy":    [{"x": .., "y": .., "base": [60, 35], "angle": 90}],  oval: length, width,
//                                                                      long axis in degrees
//    "reach": 0.5, "move": 3, "coherency": 0.5}    optional, in the file's units
//                                                  (defaults 1/2", 3", 1/2")
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "games/pile_in/scenario.hpp"

namespace gaeval::pile_in {

struct ScenarioFile {
    std::string path;
    std::string name;       // "name" field, else the file's stem
    std::string units;      // "mm" or "inch" as written
    Scenario scenario;      // in mm
    nlohmann::json source;  // the file as read
};

// Reads and validates; every problem is an InputError "FILE: field: problem".
ScenarioFile load_scenario(const std::string& path);

// Validates a parsed document; `origin` prefixes error messages.
Scenario parse_scenario(const nlohmann::json& doc, const std::string& origin);

// The scenario back as JSON in mm (for run.json).
nlohmann::json scenario_to_json(const Scenario& s);

// Models whose bases overlap at the start (circles exactly; pairs with an oval are checked by
// the exact oval geometry once it exists, and skipped here). Empty when none.
std::string first_starting_overlap(const Scenario& s);

}  // namespace gaeval::pile_in
