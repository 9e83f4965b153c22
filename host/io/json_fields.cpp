#include "host/io/json_fields.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include "host/core/error.hpp"

namespace gaeval::json_fields {

namespace {
std::string type_name(const nlohmann::json& v) { return v.type_name(); }
}  // namespace

nlohmann::json parse_strict(const std::string& text, const std::string& origin) {
    // Keys seen in each open object, to refuse a key given twice (the last would win silently).
    std::vector<std::set<std::string>> open;
    std::string duplicate;
    const auto check = [&](int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using E = nlohmann::json::parse_event_t;
        if (event == E::object_start) open.emplace_back();
        if (event == E::object_end && !open.empty()) open.pop_back();
        if (event == E::key && !open.empty() && duplicate.empty() &&
            !open.back().insert(parsed.get<std::string>()).second)
            duplicate = parsed.get<std::string>();
        return true;
    };
    nlohmann::json value;
    try {
        value = nlohmann::json::parse(text, check);
    } catch (const nlohmann::json::exception& e) {
        std::string msg = e.what();
        auto cut = msg.find("] ");
        throw InputError(
            origin + ": malformed JSON: " + (cut == std::string::npos ? msg : msg.substr(cut + 2)));
    }
    if (!duplicate.empty())
        throw InputError(origin + ": key \"" + duplicate + "\" appears twice in one object");
    return value;
}

nlohmann::json read_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(path + ": is a folder, not a JSON file");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(path + ": cannot open file");
    std::stringstream buffer;
    buffer << in.rdbuf();
    if (!in.good() && !in.eof()) throw InputError(path + ": cannot read file");
    return parse_strict(buffer.str(), path);
}

std::string field(const std::string& where, const char* key) {
    return where.empty() ? std::string(key) : where + "." + key;
}

std::string element(const std::string& where, std::size_t index) {
    return where + "[" + std::to_string(index) + "]";
}

void expect_keys(const nlohmann::json& obj, const std::string& where,
                 std::initializer_list<const char*> allowed) {
    if (!obj.is_object()) throw InputError(where + ": must be an object, got " + type_name(obj));
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        bool known = false;
        for (const char* a : allowed) known = known || it.key() == a;
        if (!known) {
            std::string list;
            for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            throw InputError(field(where, it.key().c_str()) + ": unknown field (expected one of " +
                             list + ")");
        }
    }
}

double as_number(const nlohmann::json& value, const std::string& where) {
    if (!value.is_number()) throw InputError(where + ": must be a number, got " + type_name(value));
    double v = value.get<double>();
    if (!std::isfinite(v)) throw InputError(where + ": must be finite");
    return v;
}

void check_range(double value, const std::string& where, double min, double max,
                 const std::string& unit) {
    if (value >= min && value <= max) return;
    char text[160];
    std::snprintf(text, sizeof text, ": must be in [%g, %g] %s, got %g", min, max, unit.c_str(),
                  value);
    throw InputError(where + text);
}

double number(const nlohmann::json& obj, const char* key, const std::string& where) {
    if (!obj.contains(key)) throw InputError(field(where, key) + ": missing");
    return as_number(obj.at(key), field(where, key));
}

double number_or(const nlohmann::json& obj, const char* key, const std::string& where,
                 double fallback) {
    if (!obj.contains(key)) return fallback;
    return as_number(obj.at(key), field(where, key));
}

std::string string(const nlohmann::json& obj, const char* key, const std::string& where) {
    if (!obj.contains(key)) throw InputError(field(where, key) + ": missing");
    const auto& v = obj.at(key);
    if (!v.is_string())
        throw InputError(field(where, key) + ": must be a string, got " + type_name(v));
    return v.get<std::string>();
}

std::string string_or(const nlohmann::json& obj, const char* key, const std::string& where,
                      const std::string& fallback) {
    if (!obj.contains(key)) return fallback;
    return string(obj, key, where);
}

}  // namespace gaeval::json_fields
