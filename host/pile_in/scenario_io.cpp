#include "host/pile_in/scenario_io.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "host/core/error.hpp"
#include "host/core/progress.hpp"
#include "host/io/json_fields.hpp"
#include "problems/pile_in/geometry.hpp"

namespace gaeval::pile_in {

namespace jf = json_fields;

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// Ranges a table can hold (mm): inside them every distance, square and move the fitness
// computes stays far from float overflow and keeps sub-micron resolution.
constexpr double kMaxCoordinateMm = 10000;  // 10 m from the origin
constexpr double kMaxBaseMm = 1000;         // the largest bases are about 300 mm
constexpr double kMaxDistanceMm = 25400;    // reach, move, coherency: 1000" (the flags' limit)
constexpr double kMaxAngleDegrees = 360;

const char* unit_name(double scale) { return scale == 1.0 ? "mm" : "inch"; }

// `value` (in the file's units) within [min_mm, max_mm] once scaled; the error gives the range in
// the file's units.
double in_range(double value, const std::string& where, double min_mm, double max_mm,
                double scale) {
    jf::check_range(value, where, min_mm / scale, max_mm / scale, unit_name(scale));
    return value;
}

Base parse_base(const nlohmann::json& m, const std::string& where, double scale) {
    if (!m.contains("base")) throw InputError(jf::field(where, "base") + ": missing");
    const auto& b = m.at("base");
    const std::string bw = jf::field(where, "base");
    Base base;
    if (b.is_number()) {
        double d = jf::as_number(b, bw);
        if (d <= 0) throw InputError(bw + ": diameter must be > 0, got " + num(d));
        in_range(d, bw, 0, kMaxBaseMm, scale);
        base.length = base.width = static_cast<float>(d * scale);
        base.shape = BaseShape::Circle;
        return base;
    }
    if (!b.is_array() || b.size() != 2)
        throw InputError(bw + ": must be a diameter or [length, width] for an oval");
    double length = jf::as_number(b[0], jf::element(bw, 0));
    double width = jf::as_number(b[1], jf::element(bw, 1));
    if (length <= 0 || width <= 0)
        throw InputError(bw + ": oval length and width must be > 0, got [" + num(length) + ", " +
                         num(width) + "]");
    if (width > length)
        throw InputError(bw + ": oval width " + num(width) + " is larger than its length " +
                         num(length) + " (write [length, width])");
    in_range(length, jf::element(bw, 0), 0, kMaxBaseMm, scale);
    if (!m.contains("angle"))
        throw InputError(jf::field(where, "angle") + ": missing (required for an oval base)");
    double angle = jf::number(m, "angle", where);
    jf::check_range(angle, jf::field(where, "angle"), -kMaxAngleDegrees, kMaxAngleDegrees,
                    "degrees");
    base.length = static_cast<float>(length * scale);
    base.width = static_cast<float>(width * scale);
    // Input preparation on the host: the same floats reach both backends.
    const double radians = angle * 3.14159265358979323846 / 180.0;
    base.cos_angle = static_cast<float>(std::cos(radians));
    base.sin_angle = static_cast<float>(std::sin(radians));
    base.shape = length == width ? BaseShape::Circle : BaseShape::Oval;
    return base;
}

int parse_models(const nlohmann::json& doc, const char* key, double scale, Model* out, int capacity,
                 bool enemy) {
    const std::string where = key;
    if (!doc.contains(key)) throw InputError(where + ": missing");
    const auto& list = doc.at(key);
    if (!list.is_array()) throw InputError(where + ": must be a list of models");
    if (list.empty()) throw InputError(where + ": the list is empty (at least one model)");
    if (static_cast<int>(list.size()) > capacity)
        throw InputError(where + ": " + counted(list.size(), "model") + ", at most " +
                         std::to_string(capacity) + " supported");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string w = jf::element(where, i);
        if (enemy)
            jf::expect_keys(list[i], w, {"x", "y", "base", "angle", "name", "unit"});
        else
            jf::expect_keys(list[i], w, {"x", "y", "base", "angle", "name"});
        Model& m = out[i];
        const double x = jf::number(list[i], "x", w), y = jf::number(list[i], "y", w);
        in_range(x, jf::field(w, "x"), -kMaxCoordinateMm, kMaxCoordinateMm, scale);
        in_range(y, jf::field(w, "y"), -kMaxCoordinateMm, kMaxCoordinateMm, scale);
        m.x = static_cast<float>(x * scale);
        m.y = static_cast<float>(y * scale);
        m.base = parse_base(list[i], w, scale);
    }
    return static_cast<int>(list.size());
}

