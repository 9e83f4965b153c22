#include "host/pile_in/check.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "host/core/error.hpp"
#include "host/core/progress.hpp"
#include "host/io/json_fields.hpp"
#include "host/io/run_folder.hpp"
#include "host/pile_in/output.hpp"
#include "host/pile_in/rules.hpp"

namespace gaeval::pile_in {

namespace fs = std::filesystem;
namespace jf = json_fields;

namespace {

constexpr double kDegree = 3.14159265358979323846 / 180.0;

double scale_of(const std::string& units, const std::string& where) {
    if (units == "mm") return 1.0;
    if (units == "inch") return static_cast<double>(MmPerInch);
    throw InputError(where + ": must be \"mm\" or \"inch\", got \"" + units + "\"");
}

// Every model standing at its start, in index order (what a plan changes).
PlanEnds still_plan(const Scenario& s) {
    PlanEnds ends;
    for (int m = 0; m < s.friendly_count; ++m) {
        ends.x.push_back(s.friendly[m].x);
        ends.y.push_back(s.friendly[m].y);
        ends.c.push_back(s.friendly[m].base.cos_angle);
        ends.s.push_back(s.friendly[m].base.sin_angle);
        ends.order.push_back(m);
    }
    return ends;
}

void check_count(std::size_t got, const Scenario& s, const std::string& where) {
    if (got != static_cast<std::size_t>(s.friendly_count))
        throw InputError(where + ": " + counted(got, "model") + ", the scenario has " +
                         std::to_string(s.friendly_count));
}

// A turn of model m's base to `degrees` (only an oval's orientation matters).
void set_angle(PlanEnds& ends, int m, double degrees) {
    ends.c[m] = std::cos(degrees * kDegree);
    ends.s[m] = std::sin(degrees * kDegree);
}

PlanEnds read_json_plan(const std::string& path, const ScenarioFile& file) {
    const Scenario& s = file.scenario;
    const nlohmann::json doc = jf::read_file(path);
    const std::string origin = path + ": ";
    if (!doc.is_object()) throw InputError(origin + "must be a JSON object with \"models\"");
    std::string units = file.units;
    if (doc.contains("units")) {
        if (!doc.at("units").is_string()) throw InputError(origin + "units: must be a string");
        units = doc.at("units").get<std::string>();
    }
    const double scale = scale_of(units, origin + "units");
    if (!doc.contains("models") || !doc.at("models").is_array())
        throw InputError(origin + "models: required, a list with one entry per model");
    const nlohmann::json& models = doc.at("models");
    check_count(models.size(), s, origin + "models");
    PlanEnds ends = still_plan(s);
    for (std::size_t m = 0; m < models.size(); ++m) {
        const std::string where = origin + jf::element("models", m);
        if (!models[m].is_object() || !models[m].contains("end"))
            throw InputError(where + ": needs \"end\": {\"x\": X, \"y\": Y}");
        const nlohmann::json& end = models[m].at("end");
        if (!end.is_object()) throw InputError(where + ".end: must be an object {\"x\", \"y\"}");
        ends.x[m] = jf::number(end, "x", where + ".end") * scale;
        ends.y[m] = jf::number(end, "y", where + ".end") * scale;
        if (models[m].contains("end_base") && models[m].at("end_base").is_object() &&
            models[m].at("end_base").contains("angle"))
            set_angle(ends, static_cast<int>(m),
                      jf::number(models[m].at("end_base"), "angle", where + ".end_base"));
    }
    if (doc.contains("order")) {
        const nlohmann::json& order = doc.at("order");
        if (!order.is_array()) throw InputError(origin + "order: must be a list of model indices");
        check_count(order.size(), s, origin + "order");
        std::vector<bool> seen(s.friendly_count, false);
        for (std::size_t k = 0; k < order.size(); ++k) {
            const double v = jf::as_number(order[k], origin + jf::element("order", k));
            const int m = static_cast<int>(v);
            if (v != m || m < 0 || m >= s.friendly_count || seen[m])
                throw InputError(origin + jf::element("order", k) +
                                 ": the order must list each model index 0.." +
                                 std::to_string(s.friendly_count - 1) + " once");
            seen[m] = true;
            ends.order[k] = m;
        }
    }
    return ends;
}

// Splits a CSV line on commas (spaces around the fields are dropped).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream in(line);
    std::string field;
    while (std::getline(in, field, ',')) {
        const auto first = field.find_first_not_of(" \t\r");
        const auto last = field.find_last_not_of(" \t\r");
        out.push_back(first == std::string::npos ? "" : field.substr(first, last - first + 1));
    }
    return out;
}

bool parse_number(const std::string& text, double& out) {
    if (text.empty()) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(out);
}

PlanEnds read_csv_plan(const std::string& path, const ScenarioFile& file) {
    const Scenario& s = file.scenario;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open file");
    const double scale = scale_of(file.units, path + ": the scenario's units");
    PlanEnds ends = still_plan(s);
    std::string line;
    int line_number = 0, models = 0;
    bool first_data = true;
    while (std::getline(in, line)) {
        ++line_number;
        const auto text = line.find_first_not_of(" \t\r");
        if (text == std::string::npos || line[text] == '#') continue;
        const std::vector<std::string> fields = csv_fields(line);
        double x = 0, y = 0, angle = 0;
        const bool numbers = (fields.size() == 2 || fields.size() == 3) &&
                             parse_number(fields[0], x) && parse_number(fields[1], y) &&
                             (fields.size() == 2 || parse_number(fields[2], angle));
        const bool header = first_data && !fields.empty() && !parse_number(fields[0], x);
        first_data = false;
        if (header) continue;
        if (!numbers)
            throw InputError(path + ": line " + std::to_string(line_number) +
                             ": expected x,y (or x,y,angle) numbers, got '" + line + "'");
        if (models >= s.friendly_count)
            throw InputError(path + ": more than " + std::to_string(s.friendly_count) + " model" +
                             plural_s(s.friendly_count) + " (the scenario has " +
                             std::to_string(s.friendly_count) + ")");
        ends.x[models] = x * scale;
        ends.y[models] = y * scale;
        if (fields.size() == 3) set_angle(ends, models, angle);
        ++models;
    }
    check_count(static_cast<std::size_t>(models), s, path);
    return ends;
}

bool looks_like_json(const std::string& path) {
    if (fs::path(path).extension() == ".json") return true;
    std::ifstream in(path, std::ios::binary);
    char c = 0;
    while (in.get(c))
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c == '{';
    return false;
}

}  // namespace

