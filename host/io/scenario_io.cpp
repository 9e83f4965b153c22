#include "host/io/scenario_io.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>

#include "games/pile_in/gapi1_fitness.hpp"
#include "host/io/error.hpp"
#include "host/io/json_fields.hpp"

namespace gaeval::pile_in {

namespace jf = json_fields;

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

Base parse_base(const nlohmann::json& m, const std::string& where, double scale) {
    if (!m.contains("base")) throw InputError(jf::field(where, "base") + ": missing");
    const auto& b = m.at("base");
    const std::string bw = jf::field(where, "base");
    Base base;
    if (b.is_number()) {
        double d = jf::as_number(b, bw);
        if (d <= 0) throw InputError(bw + ": diameter must be > 0, got " + num(d));
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
    if (!m.contains("angle"))
        throw InputError(jf::field(where, "angle") + ": missing (required for an oval base)");
    double angle = jf::number(m, "angle", where);
    base.length = static_cast<float>(length * scale);
    base.width = static_cast<float>(width * scale);
    // Input preparation on the host: the same floats reach both backends.
    const double radians = angle * 3.14159265358979323846 / 180.0;
    base.cos_angle = static_cast<float>(std::cos(radians));
    base.sin_angle = static_cast<float>(std::sin(radians));
    base.shape = length == width ? BaseShape::Circle : BaseShape::Oval;
    return base;
}

int parse_models(const nlohmann::json& doc, const char* key, double scale, Model* out,
                 int capacity) {
    const std::string where = key;
    if (!doc.contains(key)) throw InputError(where + ": missing");
    const auto& list = doc.at(key);
    if (!list.is_array()) throw InputError(where + ": must be a list of models");
    if (list.empty()) throw InputError(where + ": the list is empty (at least one model)");
    if (static_cast<int>(list.size()) > capacity)
        throw InputError(where + ": " + std::to_string(list.size()) + " models, at most " +
                         std::to_string(capacity) + " supported");
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string w = jf::element(where, i);
        jf::expect_keys(list[i], w, {"x", "y", "base", "angle", "name"});
        Model& m = out[i];
        m.x = static_cast<float>(jf::number(list[i], "x", w) * scale);
        m.y = static_cast<float>(jf::number(list[i], "y", w) * scale);
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
            if (p.base.shape != BaseShape::Circle || q.base.shape != BaseShape::Circle) continue;
            float gap = circle_gap(p.x, p.y, 0.5f * p.base.length, q.x, q.y, 0.5f * q.base.length);
            if (gap < -GapTolerance) {
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
    jf::expect_keys(
        doc, "(top level)",
        {"name", "description", "units", "friendly", "enemy", "reach", "move", "coherency"});
    const std::string units = jf::string(doc, "units", "");
    double scale;
    if (units == "mm")
        scale = 1.0;
    else if (units == "inch")
        scale = 25.4;
    else
        throw InputError("units: must be \"mm\" or \"inch\", got \"" + units + "\"");

    Scenario s;
    s.friendly_count = parse_models(doc, "friendly", scale, s.friendly, MaxFriendly);
    s.enemy_count = parse_models(doc, "enemy", scale, s.enemy, MaxEnemy);
    const double reach = jf::number_or(doc, "reach", "", 0.5 * 25.4 / scale);
    const double move = jf::number_or(doc, "move", "", 3.0 * 25.4 / scale);
    const double coherency = jf::number_or(doc, "coherency", "", 0.5 * 25.4 / scale);
    if (reach < 0) throw InputError("reach: must be >= 0, got " + num(reach));
    if (move <= 0) throw InputError("move: must be > 0, got " + num(move));
    if (coherency < 0) throw InputError("coherency: must be >= 0, got " + num(coherency));
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

ScenarioFile load_scenario(const std::string& path) {
    ScenarioFile f;
    f.path = path;
    f.source = json_fields::read_file(path);
    f.scenario = parse_scenario(f.source, path);
    f.units = f.source.at("units").get<std::string>();
    f.name = f.source.contains("name") && f.source["name"].is_string()
                 ? f.source["name"].get<std::string>()
                 : std::filesystem::path(path).stem().string();
    return f;
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