std::string model_name(bool friendly, int index) {
    return std::string(friendly ? "friendly[" : "enemy[") + std::to_string(index) + "]";
}

}  // namespace

std::string first_starting_overlap(const Scenario& s) {
    struct Ref {
        const Model* m;
        bool friendly;
        int index;
    };
    std::vector<Ref> all;
    for (int i = 0; i < s.friendly_count; ++i) all.push_back({&s.friendly[i], true, i});
    for (int i = 0; i < s.enemy_count; ++i) all.push_back({&s.enemy[i], false, i});
    for (std::size_t a = 0; a < all.size(); ++a) {
        for (std::size_t b = a + 1; b < all.size(); ++b) {
            const Model& p = *all[a].m;
            const Model& q = *all[b].m;
            const float gap = gap_between(shape_at(p.base, p.x, p.y), shape_at(q.base, q.x, q.y));
            if (gap < -StartOverlapTolerance) {
                return model_name(all[a].friendly, all[a].index) + " and " +
                       model_name(all[b].friendly, all[b].index) +
                       " overlap at the start (edge gap " + num(gap) + " mm)";
            }
        }
    }
    return "";
}

namespace {

Scenario parse_fields(const nlohmann::json& doc) {
    if (!doc.is_object()) throw InputError("the top level must be a JSON object");
    jf::expect_keys(doc, "(top level)",
                    {"name", "description", "units", "friendly", "enemy", "reach", "move",
                     "coherency", "direction", "two_neighbours_from", "path_check", "slide",
                     "turn_ovals", "constraints", "target_unit"});
    const std::string units = jf::string(doc, "units", "");
    double scale;
    if (units == "mm")
        scale = 1.0;
    else if (units == "inch")
        scale = 25.4;
    else
        throw InputError("units: must be \"mm\" or \"inch\", got \"" + units + "\"");

    Scenario s;
    s.friendly_count = parse_models(doc, "friendly", scale, s.friendly, MaxFriendly, false);
    s.enemy_count = parse_models(doc, "enemy", scale, s.enemy, MaxEnemy, true);
    const double reach = jf::number_or(doc, "reach", "", 0.5 * 25.4 / scale);
    const double move = jf::number_or(doc, "move", "", 3.0 * 25.4 / scale);
    const double coherency = jf::number_or(doc, "coherency", "", 0.5 * 25.4 / scale);
    if (reach < 0) throw InputError("reach: must be >= 0, got " + num(reach));
    if (move <= 0) throw InputError("move: must be > 0, got " + num(move));
    if (coherency < 0) throw InputError("coherency: must be >= 0, got " + num(coherency));
    in_range(reach, "reach", 0, kMaxDistanceMm, scale);
    in_range(move, "move", 0, kMaxDistanceMm, scale);
    in_range(coherency, "coherency", 0, kMaxDistanceMm, scale);
    s.reach_mm = static_cast<float>(reach * scale);
    s.move_mm = static_cast<float>(move * scale);
    s.coherency_mm = static_cast<float>(coherency * scale);
    s.move_unit_mm = static_cast<float>(move * scale / MoveScale);
    std::string overlap = first_starting_overlap(s);
    if (!overlap.empty()) throw InputError(overlap);
    return s;
}

}  // namespace

Scenario parse_scenario(const nlohmann::json& doc, const std::string& origin) {
    try {
        return parse_fields(doc);
    } catch (const InputError& e) {
        if (origin.empty()) throw;
        throw InputError(origin + ": " + e.what());
    }
}