PlanEnds read_plan_file(const std::string& path, const ScenarioFile& scenario,
                        const RulesProblem& problem) {
    if (!fs::exists(path)) throw InputError("--check " + path + ": no such file");
    PlanEnds ends =
        looks_like_json(path) ? read_json_plan(path, scenario) : read_csv_plan(path, scenario);
    // A circle's orientation means nothing: keep the scenario's.
    for (int m = 0; m < problem.scenario.friendly_count; ++m)
        if (problem.scenario.friendly[m].base.shape != BaseShape::Oval) {
            ends.c[m] = problem.scenario.friendly[m].base.cos_angle;
            ends.s[m] = problem.scenario.friendly[m].base.sin_angle;
        }
    return ends;
}

CheckResult check_plan_file(const std::string& plan_path, const ScenarioFile& scenario,
                            const std::string& preset, const RulesProblem& problem,
                            const std::string& out_dir) {
    const PlanEnds ends = read_plan_file(plan_path, scenario, problem);
    CheckResult result;
    result.verdict = validate_ends(problem, ends);
    const Verdict& v = result.verdict;
    const int n = problem.scenario.friendly_count;

    PlanReport plan = rules_report(problem, ends, v);
    plan.title = scenario.name + " (" + preset + "): check of " + fs::path(plan_path).filename().string();
    char line[256];
    std::snprintf(line, sizeof line, "%d of %d model%s in combat range, %s", v.in_range_count, n,
                  plural_s(n), v.legal ? "legal" : "ILLEGAL");
    plan.caption.push_back(line);
    if (!v.legal) {
        std::snprintf(line, sizeof line, "%zu broken rule(s), marked; see check.json",
                      v.details.size());
        plan.caption.push_back(line);
    }
    nlohmann::json report = rules_plan_json(problem, plan, v);
    nlohmann::json details = nlohmann::json::array();
    for (const Violation& d : v.details)
        details.push_back(
            {{"model", d.model}, {"rule", d.rule}, {"by_mm", d.by_mm}, {"text", d.text}});
    report["violation_details"] = details;
    report["plan"] = plan_path;
    report["scenario"] = scenario.name;
    report["rules"] = preset;
    report["rules_config"] = rules_json(preset, problem);
    result.report = report;

    io::create_run_folder(out_dir);
    const fs::path dir(out_dir);
    write_file_atomic((dir / "check.json").string(), report.dump(2) + "\n");
    write_file_atomic((dir / "check.svg").string(), plan_svg(problem.scenario, plan));
    return result;
}

}  // namespace gaeval::pile_in
