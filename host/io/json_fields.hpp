// Typed access to JSON fields with one-line errors that name the origin, the field and the
// rule broken ("scenario.json: friendly[2].base: must be > 0, got -3"). Used by every loader.
#pragma once

#include <initializer_list>
#include <string>

#include <nlohmann/json.hpp>

namespace gaeval::json_fields {

// Reads and parses a JSON file; malformed JSON, a key given twice in one object, a folder or an
// unreadable file is an InputError naming the file.
nlohmann::json read_file(const std::string& path);
// Parses JSON text with the same checks; `origin` names it in errors.
nlohmann::json parse_strict(const std::string& text, const std::string& origin);

// The object at `where` must have only these keys.
void expect_keys(const nlohmann::json& obj, const std::string& where,
                 std::initializer_list<const char*> allowed);

// A required finite number / an optional one with a default.
double number(const nlohmann::json& obj, const char* key, const std::string& where);
double number_or(const nlohmann::json& obj, const char* key, const std::string& where,
                 double fallback);
std::string string(const nlohmann::json& obj, const char* key, const std::string& where);
std::string string_or(const nlohmann::json& obj, const char* key, const std::string& where,
                      const std::string& fallback);

// A finite number at `where` (the value itself, not a field of it).
double as_number(const nlohmann::json& value, const std::string& where);

// `value` (already read) must lie in [min, max]; otherwise an InputError naming `where` and the
// range in `unit` ("friendly[0].x: must be in [-10000, 10000] mm, got 1e+308").
void check_range(double value, const std::string& where, double min, double max,
                 const std::string& unit);

// "where.key" or "where[i]".
std::string field(const std::string& where, const char* key);
std::string element(const std::string& where, std::size_t index);

}  // namespace gaeval::json_fields