namespace {

bool boolean_field(const nlohmann::json& doc, const char* key) {
    const auto& v = doc.at(key);
    if (!v.is_boolean())
        throw InputError(std::string(key) + ": must be true or false, got " + v.dump());
    return v.get<bool>();
}

int count_field(const nlohmann::json& v, const std::string& where) {
    const double d = jf::as_number(v, where);
    if (d < 0 || d != std::floor(d) || d > 1e6)
        throw InputError(where + ": must be a whole number >= 0, got " + num(d));
    return static_cast<int>(d);
}

// The rule fields of a document whose scenario parsed (so units and models are valid).
void parse_rule_fields(const nlohmann::json& doc, const Scenario& s, ScenarioFile& f) {
    RuleOverrides& r = f.rules;
    if (doc.contains("reach")) r.reach_mm = s.reach_mm;
    if (doc.contains("coherency")) r.coherency_mm = s.coherency_mm;
    if (doc.contains("two_neighbours_from"))
        r.two_neighbours_from = count_field(doc.at("two_neighbours_from"), "two_neighbours_from");
    if (doc.contains("direction"))
        r.direction = parse_direction(jf::string(doc, "direction", ""), "direction");
    if (doc.contains("path_check")) r.path_check = boolean_field(doc, "path_check");
    if (doc.contains("slide")) r.slide = boolean_field(doc, "slide");
    if (doc.contains("turn_ovals")) r.turn_ovals = boolean_field(doc, "turn_ovals");
    if (doc.contains("constraints"))
        r.repair = parse_repair(jf::string(doc, "constraints", ""), "constraints");
    if (doc.contains("target_unit"))
        r.target_unit = count_field(doc.at("target_unit"), "target_unit");
    f.enemy_unit.assign(s.enemy_count, 0);
    const auto& enemies = doc.at("enemy");
    for (int e = 0; e < s.enemy_count; ++e)
        if (enemies[e].contains("unit"))
            f.enemy_unit[e] = count_field(enemies[e].at("unit"), jf::element("enemy", e) + ".unit");
}

}  // namespace

bool direction_from_name(const std::string& name, Direction& out) {
    for (Direction d : {Direction::Free, Direction::StrictlyCloser, Direction::NoFurther,
                        Direction::NoFurtherFromTarget}) {
        if (name == direction_name(d)) {
            out = d;
            return true;
        }
    }
    return false;
}

Direction parse_direction(const std::string& name, const std::string& where) {
    Direction d;
    if (!direction_from_name(name, d))
        throw InputError(where + ": unknown rule '" + name +
                         "' (expected strictly-closer, no-further, no-further-from-target or "
                         "free)");
    return d;
}

bool parse_repair(const std::string& name, const std::string& where) {
    if (name != "penalty" && name != "repair")
        throw InputError(where + ": expected penalty or repair, got '" + name + "'");
    return name == "repair";
}

const char* direction_name(Direction d) {
    switch (d) {
        case Direction::Free:
            return "free";
        case Direction::StrictlyCloser:
            return "strictly-closer";
        case Direction::NoFurther:
            return "no-further";
        case Direction::NoFurtherFromTarget:
            return "no-further-from-target";
    }
    return "?";
}

ScenarioFile scenario_file_from_json(const nlohmann::json& doc, const std::string& path,
                                     const std::string& origin) {
    ScenarioFile f;
    f.path = path;
    f.source = doc;
    f.scenario = parse_scenario(doc, origin);
    try {
        parse_rule_fields(doc, f.scenario, f);
    } catch (const InputError& e) {
        if (origin.empty()) throw;
        throw InputError(origin + ": " + e.what());
    }
    f.units = doc.at("units").get<std::string>();
    f.name = doc.contains("name") && doc["name"].is_string()
                 ? doc["name"].get<std::string>()
                 : std::filesystem::path(path).stem().string();
    return f;
}

ScenarioFile load_scenario(const std::string& path) {
    return scenario_file_from_json(json_fields::read_file(path), path, path);
}

nlohmann::json scenario_to_json(const Scenario& s) {
    auto models = [](const Model* list, int n) {
        nlohmann::json out = nlohmann::json::array();
        for (int i = 0; i < n; ++i) {
            const Model& m = list[i];
            nlohmann::json j = {{"x", m.x}, {"y", m.y}};
            if (m.base.shape == BaseShape::Circle) {
                j["base"] = m.base.length;
            } else {
                j["base"] = {m.base.length, m.base.width};
                j["cos_angle"] = m.base.cos_angle;
                j["sin_angle"] = m.base.sin_angle;
            }
            out.push_back(j);
        }
        return out;
    };
    return {{"units", "mm"},
            {"move", s.move_mm},
            {"reach", s.reach_mm},
            {"coherency", s.coherency_mm},
            {"friendly", models(s.friendly, s.friendly_count)},
            {"enemy", models(s.enemy, s.enemy_count)}};
}

}  // namespace gaeval::pile_in
